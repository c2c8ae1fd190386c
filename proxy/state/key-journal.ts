/**
 * An instance's own memory of the Idempotency-Keys it met recently: the records it wrote to the
 * shared store or read from it. Three uses:
 *
 * - a repeat of a key this instance knows the answer of is replayed without asking the store;
 * - a record whose write the store missed (it was away) is written when the store is back;
 * - a store that lost its data (restarted without persistence) is re-seeded from it.
 *
 * It keeps exactly what the store may keep (the fingerprint, when the booking was sent, the
 * reduced answer), for no longer than the store would, and at most `maxEntries` keys, the oldest
 * forgotten first.
 */
import type { StoredAnswer } from './idempotency.js';

/**
 * A key's record, as the store and the journal keep it: the fingerprint of the client and details
 * it is bound to; `sentAt`, when its booking may have left for the upstream (set before the POST,
 * so that whoever finds it without an answer knows to look upstream before booking); and the
 * answer once there is one to replay.
 */
export interface KeyRecord {
  fingerprint: string;
  sentAt?: number;
  answer?: StoredAnswer;
}

/** A journal entry: the record, when it expires (as in the store), whether the store has it. */
export interface JournalEntry {
  record: KeyRecord;
  expires: number;
  synced: boolean;
}

/** The bounded journal. */
export class KeyJournal {
  private readonly entries = new Map<string, JournalEntry>();

  constructor(private readonly options: { maxEntries: number; now: () => number }) {}

  /** The live entry of `key`. */
  get(key: string): JournalEntry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expires <= this.options.now()) this.entries.delete(key);
    return entry && entry.expires > this.options.now() ? entry : undefined;
  }

  /** Remembers `record` of `key` (the newest last, so the oldest go first). */
  note(key: string, record: KeyRecord, expires: number, synced: boolean): void {
    this.entries.delete(key);
    this.entries.set(key, { record, expires, synced });
    while (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /** The live entries, oldest first; `unsynced` only those the store may not have. */
  live(unsynced = false): [string, JournalEntry][] {
    const now = this.options.now();
    return [...this.entries].filter(([, entry]) => entry.expires > now && (!unsynced || !entry.synced));
  }
}
