/**
 * Exactly once when the store or the search cannot tell (issue 34, part 3), with two real proxy
 * processes (the Node entry) on a real redis-server in front of an upstream stand-in written apart
 * from our sandbox (test/support/spec-upstream.ts): its create answer can come after the proxy's
 * upstream timeout (the booking is made, the answer is late); its booking search answers as §2.5
 * describes it (`booking_id`, no `reference`, a `type` with a `name` key only), so a result cannot
 * show two of the details a request carries.
 *
 * - with the store up, a guest's retries on another instance, through the reconciliation and its
 *   background settling (past the time after which "not made" would be believed), stay
 *   `stored: 'unknown'` and never make a second booking;
 * - with Redis down, the instance that meets the key asks the service once before it books; the
 *   retry on the other instance asks once too, answers `unknown` (the search cannot show the
 *   type), and makes no second booking; later retries ask nothing more;
 * - with Redis down and a search that shows every detail, the retry elsewhere adopts the booking;
 * - with Redis down and the search refused (no `read_bookings`), a booking is made as before;
 * - with Redis up, a booking asks the service nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postBooking, startInstance, VENUE, TYPE, DATE, type Instance } from '../support/proxy-fleet.js';
import { startSpecUpstream, type SpecUpstream } from '../support/spec-upstream.js';
import { startRedis, until, type RedisServer } from '../support/redis.js';

/** The proxy's upstream timeout here (the stand-in's late answers come 2.5 s after the booking). */
const TIMEOUT_MS = 1_000;
/** The operator token that opens the instances' `/metrics`. */
const TOKEN = 'exactly-once-metrics-token';

const json = (value: unknown) => JSON.stringify(value);

let guests = 0;
/** A booking of a new guest (email and phone given), at its own time. */
function guestBooking(): Record<string, unknown> {
  const n = ++guests;
  return {
    venue_id: VENUE,
    type: TYPE,
    date: DATE,
    time: `${String(12 + (n % 10)).padStart(2, '0')}:${n % 2 ? '30' : '00'}`,
    num_people: 2,
    first_name: `Once${n}`,
    last_name: 'Lovelace',
    email: `once${n}@example.com`,
    phone: `+44 20 7946 ${String(n).padStart(4, '0')}`,
  };
}

/** Every booking POST of this file: one guest's request to one instance. */
const send = (instance: Instance, body: unknown, key: string) =>
  postBooking(instance, body, key, '198.51.100.34', 10_000);

/** The count of the proxy's booking searches for `reason` on an instance's `/metrics` (0 when absent). */
async function searchesOf(instance: Instance, reason: string): Promise<number> {
  const response = await fetch(`${instance.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200);
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('venue_booking_booking_searches_total{') && line.includes(`reason="${reason}"`))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('exactly once when the store or the search cannot tell', { timeout: 180_000 }, () => {
  let redis: RedisServer;
  let standIn: SpecUpstream;
  let a: Instance;
  let b: Instance;
  before(async () => {
    redis = await startRedis();
    standIn = await startSpecUpstream();
    const prefix = `once-${process.pid}:`;
    const env = { VENUE_BOOKING_TIMEOUT_MS: String(TIMEOUT_MS), VENUE_BOOKING_METRICS_TOKEN: TOKEN };
    // One after the other: two at once may not start within their 30 s on a busy machine.
    a = await startInstance(standIn.url, redis.url, prefix, env);
    b = await startInstance(standIn.url, redis.url, prefix, env);
  });
  after(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await redis?.kill();
    await standIn?.close();
  });

  /** Redis killed; runs `during`, then Redis back (empty) and both instances sharing it again. */
  async function withStoreDown(during: () => Promise<void>): Promise<void> {
    await redis.kill();
    await until(async () => (await a.store()) === 'down' && (await b.store()) === 'down', 'both see Redis down');
    try {
      await during();
    } finally {
      await redis.restart();
      await until(async () => (await a.store()) === 'ok' && (await b.store()) === 'ok', 'both share Redis again');
    }
  }

  test('with the store up, a booking asks the service nothing', async () => {
    const searches = standIn.searches;
    const booked = await send(a, guestBooking(), `up-${Date.now()}`);
    assert.equal(booked.status, 200, json(booked.payload));
    assert.equal(standIn.searches, searches, 'no booking search');
  });

  test('store up, the create answer late and the search short of a detail: retries elsewhere never book again', async () => {
    standIn.slow = true;
    const body = guestBooking();
    const key = `late-${Date.now()}`;
    try {
      const first = await send(a, body, key);
      assert.equal(first.status, 504, json(first.payload));
      assert.equal(first.payload.stored, 'unknown');
      // Past twice the booking's hold time (2 × (1 s + 5 s)) after it was sent, and past the
      // background settling's third try (14 s): where "not made" would be believed.
      const startedAt = Date.now();
      while (Date.now() - startedAt < 16_000) {
        await sleep(2_000);
        const retry = await send(b, body, key);
        assert.equal(standIn.bookingsOf(body.first_name as string).length, 1, 'one booking');
        assert.equal(retry.status, 504, json(retry.payload));
        assert.equal(retry.payload.stored, 'unknown');
        assert.equal(retry.payload.lookup?.idempotency_key, key, 'the guest keeps the lookup');
      }
    } finally {
      standIn.slow = false;
    }
  });

  test('store down, the create answer late and the search short of a detail: the retry elsewhere asks once, books nothing', async () => {
    const body = guestBooking();
    const key = `down-${Date.now()}`;
    const made = () => standIn.bookingsOf(body.first_name as string).length;
    await withStoreDown(async () => {
      standIn.slow = true;
      try {
        const first = await send(a, body, key);
        assert.equal(first.status, 504, json(first.payload));
        assert.equal(first.payload.stored, 'unknown');
        assert.equal(made(), 1);
        for (const one of [b, b, a, b]) {
          const retry = await send(one, body, key);
          assert.equal(made(), 1, 'never a second booking');
          assert.equal(retry.status, 504, json(retry.payload));
          assert.equal(retry.payload.stored, 'unknown');
          assert.equal(retry.payload.lookup?.idempotency_key, key);
        }
        // One search per instance that met the key while the store was away, none for its repeats.
        assert.equal(await searchesOf(a, 'store_away'), 1);
        assert.equal(await searchesOf(b, 'store_away'), 1);
      } finally {
        standIn.slow = false;
      }
    });
    const settled = await send(b, body, key);
    assert.equal(settled.payload.stored, 'unknown', json(settled.payload));
    assert.equal(made(), 1, 'nor once the store is back');
  });

  test('store down, a search that shows every detail: the retry elsewhere adopts the booking', async () => {
    const body = guestBooking();
    const key = `adopt-${Date.now()}`;
    await withStoreDown(async () => {
      standIn.slow = true;
      standIn.fullSearch = true;
      try {
        const first = await send(a, body, key);
        assert.equal(first.status, 504, json(first.payload));
        const retry = await send(b, body, key);
        assert.equal(retry.status, 200, json(retry.payload));
        assert.equal(retry.replayed, true);
        const made = standIn.bookingsOf(body.first_name as string);
        assert.equal(made.length, 1);
        assert.equal(retry.payload.booking.reference, made[0]!.reference);
      } finally {
        standIn.slow = false;
        standIn.fullSearch = false;
      }
    });
  });

  test('store down, the search refused (no read_bookings): the booking is made as before (fail open)', async () => {
    const body = guestBooking();
    await withStoreDown(async () => {
      standIn.refuseSearch = true;
      try {
        const booked = await send(b, body, `refused-${Date.now()}`);
        assert.equal(booked.status, 200, json(booked.payload));
        assert.equal(standIn.bookingsOf(body.first_name as string).length, 1);
      } finally {
        standIn.refuseSearch = false;
      }
    });
  });
});
