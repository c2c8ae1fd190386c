/**
 * Noticing a shared store that lost its data, and healing it. A Redis without persistence that
 * restarts comes back empty: every Idempotency-Key and its answer gone, so a repeat of a booking
 * answered before would be booked again. The store keeps one `epoch` key, written by the first
 * instance that finds none; every instance remembers the epoch it saw. An instance that finds the
 * epoch gone (or another than its own) lived through a loss: it re-seeds the store from its own
 * journal of recent keys (state/key-journal.ts), without overwriting anything written since.
 *
 * Until every instance has re-seeded, a booking must not claim a key one of them still holds the
 * answer of. So an epoch written after a loss carries the end of a heal window (2.5 s: more than
 * two probes of every instance, which take the epoch in every second), and every claim reads the
 * epoch first and waits that window out. An epoch written by an instance that never knew one (the
 * store's first start) opens no window, unless an instance that knew the old one opens it.
 */
import { holderId } from './lease.js';
import type { SharedStore } from './shared-store.js';
import type { StoreLink } from './store-link.js';

const EPOCH_KEY = 'epoch';
/** Long, but not forever: every entry in the store expires. One that lapses reads as a loss (harmless). */
const EPOCH_TTL_MS = 30 * 24 * 3_600_000;
/** How long claims wait after a loss, for every instance to re-seed the store. */
export const HEAL_WINDOW_MS = 2_500;

interface Epoch {
  id: string;
  /** Until when claims wait (0: no window). */
  healUntil: number;
}

const format = (epoch: Epoch) => `${epoch.id}:${epoch.healUntil}`;

function parse(text: string | null): Epoch | null {
  const match = /^([0-9a-f]+):(\d+)$/.exec(text ?? '');
  return match ? { id: match[1]!, healUntil: Number(match[2]) } : null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One instance's view of the store's epoch. */
export class StoreEpoch {
  private known: string | null = null;
  private healUntil = 0;

  constructor(
    private readonly store: SharedStore,
    private readonly link: StoreLink,
    private readonly options: {
      now: () => number;
      /** Writes this instance's recent keys back into the store (only where absent). */
      reseed: () => Promise<void>;
    },
  ) {}

  /** The probe's check: reads the epoch and takes it in, re-seeding after a loss. Throws when the store fails. */
  async check(): Promise<void> {
    await this.observe(await this.link.timed(() => this.store.get(EPOCH_KEY)));
  }

  /**
   * Before a booking claims a key: the epoch is read (a loss this instance has not noticed yet is
   * healed now), and a heal window still open is waited out. False when the store cannot answer
   * within `patienceMs`: the claim then works on local state.
   */
  async beforeClaim(patienceMs: number): Promise<boolean> {
    const text = await this.link.call<string | null | undefined>(
      () => this.store.get(EPOCH_KEY),
      () => undefined,
      patienceMs,
    );
    if (text === undefined) return false;
    if (this.known === null || parse(text)?.id !== this.known) await this.observe(text).catch(() => undefined);
    const wait = this.healUntil - this.options.now();
    if (wait > 0) await sleep(wait);
    return true;
  }

  private async observe(text: string | null): Promise<void> {
    let epoch = parse(text);
    if (!epoch) {
      // None: a new store, or one that lost its data (then claims wait while instances re-seed it).
      const fresh: Epoch = { id: holderId(), healUntil: this.known ? this.options.now() + HEAL_WINDOW_MS : 0 };
      const created = await this.link.timed(() => this.store.set(EPOCH_KEY, format(fresh), EPOCH_TTL_MS, true));
      epoch = created ? fresh : await this.read();
    }
    if (this.known !== null && epoch.id !== this.known) {
      if (epoch.healUntil === 0) {
        // Written by an instance that never knew the old epoch: this one did, so it opens the window.
        const opened: Epoch = { id: epoch.id, healUntil: this.options.now() + HEAL_WINDOW_MS };
        const swapped = await this.link.timed(() =>
          this.store.compareAndSet(EPOCH_KEY, format(epoch!), format(opened), EPOCH_TTL_MS),
        );
        epoch = swapped ? opened : await this.read();
      }
      await this.options.reseed();
    }
    this.known = epoch.id;
    this.healUntil = epoch.healUntil;
  }

  private async read(): Promise<Epoch> {
    const epoch = parse(await this.link.timed(() => this.store.get(EPOCH_KEY)));
    if (!epoch) throw new Error('the store keeps no epoch');
    return epoch;
  }
}
