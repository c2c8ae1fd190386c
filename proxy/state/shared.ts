/**
 * The proxy's guarantees over a store that several processes share (Redis, a Durable Object):
 * identical reads share one upstream call per TTL, one upstream booking per Idempotency-Key, one
 * count per client, one view of the upstream's quota. The store only needs a few primitives
 * (`SharedStore`); this module and its parts build the guarantees on them, the same way for every
 * store: the keys' protocol (shared-keys.ts), the leases that die with their holder (lease.ts), the
 * link and its probe (store-link.ts), and the epoch that notices a store that lost its data
 * (store-epoch.ts).
 *
 * Per-client counts on every request (the `api` limit) are kept locally and sent to the store in
 * batches, so that a cached read normally makes no round trip; every other count (bookings, misses,
 * the upstream budget: each costs an upstream call anyway) is sent at once, exactly.
 *
 * It fails open. Every store call has a short timeout; a store that is slow or down is skipped and
 * local state (a `MemoryState`) answers instead, so a cache outage never costs a venue a booking.
 *
 * What goes into the store: cached read answers (venue data, no guest data), per booking key the
 * SHA-256 of the client key and details, when its booking was sent and (once answered) the answer
 * kept for replays (24 hours at most), a random lease holder id per key being worked on (seconds),
 * the epoch, the quota, the upstream budget's counters, counters keyed by a hash of the client
 * key, and claims (`claim:`: a booking reference and the Idempotency-Key that holds it, the
 * return-signing secret). Nothing else personal.
 */
import { fingerprintOf, type IdempotentResult, type Reconciler, type StoredAnswer } from './idempotency.js';
import type { Logger } from '../core/log.js';
import type { RateDecision } from './rate-limit.js';
import { BatchedCounts, type Counted } from './batched-count.js';
import { Lease } from './lease.js';
import { MemoryState } from './memory.js';
import { SharedKeys } from './shared-keys.js';
import type { SharedStore } from './shared-store.js';
import { StoreEpoch } from './store-epoch.js';
import { StoreRecords, type Records } from './records.js';
import type { StoreLink } from './store-link.js';
import {
  BOOKING_ANSWER_TTL_MS,
  type Awaitable,
  type CachedRead,
  type LimitRule,
  type Loaded,
  type ProxyState,
  type QuotaState,
  type Relayed,
  type StoreHealth,
} from './types.js';

/** Options of a shared state. */
export interface SharedStateOptions {
  /** How long identical reads share one upstream answer. */
  ttlMs: number;
  /** How long past the TTL a read may still be served when sparing the upstream. */
  staleMs: number;
  /**
   * Longest a booking may run (more than the upstream timeout). A booking the upstream has not
   * shown twice this long after it was sent is taken as never made (shared-keys.ts).
   */
  holdMs: number;
  /** How often a waiting repeat looks for the first one's answer. */
  pollMs?: number;
  /**
   * Whether the store may lose its data (a Redis without persistence): then an epoch key tells
   * when it did, and the instances re-seed it (store-epoch.ts). A Durable Object's storage is durable.
   */
  volatile?: boolean;
  logger: Logger;
  now: () => number;
}

/** How long a read's lock lasts unless its loader renews it: a dead loader holds readers up at most this. */
export const READ_LEASE_MS = 1_000;

/** A cached read as the store keeps it: the answer and the ends of its fresh and stale life. */
interface StoredRead {
  value: Relayed;
  freshUntil: number;
  staleUntil: number;
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
  /** The Idempotency-Keys: leases, records, reconciliation, the journal. */
  private readonly keys: SharedKeys;

  constructor(
    private readonly store: SharedStore,
    private readonly link: StoreLink,
    private readonly options: SharedStateOptions,
  ) {
    this.local = new MemoryState(options);
    this.pollMs = options.pollMs ?? 15;
    const epoch = options.volatile
      ? new StoreEpoch(store, link, { now: options.now, reseed: () => this.keys.reseed() })
      : null;
    this.keys = new SharedKeys(store, link, {
      now: options.now,
      logger: options.logger,
      pollMs: this.pollMs,
      settleAfterMs: 2 * options.holdMs,
      beforeClaim: async (patienceMs) => (epoch ? epoch.beforeClaim(patienceMs) : this.link.health() !== 'down'),
    });
    // The probe: the store answers (and, when it may lose data, still has it), and what it missed
    // while away is written back before the instance shares again.
    link.onProbe(async () => {
      if (epoch) await epoch.check();
      else await link.timed(() => store.get('epoch'));
      await this.keys.flush();
    });
    this.counts = new BatchedCounts({
      send: (bucket, client, points, rule) => this.count(bucket, client, points, rule),
      fallback: (bucket, client, rule) => this.local.hit(bucket, client, rule),
      sharing: () => link.health() === 'ok',
      now: options.now,
    });
  }

  /** At once from the local copy; from the store (through the local copy) otherwise. */
  peekRead(key: string, allowStale: boolean): Awaitable<CachedRead | undefined> {
    return this.local.reads.peek(key, allowStale) ?? this.peekShared(key, allowStale);
  }

  private async peekShared(key: string, allowStale: boolean): Promise<CachedRead | undefined> {
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
   * loads it while the others wait for its copy. The lock is a short lease its loader renews, so
   * a loader that dies holds the others up for a second at most; then one of them loads (its call
   * is counted against the budget like any miss: the load does that).
   */
  private async readShared(key: string, load: () => Promise<Loaded>): Promise<CachedRead> {
    for (let waited = false; ; waited = true) {
      const kept = await this.fetchRead(key);
      if (kept && kept.freshUntil > this.options.now())
        return { value: kept.value, source: waited ? 'COALESCED' : 'HIT' };
      const lock = new Lease(this.store, this.link, `lock:${key}`, READ_LEASE_MS);
      // A store that cannot answer lets every instance load for itself.
      if ((await lock.take()) === false) {
        await sleep(this.pollMs);
        continue;
      }
      try {
        // The lock may have been freed by a load that finished since the look above.
        const landed = await this.fetchRead(key);
        if (landed && landed.freshUntil > this.options.now()) return { value: landed.value, source: 'COALESCED' };
        const loaded = await lock.hold(load);
        if (loaded.cache) await this.storeRead(key, loaded.value, loaded.ttlMs);
        return { value: loaded.value, source: 'MISS' };
      } finally {
        await lock.release();
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

  idempotent(
    key: string,
    fingerprint: string,
    work: () => Promise<StoredAnswer>,
    reconciler: Reconciler,
  ): Promise<IdempotentResult> {
    return this.keys.idempotent(key, fingerprint, work, reconciler);
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

  heldKey(key: string): Promise<boolean | null> {
    return this.keys.held(key);
  }

  hit(bucket: string, client: string, rule: LimitRule): Awaitable<RateDecision> {
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

  async claim(name: string, holder: string, ttlMs: number): Promise<string | null> {
    const key = `claim:${name}`;
    return this.link.call<string | null>(
      async () => {
        // Set only when free; else the holder it has (free again in between: try once more).
        for (let tries = 0; tries < 2; tries++) {
          if (await this.store.set(key, holder, ttlMs, true)) return holder;
          const held = await this.store.get(key);
          if (held !== null) return held;
        }
        return null;
      },
      () => null,
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

  /** The venue's records in the same store (records.ts), when it keeps tables; one per state. */
  records(): Records | null {
    const { tables } = this.store;
    return tables ? new StoreRecords(tables, (op) => this.link.timed(op), this.options.now) : null;
  }

  async close(): Promise<void> {
    this.link.close();
    this.keys.close();
    await this.counts.flush();
    await this.store.close();
  }
}
