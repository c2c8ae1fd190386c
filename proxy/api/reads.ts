/**
 * The read routes a public booking widget needs: availability (GET and POST), booking rules,
 * offers, marketing preferences, public venue settings and the venue list of configured groups.
 * Each validates its input, builds the upstream read from the validated values only (a
 * `ReadSpec`), and reshapes the answer to an allow-list of fields; routes.ts runs the read
 * through the cache (read-through.ts) with the route's tier.
 */
import type { Context } from 'hono';
import { ProxyError, throwIfInvalid } from '../core/envelope.js';
import { ID_RE, readFields, type Rule, type Value } from '../guards/validate.js';
import { BOOKING_URL_SENTINEL } from '../upstream/relay.js';
import { PARTY_SIZE } from '../../src/api/rules.js';
import type { ProxyContext } from '../context.js';
import { allowedVenue, inputOf } from './input.js';
import { dateScope, type ReadSpec } from './read-through.js';

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
 * right needs the Public Suffix List, while the operator simply knows the site (env.ts requires
 * it outside the embedded sandbox).
 */
export function bookingSiteUrl(web: unknown, site: string | null | undefined): string | null {
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
  // GET and POST share one canonical upstream GET, so they share cache entries too.
  return {
    method: 'GET',
    path: `/venues/${venue}/booking-availability`,
    values,
    shape: shapeAvailability(ctx),
    scope: dateScope(venue, values.date),
    tier: final ? 'final' : values.date === undefined ? 'browse' : 'times',
  };
}

/** A read without its tier: the route's table row gives it. */
export type TieredRead = Omit<ReadSpec, 'tier'>;

/** `GET|POST /api/venues/:venue/booking-availability`: the tier follows the query (browse, times, final). */
export async function availability(ctx: ProxyContext, c: Context): Promise<ReadSpec> {
  return availabilityRead(ctx, await allowedVenue(ctx, c), await inputOf(c));
}

/**
 * The availability read of the Node fast path (pipeline/fast-path.ts): only for a configured venue (a venue
 * of a group is the app's to look up); an invalid query throws, and the app answers it.
 */
export function availabilityFastRead(
  ctx: ProxyContext,
  params: Record<string, string>,
  query: Record<string, string>,
): ReadSpec | null {
  const venue = params.venue;
  if (!venue || !ID_RE.test(venue) || !ctx.config.venues.includes(venue)) return null;
  return availabilityRead(ctx, venue, query);
}

/** `GET|POST /api/venues/:venue/booking-rules`. */
export async function bookingRules(ctx: ProxyContext, c: Context): Promise<TieredRead> {
  const venue = await allowedVenue(ctx, c);
  const { values, errors } = readFields(await inputOf(c), RULES);
  throwIfInvalid(errors);
  return bookingRulesRead(venue, values);
}

/** The read of a venue's booking rules for `values` (none: the venue's own), as the widget asks for it. */
export function bookingRulesRead(venue: string, values: Record<string, Value> = {}): TieredRead {
  return {
    method: 'POST',
    path: `/venues/${venue}/booking-rules`,
    values,
    shape: (payload) => pick(payload, RULE_KEYS),
  };
}

/**
 * `GET /api/venues/:venue/offers`. The venue's whole list (no booking details: what the widget
 * reads once and filters by each offer's rules) changes rarely and is shared by every guest:
 * static. Lists filtered by a booking's details are early reads of their date.
 */
export async function offers(ctx: ProxyContext, c: Context): Promise<ReadSpec> {
  const venue = await allowedVenue(ctx, c);
  const { values, errors } = readFields(await inputOf(c), BOOKING_DETAILS);
  throwIfInvalid(errors);
  return {
    method: 'GET',
    path: `/venues/${venue}/offers`,
    values,
    scope: dateScope(venue, values.date),
    tier: Object.keys(values).length === 0 ? 'static' : 'early',
    shape: (payload) => (Array.isArray(payload) ? payload : []),
  };
}

/** `GET /api/venues/:venue/marketing-preferences`. */
export async function marketingPreferences(ctx: ProxyContext, c: Context): Promise<TieredRead> {
  const venue = await allowedVenue(ctx, c);
  throwIfInvalid(readFields(await inputOf(c), {}).errors);
  return {
    method: 'GET',
    path: `/venues/${venue}/marketing-preferences`,
    values: {},
    shape: (payload) => {
      const list = (payload as { marketing_preferences?: unknown } | null)?.marketing_preferences;
      return { marketing_preferences: Array.isArray(list) ? list.map((item) => pick(item, PREFERENCE_KEYS)) : [] };
    },
  };
}

/**
 * `GET /api/venues/:venue`: a venue's names and public settings, which change rarely and every
 * guest shares (what can be booked is always the availability answer's to say).
 */
export async function venueRecord(ctx: ProxyContext, c: Context): Promise<TieredRead> {
  const venue = await allowedVenue(ctx, c);
  const { values, errors } = readFields(await inputOf(c), SETTINGS);
  throwIfInvalid(errors);
  const fields = typeof values.fields === 'string' ? values.fields.split(',') : [...PUBLIC_SETTINGS];
  return venueRecordRead(venue, fields);
}

/**
 * The read of a venue's record with `fields`, as the widget asks for it: the venue-facing pages
 * (the studio, the booking page) read the same, so they share its cached copy.
 */
export function venueRecordRead(venue: string, fields: readonly string[] = PUBLIC_SETTINGS): TieredRead {
  return {
    method: 'GET',
    path: `/venues/${venue}`,
    values: { fields: fields.join(',') },
    // Projected again here: an upstream that ignores `fields` still cannot leak labels or stages.
    shape: (payload) => ({
      venue: pick((payload as { venue?: unknown } | null)?.venue, [...VENUE_IDENTITY, ...fields]),
    }),
  };
}

/** `GET /api/venues?venue_group=`: the venues of a configured group. */
export async function venueList(ctx: ProxyContext, c: Context): Promise<TieredRead> {
  const { values, errors } = readFields(await inputOf(c), VENUE_LIST);
  throwIfInvalid(errors);
  const group = values.venue_group as string;
  if (!ctx.config.venueGroups.includes(group)) {
    throw new ProxyError(404, 'Unknown venue group', {
      errors: [
        { code: 'unknown_venue_group', message: 'This venue group is not available here', fields: ['venue_group'] },
      ],
    });
  }
  return { method: 'GET', path: '/venues', values, shape: shapeVenueList };
}

/** The venue list reduced to `_id`, `path` and `title` of each page. */
export function shapeVenueList(payload: unknown): { pages: Record<string, unknown>[] } {
  const pages = (payload as { pages?: unknown } | null)?.pages;
  return { pages: Array.isArray(pages) ? pages.map((page) => pick(page, ['_id', 'path', 'title'])) : [] };
}
