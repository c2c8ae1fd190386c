/**
 * The primitives a shared store (Redis, a Durable Object) offers the shared state. Few on purpose:
 * every guarantee is built on them once, in state/shared.ts and its parts, the same way for every
 * store. Each is one atomic step in the store.
 */
import type { Counted } from './batched-count.js';
import type { TableStore } from './records.js';
import type { LimitRule } from './types.js';

/** The primitives a shared store offers. Keys are short ASCII; the store adds its own prefix. */
export interface SharedStore {
  get(key: string): Promise<string | null>;
  /** Sets `key` to expire in `ttlMs`; with `onlyIfAbsent`, only when it is not set. True when set. */
  set(key: string, value: string, ttlMs: number, onlyIfAbsent?: boolean): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * When `key` holds `expected`: sets it to `next` expiring in `ttlMs`, or deletes it when `next`
   * is null. True when it did. How a lease is renewed or freed only by its own holder.
   */
  compareAndSet(key: string, expected: string, next: string | null, ttlMs: number): Promise<boolean>;
  /**
   * Adds `points` hits of `client` to its count in the current window of `rule`, in the limit named
   * `bucket`, across every process: the window's count (these points included) and its end.
   */
  count(bucket: string, client: string, points: number, rule: LimitRule): Promise<Counted>;
  /** Durable tables for the venue's records (records.ts), where the store can keep them. */
  tables?: TableStore;
  close(): Promise<void>;
}
