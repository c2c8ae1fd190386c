/**
 * The per-client limits on requests, the last guard before a route: every API request counts
 * against `rateLimit`, and a booking also against `bookingRateLimit`. Every visitor of every venue
 * shares the proxy's one App ID and its hourly quota, so one noisy client must not spend it for
 * everyone. The app's middleware and the Node fast path both count through `clientLimit`.
 */
import type { RateDecision } from '../state/rate-limit.js';
import { after, type Awaitable, type LimitRule, type ProxyState } from '../state/types.js';

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

/** A decision of the client limits, with the policy it was made under (the `RateLimit` field's name). */
export type LimitDecision = RateDecision & { policy: 'requests' | 'bookings' };

/**
 * Counts one request of `client`: against the request limit (unless `counted` already holds that
 * decision) and, for a booking the request limit let through, against the booking limit. The
 * decision whose headers the answer carries: a refusal is a 429. At once where the state counts
 * locally (see `ProxyState.hit`).
 */
export function clientLimit(
  state: Pick<ProxyState, 'hit'>,
  limits: ClientLimits,
  client: string,
  booking: boolean,
  counted?: RateDecision,
): Awaitable<LimitDecision> {
  return after(counted ?? state.hit('api', client, limits.rateLimit), (decision) => {
    if (!booking || !decision.allowed) return { ...decision, policy: 'requests' as const };
    return after(state.hit('booking', client, limits.bookingRateLimit), (made) => ({
      ...made,
      policy: 'bookings' as const,
    }));
  });
}

const seconds = (ms: number) => Math.max(1, Math.round(ms / 1000));

/**
 * The client's own quota in the IETF draft's fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy` names the limits that apply (requests per minute, and bookings per ten minutes
 * on a booking), `RateLimit` what is left of the one that decided, and when its window resets.
 * Beside the `X-RateLimit-*` headers, which the widget and older clients read.
 */
export function quotaFields(
  decision: LimitDecision,
  limits: ClientLimits,
  booking: boolean,
  now: number,
): { 'RateLimit-Policy': string; RateLimit: string } {
  const requests = `"requests";q=${limits.rateLimit.limit};w=${seconds(limits.rateLimit.windowMs)}`;
  const reset = Math.max(0, Math.ceil((decision.resetAt - now) / 1000));
  return {
    'RateLimit-Policy': booking
      ? `${requests}, "bookings";q=${limits.bookingRateLimit.limit};w=${seconds(limits.bookingRateLimit.windowMs)}`
      : requests,
    RateLimit: `"${decision.policy}";r=${decision.remaining};t=${reset}`,
  };
}
