/**
 * The sites a venue's manager allowed from the studio ("Allow this site"), beside the operator's
 * `VENUE_BOOKING_ORIGINS`, which still applies: a manager can add a site and remove what they
 * added, never remove the operator's. Kept in the venue's records (records.ts, table
 * `allowed-sites`: canonical origin → when and from which page it was added), so every instance
 * lets the site in, and keeps doing so after a restart.
 *
 * The origin rule runs on every request, in the same turn (guards/request-site.ts), so it asks
 * this instance's copy, which is taken again from the records once a second (the instance that
 * saved a change has it at once), and while the records cannot be read the last copy stands.
 */
import type { Logger } from '../core/log.js';
import type { Records } from './records.js';

/** The records table of the sites allowed from the studio. */
export const SITES_TABLE = 'allowed-sites';

/** The most sites a manager may allow (each a line the guards check). */
export const MAX_MANAGED_SITES = 50;

/** How often an instance takes the list again from the records. */
export const SITES_SYNC_MS = 1_000;

/** A site allowed from the studio. */
export interface ManagedSite {
  origin: string;
  /** Epoch ms when it was allowed. */
  addedAt: number;
}

/** The sites allowed from the studio, with this instance's copy for the origin rule. */
export class AllowedSites {
  private copy = new Map<string, ManagedSite>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private syncing: Promise<void> | null = null;
  /** Changes this instance made: a read that began before one must not undo it in the copy. */
  private changes = 0;

  constructor(
    private readonly records: Records,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /** Whether the manager allowed `origin` (canonical), as this instance knows now. */
  has(origin: string): boolean {
    return this.copy.has(origin);
  }

  /** The sites allowed, the latest first. */
  async list(): Promise<ManagedSite[]> {
    await this.sync();
    return [...this.copy.values()].sort((a, b) => b.addedAt - a.addedAt);
  }

  /** Allows `origin` (canonical) on every instance; false when the list is full. */
  async add(origin: string): Promise<boolean> {
    await this.sync();
    if (this.copy.has(origin)) return true;
    if (this.copy.size >= MAX_MANAGED_SITES) return false;
    const site = { origin, addedAt: this.now() };
    await this.records.set(SITES_TABLE, origin, JSON.stringify({ addedAt: site.addedAt }));
    this.changes++;
    this.copy.set(origin, site);
    this.logger.log({ level: 'info', msg: 'site allowed from the studio', origin });
    return true;
  }

  /** Takes `origin` off the list on every instance. */
  async remove(origin: string): Promise<void> {
    await this.records.set(SITES_TABLE, origin, null);
    this.changes++;
    this.copy.delete(origin);
    this.logger.log({ level: 'info', msg: 'site removed from the studio', origin });
  }

  /** Takes the list from the records now and then once a second, until `close`. */
  start(): Promise<void> {
    this.timer ??= setInterval(() => void this.sync(), SITES_SYNC_MS);
    (this.timer as { unref?: () => void }).unref?.();
    return this.sync();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One read of the records at a time; the records answer from their last copy when the store is away. */
  private sync(): Promise<void> {
    const changes = this.changes;
    this.syncing ??= this.records
      .all(SITES_TABLE)
      .then((fields) => {
        if (changes !== this.changes) return;
        const copy = new Map<string, ManagedSite>();
        for (const [origin, value] of fields) {
          const addedAt = Number((JSON.parse(value) as { addedAt?: unknown }).addedAt);
          copy.set(origin, { origin, addedAt: Number.isFinite(addedAt) ? addedAt : 0 });
        }
        this.copy = copy;
      })
      .catch(() => undefined)
      .finally(() => (this.syncing = null));
    return this.syncing;
  }
}
