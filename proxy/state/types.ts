/**
 * The proxy's one state interface: everything it must remember between requests (the read cache
 * with its stale copies, reads in flight, Idempotency-Keys, per-client limits, the upstream's
 * quota). One process can keep it in memory (memory.ts, the default); several processes or
 * isolates share it through Redis (redis.ts) or a Durable Object (durable-object.ts), so that the
 * guarantees hold across every instance behind one App ID.
 *
 * Methods are async because a shared store answers over the network, but the two that every
 * cached read asks (`peekRead`, `hit`) answer at once when the answer is local (`Awaitable`): the
 * memory state always, a shared state from its local copy and its batched counts. The Node fast
 * path then answers a cached read in the turn it arrived, with no promise per step. A shared
 * implementation fails open: when its store is slow or down it answers from local state and says
 * so in `health()`.
 */
import type { CacheSource } from './cache.js';
import type { IdempotentResult, Reconciler, StoredAnswer } from './idempotency.js';
import type { RateDecision } from './rate-limit.js';

/**
 * A prepared answer: status and JSON text, as cached and as sent. Built by the upstream layer
 * (upstream/relay.ts) and the routes; kept here because the state stores it.
 */
export interface Relayed {
  status: number;
  text: string;
  headers?: Record<string, string>;
}

/** What the proxy knows about the upstream's quota; instances share it through the state. */
export interface QuotaState {
  limit: number | null;
  remaining: number | null;
  /** Epoch ms when the upstream's window resets. */
  resetAt: number | null;
  /** Epoch ms until which the upstream must not be called (after a 429). */
  blockedUntil: number;
}

/** A value now, or a promise of it where a store must be asked first; `await` reads either. */
export type Awaitable<T> = T | Promise<T>;

/** `next` of `value`: at once when `value` is there, else when it comes. */
export function after<T, R>(value: Awaitable<T>, next: (value: T) => Awaitable<R>): Awaitable<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** How the state's store is doing, for `/healthz`: `memory` has no store to lose. */
export type StoreHealth = 'memory' | 'ok' | 'degraded' | 'down';

/** A limit: so many hits per window. */
export interface LimitRule {
  limit: number;
  windowMs: number;
}

/** What a read load returns: the answer, and whether it may be cached (faults may not). */
export interface Loaded {
  value: Relayed;
  cache: boolean;
  /** How long this answer is fresh (default: the state's TTL). */
  ttlMs?: number;
}

/** A cached read and where it came from (the `X-Cache` header). */
export interface CachedRead {
  value: Relayed;
  source: CacheSource;
}

/** The proxy's state. */
export interface ProxyState {
  /** A fresh cached read, or a stale one when `allowStale` (sparing a short or refusing upstream). */
  peekRead(key: string, allowStale: boolean): Awaitable<CachedRead | undefined>;
  /** The cached read for `key`, or the result of `load`, shared with every identical read in flight. */
  read(key: string, load: () => Promise<Loaded>): Promise<CachedRead>;
  /**
   * Runs `work` at most once per Idempotency-Key: a repeat with the same `fingerprint` (of the
   * details) waits for and replays the first answer, one with other details is a conflict. A
   * shared state whose holder of a key was lost after sending asks `reconciler` what became of it.
   */
  idempotent(
    key: string,
    fingerprint: string,
    work: () => Promise<StoredAnswer>,
    reconciler: Reconciler,
  ): Promise<IdempotentResult>;
  /**
   * Whether `key` holds a booking (answered and kept, or still running): true, false, or null when
   * the store cannot tell now. Lets an early refusal say `stored` truthfully.
   */
  heldKey(key: string): Promise<boolean | null>;
  /**
   * The current generation of a scope of reads (a venue's date): part of their cache keys, so
   * that `bump` retires every cached copy of the scope at once (within a second on other instances).
   */
  generation(scope: string): Promise<string>;
  /** Retires the cached reads of `scope` (a booking was made, or a final check refused a time). */
  bump(scope: string): Promise<void>;
  /** Counts one hit of `client` against the limit named `bucket` (e.g. `api`, `booking`). */
  hit(bucket: string, client: string, rule: LimitRule): Awaitable<RateDecision>;
  /** What other instances learnt of the upstream's quota (null: nothing, or not shared). */
  loadQuota(): Promise<QuotaState | null>;
  /** Tells other instances what this one learnt of the upstream's quota. */
  saveQuota(quota: QuotaState): Promise<void>;
  /**
   * Claims `name` for `holder` for `ttlMs`, once across every instance: the holder it belongs to
   * now (`holder` when it was free, or already its), or null when the store cannot tell now. A
   * booking reference adopted by one Idempotency-Key can never be adopted by another; instances
   * agree on one secret.
   */
  claim(name: string, holder: string, ttlMs: number): Promise<string | null>;
  health(): StoreHealth;
  /** Lets go of connections and timers (tests, shutdown). */
  close(): Promise<void>;
}

/** How long a stored booking answer is replayed; the only personal data a store keeps. */
export const BOOKING_ANSWER_TTL_MS = 24 * 3_600_000;
