/**
 * The upstream budget: every venue behind this proxy shares one App ID and its hourly quota, so a
 * read that misses the cache must not be able to spend the calls a guest's booking needs.
 *
 * - A global budget per hour, counted in the shared state (so it holds across every instance):
 *   reads of early steps may spend the quota less the reserve; the complete availability check
 *   before submit (a *final check*: type, date, time, num_people and duration all given) may spend
 *   all but the booking reserve; bookings may spend everything.
 * - Per-client limits on cache misses (early and final separately), far tighter than the limit on
 *   requests (which cache hits also count against): a client can make few upstream calls.
 * - When the upstream reports few calls left (`X-RateLimit-Remaining` ≤ the low water mark, by
 *   default the reserve), early misses are served from stale copies or refused, never spent.
 */
import type { LimitRule, ProxyState } from '../state/types.js';

/** What a read or booking is, for the budget. */
export type Spend = 'early' | 'final' | 'booking';

/** The budget's settings, derived from the quota unless set (config.ts `budgetSettings`). */
export interface BudgetSettings {
  /** Upstream calls per hour the App ID may make. */
  quota: number;
  /** Calls per hour that only final checks and bookings may spend. */
  reserve: number;
  /** Calls per hour (part of the reserve) that only bookings may spend. */
  bookingReserve: number;
  /**
   * Remaining upstream calls at or below which early reads are never sent upstream, given the
   * limit the upstream reports (null before it said): the setting, else the reserve of that limit.
   */
  lowWater: (reportedLimit: number | null) => number;
  /** Cache misses per client per window, for early reads and for final checks each. */
  missLimit: LimitRule;
}

/** The upstream's quota window. */
export const BUDGET_WINDOW_MS = 3_600_000;

/** The global upstream budget over the proxy's (shared) state. */
export class UpstreamBudget {
  /** Each tier counts its own calls and every call of the tiers below it. */
  private readonly tiers: { bucket: string; spends: Spend[]; limit: number }[];

  constructor(
    private readonly state: Pick<ProxyState, 'hit'>,
    readonly settings: BudgetSettings,
  ) {
    const { quota, reserve, bookingReserve } = settings;
    this.tiers = [
      { bucket: 'budget-early', spends: ['early'], limit: quota - reserve },
      { bucket: 'budget-final', spends: ['early', 'final'], limit: quota - bookingReserve },
      { bucket: 'budget-all', spends: ['early', 'final', 'booking'], limit: quota },
    ];
  }

  /**
   * Takes one call of the budget for `spend`; false (with the seconds to wait) when its share is
   * spent. A booking is always let through to the upstream (which has the last word) but counted.
   */
  async take(spend: Spend): Promise<{ allowed: boolean; retryAfterS: number }> {
    for (const tier of this.tiers) {
      if (!tier.spends.includes(spend)) continue;
      const decision = await this.state.hit(tier.bucket, 'all', { limit: tier.limit, windowMs: BUDGET_WINDOW_MS });
      if (!decision.allowed && spend !== 'booking')
        return { allowed: false, retryAfterS: Number(decision.headers['Retry-After'] ?? 60) };
    }
    return { allowed: true, retryAfterS: 0 };
  }
}
