/**
 * What the venue keeps with the proxy, as opposed to what the proxy remembers for a while (the
 * read cache, limits, booking keys: types.ts): the venue's profile, the sites its manager allowed
 * from the studio, and the counts `/status` shows by day. They must outlive a restart and be the
 * same on every instance, so they live where the deployment keeps durable data:
 *
 * - one Node process: in memory, written to a JSON file (`VENUE_BOOKING_DATA_FILE`,
 *   node/records-file.ts) after each change;
 * - several Node processes: in Redis, as hashes; Workers: in the Durable Object (`TableStore`);
 * - otherwise (tests, a quick start): in memory, and the studio says that changes end with the process.
 *
 * The data is small and bounded by its owners (a profile per venue, at most so many sites, one
 * counts table per month), and holds nothing personal about guests.
 */

/** Durable tables of string fields, the same on every instance. */
export interface Records {
  /** Where the records are kept: `memory` (lost at restart), `file`, or `shared` (Redis, a Durable Object). */
  readonly kind: 'memory' | 'file' | 'shared';
  /** Every field of `table` and its value (on a shared store, a copy at most a second old). */
  all(table: string): Promise<ReadonlyMap<string, string>>;
  /** Sets (or with null deletes) one field of `table`, on every instance; throws when it cannot be kept. */
  set(table: string, field: string, value: string | null): Promise<void>;
  /** Adds `by` to the whole number kept in one field of `table`. */
  add(table: string, field: string, by: number): Promise<void>;
  /** Writes what is pending (counts, a file) and lets go. */
  close(): Promise<void>;
}

/** The primitives a shared store offers for records: hashes that never expire. */
export interface TableStore {
  all(table: string): Promise<Record<string, string>>;
  set(table: string, field: string, value: string | null): Promise<void>;
  add(table: string, field: string, by: number): Promise<void>;
}

/** Every table as plain JSON (a file's content). */
export type RecordsSnapshot = Record<string, Record<string, string>>;

/**
 * A file that keeps records in memory (node/records-file.ts): it hears every change (`urgent`: a
 * setting the manager just saved; otherwise a count, which may wait for the next), and the close.
 */
export interface RecordsFile {
  initial: RecordsSnapshot;
  changed(snapshot: () => RecordsSnapshot, urgent: boolean): void;
  close(): void;
}

/** Records in this process's memory, and in `file` when one is given. */
export class MemoryRecords implements Records {
  readonly kind: 'memory' | 'file';
  private readonly tables = new Map<string, Map<string, string>>();

  constructor(private readonly file?: RecordsFile) {
    this.kind = file ? 'file' : 'memory';
    for (const [table, fields] of Object.entries(file?.initial ?? {}))
      this.tables.set(table, new Map(Object.entries(fields).filter(([, value]) => typeof value === 'string')));
  }

  async all(table: string): Promise<ReadonlyMap<string, string>> {
    return new Map(this.tables.get(table));
  }

  async set(table: string, field: string, value: string | null): Promise<void> {
    const fields = this.tables.get(table) ?? new Map<string, string>();
    if (value === null) fields.delete(field);
    else fields.set(field, value);
    if (fields.size) this.tables.set(table, fields);
    else this.tables.delete(table);
    this.changed(true);
  }

  async add(table: string, field: string, by: number): Promise<void> {
    const fields = this.tables.get(table) ?? new Map<string, string>();
    fields.set(field, String((Number(fields.get(field)) || 0) + by));
    this.tables.set(table, fields);
    this.changed(false);
  }

  async close(): Promise<void> {
    this.file?.close();
  }

  private changed(urgent: boolean): void {
    this.file?.changed(
      () => Object.fromEntries([...this.tables].map(([table, fields]) => [table, Object.fromEntries(fields)])),
      urgent,
    );
  }
}

/** How long a table read from a shared store is reused by this instance. */
export const TABLE_REUSE_MS = 1_000;

/**
 * Records in a shared store. Every call has the store's timeout (`timed`). A table that cannot be
 * read is answered from this instance's last copy; a change that cannot be written throws, so the
 * studio says so instead of pretending; counts that cannot be sent now are sent with the next.
 */
export class StoreRecords implements Records {
  readonly kind = 'shared';
  private readonly copies = new Map<string, { at: number; fields: ReadonlyMap<string, string> }>();
  private readonly pending = new Map<string, Map<string, number>>();

  constructor(
    private readonly store: TableStore,
    private readonly timed: <T>(op: () => Promise<T>) => Promise<T>,
    private readonly now: () => number,
  ) {}

  async all(table: string): Promise<ReadonlyMap<string, string>> {
    const copy = this.copies.get(table);
    if (copy && this.now() - copy.at < TABLE_REUSE_MS) return copy.fields;
    try {
      const fields = new Map(Object.entries(await this.timed(() => this.store.all(table))));
      // Counts not yet sent belong in what this instance shows.
      for (const [field, by] of this.pending.get(table) ?? [])
        fields.set(field, String((Number(fields.get(field)) || 0) + by));
      this.copies.set(table, { at: this.now(), fields });
      return fields;
    } catch {
      return copy?.fields ?? new Map();
    }
  }

  async set(table: string, field: string, value: string | null): Promise<void> {
    await this.timed(() => this.store.set(table, field, value));
    this.copies.delete(table);
  }

  async add(table: string, field: string, by: number): Promise<void> {
    const fields = this.pending.get(table) ?? new Map<string, number>();
    fields.set(field, (fields.get(field) ?? 0) + by);
    this.pending.set(table, fields);
    this.copies.delete(table);
    await this.flush();
  }

  async close(): Promise<void> {
    await this.flush();
  }

  /** Sends the pending counts; what fails stays pending for the next count or the close. */
  private async flush(): Promise<void> {
    for (const [table, fields] of this.pending)
      for (const [field, by] of fields) {
        try {
          fields.delete(field);
          await this.timed(() => this.store.add(table, field, by));
        } catch {
          fields.set(field, (fields.get(field) ?? 0) + by);
          return;
        }
      }
  }
}
