/**
 * Finding a booking upstream that was sent under an Idempotency-Key by an instance lost before it
 * stored the answer (killed between the upstream's answer and the store write, or cut off from
 * the store): the `Reconciler` a shared state asks before it would ever book that key again
 * (state/shared-keys.ts).
 *
 * It needs the upstream's booking search, `GET /bookings` (§4.6: deprecated, but working), and
 * the App ID's `read_bookings` capability for the venue. It searches by the venue, the date, the
 * time and the guest's email and phone (when given), reads every page, and keeps only bookings
 * that match every detail the request carried: time, party size, type, the guest's names, email,
 * phone and the `partner` source. It adopts one only when exactly one matches, the request had an
 * email or a phone, and no other Idempotency-Key holds its reference (`claim`); none on a complete
 * answer is "not made"; anything else (the search refused, failed or incomplete, several
 * candidates, a request with neither email nor phone, a reference another key holds) cannot be
 * told apart, and the guest gets `stored: 'unknown'` with the lookup.
 *
 * The details come from the repeat itself: a repeat only reaches this point with the same
 * details and client as the first request (the key's fingerprint), so the store never keeps them.
 */
import { envelopeText } from '../core/envelope.js';
import { PATHS } from '../paths.js';
import type { Reconciled, Reconciler, StoredAnswer } from '../state/idempotency.js';
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

/**
 * Whether a search result is the booking of `body`: every detail the request carried (the slot,
 * party, type, names, and the email and phone when given) and the `partner` source. A detail the
 * request carried that the search does not show is a mismatch, never a pass.
 */
function matches(found: Record<string, unknown>, body: Record<string, unknown>): boolean {
  const type = objectOr(found.type).id ?? found.type;
  return (
    found.time === body.time &&
    typeof found.date === 'string' &&
    found.date.slice(0, 10) === body.date &&
    found.num_people === body.num_people &&
    type === body.type &&
    same(found.first_name, body.first_name) &&
    same(found.last_name, body.last_name) &&
    (body.email === undefined || same(found.email, body.email)) &&
    (body.phone === undefined || samePhone(found.phone, body.phone)) &&
    (found.source === undefined || found.source === 'partner')
  );
}

/** Every booking the search finds for `body`'s slot and contact (null: refused, failed, or too many). */
async function searchAll(ctx: ProxyContext, body: Record<string, unknown>): Promise<Record<string, unknown>[] | null> {
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
      return null;
    }
    listed.push(...payload.bookings.map(objectOr));
    // Complete when every match is read; an empty page before that is a search that moved.
    if (listed.length >= payload.numFound) return listed;
    if (!payload.bookings.length) return null;
  }
  return null;
}

/**
 * Looks for the booking of `body` upstream. It adopts one only when it is unambiguously this
 * request's: the request carried an email or a phone (names, a slot and a party are public enough
 * for a namesake, or anyone who knows them, to be handed another guest's booking), the search was
 * complete, exactly one booking matches every detail, and its reference is not held by another
 * Idempotency-Key (a claim in the state, across every instance).
 */
async function findBooking(
  ctx: ProxyContext,
  key: string,
  path: string,
  body: Record<string, unknown>,
): Promise<Reconciled> {
  const listed = await searchAll(ctx, body);
  if (!listed) return { unknown: true };
  const found = listed.filter((booking) => matches(booking, body));
  if (found.length === 0) return { none: true };
  if (found.length > 1 || (body.email === undefined && body.phone === undefined)) return { unknown: true };
  const reference = found[0]!.reference;
  if (typeof reference !== 'string' && typeof reference !== 'number') return { unknown: true };
  const holder = await ctx.state.claim(`ref:${reference}`, key, CLAIM_TTL_MS);
  if (holder !== key) {
    if (holder !== null)
      ctx.logger.log({ level: 'warn', msg: 'booking found upstream is held by another Idempotency-Key: not adopted' });
    return { unknown: true };
  }
  return { found: foundAnswer(path, found[0]!) };
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
  return { find: () => findBooking(ctx, key, path, body), unsettled: () => unsettledAnswer(path, key) };
}
