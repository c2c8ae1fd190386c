/** No per-client or upstream-budget limit: the benchmarks measure sharing and speed, not refusals. */
export const UNLIMITED = {
  rateLimit: { limit: 1e9, windowMs: 60_000 },
  missLimit: { limit: 1e9, windowMs: 600_000 },
  upstreamQuota: 1e9,
  lowWater: 0,
};
