/**
 * The per-client limits on requests, the last guard before a route: every API request counts
 * against `rateLimit`, and a booking also against `bookingRateLimit`; every page (routes.ts `page`)
 * against `rateLimit` too, in a bucket of its own, so a guest's page views never spend the
 * widget's requests, nor a client that loops on a page (a QR code drawn again and again) go unlimited. Every visitor of every venue
 * shares the proxy's one App ID and its hourly quota, so one noisy client must not spend it for
 * everyone. The app's middleware and the Node entry's sequence (pipeline/sequence.ts) both count through `clientLimit`,
 * each request once.
 */
import type { RefusalReason } from '../core/metrics.js';
import type { RateDecision } from '../state/rate-limit.js';
import { after, type Awaitable, type LimitRule, type ProxyState } from '../state/types.js';

/** The limits of a proxy (from its resolved config). */
export interface ClientLimits {
  rateLimit: LimitRule;
  bookingRateLimit: LimitRule;
}

/** A decision of the client limits, with the policy it was made under (the `RateLimit` field's name). */
export type LimitDecision = RateDecision & { policy: 'requests' | 'bookings' | 'pages' };

/**
 * Counts one request of `client`: against the request limit and, for a booking the request limit
 * let through, against the booking limit. The
 * decision whose headers the answer carries: a refusal is a 429. At once where the state counts
 * locally (see `ProxyState.hit`).
 */
export function clientLimit(
  state: Pick<ProxyState, 'hit'>,
  limits: ClientLimits,
  client: string,
  booking: boolean,
): Awaitable<LimitDecision> {
  return after(state.hit('api', client, limits.rateLimit), (decision) => {
    if (!booking || !decision.allowed) return { ...decision, policy: 'requests' as const };
    return after(state.hit('booking', client, limits.bookingRateLimit), (made) => ({
      ...made,
      policy: 'bookings' as const,
    }));
  });
}

/** Counts one page request of `client`, against the request limit in the pages' own bucket. */
export function pageLimit(
  state: Pick<ProxyState, 'hit'>,
  limits: ClientLimits,
  client: string,
): Awaitable<LimitDecision> {
  return after(state.hit('page', client, limits.rateLimit), (decision) => ({ ...decision, policy: 'pages' as const }));
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
  const requests = `"${decision.policy === 'pages' ? 'pages' : 'requests'}";q=${limits.rateLimit.limit};w=${seconds(limits.rateLimit.windowMs)}`;
  const reset = Math.max(0, Math.ceil((decision.resetAt - now) / 1000));
  return {
    'RateLimit-Policy': booking
      ? `${requests}, "bookings";q=${limits.bookingRateLimit.limit};w=${seconds(limits.bookingRateLimit.windowMs)}`
      : requests,
    RateLimit: `"${decision.policy}";r=${decision.remaining};t=${reset}`,
  };
}

/**
 * The headers of a limit decision (`X-RateLimit-*`, `Retry-After` on a refusal, `RateLimit`,
 * `RateLimit-Policy`): what every API answer carries, refusals included.
 */
export function limitHeaders(
  decision: LimitDecision,
  limits: ClientLimits,
  booking: boolean,
  now: number,
): Record<string, string> {
  return { ...decision.headers, ...quotaFields(decision, limits, booking, now) };
}

/** `limitHeaders` of a request that is no booking, added to `out` (lower-case names and values in turn). */
export function limitHeadersInto(out: string[], decision: LimitDecision, limits: ClientLimits, now: number): void {
  for (const name in decision.headers) out.push(name.toLowerCase(), decision.headers[name]!);
  const quota = quotaFields(decision, limits, false, now);
  out.push('ratelimit-policy', quota['RateLimit-Policy'], 'ratelimit', quota.RateLimit);
}

/** What a client over its limit is told (a 429 in the envelope). */
export const LIMIT_MESSAGE = 'Too many requests: please wait a moment and try again';

/** The reason a refusal of `decision` is counted under (`refusals_total`; a page's as the API's: one limit). */
export function limitReason(decision: LimitDecision): RefusalReason {
  return decision.policy === 'bookings' ? 'booking_rate_limit' : 'rate_limit';
}
