/**
 * A short lease on a store key, renewed while its holder lives: how a read lock or a booking's
 * claim dies with the instance that held it. A lease that lasted as long as the work might (the
 * upstream timeout and more) would keep every other instance waiting that long for a holder that
 * was `kill -9`ed; a short one that its holder renews a few times per life lapses within a second
 * or two of the holder's death, while a slow but live holder keeps it.
 *
 * Renewing and releasing compare the lease's value with the holder's own id first (one atomic
 * store step), so a holder whose lease lapsed (a frozen store) never extends or frees a lease
 * another instance has taken since.
 */
import type { SharedStore } from './shared-store.js';
import type { StoreLink } from './store-link.js';

/** A random id for a lease's holder: unique enough among the instances of a deployment. */
export function holderId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** One lease on `key`, held at most once. */
export class Lease {
  readonly owner = holderId();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** False once a renewal found the lease taken by another holder. */
  private kept = true;

  constructor(
    private readonly store: SharedStore,
    private readonly link: StoreLink,
    private readonly key: string,
    private readonly leaseMs: number,
    /** How long taking it may wait for a slow store (`StoreLink.call`); default the link's timeout. */
    private readonly patienceMs?: number,
  ) {}

  /**
   * Takes the lease when nobody holds it: true, false (held by another), or null when the store
   * cannot answer now.
   */
  take(): Promise<boolean | null> {
    return this.link.call<boolean | null>(
      () => this.store.set(this.key, this.owner, this.leaseMs, true),
      () => null,
      this.patienceMs,
    );
  }

  /** Runs `work` while renewing the lease (three times per life), then stops renewing. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.leaseMs / 3)));
    try {
      return await work();
    } finally {
      clearInterval(this.timer);
    }
  }

  /** Whether no other holder took the lease while this one renewed it. */
  held(): boolean {
    return this.kept;
  }

  /** Frees the lease, when it is still this holder's. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.link.call(
      () => this.store.compareAndSet(this.key, this.owner, null, 0),
      () => false,
    );
  }

  private async renew(): Promise<void> {
    // A store that cannot answer now is not a lost lease: the next renewal tries again.
    const renewed = await this.link.call(
      () => this.store.compareAndSet(this.key, this.owner, this.owner, this.leaseMs),
      () => true,
    );
    if (!renewed) {
      this.kept = false;
      clearInterval(this.timer);
    }
  }
}
