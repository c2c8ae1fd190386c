/**
 * The read routes a public booking widget needs: availability (GET and POST), booking rules,
 * offers, marketing preferences, public venue settings and the venue list of configured groups.
 * Each validates its input, builds the upstream request from the validated values only, shares
 * identical reads through the cache, and reshapes the answer to an allow-list of fields. A cache
 * miss spends the shared upstream quota only within the client's miss limit and the budget's share
 * for its kind (budget.ts).
 */
import type { Context, Hono } from 'hono';
import { envelopeText, ProxyError, throwIfInvalid } from '../core/envelope.js';
import type { Spend } from '../guards/budget.js';
import { DEFAULTS, type ProxyContext } from './context.js';
import { BOOKING_URL_SENTINEL, faultRelay, type Relayed } from '../upstream/relay.js';
import type { Loaded } from '../state/types.js';
import { guestError } from '../upstream/errors.js';
import { urlOf } from '../core/url.js';
import { PARTY_SIZE } from '../../src/api/rules.js';
import { canonicalQuery, ID_RE, queryParams, readFields, type Rule, type Value } from '../guards/validate.js';

/** Venue settings a public widget may read (§2.10): never labels, stages or anything about customers. */
export const PUBLIC_SETTINGS = [
  'booking_types',
  'opening_times',
  'booking_unavailable',
  'packages',
  'preorder_menus',
] as const;
const VENUE_IDENTITY = ['_id', 'path', 'title', 'venue_group'];
const RULE_KEYS = [
  'bookings_from',
  'bookings_to',
  'booking_available',
  'booking_notes',
  'max_duration',
  'min_people',
  'max_people',
  'bookings_shut',
];
const PREFERENCE_KEYS = ['id', 'name', 'description', 'created_date'];
const BOOKING_FIELDS = ['type', 'date', 'time', 'duration', 'num_people'] as const;
/** An availability read with all of these is the final check before submit. */
const FINAL_CHECK = ['type', 'date', 'time', 'num_people', 'duration'] as const;

const BOOKING_DETAILS: Record<string, Rule> = {
  type: { kind: 'id' },
  date: { kind: 'date' },
  time: { kind: 'time' },
  duration: { kind: 'duration' },
  num_people: { kind: 'int', ...PARTY_SIZE },
};
const AVAILABILITY: Record<string, Rule> = {
  ...BOOKING_DETAILS,
  getOffers: { kind: 'bool' },
  fields: { kind: 'choice', choices: BOOKING_FIELDS, list: true },
};
const RULES: Record<string, Rule> = { type: { kind: 'id', required: true }, date: { kind: 'date', required: true } };
const SETTINGS: Record<string, Rule> = { fields: { kind: 'choice', choices: PUBLIC_SETTINGS, list: true } };
const VENUE_LIST: Record<string, Rule> = { venue_group: { kind: 'id', required: true } };

const pick = (value: unknown, keys: readonly string[]) => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    keys.filter((key) => key in value).map((key) => [key, (value as Record<string, unknown>)[key]]),
  );
};

/**
 * The URL to pass on as `next.web`, or null: only a URL under the configured booking site (no open
 * redirect), as the parser read it (`url.href`, so the browser follows exactly what was checked).
 * With no booking site configured nothing passes: a guess at the upstream's registrable domain let
 * `evil-app.herokuapp.com`, `evil.github.io` and neighbouring IP addresses through, and doing it
 * right needs the Public Suffix List, while the operator simply knows the site (config.ts requires
 * it outside the embedded sandbox).
 */
export function bookingSiteUrl(web: unknown, site: string | undefined): string | null {
  if (typeof web !== 'string' || !site) return null;
  let url: URL;
  let base: URL;
  try {
    url = new URL(web);
    base = new URL(site);
  } catch {
    return null;
  }
  if (url.username || url.password || url.origin !== base.origin) return null;
  const prefix = base.pathname.replace(/\/+$/, '');
  return url.pathname === prefix || url.pathname.startsWith(`${prefix}/`) ? url.href : null;
}

/**
 * Reads the request's parameters: the query, plus on POST a JSON object body. The spec posts
 * booking rules with URL parameters, and the live service takes `fields=` in the query beside a
 * JSON body, so a POST may use both, but each parameter only once.
 */
export async function inputOf(c: Context): Promise<Record<string, unknown>> {
  const url = urlOf(c.req.raw);
  const query = queryParams(url);
  throwIfInvalid(query.errors);
  if (c.req.method !== 'POST' || (await c.req.text()) === '') return query.raw;
  const body = await jsonBody(c);
  const twice = Object.keys(body).filter((key) => key in query.raw);
  if (twice.length) {
    throw new ProxyError(400, 'Send each parameter once, in the query or in the body', {
      errors: twice.map((field) => ({
        code: 'duplicate_parameter',
        message: `${field} is both in the query and in the body`,
        fields: [field],
      })),
    });
  }
  return { ...query.raw, ...body };
}

/** Parses a JSON object body; anything else is a 415 or a 400. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    throw new ProxyError(415, 'Send the details as JSON (Content-Type: application/json)');
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new ProxyError(400, 'The request body is not valid JSON', {
      errors: [{ code: 'invalid_json', message: 'The request body is not valid JSON', fields: [] }],
    });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ProxyError(400, 'The request body must be a JSON object', {
      errors: [{ code: 'invalid_body', message: 'The request body must be a JSON object', fields: [] }],
    });
  }
  return body as Record<string, unknown>;
}

/** The venue id of the path, refused unless the widget may use it. */
export async function allowedVenue(ctx: ProxyContext, c: Context): Promise<string> {
  const venue = c.req.param('venue') ?? '';
  if (!ID_RE.test(venue))
    throw new ProxyError(400, 'The venue id is not valid', {
      errors: [{ code: 'invalid_venue_id', message: 'The venue id is not valid', fields: ['venue_id'] }],
    });
  if (!(await ctx.venueAllowed(venue)))
    throw new ProxyError(404, 'Unknown venue', {
      errors: [{ code: 'unknown_venue', message: 'This venue is not available here', fields: ['venue_id'] }],
    });
  return venue;
}

/** One cached, coalesced upstream read. */
export interface ReadSpec {
  method: 'GET' | 'POST';
  /** Upstream path (relative to `/v4`), built from validated ids only. */
  path: string;
  values: Record<string, Value>;
  /** Reshapes a 2xx payload to what the widget may see. */
  shape: (payload: unknown) => unknown;
  /** A final check (complete availability before submit) or an early step (default), for the budget. */
  spend?: Exclude<Spend, 'booking'>;
  /** How long the answer is fresh (default the cache TTL). */
  ttlMs?: number;
  /** Past its TTL, serve the stale copy at once and refresh it in the background (stale-while-revalidate). */
  revalidate?: boolean;
  /**
   * The venue's date the read is about (`venue:date`): its cached copies are retired when a final
   * check for it refuses the time; a final check's copies also when a booking for that date is
   * made here (`bookedScope`).
   */
  scope?: string;
}

/** The scope of a venue's date, for `ReadSpec.scope` (none without a date). */
export function dateScope(venue: string, date: Value | undefined): string | undefined {
  return typeof date === 'string' ? `${venue}:${date}` : undefined;
}

/**
 * The scope a booking made here retires: the date's final checks. `POST /bookings` skips the
 * availability check, so a check answered before a booking must not vouch for the slot after it.
 * The date's early reads outlive it: one booking seldom closes a slot, the next guest's final
 * check is fresh, and its refusal retires them (retiring them on every booking cost about one
 * more upstream call per booking).
 */
export function bookedScope(scope: string): string {
  return `${scope}:booked`;
}

/** Whether an availability answer says the chosen time cannot be booked. */
function timeRefused(payload: unknown): boolean {
  const validation = (payload as { validation?: { time?: { valid?: unknown } } } | null)?.validation;
  return validation?.time?.valid === false;
}

const retryAfter = (seconds: number) => ({ 'Retry-After': String(Math.max(1, Math.min(3600, Math.ceil(seconds)))) });

/** A read refused to spare the upstream: 429 with `Retry-After`, in the service's envelope. */
function spared(retryAfterS: number, code: string, message: string): ProxyError {
  return new ProxyError(429, 'The booking service is busy. Please try again shortly.', {
    headers: retryAfter(retryAfterS),
    errors: [{ code, message, fields: [] }],
  });
}

/**
 * What a read needs of the request it answers: the route's app (a Hono context) or the Node
 * entry's fast path (fast-path.ts) provide it, so both run the very same read.
 */
export interface ReadCall<T> {
  /** The request's path, for the envelope. */
  path: string;
  method: string;
  /** The client key, for the per-client miss limit. */
  client(): string;
  /** Keeps a background refresh alive after the answer (a Worker's `waitUntil`; elsewhere it runs on). */
  waitUntil(promise: Promise<unknown>): void;
  /** Sends a relayed answer. */
  send(relayed: Relayed, headers: Record<string, string>): T;
}

/** The read call of a route's Hono context. */
function honoCall(ctx: ProxyContext, c: Context): ReadCall<Response> {
  return {
    path: urlOf(c.req.raw).pathname,
    method: c.req.method,
    client: () => ctx.clientOf(c),
    waitUntil(promise) {
      try {
        c.executionCtx.waitUntil(promise);
      } catch {
        // Not a Worker: the refresh simply runs on.
      }
    },
    send: (relayed, headers) => ctx.send(c, relayed, headers),
  };
}

/** `readThrough` for a route of the app. */
export function cachedRead(ctx: ProxyContext, c: Context, spec: ReadSpec): Promise<Response> {
  return readThrough(ctx, honoCall(ctx, c), spec);
}

/**
 * Runs a read through the cache. A miss spends the upstream budget only within the client's miss
 * limit and the budget's share for its kind; early steps are never sent upstream when the
 * upstream reports few calls left. Where a read is spared, a stale copy is served if there is one
 * (never for a final check: its answer decides whether a slot is offered), else a 429.
 */
export async function readThrough<T>(ctx: ProxyContext, call: ReadCall<T>, spec: ReadSpec): Promise<T> {
  const ourPath = call.path;
  const search = canonicalQuery(spec.values);
  const spend = spec.spend ?? 'early';
  const scopes = !spec.scope ? [] : spend === 'final' ? [spec.scope, bookedScope(spec.scope)] : [spec.scope];
  const generation = (await Promise.all(scopes.map((scope) => ctx.state.generation(scope)))).map((g) => `#${g}`);
  const key = `${spec.method} ${spec.path}${search}${generation.join('')}`;
  const fresh = await ctx.state.peekRead(key, false);
  if (fresh) return call.send(fresh.value, { 'X-Cache': fresh.source });
  const stale = async () => (spend === 'early' ? ctx.state.peekRead(key, true) : undefined);
  const spare = async (error: ProxyError) => {
    const kept = await stale();
    if (kept) return call.send(kept.value, { 'X-Cache': 'STALE' });
    throw error;
  };
  await ctx.upstream.sync();
  if (spend === 'early' && ctx.upstream.frugal())
    return spare(
      spared(ctx.upstream.windowLeftS(), 'upstream_spared', 'Few upstream calls are left; they are kept for bookings'),
    );
  const client = await ctx.state.hit(
    spend === 'early' ? 'miss' : 'miss-final',
    call.client(),
    ctx.budget.settings.missLimit,
  );
  if (!client.allowed)
    return spare(spared(Number(client.headers['Retry-After']), 'miss_limit', 'Too many new searches from this client'));
  const load = async (): Promise<Loaded> => {
    const budget = await ctx.budget.take(spend);
    if (!budget.allowed) {
      const refusal = spared(budget.retryAfterS, 'upstream_budget', 'The upstream budget for searches is spent');
      const payload = { message: refusal.message, errors: refusal.options.errors };
      return {
        value: {
          status: 429,
          text: envelopeText(ourPath, call.method, 429, payload),
          headers: retryAfter(budget.retryAfterS),
        },
        cache: false,
      };
    }
    const answer = await ctx.upstream.call(spec.method, spec.path, search);
    if (!answer.ok) return { value: faultRelay(ourPath, call.method, answer), cache: false };
    const payload = answer.body.payload;
    // A fresh final check that refuses the time retires the date's early copies, so none of them
    // goes on offering the slot.
    if (spend === 'final' && spec.scope && answer.status < 300 && timeRefused(payload))
      await ctx.state.bump(spec.scope);
    const relayed: Relayed =
      answer.status < 300
        ? { status: answer.status, text: envelopeText(ourPath, call.method, answer.status, spec.shape(payload)) }
        : {
            status: answer.status,
            text: envelopeText(
              ourPath,
              call.method,
              answer.status,
              guestError(payload, 'The booking service refused the request', ctx.logger, {
                route: `${spec.method} ${spec.path}`,
                status: answer.status,
              }),
            ),
          };
    return { value: relayed, cache: true, ttlMs: spec.ttlMs };
  };
  if (spec.revalidate) {
    const kept = await stale();
    if (kept) {
      // Stale-while-revalidate: this reader gets the stale copy at once, the next a fresh one.
      call.waitUntil(ctx.state.read(key, load).catch(() => undefined));
      return call.send(kept.value, { 'X-Cache': 'STALE' });
    }
  }
  const { value, source } = await ctx.state.read(key, load);
  if (value.status >= 500 || value.status === 429) {
    const kept = await stale();
    if (kept) return call.send(kept.value, { 'X-Cache': 'STALE' });
  }
  return call.send(value, { 'X-Cache': source });
}

/** Availability answers with `next.api` pointing at the proxy and `next.web` only to the booking site. */
function shapeAvailability(ctx: ProxyContext) {
  return (payload: unknown) => {
    if (!payload || typeof payload !== 'object') return payload;
    const result = { ...(payload as Record<string, unknown>) };
    const next = result.next as { api?: unknown; web?: unknown } | null | undefined;
    if (next && typeof next === 'object') {
      const safe: Record<string, string> = {};
      if (next.api) safe.api = BOOKING_URL_SENTINEL;
      const web = bookingSiteUrl(next.web, ctx.config.bookingSite);
      if (web) safe.web = web;
      else if (next.web) ctx.logger.log({ level: 'warn', msg: 'next.web dropped: not on the configured booking site' });
      result.next = safe;
    }
    return result;
  };
}

/** The availability read of an allowed venue with these parameters; throws a 400 when they are not valid. */
export function availabilityRead(ctx: ProxyContext, venue: string, input: Record<string, unknown>): ReadSpec {
  const { values, errors } = readFields(input, AVAILABILITY);
  throwIfInvalid(errors);
  // The complete check before submit is a final check: kept fresh, and paid from the reserve.
  // Early steps are shared and served stale while one call refreshes them: the type list and the
  // calendar (no date) longest, the times of a date for a minute. What they offer is checked
  // again by the fresh final check, and a refusal there retires the date's copies.
  const final = FINAL_CHECK.every((field) => values[field] !== undefined);
  const early = values.date === undefined ? (ctx.config.browseTtlMs ?? DEFAULTS.browseTtlMs) : undefined;
  // GET and POST share one canonical upstream GET, so they share cache entries too.
  return {
    method: 'GET',
    path: `/venues/${venue}/booking-availability`,
    values,
    shape: shapeAvailability(ctx),
    scope: dateScope(venue, values.date),
    ...(final
      ? { spend: 'final', ttlMs: ctx.config.finalTtlMs ?? DEFAULTS.finalTtlMs }
      : { ttlMs: early, revalidate: true }),
  };
}

/** Registers every read route on `app`. */
export function registerReads(app: Hono, ctx: ProxyContext): void {
  const availability = async (c: Context) =>
    cachedRead(ctx, c, availabilityRead(ctx, await allowedVenue(ctx, c), await inputOf(c)));
  app.get('/api/venues/:venue/booking-availability', availability);
  app.post('/api/venues/:venue/booking-availability', availability);

  const rules = async (c: Context) => {
    const venue = await allowedVenue(ctx, c);
    const { values, errors } = readFields(await inputOf(c), RULES);
    throwIfInvalid(errors);
    return cachedRead(ctx, c, {
      method: 'POST',
      path: `/venues/${venue}/booking-rules`,
      values,
      shape: (payload) => pick(payload, RULE_KEYS),
    });
  };
  app.get('/api/venues/:venue/booking-rules', rules);
  app.post('/api/venues/:venue/booking-rules', rules);

  app.get('/api/venues/:venue/offers', async (c) => {
    const venue = await allowedVenue(ctx, c);
    const { values, errors } = readFields(await inputOf(c), BOOKING_DETAILS);
    throwIfInvalid(errors);
    // The venue's whole list (no booking details: what the widget reads once and filters by each
    // offer's rules) changes rarely and is shared by every guest: an hour, refreshed in the
    // background. Lists filtered by a booking's details are early reads of their date.
    const whole = Object.keys(values).length === 0;
    return cachedRead(ctx, c, {
      method: 'GET',
      path: `/venues/${venue}/offers`,
      values,
      scope: dateScope(venue, values.date),
      ...(whole ? { ttlMs: ctx.config.staticTtlMs ?? DEFAULTS.staticTtlMs, revalidate: true } : {}),
      shape: (payload) => (Array.isArray(payload) ? payload : []),
    });
  });

  app.get('/api/venues/:venue/marketing-preferences', async (c) => {
    const venue = await allowedVenue(ctx, c);
    throwIfInvalid(readFields(await inputOf(c), {}).errors);
    return cachedRead(ctx, c, {
      method: 'GET',
      path: `/venues/${venue}/marketing-preferences`,
      values: {},
      ttlMs: ctx.config.staticTtlMs ?? DEFAULTS.staticTtlMs,
      revalidate: true,
      shape: (payload) => {
        const list = (payload as { marketing_preferences?: unknown } | null)?.marketing_preferences;
        return { marketing_preferences: Array.isArray(list) ? list.map((item) => pick(item, PREFERENCE_KEYS)) : [] };
      },
    });
  });

  app.get('/api/venues/:venue', async (c) => {
    const venue = await allowedVenue(ctx, c);
    const { values, errors } = readFields(await inputOf(c), SETTINGS);
    throwIfInvalid(errors);
    const fields = typeof values.fields === 'string' ? values.fields.split(',') : [...PUBLIC_SETTINGS];
    return cachedRead(ctx, c, {
      method: 'GET',
      path: `/venues/${venue}`,
      values: { fields: fields.join(',') },
      // A venue's names and settings change rarely and every guest shares them: an hour, refreshed
      // in the background (what can be booked is always the availability answer's to say).
      ttlMs: ctx.config.staticTtlMs ?? DEFAULTS.staticTtlMs,
      revalidate: true,
      // Projected again here: an upstream that ignores `fields` still cannot leak labels or stages.
      shape: (payload) => ({
        venue: pick((payload as { venue?: unknown } | null)?.venue, [...VENUE_IDENTITY, ...fields]),
      }),
    });
  });

  app.get('/api/venues', async (c) => {
    const { values, errors } = readFields(await inputOf(c), VENUE_LIST);
    throwIfInvalid(errors);
    const group = values.venue_group as string;
    if (!(ctx.config.venueGroups ?? []).includes(group)) {
      throw new ProxyError(404, 'Unknown venue group', {
        errors: [
          { code: 'unknown_venue_group', message: 'This venue group is not available here', fields: ['venue_group'] },
        ],
      });
    }
    return cachedRead(ctx, c, {
      method: 'GET',
      path: '/venues',
      values,
      shape: shapeVenueList,
      ttlMs: ctx.config.staticTtlMs ?? DEFAULTS.staticTtlMs,
      revalidate: true,
    });
  });
}

/** The venue list reduced to `_id`, `path` and `title` of each page. */
export function shapeVenueList(payload: unknown): { pages: Record<string, unknown>[] } {
  const pages = (payload as { pages?: unknown } | null)?.pages;
  return { pages: Array.isArray(pages) ? pages.map((page) => pick(page, ['_id', 'path', 'title'])) : [] };
}
