/**
 * The proxy's guarantees over a store that several processes share (Redis, a Durable Object):
 * identical reads share one upstream call per TTL, one upstream booking per Idempotency-Key, one
 * count per client, one view of the upstream's quota. The store only needs a few primitives
 * (`SharedStore`); this module builds the guarantees on them, the same way for every store.
 *
 * Per-client counts on every request (the `api` limit) are kept locally and sent to the store in
 * batches, so that a cached read normally makes no round trip; every other count (bookings, misses,
 * the upstream budget: each costs an upstream call anyway) is sent at once, exactly.
 *
 * It fails open. Every store call has a short timeout; a store that is slow or down is skipped and
 * local state (a `MemoryState`) answers instead, so a cache outage never costs a venue a booking.
 * `StoreLink` tracks how the store is doing for `/healthz`, logs one line per change, backs off
 * before probing a slow store again, and lets the state rejoin the store when it is back.
 *
 * What goes into the store: cached read answers (venue data, no guest data), the SHA-256 of each
 * booking's client key and details, the booking answers kept for replays (24 hours at most), the
 * quota, the upstream budget's counters, and counters keyed by a hash of the client key. Nothing
 * else personal.
 */
import { fingerprintOf, type IdempotentResult, type StoredAnswer } from './idempotency.js';
import type { Logger } from '../core/log.js';
import type { RateDecision } from './rate-limit.js';
import { BatchedCounts, type Counted } from './batched-count.js';
import { MemoryState } from './memory.js';
import {
  BOOKING_ANSWER_TTL_MS,
  type CachedRead,
  type LimitRule,
  type Loaded,
  type ProxyState,
  type QuotaState,
  type Relayed,
  type StoreHealth,
} from './types.js';

/** The primitives a shared store offers. Keys are short ASCII; the store adds its own prefix. */
export interface SharedStore {
  get(key: string): Promise<string | null>;
  /** Sets `key` to expire in `ttlMs`; with `onlyIfAbsent`, only when it is not set. True when set. */
  set(key: string, value: string, ttlMs: number, onlyIfAbsent?: boolean): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Adds `points` hits of `client` to its count in the current window of `rule`, in the limit named
   * `bucket`, across every process: the window's count (these points included) and its end.
   */
  count(bucket: string, client: string, points: number, rule: LimitRule): Promise<Counted>;
  close(): Promise<void>;
}

/** Options of a shared state. */
export interface SharedStateOptions {
  /** How long identical reads share one upstream answer. */
  ttlMs: number;
  /** How long past the TTL a read may still be served when sparing the upstream. */
  staleMs: number;
  /**
   * Longest a read or booking may hold its key while it runs (more than the upstream timeout):
   * repeats wait at most this long for the first; a crashed holder frees the key after it.
   */
  holdMs: number;
  /** How often a waiting repeat looks for the first one's answer. */
  pollMs?: number;
  now: () => number;
}

class StoreTimeout extends Error {}

/** Longest and shortest pause before a slow store is tried again. */
const PROBE_MIN_MS = 1_000;
const PROBE_MAX_MS = 30_000;

/**
 * How the store is doing, and the door every store call goes through: a timeout on each call,
 * the local fallback when the store is down or being given a rest, one log line per change.
 */
export class StoreLink {
  private state: Exclude<StoreHealth, 'memory'>;
  private probeAt = 0;
  private pauseMs = PROBE_MIN_MS;

  constructor(
    private readonly options: {
      name: string;
      /** Timeout of every store call, in ms. */
      timeoutMs: number;
      logger: Logger;
      now: () => number;
      /** The initial state: `down` for a store that connects in the background. */
      initial?: 'ok' | 'down';
    },
  ) {
    this.state = options.initial ?? 'ok';
  }

  health(): StoreHealth {
    return this.state;
  }

  /** The connection came up (`true`) or went away (`false`), as the client reports it. */
  connected(up: boolean): void {
    if (up) this.pauseMs = PROBE_MIN_MS;
    this.change(up ? 'ok' : 'down');
  }

  /** Runs `op` on the store within the timeout, or `fallback` when the store cannot answer now. */
  async call<T>(op: () => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (this.state === 'down' || (this.state === 'degraded' && this.options.now() < this.probeAt)) return fallback();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const result = await Promise.race([
        op(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new StoreTimeout()), this.options.timeoutMs);
        }),
      ]);
      if (this.state === 'degraded') {
        this.pauseMs = PROBE_MIN_MS;
        this.change('ok');
      }
      return result;
    } catch (error) {
      // A store that answers errors or too late is given a rest (longer each time) before a probe.
      this.probeAt = this.options.now() + this.pauseMs;
      this.pauseMs = Math.min(this.pauseMs * 2, PROBE_MAX_MS);
      if (this.state === 'ok')
        this.change('degraded', error instanceof StoreTimeout ? 'timeout' : String(error).slice(0, 200));
      return fallback();
    } finally {
      clearTimeout(timer);
    }
  }

  private change(state: Exclude<StoreHealth, 'memory'>, reason?: string): void {
    if (state === this.state) return;
    this.state = state;
    this.options.logger.log({
      level: state === 'ok' ? 'info' : 'warn',
      msg:
        state === 'ok'
          ? `shared state: ${this.options.name} is back; sharing again`
          : `shared state: ${this.options.name} is ${state}; working on local state`,
      store: this.options.name,
      state,
      ...(reason ? { reason } : {}),
    });
  }
}

/** A cached read as the store keeps it: the answer and the ends of its fresh and stale life. */
interface StoredRead {
  value: Relayed;
  freshUntil: number;
  staleUntil: number;
}

/** An Idempotency-Key as the store keeps it: the details' fingerprint, and the answer once there is one. */
interface StoredKey {
  fingerprint: string;
  answer?: StoredAnswer;
}

/** How often a scope's generation is taken from the store, at most (a bump elsewhere shows this late). */
const GENERATION_SYNC_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The guarantees over a shared store, with a local L1 and fallback. */
export class SharedState implements ProxyState {
  /** The L1 in front of shared reads, and the state used while the store is away. */
  private readonly local: MemoryState;
  /** Reads of this process in flight: one store round per key, not one per request. */
  private readonly loading = new Map<string, Promise<CachedRead>>();
  private readonly pollMs: number;
  private readonly hashes = new Map<string, string>();
  /** When each scope's generation was last taken from the store. */
  private readonly generationSynced = new Map<string, number>();
  /** Per-client counts, those checked on every request sent in batches. */
  private readonly counts: BatchedCounts;

  constructor(
    private readonly store: SharedStore,
    private readonly link: StoreLink,
    private readonly options: SharedStateOptions,
  ) {
    this.local = new MemoryState(options);
    this.pollMs = options.pollMs ?? 15;
    this.counts = new BatchedCounts({
      send: (bucket, client, points, rule) => this.count(bucket, client, points, rule),
      fallback: (bucket, client, rule) => this.local.hit(bucket, client, rule),
      sharing: () => link.health() === 'ok',
      now: options.now,
    });
  }

  async peekRead(key: string, allowStale: boolean): Promise<CachedRead | undefined> {
    const local = this.local.reads.peek(key, allowStale);
    if (local) return local;
    await this.fetchRead(key);
    return this.local.reads.peek(key, allowStale);
  }

  async read(key: string, load: () => Promise<Loaded>): Promise<CachedRead> {
    const hit = this.local.reads.peek(key);
    if (hit) return hit;
    const running = this.loading.get(key);
    if (running) return { value: (await running).value, source: 'COALESCED' };
    const promise = this.readShared(key, load);
    this.loading.set(key, promise);
    try {
      return await promise;
    } finally {
      this.loading.delete(key);
    }
  }

  /**
   * A read through the store: its copy if fresh; else the one process that takes the key's lock
   * loads it while the others wait for its copy (or for the lock to lapse).
   */
  private async readShared(key: string, load: () => Promise<Loaded>): Promise<CachedRead> {
    for (let waited = false; ; waited = true) {
      const kept = await this.fetchRead(key);
      if (kept && kept.freshUntil > this.options.now())
        return { value: kept.value, source: waited ? 'COALESCED' : 'HIT' };
      const lock = `lock:${key}`;
      const mine = await this.link.call(
        () => this.store.set(lock, '1', this.options.holdMs, true),
        () => true,
      );
      if (!mine) {
        await sleep(this.pollMs);
        continue;
      }
      try {
        // The lock may have been freed by a load that finished since the look above.
        const landed = await this.fetchRead(key);
        if (landed && landed.freshUntil > this.options.now()) return { value: landed.value, source: 'COALESCED' };
        const loaded = await load();
        if (loaded.cache) await this.storeRead(key, loaded.value, loaded.ttlMs);
        return { value: loaded.value, source: 'MISS' };
      } finally {
        await this.link.call(
          () => this.store.delete(lock),
          () => undefined,
        );
      }
    }
  }

  /** The store's copy of a read, put into the L1 for the rest of its life. */
  private async fetchRead(key: string): Promise<StoredRead | null> {
    const text = await this.link.call(
      () => this.store.get(`read:${key}`),
      () => null,
    );
    if (!text) return null;
    const kept = JSON.parse(text) as StoredRead;
    this.local.reads.set(key, kept.value, kept.freshUntil - this.options.now());
    return kept;
  }

  private async storeRead(key: string, value: Relayed, ttlMs = this.options.ttlMs): Promise<void> {
    this.local.reads.set(key, value, ttlMs);
    const now = this.options.now();
    const kept: StoredRead = {
      value,
      freshUntil: now + ttlMs,
      staleUntil: now + ttlMs + this.options.staleMs,
    };
    await this.link.call(
      () => this.store.set(`read:${key}`, JSON.stringify(kept), kept.staleUntil - now),
      () => false,
    );
  }

  async idempotent(key: string, fingerprint: string, work: () => Promise<StoredAnswer>): Promise<IdempotentResult> {
    const slot = `key:${key}`;
    for (;;) {
      const claimed = await this.link.call(
        () => this.store.set(slot, JSON.stringify({ fingerprint } satisfies StoredKey), this.options.holdMs, true),
        () => null,
      );
      // The store is away: keep booking, once per key within this process.
      if (claimed === null) return this.local.idempotent(key, fingerprint, work);
      if (claimed) return { answer: await this.settle(slot, fingerprint, work), replayed: false };
      const text = await this.link.call(
        () => this.store.get(slot),
        () => undefined,
      );
      // Null: the first one was freed (`stored: false`) meanwhile, so this one may claim the key.
      if (text === null) continue;
      if (text !== undefined) {
        const held = JSON.parse(text) as StoredKey;
        if (held.fingerprint !== fingerprint) return { conflict: true };
        if (held.answer) return { answer: held.answer, replayed: true };
      }
      await sleep(this.pollMs);
    }
  }

  /** Runs the booking of a claimed key, then keeps its answer for replays or frees the key. */
  private async settle(slot: string, fingerprint: string, work: () => Promise<StoredAnswer>): Promise<StoredAnswer> {
    let answer: StoredAnswer | undefined;
    try {
      answer = await work();
      return answer;
    } finally {
      const kept = answer?.keep ? answer : undefined;
      await this.link.call<unknown>(
        () =>
          kept
            ? this.store.set(
                slot,
                JSON.stringify({ fingerprint, answer: kept } satisfies StoredKey),
                BOOKING_ANSWER_TTL_MS,
              )
            : this.store.delete(slot),
        () => undefined,
      );
    }
  }

  async generation(scope: string): Promise<string> {
    const now = this.options.now();
    if (now - (this.generationSynced.get(scope) ?? -Infinity) >= GENERATION_SYNC_MS) {
      const shared = await this.link.call<string | null | undefined>(
        () => this.store.get(`gen:${scope}`),
        () => undefined,
      );
      // The store's generation wins (none: the first); one bumped here while the store was away
      // lasts only until it is back, so that every instance shares the same copies again.
      if (shared !== undefined) {
        if (this.generationSynced.size > 10_000) this.generationSynced.clear();
        this.generationSynced.set(scope, now);
        this.local.setGeneration(scope, shared ?? '0');
      }
    }
    return this.local.generation(scope);
  }

  async bump(scope: string): Promise<void> {
    await this.local.bump(scope);
    // Taken from the store again at the next read (should this write not reach it).
    this.generationSynced.delete(scope);
    const generation = await this.local.generation(scope);
    await this.link.call(
      () => this.store.set(`gen:${scope}`, generation, BOOKING_ANSWER_TTL_MS),
      () => false,
    );
  }

  async heldKey(key: string): Promise<boolean | null> {
    const text = await this.link.call<string | null | undefined>(
      () => this.store.get(`key:${key}`),
      () => undefined,
    );
    if (text === undefined) return (await this.local.heldKey(key)) || null;
    return text !== null;
  }

  hit(bucket: string, client: string, rule: LimitRule): Promise<RateDecision> {
    return this.counts.hit(bucket, client, rule);
  }

  /** Adds `points` hits of `client` in the store; null when the store cannot answer now. */
  private async count(bucket: string, client: string, points: number, rule: LimitRule): Promise<Counted | null> {
    const hashed = this.hashes.get(client) ?? (await this.hashOf(client));
    return this.link.call<Counted | null>(
      () => this.store.count(bucket, hashed, points, rule),
      () => null,
    );
  }

  /** Client addresses are personal: the store only sees a hash of them (remembered, as clients come back). */
  private async hashOf(client: string): Promise<string> {
    const hashed = (await fingerprintOf(client)).slice(0, 32);
    if (this.hashes.size >= 10_000) this.hashes.clear();
    this.hashes.set(client, hashed);
    return hashed;
  }

  async loadQuota(): Promise<QuotaState | null> {
    const text = await this.link.call(
      () => this.store.get('quota'),
      () => null,
    );
    return text ? (JSON.parse(text) as QuotaState) : null;
  }

  async saveQuota(quota: QuotaState): Promise<void> {
    // Kept until the back-off ends or the window resets, whichever is later.
    const ttlMs = Math.max(quota.blockedUntil, quota.resetAt ?? 0) - this.options.now();
    if (ttlMs <= 0) return;
    await this.link.call(
      () => this.store.set('quota', JSON.stringify(quota), ttlMs),
      () => false,
    );
  }

  health(): StoreHealth {
    return this.link.health();
  }

  /**
   * Settles when this state's background work (limit counts on their way to the store) is done:
   * a Worker hands it to `waitUntil`, so that the isolate is not ended before.
   */
  settled(): Promise<void> {
    return this.counts.settled();
  }

  async close(): Promise<void> {
    await this.counts.flush();
    await this.store.close();
  }
}
