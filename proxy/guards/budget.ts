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
import type { Metrics } from '../core/metrics.js';
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
  private readonly tiers: { bucket: string; share: 'early' | 'final' | 'all'; spends: Spend[]; limit: number }[];

  /** `metrics` learns what each share has left at every count, and the reserves' sizes now. */
  constructor(
    private readonly state: Pick<ProxyState, 'hit'>,
    readonly settings: BudgetSettings,
    private readonly metrics?: Metrics,
  ) {
    const { quota, reserve, bookingReserve } = settings;
    this.tiers = [
      { bucket: 'budget-early', share: 'early', spends: ['early'], limit: quota - reserve },
      { bucket: 'budget-final', share: 'final', spends: ['early', 'final'], limit: quota - bookingReserve },
      { bucket: 'budget-all', share: 'all', spends: ['early', 'final', 'booking'], limit: quota },
    ];
    metrics?.set('budget_reserve_calls', { share: 'final' }, reserve);
    metrics?.set('budget_reserve_calls', { share: 'booking' }, bookingReserve);
  }

  /**
   * Takes one call of the budget for `spend`; false (with the seconds to wait) when its share is
   * spent. A booking is always let through to the upstream (which has the last word) but counted.
   */
  async take(spend: Spend): Promise<{ allowed: boolean; retryAfterS: number }> {
    for (const tier of this.tiers) {
      if (!tier.spends.includes(spend)) continue;
      const decision = await this.state.hit(tier.bucket, 'all', { limit: tier.limit, windowMs: BUDGET_WINDOW_MS });
      this.metrics?.set('budget_remaining_calls', { share: tier.share }, decision.remaining);
      if (!decision.allowed && spend !== 'booking')
        return { allowed: false, retryAfterS: Number(decision.headers['Retry-After'] ?? 60) };
    }
    return { allowed: true, retryAfterS: 0 };
  }
}
