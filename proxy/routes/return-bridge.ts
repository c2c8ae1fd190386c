/**
 * The return bridge of the web hand-off. With `return_method=post` the booking site POSTs the
 * guest's details (reference, status, name, email) back instead of putting them in a URL; this
 * route accepts that POST and answers 303 to the venue's configured page with only the reference
 * and the status in the URL, so no personal data lands in browser history, referrers or logs.
 *
 * The widget passes `return_url=<proxy>/api/return?venue=<id>&page=<the page the guest left from>`.
 * The target is the venue's configured page (`returnPages`) when there is one, else that `page`,
 * accepted only on an origin the proxy serves (a configured origin, or its own): the bridge is not
 * an open redirect, and operators need not configure anything. The site guard (guards/request.ts) lets only
 * the booking site, our own pages and configured origins post here.
 *
 * `GET /api/return` (no query) is the widget's probe: it answers which return methods this proxy
 * offers (`{methods: ['post', 'get']}`), without any upstream call; the widget then asks the
 * booking site for `return_method=post`. A GET carrying values (a GET return) is refused.
 */
import type { Context } from 'hono';
import { envelopeResponse, ProxyError } from '../core/envelope.js';
import { urlOf } from '../core/url.js';
import { ID_RE } from '../guards/validate.js';
import type { ProxyContext } from './context.js';

const REFERENCE_RE = /^[A-Za-z0-9-]{1,40}$/;
const STATUS_RE = /^[a-z_]{1,20}$/;
/** Query keys of a return that the target page must not keep from the page the guest left. */
const RETURN_VALUES = ['reference', 'status', 'first_name', 'last_name', 'email', 'phone', 'dob'];

/**
 * The page to send the guest back to: the venue's configured page, else the `page` the widget
 * named, when it is an http(s) URL on an origin this proxy serves; otherwise null.
 */
function targetOf(ctx: ProxyContext, request: Request, venue: string, page: string | null): URL | null {
  const configured = ctx.config.returnPages?.[venue] ?? ctx.config.returnPages?.['*'];
  if (configured) return new URL(configured.replace('{venue}', venue));
  if (ctx.config.returnBridge === false || !page || page.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(page);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
  // Without a public URL, the host guard answers loopback hosts only, so the request's own origin is ours.
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

/** `GET /api/return`, the widget's probe: which return methods this proxy offers. */
export function returnProbe(ctx: ProxyContext, c: Context): Response {
  if (urlOf(c.req.raw).search)
    throw new ProxyError(400, 'The return bridge takes the booking site’s POST; use return_method=post', {
      errors: [{ code: 'post_only', message: 'Send the return as a POST', fields: [] }],
    });
  if (ctx.config.returnBridge === false) throw new ProxyError(404, 'This proxy offers no return bridge');
  return envelopeResponse(c.req.raw, 200, { methods: ['post', 'get'] }, { 'cache-control': 'public, max-age=3600' });
}

/** `POST /api/return`: the booking site's return, answered with 303 to the guest's page. */
export async function returnBridge(ctx: ProxyContext, c: Context): Promise<Response> {
  const query = urlOf(c.req.raw).searchParams;
  const venue = query.get('venue') ?? '';
  if (!ID_RE.test(venue) || !(await ctx.venueAllowed(venue)))
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
  target.searchParams.set('reference', reference);
  target.searchParams.set('status', status);
  ctx.logger.log({ level: 'info', msg: 'booking returned', venue, status });
  // A booking the widget handed off to the booking site (a deposit, a pre-order), made there.
  ctx.config.metrics.booking('handed_off');
  return new Response(null, {
    status: 303,
    headers: { location: target.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}
