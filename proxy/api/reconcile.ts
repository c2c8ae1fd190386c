/**
 * Finding a booking upstream that was sent under an Idempotency-Key by an instance lost before it
 * stored the answer (killed between the upstream's answer and the store write, or cut off from
 * the store), or by any instance while the store is away: the `Reconciler` a shared state asks
 * before it would ever book that key again (state/shared-keys.ts).
 *
 * It needs the upstream's booking search, `GET /bookings` (§4.6: deprecated, but working), and
 * the App ID's `read_bookings` capability for the venue. It searches by the venue, the date, the
 * time and the guest's email and phone (when given), reads every page, and compares each result
 * with every detail the request carried: time, party size, type, the guest's names, email, phone
 * and the `partner` source. It adopts one only when exactly one shows them all, no other result
 * may also be it, the request had an email or a phone, and no other Idempotency-Key holds its
 * reference (`claim`). It says "not made" only when every result positively differs on a detail it
 * shows: a result that cannot show a detail (§2.5 lists `booking_id`, not `reference`, and a
 * `type` with a `name` key) may be the booking, and taking it for another would book it twice.
 * Anything else (the search refused, failed or incomplete, several candidates, a result short of
 * a detail, a request with neither email nor phone, a reference another key holds) cannot be told
 * apart, and the guest gets `stored: 'unknown'` with the lookup.
 *
 * The details come from the repeat itself: a repeat only reaches this point with the same
 * details and client as the first request (the key's fingerprint), so the store never keeps them.
 */
import { envelopeText } from '../core/envelope.js';
import { PATHS } from '../paths.js';
import type { Reconciled, Reconciler, SearchReason, StoredAnswer } from '../state/idempotency.js';
import { bookingAnswer } from './booking-answer.js';
import type { ProxyContext } from '../context.js';

/** The fields of a search result the match and the answer need. */
const FIELDS = [
  'reference',
  'status',
  'date',
  'time',
  'num_people',
  'type',
  'first_name',
  'last_name',
  'email',
  'phone',
  'source',
];
/** Results per page of the search. */
const PAGE = 100;
/**
 * Pages read at most: more candidates than this at one venue, date and time (and email or phone)
 * is "cannot tell", never a guess from part of the answer.
 */
const MAX_PAGES = 5;
/** When a guest told `unknown` is asked to send the same booking again. */
const RETRY_AFTER_S = 5;
/** How long a reference stays bound to the Idempotency-Key that holds it: as long as its answer. */
const CLAIM_TTL_MS = 24 * 3_600_000;

const objectOr = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const same = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();
/** Phone numbers compared by their digits (and a leading +), as the search filters them. */
const samePhone = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.replace(/[^\d+]/g, '') === b.replace(/[^\d+]/g, '');

/** What one search result says of a request's booking (`compareResult`). */
export type ResultVerdict = 'match' | 'differs' | 'missing';

/**
 * What one search result says of `body`: `match` (it shows every detail the request carried, the
 * slot, party, type, names, and the email and phone when given, and each is the request's, with
 * the `partner` source when it shows one), `differs` (it shows at least one of them, and that one
 * is not the request's: positively another booking), or `missing` (nothing it shows differs, but it
 * does not show every detail, as a result shaped as §2.5 has only the type's `name`: it may be this
 * booking, so it is never taken for another).
 */
export function compareResult(found: Record<string, unknown>, body: Record<string, unknown>): ResultVerdict {
  const type = objectOr(found.type).id ?? (typeof found.type === 'string' ? found.type : undefined);
  const date = typeof found.date === 'string' && found.date.length >= 10 ? found.date.slice(0, 10) : undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  // Each detail: what the result shows (undefined: it does not) and whether it is the request's.
  const details: [unknown, (shown: unknown) => boolean][] = [
    [text(found.time), (shown) => shown === body.time],
    [date, (shown) => shown === body.date],
    [typeof found.num_people === 'number' ? found.num_people : undefined, (shown) => shown === body.num_people],
    [typeof type === 'string' ? type : undefined, (shown) => shown === body.type],
    [text(found.first_name), (shown) => same(shown, body.first_name)],
    [text(found.last_name), (shown) => same(shown, body.last_name)],
  ];
  if (body.email !== undefined) details.push([text(found.email), (shown) => same(shown, body.email)]);
  if (body.phone !== undefined) details.push([text(found.phone), (shown) => samePhone(shown, body.phone)]);
  // The source: another one shown is another booking; none shown proves nothing either way.
  if (found.source !== undefined && found.source !== null) details.push([found.source, (shown) => shown === 'partner']);
  if (details.some(([shown, isOurs]) => shown !== undefined && !isOurs(shown))) return 'differs';
  return details.some(([shown]) => shown === undefined) ? 'missing' : 'match';
}

/**
 * What a complete search says of `body`: `adopt` the one result that is unambiguously this
 * request's (exactly one `match`, no result that may also be it, a request with an email or a
 * phone: names, a slot and a party are public enough for a namesake, or anyone who knows them, to
 * be handed another guest's booking, and a reference to bind it to its key); `none` only when
 * every result positively differs (none at all included); `unknown` otherwise: a result that
 * cannot show a detail may be the booking, and taking it for "not made" would book it twice.
 */
export function searchVerdict(
  listed: Record<string, unknown>[],
  body: Record<string, unknown>,
): { adopt: Record<string, unknown> } | { none: true } | { unknown: true } {
  const verdicts = listed.map((found) => compareResult(found, body));
  if (verdicts.every((verdict) => verdict === 'differs')) return { none: true };
  const matched = listed.filter((_, index) => verdicts[index] === 'match');
  const reference = matched[0]?.reference;
  const unambiguous =
    matched.length === 1 &&
    !verdicts.includes('missing') &&
    (body.email !== undefined || body.phone !== undefined) &&
    (typeof reference === 'string' || typeof reference === 'number');
  return unambiguous ? { adopt: matched[0]! } : { unknown: true };
}

/**
 * Every booking the search finds for `body`'s slot and contact; `unavailable` when the upstream
 * refuses the search itself (a 4xx, or the App ID without `read_bookings`): it will not answer it
 * later either; null when it failed or found too many.
 */
async function searchAll(
  ctx: ProxyContext,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>[] | 'unavailable' | null> {
  const listed: Record<string, unknown>[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    // Counted like a booking: always let through, never at the cost of one.
    await ctx.budget.take('booking');
    const query = new URLSearchParams({
      venue_id: String(body.venue_id),
      date: String(body.date),
      time: String(body.time),
      fields: FIELDS.join(','),
      start: String(listed.length),
      limit: String(PAGE),
    });
    if (typeof body.email === 'string') query.set('email', body.email);
    if (typeof body.phone === 'string') query.set('phone', body.phone);
    const answer = await ctx.upstream.call('GET', '/bookings', `?${query}`);
    const payload = answer.ok && answer.status < 300 ? objectOr(answer.body.payload) : {};
    if (!Array.isArray(payload.bookings) || typeof payload.numFound !== 'number') {
      ctx.logger.log({
        level: 'warn',
        msg: 'booking search failed: the outcome stays unknown (needs GET /bookings and read_bookings)',
        venue: String(body.venue_id),
        ...(answer.ok ? { upstreamStatus: answer.status } : { fault: answer.kind }),
      });
      const refused = answer.ok ? answer.status >= 400 && answer.status < 500 : answer.kind === 'auth';
      return refused ? 'unavailable' : null;
    }
    listed.push(...payload.bookings.map(objectOr));
    // Complete when every match is read; an empty page before that is a search that moved.
    if (listed.length >= payload.numFound) return listed;
    if (!payload.bookings.length) return null;
  }
  return null;
}

/**
 * Looks for the booking of `body` upstream (`searchVerdict` decides). A booking it would adopt is
 * adopted only when its reference is not held by another Idempotency-Key (a claim in the state,
 * across every instance; while the store is away, none can be told). Counted by why it searched
 * and what it found.
 */
async function findBooking(
  ctx: ProxyContext,
  key: string,
  path: string,
  body: Record<string, unknown>,
  reason: SearchReason,
): Promise<Reconciled> {
  const found = await searchOutcome(ctx, key, path, body, reason);
  ctx.config.metrics.count('booking_searches_total', {
    reason,
    result: 'found' in found ? 'found' : 'none' in found ? 'none' : 'unknown',
  });
  return found;
}

async function searchOutcome(
  ctx: ProxyContext,
  key: string,
  path: string,
  body: Record<string, unknown>,
  reason: SearchReason,
): Promise<Reconciled> {
  const listed = await searchAll(ctx, body);
  if (listed === 'unavailable') return { unknown: true, unavailable: true };
  if (!listed) return { unknown: true };
  const verdict = searchVerdict(listed, body);
  if (!('adopt' in verdict)) return verdict;
  const holder = await ctx.state.claim(`ref:${verdict.adopt.reference}`, key, CLAIM_TTL_MS);
  // While the store is away no claim can be read (nor was one made for a booking made then): the
  // strict match alone decides, as it does for a booking whose claim the store missed.
  const unclaimable = holder === null && reason === 'store_away';
  if (holder !== key && !unclaimable) {
    if (holder !== null)
      ctx.logger.log({ level: 'warn', msg: 'booking found upstream is held by another Idempotency-Key: not adopted' });
    return { unknown: true };
  }
  return { found: foundAnswer(path, verdict.adopt) };
}

/**
 * Binds the reference of a booking made under `key` to it, so that no other key's reconciliation
 * can adopt it (best effort: a store that cannot answer leaves it unclaimed, and a reconciliation
 * then meets the other checks only).
 */
export async function claimReference(ctx: ProxyContext, key: string, answer: StoredAnswer): Promise<void> {
  if (answer.status >= 300) return;
  let reference: unknown;
  try {
    reference = objectOr(objectOr(objectOr(JSON.parse(answer.body)).payload).booking).reference;
  } catch {
    return;
  }
  if (typeof reference === 'string' || typeof reference === 'number')
    await ctx.state.claim(`ref:${reference}`, key, CLAIM_TTL_MS);
}

/** The answer to replay for a booking found by the search, shaped as the create answer is. */
function foundAnswer(path: string, booking: Record<string, unknown>): StoredAnswer {
  // The search says `status`; the create answer's bookingStatus tells a confirmation from an enquiry.
  const bookingStatus = booking.status === 'complete' ? 'confirmed' : 'received';
  return {
    status: 200,
    body: envelopeText(path, 'POST', 200, bookingAnswer({ booking, bookingStatus })),
    headers: {},
    keep: true,
  };
}

/**
 * The answer while the outcome cannot be told: 504 with `stored: 'unknown'`, and the lookup the
 * guest has: the same booking sent again with the same Idempotency-Key is never booked twice, and
 * is answered with the booking's reference once the proxy has found it (it keeps looking).
 */
function unsettledAnswer(path: string, key: string): StoredAnswer {
  const payload = {
    message:
      'The booking may have been made: it could not be confirmed yet. Please try again in a moment; it will not be booked twice.',
    errors: [],
    stored: 'unknown',
    lookup: { method: 'POST', path: PATHS.bookings, idempotency_key: key, retry_after_s: RETRY_AFTER_S },
  };
  return {
    status: 504,
    body: envelopeText(path, 'POST', 504, payload),
    headers: { 'Retry-After': String(RETRY_AFTER_S) },
    keep: true,
    unsettled: true,
  };
}

/** The reconciler of one booking request: its Idempotency-Key, its path and its validated upstream body. */
export function bookingReconciler(
  ctx: ProxyContext,
  key: string,
  path: string,
  body: Record<string, unknown>,
): Reconciler {
  return {
    find: (reason) => findBooking(ctx, key, path, body, reason),
    unsettled: () => unsettledAnswer(path, key),
  };
}
