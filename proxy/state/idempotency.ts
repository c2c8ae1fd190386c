/**
 * `Idempotency-Key` for `POST /bookings`: one upstream booking per key. The first request runs; a
 * concurrent repeat waits for it and gets the same answer; a later repeat gets the stored answer.
 * A key reused with a different body is refused (409), so a leaked key cannot read another
 * guest's booking. Answers that prove nothing was stored (`stored: false`) are forgotten, so the
 * guest can correct the details and send again with the same key.
 *
 * This is the in-process store of the memory state (state/memory.ts); the shared states
 * (state/shared.ts) keep the same promise across processes.
 */

/** A stored answer: enough to rebuild the response. */
export interface StoredAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
  /** Whether a repeat must get this answer (false: forget it once delivered). */
  keep: boolean;
  /**
   * The upstream may have booked without saying so (a timeout, a 5xx): a shared state does not
   * keep this answer but looks for the booking upstream (`Reconciler`) until it knows.
   */
  unsettled?: boolean;
}

/** What a look upstream found for a key whose booking may have been made without its answer kept. */
export type Reconciled =
  /** The booking, as the answer to replay. */
  | { found: StoredAnswer }
  /** No such booking upstream. */
  | { none: true }
  /**
   * The look failed, found more than one candidate, or found one that cannot show every detail;
   * `unavailable`: the upstream refuses the search itself (no `read_bookings`), so it never will tell.
   */
  | { unknown: true; unavailable?: true };

/**
 * Why a shared state searched the upstream for a key's booking: its holder was lost after sending
 * (`holder_lost`), the background settling of a key left unknown (`settling`), or the store is
 * away and this instance meets a key it does not know (`store_away`).
 */
export type SearchReason = 'holder_lost' | 'settling' | 'store_away';

/**
 * How a shared state settles a key whose holder sent the booking and was lost before it stored
 * the answer (killed, or cut off from the store): it looks for the booking upstream by the
 * details the key is bound to (the repeat carries the same details: the fingerprint proves it),
 * and replays what it finds rather than booking blindly a second time.
 */
export interface Reconciler {
  /** Searches the upstream once; `reason` says why (counted, so that searches stay where they belong). */
  find(reason: SearchReason): Promise<Reconciled>;
  /** The answer while the outcome cannot be told: 504, `stored: 'unknown'`, and how to find out. */
  unsettled(): StoredAnswer;
}

interface Slot {
  fingerprint: string;
  answer: Promise<StoredAnswer>;
  expires: number;
}

/** Options of the store. */
export interface IdempotencyOptions {
  ttlMs: number;
  maxEntries: number;
  now: () => number;
}

/** The outcome of `run`. */
export type IdempotentResult = { answer: StoredAnswer; replayed: boolean } | { conflict: true };

/** SHA-256 of a text, hex; used so the store keeps no copy of the guest's details as a key. */
export async function fingerprintOf(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Idempotency-Key bookkeeping. */
export class IdempotencyStore {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly options: IdempotencyOptions) {}

  /** Whether `key` holds a booking now (answered and kept, or running). */
  held(key: string): boolean {
    const slot = this.slots.get(key);
    return slot !== undefined && slot.expires > this.options.now();
  }

  /** Runs `work` once per key (and fingerprint); repeats share its answer. */
  async run(key: string, fingerprint: string, work: () => Promise<StoredAnswer>): Promise<IdempotentResult> {
    const now = this.options.now();
    const existing = this.slots.get(key);
    if (existing && existing.expires > now) {
      if (existing.fingerprint !== fingerprint) return { conflict: true };
      return { answer: await existing.answer, replayed: true };
    }
    const answer = work().then(
      (result) => {
        if (!result.keep && this.slots.get(key)?.answer === answer) this.slots.delete(key);
        return result;
      },
      (error: unknown) => {
        if (this.slots.get(key)?.answer === answer) this.slots.delete(key);
        throw error;
      },
    );
    this.slots.delete(key);
    this.slots.set(key, { fingerprint, answer, expires: now + this.options.ttlMs });
    while (this.slots.size > this.options.maxEntries) this.slots.delete(this.slots.keys().next().value!);
    return { answer: await answer, replayed: false };
  }
}
