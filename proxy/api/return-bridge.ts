/**
 * The return bridge of the web hand-off. With `return_method=post` the booking site POSTs the
 * guest's details (reference, status, name, email) back instead of putting them in a URL; this
 * route accepts that POST and answers 303 to the venue's configured page with only the reference
 * and the status in the URL, so no personal data lands in browser history, referrers or logs.
 *
 * The widget passes `return_url=<proxy>/api/return?venue=<id>&page=<the page the guest left from>
 * &lang=<its language>`. The target is the venue's configured page (`returnPages`) when there is
 * one, else that `page`, accepted only on an origin the proxy serves (a configured origin, or its
 * own): the bridge is not an open redirect, and operators need not configure anything. The site
 * guard (guards/request.ts) lets only the booking site, our own pages and configured origins post
 * here; a GET return it lets through from anywhere, since it has no effect.
 *
 * A booking site may still come back with a GET (older or other flows ignore `return_method`, and
 * may add the guest's name, email or phone to the query): the guest has booked, often paid, so
 * that return lands too. `GET /api/return` with values answers the same 303 as the POST, with
 * only the reference and the status; everything else in its query is dropped and never logged
 * (the request line logs the path only). Where no target can be worked out (an unknown venue, no
 * allowed page) or the return has no usable reference, the guest gets a readable page in the
 * widget's language with the reference and a link to the venue's page when one is known, never the
 * API's JSON. The bridge only decides that outcome (`ReturnOutcome`); the page that says it
 * (pages/return-page.ts) is handed in by the route table (proxy/routes.ts), since the API never
 * imports a page.
 *
 * `GET /api/return` with no query is a probe: it answers which return methods this proxy offers
 * (`{methods: ['post', 'get']}`), without any upstream call, and gives out nothing that proves a
 * return. The widget, once a hand-off is in sight, asks `GET /api/venues/:venue/handoff` with the
 * booking's details instead (`handOff`): the proxy reads their availability (through the cache, as
 * the widget's own check) and only where that answer hands the guest to the booking site (`next.web`,
 * with a deposit or no `next.api`: what the widget then follows) answers the methods and `handoff`,
 * a signed, expiring hand-off id bound to the venue (api/handoff.ts). The widget asks the booking
 * site for `return_method=post` and puts the id in the return URL.
 *
 * Returns prove themselves: anyone can send a return, so only one that carries a valid hand-off id
 * for its venue counts as a booking (`handed_off`, once per hand-off) and lands with its reference
 * and status. Any other lands on the readable page, which confirms nothing and says that the
 * booking site will confirm by email, and is counted apart (`unproven_return`).
 */
import type { Context } from 'hono';
import { envelopeResponse, ProxyError } from '../core/envelope.js';
import { urlOf } from '../core/url.js';
import type { ProxyContext } from '../context.js';
import { ID_RE } from '../guards/validate.js';
import { checkHandoff, issueHandoff } from './handoff.js';
import { allowedVenue, inputOf } from './input.js';
import { cachedAnswer } from './read-through.js';
import { availabilityRead } from './reads.js';

/**
 * A return that does not land on the venue's page: what the guest must be told, decided here and
 * said by the return page in the guest's language.
 */
export interface ReturnOutcome {
  /** The booking site's reference, when it sent one of its shape. */
  reference: string | null;
  /** The booking site said `complete`. */
  confirmed: boolean;
  /**
   * The return carried no valid hand-off id (api/handoff.ts): anyone could have sent it, so the
   * page shows no reference and confirms nothing; the booking site's email will.
   */
  unproven?: boolean;
  /** The venue's page to offer as a link (on an origin the proxy serves), when one is known. */
  back: URL | null;
  /** The widget's language (`lang` on the return URL), and the browser's `Accept-Language`. */
  lang: string | null;
  acceptLanguage: string | null;
}

/** What tells the guest a `ReturnOutcome`: the return page (pages/return-page.ts), wired in by the route table. */
export type ReturnPage = (outcome: ReturnOutcome) => Response | Promise<Response>;

const REFERENCE_RE = /^[A-Za-z0-9-]{1,40}$/;
const STATUS_RE = /^[a-z_]{1,20}$/;
/** Query keys of a return that the target page must not keep from the page the guest left. */
const RETURN_VALUES = ['reference', 'status', 'first_name', 'last_name', 'email', 'phone', 'dob', 'handoff'];

/** Where the guest goes back: the venue's page, else the widget's `page` on an origin we serve (no open redirect). */
function targetOf(ctx: ProxyContext, request: Request, venue: string | null, page: string | null): URL | null {
  const configured = venue && (ctx.config.returnPages[venue] ?? ctx.config.returnPages['*']);
  if (configured) return new URL(configured.replace('{venue}', venue));
  if (ctx.config.returnBridge === false || !page || page.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(page);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
  // Without a public URL, app.ts answers loopback hosts only, so the request's own origin is ours.
  const own = ctx.config.publicOrigin ?? urlOf(request).origin;
  if (url.origin !== own && !ctx.config.origins.includes(url.origin)) return null;
  for (const name of RETURN_VALUES) url.searchParams.delete(name);
  url.hash = '';
  return url;
}

/** Reads a form or JSON body into strings (other values are ignored). */
async function fields(c: Context): Promise<Record<string, string>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const text = await c.req.text();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  if (type === 'application/json') {
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(body ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    } catch {
      throw new ProxyError(400, 'The request body is not valid JSON');
    }
  }
  throw new ProxyError(415, 'Send the return as a form or as JSON');
}

/** The venue a return names, when this proxy serves it; null otherwise. */
async function servedVenue(ctx: ProxyContext, query: URLSearchParams): Promise<string | null> {
  const venue = query.get('venue') ?? '';
  return ID_RE.test(venue) && (await ctx.venueAllowed(venue)) ? venue : null;
}

/** `target` with the return's reference and status (the status only when there is a valid one). */
function landingOf(target: URL, reference: string, status: string | null): URL {
  const landing = new URL(target);
  landing.searchParams.set('reference', reference);
  if (status) landing.searchParams.set('status', status);
  return landing;
}

/** The 303 that takes the guest back: not stored, and no referrer for the page it lands on. */
const landed = (landing: URL) =>
  new Response(null, {
    status: 303,
    headers: { location: landing.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });

/** A GET return: the POST's 303 when it proves itself and can land, else the page; the rest of its query unread. */
async function getReturn(
  ctx: ProxyContext,
  request: Request,
  query: URLSearchParams,
  page: ReturnPage,
): Promise<Response> {
  const venue = await servedVenue(ctx, query);
  const target = targetOf(ctx, request, venue, query.get('page'));
  const reference = query.get('reference')?.trim() ?? '';
  const status = query.get('status')?.trim() ?? '';
  const validStatus = STATUS_RE.test(status) ? status : null;
  const language = { lang: query.get('lang'), acceptLanguage: request.headers.get('accept-language') };
  const valid = REFERENCE_RE.test(reference);
  // A return without a reference of the booking site's shape is no booking: nothing to prove.
  const proof = valid && (await proven(ctx, query, reference));
  const landing = target && proof ? landingOf(target, reference, validStatus) : null;
  const lands = Boolean(venue && landing);
  ctx.logger.log({
    level: 'info',
    msg: 'booking returned',
    method: 'GET',
    venue,
    status: validStatus,
    landed: lands,
    ...(valid ? { proven: proof } : {}),
  });
  if (!valid) return page({ reference: null, confirmed: false, back: target, ...language });
  if (lands) return landed(landing!);
  return page({
    reference,
    confirmed: validStatus === 'complete',
    unproven: !proof,
    back: landing ?? target,
    ...language,
  });
}

/**
 * Whether a return carries a valid hand-off id for the venue it names, counted once as `handed_off`,
 * else as `unproven_return`. The venue named, not only one served now: a guest who left while the
 * venue was served still comes back proven (and told, where the venue's page is no longer known).
 */
async function proven(ctx: ProxyContext, query: URLSearchParams, reference: string): Promise<boolean> {
  const venue = query.get('venue');
  const check = await checkHandoff(ctx, query.get('handoff'), venue && ID_RE.test(venue) ? venue : null, reference);
  if (check === 'first') ctx.config.metrics.booking('handed_off');
  if (check === 'invalid') ctx.config.metrics.booking('unproven_return');
  return check !== 'invalid';
}

/** A route's answer. */
type Answer = (ctx: ProxyContext, c: Context) => Response | Promise<Response>;

/**
 * The bridge's two routes, telling a return that does not land with `page`: `get` for
 * `GET /api/return` (the widget's probe, or a GET return), `post` for `POST /api/return`.
 */
export function returnBridge(page: ReturnPage): { get: Answer; post: Answer } {
  return { get: (ctx, c) => returnGet(ctx, c, page), post: (ctx, c) => returnPost(ctx, c, page) };
}

/** `GET /api/return`: the widget's probe (no query: which return methods this proxy offers), or a GET return. */
function returnGet(ctx: ProxyContext, c: Context, page: ReturnPage): Response | Promise<Response> {
  const url = urlOf(c.req.raw);
  if (url.search) return getReturn(ctx, c.req.raw, url.searchParams, page);
  noBridge(ctx);
  return envelopeResponse(c.req.raw, 200, { methods: METHODS });
}

/** The return methods the bridge offers. */
const METHODS = ['post', 'get'];

/** Refuses a hand-off or probe where this proxy offers no bridge (the widget then returns by GET). */
function noBridge(ctx: ProxyContext): void {
  if (ctx.config.returnBridge === false) throw new ProxyError(404, 'This proxy offers no return bridge');
}

/** Whether an availability payload sends the guest to the booking site (src/state/booking-flow.ts `submitRoute`). */
function handsOff(payload: unknown): boolean {
  const { next, depositRequired } = (payload ?? {}) as {
    next?: { api?: unknown; web?: unknown };
    depositRequired?: unknown;
  };
  return Boolean(next?.web && (depositRequired || !next.api));
}

/**
 * `GET /api/venues/:venue/handoff` with a booking's details (the availability query): a hand-off id
 * for this venue, only when the availability answer for them hands the guest to the booking site;
 * a 409 otherwise, and the read's own refusal (a 429, the upstream's error) as it is. Never cached.
 */
export async function handOff(ctx: ProxyContext, c: Context): Promise<Response> {
  noBridge(ctx);
  const venue = await allowedVenue(ctx, c);
  const spec = availabilityRead(ctx, venue, await inputOf(c));
  const read = await cachedAnswer(ctx, c, spec);
  if (read.status !== 200) return ctx.send(c, read);
  if (!handsOff((JSON.parse(read.text) as { payload?: unknown }).payload))
    throw new ProxyError(409, 'These details are booked here, not on the booking site: no hand-off', {
      errors: [{ code: 'no_handoff', message: 'This booking is not handed to the booking site', fields: [] }],
    });
  const handoff = await issueHandoff(ctx, venue);
  return envelopeResponse(c.req.raw, 200, { methods: METHODS, handoff }, { 'cache-control': 'no-store' });
}

/** `POST /api/return`: the booking site's return, answered with 303 to the guest's page. */
async function returnPost(ctx: ProxyContext, c: Context, page: ReturnPage): Promise<Response> {
  const query = urlOf(c.req.raw).searchParams;
  const venue = await servedVenue(ctx, query);
  if (!venue)
    throw new ProxyError(404, 'Unknown venue', {
      errors: [{ code: 'unknown_venue', message: 'Unknown venue', fields: ['venue'] }],
    });
  const target = targetOf(ctx, c.req.raw, venue, query.get('page'));
  if (!target)
    throw new ProxyError(404, 'No return page: configure one, or return to a page on an allowed origin', {
      errors: [{ code: 'no_return_page', message: 'No allowed return page', fields: ['page'] }],
    });
  const body = await fields(c);
  const reference = body.reference?.trim() ?? '';
  const status = body.status?.trim() ?? '';
  if (!REFERENCE_RE.test(reference) || !STATUS_RE.test(status)) {
    throw new ProxyError(400, 'The return is missing a valid reference or status', {
      errors: [
        { code: 'invalid_return', message: 'reference and status are required', fields: ['reference', 'status'] },
      ],
    });
  }
  // A booking the widget handed off to the booking site (a deposit, a pre-order), made there; only
  // a return with the proxy's hand-off id lands with its reference and status.
  const proof = await proven(ctx, query, reference);
  ctx.logger.log({
    level: 'info',
    msg: 'booking returned',
    method: 'POST',
    venue,
    status,
    landed: proof,
    proven: proof,
  });
  if (proof) return landed(landingOf(target, reference, status));
  return page({
    reference,
    confirmed: false,
    unproven: true,
    back: target,
    lang: query.get('lang'),
    acceptLanguage: c.req.header('accept-language') ?? null,
  });
}
