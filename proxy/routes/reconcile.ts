/**
 * Finding a booking upstream that was sent under an Idempotency-Key by an instance lost before it
 * stored the answer (killed between the upstream's answer and the store write, or cut off from
 * the store): the `Reconciler` a shared state asks before it would ever book that key again
 * (state/shared-keys.ts).
 *
 * It needs the upstream's booking search, `GET /bookings` (§4.6: deprecated, but working), and
 * the App ID's `read_bookings` capability for the venue. It searches by the venue, the date, the
 * time and the guest's email (when given), and keeps only bookings that match every detail the key
 * is bound to: time, party size, type, the guest's names, email and the `partner` source. Exactly
 * one match is the booking, replayed with its reference; none on a complete answer is "not made";
 * anything else (the search refused, failed, or more than one candidate, e.g. a guest who already
 * holds an identical booking) cannot be told apart, and the guest gets `stored: 'unknown'`.
 *
 * The details come from the repeat itself: a repeat only reaches this point with the same
 * details and client as the first request (the key's fingerprint), so the store never keeps them.
 */
import { envelopeText } from '../core/envelope.js';
import { PATHS } from './paths.js';
import type { Reconciled, Reconciler, StoredAnswer } from '../state/idempotency.js';
import { bookingAnswer } from './booking-answer.js';
import type { ProxyContext } from './context.js';

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
  'source',
];
/** Candidates read at most: more than this many at one venue, date and time (and email) is "cannot tell". */
const PAGE = 20;
/** When a guest told `unknown` is asked to send the same booking again. */
const RETRY_AFTER_S = 5;

const objectOr = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const same = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether a search result is the booking of `body` (every detail the key is bound to that the search shows). */
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
    (found.source === undefined || found.source === 'partner')
  );
}

/** Looks for the booking of `body` upstream. */
async function findBooking(ctx: ProxyContext, path: string, body: Record<string, unknown>): Promise<Reconciled> {
  // Counted like a booking: always let through, never at the cost of one.
  await ctx.budget.take('booking');
  const query = new URLSearchParams({
    venue_id: String(body.venue_id),
    date: String(body.date),
    time: String(body.time),
    fields: FIELDS.join(','),
    limit: String(PAGE),
  });
  if (typeof body.email === 'string') query.set('email', body.email);
  const answer = await ctx.upstream.call('GET', '/bookings', `?${query}`);
  const payload = answer.ok && answer.status < 300 ? objectOr(answer.body.payload) : {};
  const listed = Array.isArray(payload.bookings) ? payload.bookings.map(objectOr) : null;
  if (!listed) {
    ctx.logger.log({
      level: 'warn',
      msg: 'booking search failed: the outcome stays unknown (needs GET /bookings and read_bookings)',
      venue: String(body.venue_id),
      ...(answer.ok ? { upstreamStatus: answer.status } : { fault: answer.kind }),
    });
    return { unknown: true };
  }
  const found = listed.filter((booking) => matches(booking, body));
  const complete = typeof payload.numFound === 'number' && payload.numFound <= listed.length;
  if (found.length === 1) return { found: foundAnswer(path, found[0]!) };
  return found.length === 0 && complete ? { none: true } : { unknown: true };
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
  return { find: () => findBooking(ctx, path, body), unsettled: () => unsettledAnswer(path, key) };
}
