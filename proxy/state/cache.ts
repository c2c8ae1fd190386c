/**
 * A small read cache with a TTL and in-flight coalescing: identical reads within the TTL share one
 * upstream call, and identical reads arriving while that call runs wait for it instead of making
 * their own. Entries are kept past their TTL (up to `staleMs`) so the proxy can serve what it has
 * when the upstream's quota runs low or the upstream refuses (see `Upstream.quota`).
 *
 * This is the in-process cache of the memory state (state/memory.ts), and the L1 of the shared ones.
 */

interface Entry<T> {
  value: T;
  freshUntil: number;
  staleUntil: number;
}

/** Where an answer came from, reported in the `X-Cache` header. */
export type CacheSource = 'HIT' | 'MISS' | 'COALESCED' | 'STALE';

/** Options of a cache. */
export interface CacheOptions {
  ttlMs: number;
  /** How long past the TTL an entry may still be served when the upstream must be spared. */
  staleMs: number;
  /** Bound on entries; the oldest inserted is evicted first. */
  maxEntries: number;
  now: () => number;
}

/** TTL cache + coalescing of identical loads in flight. */
export class ReadCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly inflight = new Map<string, Promise<{ value: T; cache: boolean; ttlMs?: number }>>();

  constructor(private readonly options: CacheOptions) {}

  /** A fresh entry, or a stale one when `allowStale`. */
  peek(key: string, allowStale = false): { value: T; source: CacheSource } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.options.now();
    if (now < entry.freshUntil) return { value: entry.value, source: 'HIT' };
    if (now >= entry.staleUntil) {
      this.entries.delete(key);
      return undefined;
    }
    return allowStale ? { value: entry.value, source: 'STALE' } : undefined;
  }

  /**
   * The cached value for `key`, or the result of `load` (shared with every identical call in
   * flight). `load` says whether its value may be cached (errors are not).
   */
  async get(
    key: string,
    load: () => Promise<{ value: T; cache: boolean; ttlMs?: number }>,
  ): Promise<{ value: T; source: CacheSource }> {
    const hit = this.peek(key);
    if (hit) return hit;
    const running = this.inflight.get(key);
    if (running) return { value: (await running).value, source: 'COALESCED' };
    const promise = load().then((result) => {
      if (result.cache) this.set(key, result.value, result.ttlMs);
      return result;
    });
    this.inflight.set(key, promise);
    try {
      return { value: (await promise).value, source: 'MISS' };
    } finally {
      this.inflight.delete(key);
    }
  }

  /** Stores a value now. */
  set(key: string, value: T, ttlMs = this.options.ttlMs): void {
    const now = this.options.now();
    this.entries.delete(key);
    this.entries.set(key, { value, freshUntil: now + ttlMs, staleUntil: now + ttlMs + this.options.staleMs });
    while (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Number of entries held (tests, health). */
  get size(): number {
    return this.entries.size;
  }
}
