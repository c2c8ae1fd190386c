/**
 * One upstream booking per Idempotency-Key across every instance of a shared store, through
 * crashes. Per key the store keeps two entries:
 *
 * - `lease:<key>`: who works on the key now, for 3 s, renewed every second while its holder lives
 *   (state/lease.ts). A holder that dies frees the key within 3 s; a slow live one keeps it.
 * - `key:<key>`: the record (state/key-journal.ts): the fingerprint of the client and details
 *   the key is bound to, `sentAt` — written *before* the POST leaves — and the answer once there
 *   is one. It lives 24 hours, as long as the answer it will hold.
 *
 * The first request takes the lease, writes the record "sent at T" and books. A repeat that finds
 * the lease held waits for the answer. One that finds a record with no answer and a lapsed lease
 * knows that a holder sent the booking and was lost before storing its answer (killed, or cut off
 * from the store): it never books blindly. It looks for the booking upstream (`Reconciler`: the
 * route searches by the details the key is bound to) and replays what it finds
 * (`Idempotent-Replayed`). When it cannot tell (the search failed or was ambiguous), it answers
 * 504 with `stored: 'unknown'`, and this instance keeps trying to settle the key in the
 * background (six tries over about two minutes). Only when the upstream has shown no such booking
 * for `settleAfterMs` after it was sent (longer than any holder could still be waiting for it) is
 * the booking taken as never made: a waiting repeat books it, or the key is freed for the next.
 *
 * While the store is away each instance decides on its own (once per key within the instance) and
 * keeps the records in its journal, which are written to the store when it is back. A guest's
 * retry may land on another instance than the one that booked, so an instance that meets a key it
 * does not know searches upstream once first: it replays the booking found, books only when the
 * search shows none, and answers `unknown` when it cannot tell.
 */
import type { Logger } from '../core/log.js';
import type { IdempotentResult, Reconciled, Reconciler, SearchReason, StoredAnswer } from './idempotency.js';
import { KeyJournal, type KeyRecord } from './key-journal.js';
import { Lease } from './lease.js';
import type { SharedStore } from './shared-store.js';
import type { StoreLink } from './store-link.js';
import { BOOKING_ANSWER_TTL_MS } from './types.js';

/** How long a booking's lease lasts unless its holder renews it. */
export const BOOKING_LEASE_MS = 3_000;
/**
 * How long a booking's store calls may wait for a slow store before it books on local state: a
 * booking costs an upstream call anyway, and a store slow for a moment (a busy machine) must not
 * let two instances book one key while each thinks it is away.
 */
const BOOKING_PATIENCE_MS = 1_000;
/** When the background settling of a key tries again, after each failed try. */
const SETTLE_DELAYS_MS = [2_000, 4_000, 8_000, 16_000, 30_000, 60_000];
/** Keys one instance settles in the background at most (more are left to the guests' retries). */
const MAX_SETTLING = 100;

/** Options of the shared keys. */
export interface SharedKeysOptions {
  now: () => number;
  logger: Logger;
  /** How often a waiting repeat looks for the first one's answer. */
  pollMs: number;
  /** How long after it was sent a booking the upstream does not show is taken as never made. */
  settleAfterMs: number;
  /**
   * Runs before every claim, given the claim's patience: the store's epoch checked, a heal window
   * waited out (store-epoch.ts). False when the store did not answer.
   */
  beforeClaim: (patienceMs: number) => Promise<boolean>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What may go into the store of a record: an unsettled answer is never kept, only "sent". */
const storable = (record: KeyRecord): KeyRecord =>
  record.answer?.unsettled ? { fingerprint: record.fingerprint, sentAt: record.sentAt } : record;

/** The Idempotency-Keys of a shared state. */
export class SharedKeys {
  private readonly journal: KeyJournal;
  /** Keys this process works on now: repeats within the process share the first one's result. */
  private readonly running = new Map<string, { fingerprint: string; result: Promise<IdempotentResult> }>();
  /** Keys settled in the background, with the timer of their next try. */
  private readonly settling = new Map<string, ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(
    private readonly store: SharedStore,
    private readonly link: StoreLink,
    private readonly options: SharedKeysOptions,
  ) {
    this.journal = new KeyJournal({ maxEntries: 10_000, now: options.now });
  }

  /** Runs `work` at most once per key across every instance; see the header. */
  async idempotent(
    key: string,
    fingerprint: string,
    work: () => Promise<StoredAnswer>,
    reconciler: Reconciler,
  ): Promise<IdempotentResult> {
    const running = this.running.get(key);
    if (running) {
      if (running.fingerprint !== fingerprint) return { conflict: true };
      const result = await running.result;
      return 'conflict' in result ? result : { answer: result.answer, replayed: true };
    }
    // An answer this instance knows (an unsettled one only while the store cannot be asked).
    const known = this.journal.get(key)?.record;
    if (known?.answer && (!known.answer.unsettled || this.link.health() !== 'ok'))
      return known.fingerprint === fingerprint ? { answer: known.answer, replayed: true } : { conflict: true };
    const result = this.claim(key, fingerprint, work, reconciler);
    this.running.set(key, { fingerprint, result });
    try {
      return await result;
    } finally {
      if (this.running.get(key)?.result === result) this.running.delete(key);
    }
  }

  /** Whether the key holds a booking (answered, sent or running): true, false, or null when unknown. */
  async held(key: string): Promise<boolean | null> {
    const text = await this.link.call<string | null | undefined>(
      () => this.store.get(`key:${key}`),
      () => undefined,
    );
    if (text !== undefined) return text !== null;
    return this.running.has(key) || this.journal.get(key) !== undefined ? true : null;
  }

  /**
   * Writes this instance's recent records back into a store that lost them, where absent (the
   * epoch's heal). Throws when the store fails, so the probe tries again.
   */
  async reseed(): Promise<void> {
    await this.writeBack(this.journal.live(), async (key, record, ttlMs) => {
      await this.link.timed(() => this.store.set(`key:${key}`, JSON.stringify(record), ttlMs, true));
    });
  }

  /**
   * Writes the records the store missed while it was away: where it has none, or only "sent" for
   * the same details (an answer is the newer truth). Throws when the store fails.
   */
  async flush(): Promise<void> {
    await this.writeBack(this.journal.live(true), async (key, record, ttlMs) => {
      const kept = parseRecord(await this.link.timed(() => this.store.get(`key:${key}`)));
      if (kept && (kept.fingerprint !== record.fingerprint || kept.answer || !record.answer)) return;
      await this.link.timed(() => this.store.set(`key:${key}`, JSON.stringify(record), ttlMs));
    });
  }

  /** Stops the background settling (shutdown, tests). */
  close(): void {
    this.closed = true;
    for (const timer of this.settling.values()) clearTimeout(timer);
    this.settling.clear();
  }

  private async writeBack(
    entries: ReturnType<KeyJournal['live']>,
    write: (key: string, record: KeyRecord, ttlMs: number) => Promise<void>,
  ): Promise<void> {
    // Fifty at a time: a full journal is written back in well under a second on a near store.
    for (let start = 0; start < entries.length; start += 50) {
      await Promise.all(
        entries.slice(start, start + 50).map(async ([key, entry]) => {
          await write(key, storable(entry.record), entry.expires - this.options.now());
          entry.synced = true;
        }),
      );
    }
  }

  private async claim(
    key: string,
    fingerprint: string,
    work: () => Promise<StoredAnswer>,
    reconciler: Reconciler,
  ): Promise<IdempotentResult> {
    if (!(await this.options.beforeClaim(BOOKING_PATIENCE_MS))) return this.offline(key, fingerprint, reconciler, work);
    // Whether another instance was seen working on the key: then this one never books it offline.
    let seen = false;
    for (;;) {
      const lease = new Lease(this.store, this.link, `lease:${key}`, BOOKING_LEASE_MS, BOOKING_PATIENCE_MS);
      const taken = await lease.take();
      const record = taken === null ? undefined : await this.read(key);
      if (record === undefined) {
        if (taken) await lease.release();
        return this.offline(key, fingerprint, reconciler, seen ? null : work);
      }
      if (record && (record.fingerprint !== fingerprint || record.answer)) {
        if (taken) await lease.release();
        if (record.fingerprint !== fingerprint) return { conflict: true };
        this.journal.note(key, record, this.options.now() + BOOKING_ANSWER_TTL_MS, true);
        return { answer: record.answer!, replayed: true };
      }
      // Held by another: its answer comes, or its lease lapses.
      if (!taken) {
        seen = true;
        await sleep(this.options.pollMs);
        continue;
      }
      if (!record) return this.book(key, fingerprint, work, reconciler, lease);
      return this.reconcile(key, record, work, reconciler, lease);
    }
  }

  /** Books under a held lease: the record says "sent" before the POST leaves. */
  private async book(
    key: string,
    fingerprint: string,
    work: () => Promise<StoredAnswer>,
    reconciler: Reconciler,
    lease: Lease,
  ): Promise<IdempotentResult> {
    const record: KeyRecord = { fingerprint, sentAt: this.options.now() };
    this.journal.note(key, record, record.sentAt! + BOOKING_ANSWER_TTL_MS, await this.write(key, record));
    let answer: StoredAnswer;
    try {
      answer = await lease.hold(work);
    } catch (error) {
      // The work throws only before its POST: nothing was sent, the key is free again.
      await this.free(key);
      await lease.release();
      throw error;
    }
    await this.answered(key, record, answer, reconciler);
    await lease.release();
    return { answer, replayed: false };
  }

  /** A record sent with no answer, its holder lost: look upstream before anything else. */
  private async reconcile(
    key: string,
    record: KeyRecord,
    work: () => Promise<StoredAnswer>,
    reconciler: Reconciler,
    lease: Lease,
  ): Promise<IdempotentResult> {
    const found = await lease.hold(() => this.find(reconciler, 'holder_lost'));
    if ('found' in found) {
      await this.answered(key, record, found.found, reconciler);
      await lease.release();
      this.options.logger.log({ level: 'info', msg: 'booking reconciled: found upstream, replayed' });
      return { answer: found.found, replayed: true };
    }
    if ('none' in found && this.taken(record)) {
      this.options.logger.log({ level: 'warn', msg: 'booking reconciled: never made upstream, booking it now' });
      return this.book(key, record.fingerprint, work, reconciler, lease);
    }
    await lease.release();
    this.settleLater(key, record.fingerprint, reconciler);
    this.options.logger.log({ level: 'warn', msg: 'booking unsettled: cannot tell yet whether it was made' });
    return { answer: reconciler.unsettled(), replayed: false };
  }

  /** Keeps a booking's answer, frees its key, or (unsettled) keeps "sent" and settles it later. */
  private async answered(key: string, sent: KeyRecord, answer: StoredAnswer, reconciler: Reconciler): Promise<void> {
    if (answer.unsettled) {
      this.settleLater(key, sent.fingerprint, reconciler);
      return;
    }
    if (!answer.keep) {
      await this.free(key);
      return;
    }
    const record: KeyRecord = { ...sent, answer };
    this.journal.note(key, record, this.options.now() + BOOKING_ANSWER_TTL_MS, await this.write(key, record));
  }

  /**
   * The store is away and this instance meets a key it holds no answer of. Another instance may
   * have booked it (a guest's retry lands anywhere), so it asks the upstream first, once: it
   * replays a booking found; it books (`work`) only when the search shows none and nothing says
   * one was sent (this instance's own record of sending it, or `work` null: another instance was
   * seen working on the key when the store went away); otherwise it answers `unknown` and keeps
   * that, so that repeats here ask nothing more, and the key is settled once the store is back.
   * An upstream that refuses the search itself (`unavailable`) is booked on as before (fail open:
   * an outage of the store never costs a venue every booking). The records are kept for the
   * store's return.
   */
  private async offline(
    key: string,
    fingerprint: string,
    reconciler: Reconciler,
    work: (() => Promise<StoredAnswer>) | null,
  ): Promise<IdempotentResult> {
    const sentAt = this.options.now();
    const mine = this.journal.get(key)?.record;
    const sent = mine?.fingerprint === fingerprint && mine.sentAt !== undefined ? mine : undefined;
    const found = await this.find(reconciler, 'store_away');
    if ('found' in found) {
      this.journal.note(key, { fingerprint, sentAt, answer: found.found }, sentAt + BOOKING_ANSWER_TTL_MS, false);
      return { answer: found.found, replayed: true };
    }
    const bookable = 'none' in found || ('unavailable' in found && !sent);
    if (!bookable || !work || (sent && !this.taken(sent))) {
      const answer = reconciler.unsettled();
      this.journal.note(
        key,
        { fingerprint, sentAt: sent?.sentAt ?? sentAt, answer },
        sentAt + BOOKING_ANSWER_TTL_MS,
        false,
      );
      this.settleLater(key, fingerprint, reconciler);
      return { answer, replayed: false };
    }
    const answer = await work();
    if (answer.keep) {
      // An unsettled answer is kept as the lookup's, so that repeats are told how to find out.
      const kept = answer.unsettled ? reconciler.unsettled() : answer;
      this.journal.note(key, { fingerprint, sentAt, answer: kept }, sentAt + BOOKING_ANSWER_TTL_MS, false);
      if (answer.unsettled) this.settleLater(key, fingerprint, reconciler);
    }
    return { answer, replayed: false };
  }

  /**
   * Tries to settle a key in the background, later and again (bounded): the booking found is
   * kept for replays; one the upstream has not shown for `settleAfterMs` frees the key.
   */
  private settleLater(key: string, fingerprint: string, reconciler: Reconciler, attempt = 0): void {
    const delayMs = SETTLE_DELAYS_MS[attempt];
    if (this.closed || delayMs === undefined || this.settling.has(key) || this.settling.size >= MAX_SETTLING) return;
    const timer = setTimeout(async () => {
      const done = await this.settleOnce(key, fingerprint, reconciler).catch(() => false);
      this.settling.delete(key);
      if (!done) this.settleLater(key, fingerprint, reconciler, attempt + 1);
    }, delayMs);
    (timer as { unref?: () => void }).unref?.();
    this.settling.set(key, timer);
  }

  /** One try at settling a key: true when nothing is left to do. */
  private async settleOnce(key: string, fingerprint: string, reconciler: Reconciler): Promise<boolean> {
    const lease = new Lease(this.store, this.link, `lease:${key}`, BOOKING_LEASE_MS);
    if (!(await lease.take())) return false;
    try {
      const record = await this.read(key);
      if (record === undefined) return false;
      if (!record || record.answer || record.fingerprint !== fingerprint) return true;
      const found = await lease.hold(() => this.find(reconciler, 'settling'));
      if ('found' in found) {
        await this.answered(key, record, found.found, reconciler);
        this.options.logger.log({ level: 'info', msg: 'booking settled in the background: found upstream' });
        return true;
      }
      if ('none' in found && this.taken(record)) {
        await this.free(key);
        this.options.logger.log({ level: 'info', msg: 'booking settled in the background: never made; key freed' });
        return true;
      }
      return false;
    } finally {
      await lease.release();
    }
  }

  /** Whether an upstream that shows no booking for `record` may be taken at its word by now. */
  private taken(record: KeyRecord): boolean {
    return record.sentAt !== undefined && this.options.now() >= record.sentAt + this.options.settleAfterMs;
  }

  private async find(reconciler: Reconciler, reason: SearchReason): Promise<Reconciled> {
    try {
      return await reconciler.find(reason);
    } catch {
      return { unknown: true };
    }
  }

  /** The store's record of `key`: null when none, undefined when the store cannot answer now. */
  private async read(key: string): Promise<KeyRecord | null | undefined> {
    const text = await this.link.call<string | null | undefined>(
      () => this.store.get(`key:${key}`),
      () => undefined,
      BOOKING_PATIENCE_MS,
    );
    return text === undefined ? undefined : parseRecord(text);
  }

  /** Writes a record for 24 hours; false when the store missed it (the journal writes it later). */
  private write(key: string, record: KeyRecord): Promise<boolean> {
    return this.link.call(
      () => this.store.set(`key:${key}`, JSON.stringify(storable(record)), BOOKING_ANSWER_TTL_MS),
      () => false,
      BOOKING_PATIENCE_MS,
    );
  }

  /** Frees a key: its booking was refused, or never made. */
  private async free(key: string): Promise<void> {
    this.journal.forget(key);
    await this.link.call(
      () => this.store.delete(`key:${key}`),
      () => undefined,
    );
  }
}

/** A record as the store holds it (null: none, or unreadable). */
function parseRecord(text: string | null): KeyRecord | null {
  if (text === null) return null;
  try {
    const record = JSON.parse(text) as KeyRecord;
    return typeof record?.fingerprint === 'string' ? record : null;
  } catch {
    return null;
  }
}
