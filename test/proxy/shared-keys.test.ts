/**
 * The shared state's decisions on a key and on its link, over a small in-memory store that
 * keeps the `SharedStore` contract (expiry, only-if-absent, compare-and-set) and can be frozen:
 * what a successor does with a record sent without an answer (replay what the search finds,
 * `unknown` while it cannot tell, book only once the upstream has shown nothing for long enough),
 * a booking made while the store was away reaching it when it is back, and a link whose back-off
 * failures in flight do not multiply. The real store and processes: crash.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LogEntry } from '../../proxy/core/log.js';
import type { Reconciled, Reconciler, StoredAnswer } from '../../proxy/state/idempotency.js';
import { MemoryState } from '../../proxy/state/memory.js';
import { SharedState } from '../../proxy/state/shared.js';
import type { SharedStore } from '../../proxy/state/shared-store.js';
import { StoreLink } from '../../proxy/state/store-link.js';
import { until } from '../support/redis.js';

/** An in-memory store; `frozen` makes every call hang, as a stopped Redis does. */
function memoryStore() {
  const entries = new Map<string, { value: string; expires: number }>();
  const control = { frozen: false, calls: 0 };
  const live = (key: string) => {
    const entry = entries.get(key);
    return entry && entry.expires > Date.now() ? entry : undefined;
  };
  const run = async <T>(op: () => T): Promise<T> => {
    control.calls++;
    if (control.frozen) return new Promise<T>(() => {});
    return op();
  };
  const store: SharedStore = {
    get: (key) => run(() => live(key)?.value ?? null),
    set: (key, value, ttlMs, onlyIfAbsent = false) =>
      run(() => {
        if (onlyIfAbsent && live(key)) return false;
        entries.set(key, { value, expires: Date.now() + ttlMs });
        return true;
      }),
    delete: (key) => run(() => void entries.delete(key)),
    compareAndSet: (key, expected, next, ttlMs) =>
      run(() => {
        if (live(key)?.value !== expected) return false;
        if (next === null) entries.delete(key);
        else entries.set(key, { value: next, expires: Date.now() + ttlMs });
        return true;
      }),
    count: (_bucket, _client, points) => run(() => ({ count: points, resetAt: Date.now() + 60_000 })),
    close: async () => {},
  };
  return { store, entries, control, live };
}

function sharedState(holdMs = 15_000) {
  const memory = memoryStore();
  const lines: LogEntry[] = [];
  const logger = { log: (entry: LogEntry) => void lines.push(entry) };
  const link = new StoreLink({ name: 'memory-store', timeoutMs: 50, logger, now: () => Date.now() });
  const state = new SharedState(memory.store, link, { ttlMs: 60_000, staleMs: 60_000, holdMs, logger, now: Date.now });
  return { ...memory, state, link, lines };
}

const answer = (reference: string): StoredAnswer => ({
  status: 200,
  body: JSON.stringify({ payload: { booking: { reference } } }),
  headers: {},
  keep: true,
});
const UNSETTLED: StoredAnswer = {
  status: 504,
  body: '{"payload":{"stored":"unknown"}}',
  headers: {},
  keep: true,
  unsettled: true,
};

/** A reconciler that answers `found` and counts its searches. */
function reconciler(found: () => Reconciled) {
  const counted = { searches: 0 };
  const value: Reconciler = {
    find: async () => {
      counted.searches++;
      return found();
    },
    unsettled: () => UNSETTLED,
  };
  return Object.assign(counted, { value });
}

/** Leaves a record "sent at `sentAt`" with no answer and no lease: a holder lost after sending. */
function lostHolder(entries: Map<string, { value: string; expires: number }>, key: string, sentAt: number) {
  entries.set(`key:${key}`, { value: JSON.stringify({ fingerprint: 'F', sentAt }), expires: Date.now() + 60_000 });
}

describe('a key whose holder was lost after sending', () => {
  test('the booking found upstream is replayed and kept; nothing is booked', async () => {
    const { state, entries } = sharedState();
    lostHolder(entries, 'found-key-1', Date.now() - 1_000);
    const search = reconciler(() => ({ found: answer('REF-FOUND') }));
    let booked = 0;
    const result = await state.idempotent('found-key-1', 'F', async () => (booked++, answer('REF-NEW')), search.value);
    assert.deepEqual(result, { answer: answer('REF-FOUND'), replayed: true });
    assert.equal(booked, 0);
    assert.match(entries.get('key:found-key-1')!.value, /REF-FOUND/, 'kept for later repeats');
    const again = await state.idempotent('found-key-1', 'F', async () => (booked++, answer('REF-NEW')), search.value);
    assert.deepEqual(again, { answer: answer('REF-FOUND'), replayed: true });
    assert.equal(search.searches, 1, 'replayed without searching again');
    await state.close();
  });

  test('a search that cannot tell gives unknown and books nothing; other details are still a conflict', async () => {
    const { state, entries } = sharedState();
    lostHolder(entries, 'unknown-key-1', Date.now() - 1_000);
    let booked = 0;
    const work = async () => (booked++, answer('REF-NEW'));
    for (const found of [() => ({ unknown: true }) as const, () => ({ none: true }) as const]) {
      const result = await state.idempotent('unknown-key-1', 'F', work, reconciler(found).value);
      assert.deepEqual(result, { answer: UNSETTLED, replayed: false }, 'none, so soon after sending, is not trusted');
    }
    const failing = reconciler(() => {
      throw new Error('search down');
    });
    assert.deepEqual(await state.idempotent('unknown-key-1', 'F', work, failing.value), {
      answer: UNSETTLED,
      replayed: false,
    });
    assert.equal(booked, 0);
    assert.deepEqual(await state.idempotent('unknown-key-1', 'G', work, failing.value), { conflict: true });
    await state.close();
  });

  test('no booking upstream long after it was sent: the repeat books it, once', async () => {
    const { state, entries } = sharedState(1_000);
    lostHolder(entries, 'never-key-1', Date.now() - 5_000);
    let booked = 0;
    const search = reconciler(() => ({ none: true }));
    const result = await state.idempotent('never-key-1', 'F', async () => (booked++, answer('REF-NEW')), search.value);
    assert.deepEqual(result, { answer: answer('REF-NEW'), replayed: false });
    assert.equal(booked, 1);
    const again = await state.idempotent('never-key-1', 'F', async () => (booked++, answer('REF-NEW')), search.value);
    assert.deepEqual(again, { answer: answer('REF-NEW'), replayed: true });
    assert.equal(booked, 1);
    await state.close();
  });

  test("the holder's own unsettled answer is not kept: a retry looks upstream", async () => {
    const { state, entries } = sharedState();
    const search = reconciler(() => ({ found: answer('REF-LATE') }));
    const first = await state.idempotent('late-key-1', 'F', async () => UNSETTLED, search.value);
    assert.deepEqual(first, { answer: UNSETTLED, replayed: false });
    const record = JSON.parse(entries.get('key:late-key-1')!.value) as { sentAt?: number; answer?: unknown };
    assert.ok(record.sentAt && !record.answer, 'the record says sent, without an answer');
    const retry = await state.idempotent('late-key-1', 'F', async () => answer('REF-TWICE'), search.value);
    assert.deepEqual(retry, { answer: answer('REF-LATE'), replayed: true });
    await state.close();
  });
});

describe('claims (a reference held by one Idempotency-Key, the return-signing key)', () => {
  test('one holder across every instance of a store, and in the memory state; none while the store is away', async () => {
    const one = sharedState();
    const other = new SharedState(one.store, one.link, {
      ttlMs: 60_000,
      staleMs: 60_000,
      holdMs: 15_000,
      logger: { log: () => {} },
      now: Date.now,
    });
    assert.equal(await one.state.claim('ref:R1', 'key-a', 60_000), 'key-a');
    assert.equal(await other.claim('ref:R1', 'key-b', 60_000), 'key-a', 'the other instance sees the first holder');
    assert.equal(await one.state.claim('ref:R1', 'key-a', 60_000), 'key-a', 'its holder may claim it again');
    assert.ok(one.live('claim:ref:R1'), 'kept under its own prefix');
    one.control.frozen = true;
    assert.equal(await other.claim('ref:R2', 'key-b', 60_000), null, 'a store that cannot answer proves nothing');
    one.control.frozen = false;

    let now = 0;
    const memory = new MemoryState({ ttlMs: 1_000, staleMs: 1_000, now: () => now });
    assert.equal(await memory.claim('ref:R1', 'key-a', 1_000), 'key-a');
    assert.equal(await memory.claim('ref:R1', 'key-b', 1_000), 'key-a');
    now = 1_001;
    assert.equal(await memory.claim('ref:R1', 'key-b', 1_000), 'key-b', 'a claim ends with its time');
  });
});

describe('the link to a store that freezes', () => {
  test('many calls failing at once do not lengthen the pause: back within 2 s of the store answering', async () => {
    const { state, link, control, entries } = sharedState();
    await state.idempotent('before-key-1', 'F', async () => answer('REF-1'), reconciler(() => ({ none: true })).value);
    control.frozen = true;
    // A hundred reads in flight fail at about the same moment.
    await Promise.all(Array.from({ length: 100 }, (_, i) => state.peekRead(`read-${i}`, false)));
    assert.equal(link.health(), 'degraded');
    // A booking while the store is frozen is made on local state…
    const during = await state.idempotent(
      'frozen-key-1',
      'F',
      async () => answer('REF-2'),
      reconciler(() => ({ none: true })).value,
    );
    assert.deepEqual(during, { answer: answer('REF-2'), replayed: false });
    // …and the calls that reach the store in the meantime are the probes, not one per request.
    const callsWhileFrozen = control.calls;
    for (let i = 0; i < 40; i++) await state.peekRead('read-0', false);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (let i = 0; i < 40; i++) await state.peekRead('read-0', false);
    assert.ok(control.calls - callsWhileFrozen <= 5, `${control.calls - callsWhileFrozen} store calls while frozen`);
    control.frozen = false;
    const thawed = Date.now();
    await until(async () => {
      await state.peekRead('read-0', false);
      return link.health() === 'ok';
    }, 'the link is back');
    assert.ok(Date.now() - thawed <= 2_000, `back ${Date.now() - thawed} ms after the store answered`);
    // What was booked meanwhile reached the store before the link said ok.
    assert.match(entries.get('key:frozen-key-1')?.value ?? '', /REF-2/);
    await state.close();
  });
});
