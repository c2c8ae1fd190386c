/**
 * Reconciliation never hands one guest's booking to another (issue 24, finding 1), with real proxy
 * processes on a real redis-server in front of the real sandbox (test/support/proxy-fleet.ts):
 *
 * - the namesake: guest A books; another client sends A's names, party, type and slot without an
 *   email while the upstream answers 503. Its answer stays `stored: 'unknown'` (with the lookup)
 *   through the background settling and its retries; it never gets A's reference, and Redis never
 *   holds A's answer under its key;
 * - two keys never hold one reference: the same guest's details under a second key, the upstream
 *   failing, find exactly A's booking, which the first key holds: not adopted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient } from 'redis';
import {
  bookableTimes,
  bookingBody,
  postBooking,
  startInstance,
  startUpstream,
  type Instance,
  type TestUpstream,
} from '../support/proxy-fleet.js';
import { startRedis, type RedisServer } from '../support/redis.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('reconciliation adopts only a booking that is unambiguously the request’s', { timeout: 120_000 }, () => {
  let redis: RedisServer;
  let upstream: TestUpstream;
  let proxy: Instance;
  let times: string[];
  const prefix = `reconcile-${process.pid}:`;
  before(async () => {
    redis = await startRedis();
    upstream = await startUpstream();
    proxy = await startInstance(upstream.url, redis.url, prefix);
    times = await bookableTimes(proxy);
  });
  after(async () => {
    await proxy?.kill();
    await redis?.kill();
    await upstream?.close();
  });

  /** What Redis keeps under an Idempotency-Key (null: nothing). */
  async function storedRecord(key: string): Promise<{ answer?: { body: string } } | null> {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const text = await client.get(`${prefix}key:${key}`);
      return text === null ? null : (JSON.parse(text) as { answer?: { body: string } });
    } finally {
      await client.close();
    }
  }

  test('a namesake without an email, its booking failed, never gets the other guest’s reference', async () => {
    const victim = bookingBody(times[0]!, 'Jane', { last_name: 'Doe', email: 'jane.doe@example.com' });
    const booked = await postBooking(proxy, victim, 'victim-key-0001', '198.51.100.10');
    assert.equal(booked.status, 200, JSON.stringify(booked.payload));
    const reference = booked.payload.booking.reference as string;

    const { email: _email, ...namesake } = victim;
    upstream.failBookings = true;
    try {
      const first = await postBooking(proxy, namesake, 'attacker-key-0001', '203.0.113.66');
      assert.equal(first.payload.stored, 'unknown', JSON.stringify(first.payload));
      // The background settling tries at 2 s and 6 s; the retry came at 4 s.
      for (const wait of [4_000, 3_000]) {
        await sleep(wait);
        const retry = await postBooking(proxy, namesake, 'attacker-key-0001', '203.0.113.66');
        assert.notEqual(retry.status, 200, JSON.stringify(retry.payload));
        assert.equal(retry.replayed, false);
        assert.equal(retry.payload.stored, 'unknown');
        assert.equal(retry.payload.lookup?.idempotency_key, 'attacker-key-0001', 'the guest keeps the lookup');
        assert.ok(!JSON.stringify(retry.payload).includes(reference), 'no trace of the other booking');
      }
      const record = await storedRecord('attacker-key-0001');
      assert.ok(!record?.answer, `Redis holds no answer under the second key: ${JSON.stringify(record)}`);
    } finally {
      upstream.failBookings = false;
    }
  });

  test('two keys never hold one reference: the same details under a second key are not adopted', async () => {
    const guest = bookingBody(times[1]!, 'Twice', { phone: '+44 20 7946 0018' });
    const booked = await postBooking(proxy, guest, 'first-key-0001', '198.51.100.20');
    assert.equal(booked.status, 200, JSON.stringify(booked.payload));
    const reference = booked.payload.booking.reference as string;

    upstream.failBookings = true;
    try {
      const searches = upstream.searches;
      const first = await postBooking(proxy, guest, 'second-key-0001', '198.51.100.20');
      assert.equal(first.payload.stored, 'unknown', JSON.stringify(first.payload));
      await sleep(3_000);
      assert.ok(upstream.searches > searches, 'the proxy looked upstream, and found the booking of the first key');
      const retry = await postBooking(proxy, guest, 'second-key-0001', '198.51.100.20');
      assert.equal(retry.payload.stored, 'unknown', JSON.stringify(retry.payload));
      assert.ok(!JSON.stringify(retry.payload).includes(reference));
      assert.ok(!(await storedRecord('second-key-0001'))?.answer, 'nothing kept under the second key');
    } finally {
      upstream.failBookings = false;
    }
    // The first key still replays its own booking.
    const again = await postBooking(proxy, guest, 'first-key-0001', '198.51.100.20');
    assert.equal(again.replayed, true);
    assert.equal(again.payload.booking.reference, reference);
  });
});
