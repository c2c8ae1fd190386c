/**
 * Per-client rate limiting: fixed windows per client key. Every visitor of every venue shares the
 * proxy's one App ID and its hourly quota, so one noisy client must not spend it for everyone.
 *
 * State lives in the handler instance (per Node process; per isolate on an edge runtime, where it
 * limits each isolate's share — put the platform's own rate limiting in front for a global bound).
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
      window = { start, count: 0, reset: new Date(start + windowMs).toISOString().replace(/\.\d{3}Z$/, 'Z') };
      this.windows.set(client, window);
      const max = this.options.maxClients ?? 50_000;
      while (this.windows.size > max) this.windows.delete(this.windows.keys().next().value!);
    }
    const allowed = window.count < limit;
    if (allowed) window.count++;
    const reset = window.start + windowMs;
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - window.count)),
      'X-RateLimit-Reset': window.reset,
    };
    if (!allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((reset - now) / 1000)));
    return { allowed, headers };
  }
}
