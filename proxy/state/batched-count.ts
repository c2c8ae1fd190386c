/**
 * Per-client counts kept locally and sent to a shared store in batches, so that a request of a
 * client far below its limit makes no round trip to the store (a cached read stays off the network).
 *
 * Each process keeps, per client, the count the store last gave it and the hits it let through
 * since. While that total is well below the limit (`margin` below it), a hit is counted here and
 * let through at once; the hits are sent in one increment once half a batch has gathered (or a
 * second has passed). Near the limit, or with no count yet, each hit is counted in the store before
 * the answer, exactly as before. A client the store says is over the limit is refused here, without
 * asking again, until its window ends.
 *
 * Limits that guard upstream calls (bookings, misses, the upstream budget) are not batched: such a
 * call costs more than a round trip to the store. Their clients over the limit are still refused
 * here without asking again.
 *
 * The price: a process lets through at most `batch` hits the store has not seen yet, so a client
 * spread over several processes may get up to one batch per process past its limit (only when the
 * others' hits outpace what this process last learnt by more than the margin).
 */
import { rateDecision, type RateDecision } from './rate-limit.js';
import type { Awaitable, LimitRule } from './types.js';

/** A client's count in a window, as the store keeps it. */
export interface Counted {
  count: number;
  /** When the window ends (ms since the epoch). */
  resetAt: number;
}

/** What this process knows of one client's window. */
interface View {
  /** The store's count when it last answered (every hit sent by then included). */
  known: number;
  resetAt: number;
  /** Hits let through here and not sent yet. */
  pending: number;
  /** Hits on their way to the store. */
  sending: number;
  /** When the store last answered. */
  syncedAt: number;
  rule: LimitRule;
}

/** Longest a let-through hit waits before it is sent (at the client's next hit). */
const SEND_AFTER_MS = 1_000;
/** Most clients remembered (the oldest are forgotten first; their unsent hits are lost). */
const MAX_VIEWS = 10_000;

/**
 * The limits checked on every request (cached reads included), counted in batches; the others
 * guard upstream calls, which cost more than a round trip to the store, and are counted exactly.
 */
const BATCHED_BUCKETS = new Set(['api']);

/**
 * The batch and margin of a limit: a twentieth of it (none below a limit of 20, or outside the
 * batched buckets: then every hit is counted in the store), and a quarter of it.
 */
export function batching(bucket: string, rule: LimitRule): { batch: number; margin: number } {
  const batch = BATCHED_BUCKETS.has(bucket) ? Math.floor(rule.limit / 20) : 0;
  return { batch, margin: Math.ceil(rule.limit / 4) };
}

/** The batched counts of one process. */
export class BatchedCounts {
  private readonly views = new Map<string, View>();
  private readonly sends = new Set<Promise<void>>();

  constructor(
    private readonly options: {
      /** Adds `points` to the client's count in the store; null when the store cannot answer now. */
      send: (bucket: string, client: string, points: number, rule: LimitRule) => Promise<Counted | null>;
      /** The decision when the store cannot answer (local state's). */
      fallback: (bucket: string, client: string, rule: LimitRule) => Awaitable<RateDecision>;
      /** Whether the store is answering: while it is not, every hit is the fallback's to count. */
      sharing: () => boolean;
      now: () => number;
    },
  ) {}

  /**
   * Counts one hit of `client` against `rule` in the limit named `bucket`: at once when this
   * process may decide alone (a batched hit, or a client known to be over), else once the store
   * has counted it.
   */
  hit(bucket: string, client: string, rule: LimitRule): Awaitable<RateDecision> {
    const now = this.options.now();
    const id = `${bucket}\n${client}`;
    let view = this.views.get(id);
    if (view && now >= view.resetAt) {
      // The window is over: hits not sent belonged to it.
      this.views.delete(id);
      view = undefined;
    }
    if (view && this.options.sharing()) {
      if (view.known >= rule.limit) return rateDecision(false, rule.limit, 0, view.resetAt, now);
      const { batch, margin } = batching(bucket, rule);
      const total = view.known + view.sending + view.pending + 1;
      if (view.pending + view.sending < batch && total <= rule.limit - margin) {
        view.pending++;
        if (view.sending === 0 && (view.pending * 2 >= batch || now - view.syncedAt >= SEND_AFTER_MS))
          this.track(this.send(id, bucket, client, rule, view));
        return rateDecision(true, rule.limit, rule.limit - total, view.resetAt, now);
      }
    }
    // No count yet, near the limit, or the store away: this hit (with the ones not sent yet) is
    // counted in the store first (the call is also what finds a store that is back).
    const points = 1 + (view?.pending ?? 0);
    if (view) view.pending = 0;
    return this.countInStore(id, bucket, client, points, rule, now);
  }

  private async countInStore(
    id: string,
    bucket: string,
    client: string,
    points: number,
    rule: LimitRule,
    now: number,
  ): Promise<RateDecision> {
    const counted = await this.options.send(bucket, client, points, rule);
    if (!counted) return this.options.fallback(bucket, client, rule);
    this.learn(id, counted, rule);
    return rateDecision(counted.count <= rule.limit, rule.limit, rule.limit - counted.count, counted.resetAt, now);
  }

  /** Settles when the hits on their way to the store have got there (or failed to). */
  async settled(): Promise<void> {
    await Promise.all(this.sends);
  }

  /** Sends every hit not sent yet (shutdown). */
  async flush(): Promise<void> {
    await this.settled();
    for (const [id, view] of this.views) {
      if (view.pending === 0) continue;
      const [bucket, client] = id.split('\n') as [string, string];
      await this.send(id, bucket, client, view.rule, view);
    }
  }

  private track(sending: Promise<void>): void {
    this.sends.add(sending);
    void sending.finally(() => this.sends.delete(sending));
  }

  /** Sends a view's pending hits, and learns the store's count. */
  private async send(id: string, bucket: string, client: string, rule: LimitRule, view: View): Promise<void> {
    const points = view.pending;
    view.pending = 0;
    view.sending += points;
    try {
      const counted = await this.options.send(bucket, client, points, rule);
      // Not sent (the store went away): they still count here.
      if (counted) this.learn(id, counted, rule);
      else view.known += points;
    } finally {
      view.sending -= points;
    }
  }

  /** Takes in the store's count of a client (counts only grow within a window; answers may cross). */
  private learn(id: string, counted: Counted, rule: LimitRule): void {
    const now = this.options.now();
    const view = this.views.get(id);
    if (view && view.resetAt > now) {
      view.known = Math.max(view.known, counted.count);
      view.resetAt = Math.max(view.resetAt, counted.resetAt);
      view.syncedAt = now;
      return;
    }
    this.views.delete(id);
    this.views.set(id, { known: counted.count, resetAt: counted.resetAt, pending: 0, sending: 0, syncedAt: now, rule });
    if (this.views.size > MAX_VIEWS) this.views.delete(this.views.keys().next().value!);
  }
}
