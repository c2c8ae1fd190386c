/**
 * The Durable Object store for the Worker entry: one object (binding `VENUE_BOOKING_STATE`, class
 * `VenueBookingState`, exported by proxy/worker.ts) that every isolate of the deployment asks, so
 * idempotency, limits, the quota back-off and shared reads hold across isolates. A Durable Object
 * runs one request at a time between storage operations, which makes each primitive atomic; its
 * storage is durable, so kept booking answers survive the object's restarts, and an alarm deletes
 * every entry once it expires (booking answers within 24 hours).
 *
 * The object speaks a tiny JSON protocol over `fetch`, so this module needs neither
 * `cloudflare:workers` nor Workers types, and type-checks and tests like the rest of the proxy.
 */
import type { Logger } from '../core/log.js';
import type { Counted } from './batched-count.js';
import { SharedState, type SharedStateOptions } from './shared.js';
import type { SharedStore } from './shared-store.js';
import { StoreLink } from './store-link.js';
import type { LimitRule } from './types.js';

/** The parts of a Durable Object namespace binding this store uses. */
export interface StateNamespace {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** The parts of a Durable Object's storage the object uses. */
export interface ObjectStorage {
  get<T>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
  list<T>(): Promise<Map<string, T>>;
  getAlarm(): Promise<number | null>;
  setAlarm(at: number): Promise<void>;
}

/** One operation on the object. */
type Operation =
  | { op: 'get'; key: string }
  | { op: 'set'; key: string; value: string; ttlMs: number; onlyIfAbsent: boolean }
  | { op: 'delete'; key: string }
  | { op: 'compareAndSet'; key: string; expected: string; next: string | null; ttlMs: number }
  | { op: 'count'; key: string; points: number; rule: LimitRule }
  | { op: 'tableAll'; table: string }
  | { op: 'tableSet'; table: string; field: string; value: string | null }
  | { op: 'tableAdd'; table: string; field: string; by: number };

/** A table of the venue's records (records.ts) never expires. */
const KEPT = Number.MAX_SAFE_INTEGER;

interface Entry {
  value: string;
  expires: number;
}

interface Window {
  start: number;
  count: number;
}

/** How often the object looks for expired entries, at most. */
const SWEEP_MS = 3_600_000;

/** The Durable Object class behind `VENUE_BOOKING_STATE`. */
export class VenueBookingState {
  private readonly storage: ObjectStorage;

  constructor(state: { storage: ObjectStorage }) {
    this.storage = state.storage;
  }

  async fetch(request: Request): Promise<Response> {
    const operation = (await request.json()) as Operation;
    return Response.json(await this.run(operation, Date.now()));
  }

  /** Deletes expired entries, and comes back while any remain. */
  async alarm(): Promise<void> {
    const now = Date.now();
    const entries = await this.storage.list<Entry>();
    for (const [key, entry] of entries) if (entry.expires <= now) await this.storage.delete(key);
    if ((await this.storage.list()).size > 0) await this.storage.setAlarm(now + SWEEP_MS);
  }

  private async run(operation: Operation, now: number): Promise<unknown> {
    const live = async (key: string) => {
      const entry = await this.storage.get<Entry>(key);
      return entry && entry.expires > now ? entry : undefined;
    };
    switch (operation.op) {
      case 'get':
        return (await live(operation.key))?.value ?? null;
      case 'set': {
        if (operation.onlyIfAbsent && (await live(operation.key))) return false;
        await this.storage.put<Entry>(operation.key, { value: operation.value, expires: now + operation.ttlMs });
        if ((await this.storage.getAlarm()) === null)
          await this.storage.setAlarm(now + Math.min(SWEEP_MS, operation.ttlMs));
        return true;
      }
      case 'delete':
        await this.storage.delete(operation.key);
        return null;
      case 'compareAndSet': {
        const { key, expected, next, ttlMs } = operation;
        if ((await live(key))?.value !== expected) return false;
        if (next === null) await this.storage.delete(key);
        else await this.run({ op: 'set', key, value: next, ttlMs, onlyIfAbsent: false }, now);
        return true;
      }
      case 'count': {
        const { windowMs } = operation.rule;
        // A kept window is the current one: it expires when it ends.
        const kept = await live(operation.key);
        const window: Window = kept ? (JSON.parse(kept.value) as Window) : { start: now - (now % windowMs), count: 0 };
        window.count += operation.points;
        await this.run(
          {
            op: 'set',
            key: operation.key,
            value: JSON.stringify(window),
            ttlMs: window.start + windowMs - now,
            onlyIfAbsent: false,
          },
          now,
        );
        return { count: window.count, resetAt: window.start + windowMs } satisfies Counted;
      }
      case 'tableAll':
        return await this.table(operation.table);
      case 'tableSet':
      case 'tableAdd': {
        const fields = await this.table(operation.table);
        const { field } = operation;
        if (operation.op === 'tableAdd') fields[field] = String((Number(fields[field]) || 0) + operation.by);
        else if (operation.value === null) delete fields[field];
        else fields[field] = operation.value;
        await this.storage.put<Entry>(`table:${operation.table}`, { value: JSON.stringify(fields), expires: KEPT });
        return null;
      }
    }
  }

  private async table(name: string): Promise<Record<string, string>> {
    const entry = await this.storage.get<Entry>(`table:${name}`);
    return entry ? (JSON.parse(entry.value) as Record<string, string>) : {};
  }
}

/** Options of the Durable Object state. */
export interface DurableObjectStateOptions extends SharedStateOptions {
  namespace: StateNamespace;
  /** Timeout of every call to the object, in ms. */
  timeoutMs: number;
  logger: Logger;
}

/** The shared state of a Worker deployment, kept by its one `VenueBookingState` object. */
export function createDurableObjectState(options: DurableObjectStateOptions): SharedState {
  const id = options.namespace.idFromName('venue-booking') as never;
  const ask = async <T>(operation: Operation): Promise<T> => {
    // A stub is an I/O object of the request that made it: each call makes its own.
    const response = await options.namespace.get(id).fetch('https://venue-booking-state/', {
      method: 'POST',
      body: JSON.stringify(operation),
    });
    if (!response.ok) throw new Error(`state object answered ${response.status}`);
    return (await response.json()) as T;
  };
  const store: SharedStore = {
    get: (key) => ask<string | null>({ op: 'get', key }),
    set: (key, value, ttlMs, onlyIfAbsent = false) => ask<boolean>({ op: 'set', key, value, ttlMs, onlyIfAbsent }),
    delete: (key) => ask<void>({ op: 'delete', key }),
    compareAndSet: (key, expected, next, ttlMs) => ask<boolean>({ op: 'compareAndSet', key, expected, next, ttlMs }),
    count: (bucket, client, points, rule) =>
      ask<Counted>({ op: 'count', key: `limit:${bucket}:${client}`, points, rule }),
    tables: {
      all: (table) => ask<Record<string, string>>({ op: 'tableAll', table }),
      set: (table, field, value) => ask<void>({ op: 'tableSet', table, field, value }),
      add: (table, field, by) => ask<void>({ op: 'tableAdd', table, field, by }),
    },
    close: async () => {},
  };
  const link = new StoreLink({
    name: 'durable-object',
    timeoutMs: options.timeoutMs,
    logger: options.logger,
    now: options.now,
  });
  return new SharedState(store, link, options);
}
