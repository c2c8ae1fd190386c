/**
 * Per-client rate limiting: fixed windows per client key. Every visitor of every venue shares the
 * proxy's one App ID and its hourly quota, so one noisy client must not spend it for everyone.
 *
 * This is the in-process limiter of the memory state (state/memory.ts), and what the shared states
 * count on while their store is away.
 */

/** Options of a limiter. */
export interface RateLimitOptions {
  /** Requests allowed per window per client. */
  limit: number;
  windowMs: number;
  now: () => number;
  /** Bound on tracked clients; the oldest windows are dropped first. */
  maxClients?: number;
}

/** The decision for one request, with the values of the `X-RateLimit-*` headers. */
export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** Requests left in the window after this one (0 when refused). */
  remaining: number;
  /** Epoch ms when the window resets. */
  resetAt: number;
}

/** Fixed-window counter per client key. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number; reset: string }>();

  constructor(private readonly options: RateLimitOptions) {}

  /** Counts one request of `client`. */
  hit(client: string): RateDecision {
    const now = this.options.now();
    const { limit, windowMs } = this.options;
    let window = this.windows.get(client);
    if (!window || now >= window.start + windowMs) {
      this.windows.delete(client);
      const start = now - (now % windowMs);
      // The reset time is spelled once per window, not once per request.
      window = { start, count: 0, reset: resetText(start + windowMs) };
      this.windows.set(client, window);
      const max = this.options.maxClients ?? 50_000;
      while (this.windows.size > max) this.windows.delete(this.windows.keys().next().value!);
    }
    const allowed = window.count < limit;
    if (allowed) window.count++;
    return rateDecision(allowed, limit, limit - window.count, window.start + windowMs, now, window.reset);
  }
}

/** ISO time to the second, as `X-RateLimit-Reset` spells it. */
const resetText = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The decision and its `X-RateLimit-*` headers (and `Retry-After` when refused); shared by every
 * limiter so that a client sees the same headers whichever store counted it.
 */
export function rateDecision(
  allowed: boolean,
  limit: number,
  remaining: number,
  resetAt: number,
  now: number,
  reset = resetText(resetAt),
): RateDecision {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, remaining)),
    'X-RateLimit-Reset': reset,
  };
  if (!allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
  return { allowed, headers, remaining: Math.max(0, remaining), resetAt };
}
