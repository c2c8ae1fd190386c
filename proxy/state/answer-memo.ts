/**
 * The answers this instance sent just now from its read cache, by request URL: what the Node
 * entry's cache (pipeline/fast-path.ts) replays to a repeat within `MEMO_MS`, while the read cache still
 * holds the very same entry. Per instance and in memory, like the recent sites: a memo only ever
 * stands in for route checks the app made a moment ago on this instance.
 */
import type { Relayed } from './types.js';

/** How long a remembered answer stands in for the app's route checks. */
export const MEMO_MS = 1_000;
const MAX_MEMOS = 1_000;

/**
 * An answer as the pipeline sends it (pipeline/sequence.ts `Made`): status, the route's own headers,
 * the body (gzipped once when a client first asks), and every header but the client's limit, flat,
 * as last sent to one origin (made once, then replayed while the origin stays the same).
 */
export interface SentAnswer {
  status: number;
  /** The route's own headers (lower-case names). */
  own: Record<string, string>;
  body: { body: Uint8Array; gzipping?: Promise<Uint8Array>; gzipped?: Uint8Array };
  around?: { origin: string | null; headers: string[] };
}

/** One remembered answer: its read cache entry, and what was sent of it. */
export interface Memo {
  /** The path it answered (for its route label). */
  pathname: string;
  cacheKey: string;
  /** The cache entry's value when it was sent: a repeat is answered only while the cache holds this very one. */
  relayed: Relayed;
  /** What a repeat sends: the answer with `X-Cache: HIT`. */
  sent: SentAnswer;
  until: number;
}

/** The remembered answers of one proxy instance. */
export class AnswerMemo {
  private readonly memos = new Map<string, Memo>();
  /** Whether a host asks for memos at all: until then (Workers, tests, Vite) nothing is kept. */
  wanted = false;

  constructor(private readonly now: () => number) {}

  /** Remembers `memo` for `key` (the URL, or its path and query behind a public URL) for `MEMO_MS`. */
  keep(key: string, memo: Omit<Memo, 'until'>): void {
    if (!this.wanted) return;
    this.memos.delete(key);
    this.memos.set(key, { ...memo, until: this.now() + MEMO_MS });
    while (this.memos.size > MAX_MEMOS) this.memos.delete(this.memos.keys().next().value!);
  }

  /** The memo of `key` while it stands, or undefined (an expired one is dropped). */
  get(key: string): Memo | undefined {
    const memo = this.memos.get(key);
    if (memo && this.now() >= memo.until) this.memos.delete(key);
    else return memo;
    return undefined;
  }

  /** Forgets `key` (its cache entry changed). */
  drop(key: string): void {
    this.memos.delete(key);
  }
}
