/**
 * The default state: one process's memory. Every guarantee holds within the process (and within
 * one Workers isolate); a second process has its own. Shared stores also use it as their local
 * layer: the L1 in front of shared reads, and what they fall back on when their store is away.
 */
import { ReadCache } from './cache.js';
import { IdempotencyStore } from './idempotency.js';
import { RateLimiter } from './rate-limit.js';
import { BOOKING_ANSWER_TTL_MS, type ProxyState, type Relayed } from './types.js';

/**
 * How many claims of one kind (`handoff:…`, `ref:…`: a name's part before its first colon; a name
 * without one is a kind of its own, as the return key `return-secret`) are kept: each kind is
 * bounded apart, so no flood of one (returns with valid hand-off ids) pushes out another's, least
 * of all the key that signs the hand-off ids.
 */
export const CLAIMS_PER_KIND = 20_000;

/** One kind's claims, in claim order, and the soonest expiry among them (when a sweep can free one). */
interface ClaimKind {
  claims: Map<string, { holder: string; expires: number }>;
  soonest: number;
}

/** Options of the memory state. */
export interface MemoryStateOptions {
  /** How long identical reads share one upstream answer. */
  ttlMs: number;
  /** How long past the TTL a read may still be served when sparing the upstream. */
  staleMs: number;
  now: () => number;
}

/** The in-process state, with its parts exposed for the shared stores that build on it. */
export class MemoryState implements ProxyState {
  readonly reads: ReadCache<Relayed>;
  readonly keys: IdempotencyStore;
  private readonly limiters = new Map<string, RateLimiter>();
  private readonly generations = new Map<string, string>();
  /** Claims by kind, each in claim order, with the soonest expiry among them (when a sweep can free one). */
  private readonly claims = new Map<string, ClaimKind>();

  constructor(private readonly options: MemoryStateOptions) {
    this.reads = new ReadCache<Relayed>({ ...options, maxEntries: 5000 });
    this.keys = new IdempotencyStore({ ttlMs: BOOKING_ANSWER_TTL_MS, maxEntries: 10_000, now: options.now });
  }

  peekRead(key: string, allowStale: boolean) {
    return this.reads.peek(key, allowStale);
  }

  read(key: string, load: Parameters<ProxyState['read']>[1]) {
    return this.reads.get(key, load);
  }

  /** One process has no holder to lose: the `reconciler` is for shared states (shared-keys.ts). */
  idempotent(...[key, fingerprint, work]: Parameters<ProxyState['idempotent']>) {
    return this.keys.run(key, fingerprint, work);
  }

  async heldKey(key: string) {
    return this.keys.held(key);
  }

  async generation(scope: string) {
    return this.generations.get(scope) ?? '0';
  }

  async bump(scope: string) {
    // Unique across instances too: another one may bump the same scope in the same millisecond.
    this.setGeneration(scope, `${this.options.now()}.${Math.random().toString(36).slice(2, 10)}`);
  }

  /** Sets a scope's generation (bounded: the oldest scopes are forgotten first). */
  setGeneration(scope: string, generation: string): void {
    this.generations.delete(scope);
    this.generations.set(scope, generation);
    if (this.generations.size > 10_000) this.generations.delete(this.generations.keys().next().value!);
  }

  hit(bucket: string, client: string, rule: { limit: number; windowMs: number }) {
    return this.limiterOf(bucket, rule).hit(client);
  }

  /** The limiter of a bucket, made on first use. */
  limiterOf(bucket: string, rule: { limit: number; windowMs: number }): RateLimiter {
    let limiter = this.limiters.get(bucket);
    if (!limiter) this.limiters.set(bucket, (limiter = new RateLimiter({ ...rule, now: this.options.now })));
    return limiter;
  }

  async claim(name: string, holder: string, ttlMs: number) {
    const now = this.options.now();
    const kindName = name.split(':', 1)[0]!;
    let kind = this.claims.get(kindName);
    if (!kind) this.claims.set(kindName, (kind = { claims: new Map(), soonest: Infinity }));
    const { claims } = kind;
    const held = claims.get(name);
    if (held && held.expires > now) return held.holder;
    claims.delete(name);
    claims.set(name, { holder, expires: now + ttlMs });
    kind.soonest = Math.min(kind.soonest, now + ttlMs);
    if (claims.size > CLAIMS_PER_KIND) {
      // Bounded per kind: every expired claim goes first (one sweep, only once one can have
      // expired), else the oldest (a reference's claim outlives the answers it guards: 24 h).
      if (kind.soonest <= now) {
        kind.soonest = Infinity;
        for (const [each, claim] of claims)
          if (claim.expires <= now) claims.delete(each);
          else kind.soonest = Math.min(kind.soonest, claim.expires);
      }
      if (claims.size > CLAIMS_PER_KIND) claims.delete(claims.keys().next().value!);
    }
    return holder;
  }

  async loadQuota() {
    return null;
  }

  async saveQuota() {}

  health() {
    return 'memory' as const;
  }

  async close() {}
}
