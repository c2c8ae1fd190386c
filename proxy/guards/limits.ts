/**
 * The per-client limits on requests, the last guard before a route: every API request counts
 * against `rateLimit`, and a booking also against `bookingRateLimit`. Every visitor of every venue
 * shares the proxy's one App ID and its hourly quota, so one noisy client must not spend it for
 * everyone. The app's middleware and the Node fast path both count through `clientLimit`.
 */
import type { RateDecision } from '../state/rate-limit.js';
import type { LimitRule, ProxyState } from '../state/types.js';

/** The limits of a proxy (from its resolved config). */
export interface ClientLimits {
  rateLimit: LimitRule;
  bookingRateLimit: LimitRule;
}

/**
 * Key of the host context under which the fast path hands over a rate-limit decision it already
 * counted: the app's limiter uses it instead of counting the request a second time. A symbol, so
 * nothing a client sends can set it.
 */
export const COUNTED = Symbol('venue-booking.counted');

/** A host context that may carry a counted decision. */
export type CountedEnv = { [COUNTED]?: RateDecision };

/**
 * Counts one request of `client`: against the request limit (unless `counted` already holds that
 * decision) and, for a booking the request limit let through, against the booking limit. The
 * decision whose headers the answer carries: a refusal is a 429.
 */
export async function clientLimit(
  state: Pick<ProxyState, 'hit'>,
  limits: ClientLimits,
  client: string,
  booking: boolean,
  counted?: RateDecision,
): Promise<RateDecision> {
  const decision = counted ?? (await state.hit('api', client, limits.rateLimit));
  if (!booking || !decision.allowed) return decision;
  return state.hit('booking', client, limits.bookingRateLimit);
}
