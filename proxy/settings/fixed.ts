/**
 * The numbers no operator sets, beside the registry because its rows and the config read them: the
 * windows an operator's counts are per, the booking limit and the body limit.
 */

/** The windows of the per-client limits: what an operator sets is a count per window. */
export const WINDOWS = {
  /** `VENUE_BOOKING_RATE_LIMIT` counts requests per minute. */
  rateMs: 60_000,
  /** Bookings per client: 20 per 10 minutes (not an operator setting). */
  bookingMs: 600_000,
  /** `VENUE_BOOKING_MISS_LIMIT` counts cache misses per 10 minutes. */
  missMs: 600_000,
} as const;

/** Bookings a client may attempt per `WINDOWS.bookingMs`. */
export const BOOKINGS_PER_WINDOW = 20;

/** The largest request body accepted, in bytes (not an operator setting). */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** How long the venue list of a configured group is trusted, and kept through outages (context.ts). */
export const GROUP_LIST_TTL = { ttlMs: 300_000, staleMs: 3_600_000 } as const;

/**
 * The venue's webhook (api/webhook.ts): how long one delivery attempt may take, and the waits
 * before each retry (3 attempts in all). Every attempt and wait fits in a Worker's 30 s of
 * `waitUntil` after the answer: 3 × 5 s + 2 s + 8 s = 25 s at worst.
 */
export const WEBHOOK = { timeoutMs: 5_000, retryDelaysMs: [2_000, 8_000] } as const;
