/**
 * The upstream budget against the real sandbox with a small hourly quota (its `rateLimit`): a
 * client hammering distinct reads, or a crowd of addresses each inside its miss limit, cannot
 * spend the calls a guest's booking needs. Also: `stored` on answers given before the
 * Idempotency-Key is compared, and replays bound to the client that made the booking.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProxy, type ProxyConfig } from '../../proxy/app.js';
import { createSandbox, SANDBOX_APP } from '../../sandbox/app.js';
import { fetchWithProof, memoryLogger, postJson, TYPE, VENUE } from './support.js';

const DATE = '2030-06-04';
type Envelope = { payload: Record<string, any>; status: number };

/** A proxy (memory state) over a sandbox whose App ID may make `quota` calls an hour. */
function quotaStack(quota: number, overrides: Partial<ProxyConfig> = {}) {
  const sandbox = createSandbox({ now: '2030-05-01T10:00:00', rateLimit: quota });
  let upstreamCalls = 0;
  let upstream429 = 0;
  const proxy = createProxy({
    upstream: 'http://sandbox.internal/v4',
    appId: SANDBOX_APP.id,
    apiKey: SANDBOX_APP.key,
    fetch: async (request) => {
      upstreamCalls++;
      const response = await sandbox.fetch(request);
      if (response.status === 429) upstream429++;
      return response;
    },
    venues: [VENUE],
    bookingSite: 'http://127.0.0.1/book',
    publicUrl: 'http://proxy.test',
    clientKey: (request) => request.headers.get('x-client') ?? undefined,
    logger: memoryLogger(),
    upstreamQuota: quota,
    botWork: 100,
    ...overrides,
  });
  const send = async (path: string, client: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-client', client);
    // A booking carries its proof of work, solved for this client, as the widget's does.
    const response = await fetchWithProof(proxy, `http://proxy.test${path}`, { ...init, headers });
    return { response, body: (await response.json()) as Envelope };
  };
  return { sandbox, proxy, send, counts: () => ({ upstreamCalls, upstream429 }) };
}

const early = (people: number) =>
  `/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=${DATE}&num_people=${people}`;
const final = (time: string, people = 2) => `${early(people)}&time=${time}&duration=2`;
const booking = (time: string, name: string) => ({
  venue_id: VENUE,
  type: TYPE,
  date: DATE,
  time,
  num_people: 2,
  duration: 2,
  first_name: name,
  last_name: 'Guest',
  email: `${name.toLowerCase()}@example.com`,
});

/** Bookable times of the day, read once (one early call). */
async function times(send: ReturnType<typeof quotaStack>['send']): Promise<string[]> {
  const { body } = await send(early(2), 'setup');
  const suggested = body.payload.validation.time.suggestedValues as { value: string; valid: boolean }[];
  return suggested.filter((item) => item.valid).map((item) => item.value);
}

/** A guest's last steps: the final check, then the booking (with its own key). */
async function guestBooks(stack: ReturnType<typeof quotaStack>, client: string, time: string) {
  const check = await stack.send(final(time), client);
  const booked = await stack.send(
    '/api/bookings',
    client,
    postJson(booking(time, client.replace(/\W/g, '')), { 'idempotency-key': `key-${client}-${time}` }),
  );
  return { check, booked };
}

describe('the upstream budget (sandbox with a quota of 50 calls an hour)', () => {
  test('one client hammering distinct reads never makes a booking fail', async () => {
    const stack = quotaStack(50);
    const slots = await times(stack.send);
    // The reproduction: sixty reads with num_people=1..60 from one address, then the same
    // with complete checks, which only the reserve may pay for.
    const hammer = [];
    for (let people = 1; people <= 60; people++) hammer.push(await stack.send(early(people), 'attacker'));
    for (let people = 1; people <= 60; people++) hammer.push(await stack.send(final('19:00', people), 'attacker'));
    const refused = hammer.filter(({ response }) => response.status === 429);
    // 10 early and 10 final misses are allowed, and num_people=2 was already cached.
    assert.equal(refused.length, 99, `${refused.length} of 120 hammering reads refused`);
    for (const { response, body } of refused) {
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
      assert.equal(body.payload.errors[0].code, 'miss_limit');
    }
    const spentByAttacker = stack.counts().upstreamCalls - 1;
    assert.ok(spentByAttacker <= 20, `the attacker spent ${spentByAttacker} upstream calls (10 + 10 misses at most)`);

    // Hits still cost nothing: the attacker's first reads are served from the cache to anyone.
    assert.equal((await stack.send(early(1), 'guest-0')).response.headers.get('x-cache'), 'HIT');

    const guests = await Promise.all(slots.slice(0, 5).map((time, index) => guestBooks(stack, `guest-${index}`, time)));
    for (const { check, booked } of guests) {
      assert.equal(check.response.status, 200, JSON.stringify(check.body));
      assert.equal(booked.response.status, 200, JSON.stringify(booked.body));
      assert.ok(booked.body.payload.booking.reference);
    }
    assert.equal(stack.counts().upstream429, 0, 'the upstream never had to refuse');
  });

  test('many addresses, each inside its miss limit: the budget absorbs them and bookings still succeed', async () => {
    const stack = quotaStack(50);
    const slots = await times(stack.send);
    // Sixty addresses, five distinct early reads each (inside the limit of 10): 300 misses.
    const flood = await Promise.all(
      Array.from({ length: 60 }, async (_, address) => {
        const answers = [];
        for (let step = 0; step < 5; step++) {
          const people = ((address * 5 + step) % 200) + 1;
          answers.push(await stack.send(`${early(people)}&time=${12 + (step % 8)}:00`, `10.0.0.${address}`));
        }
        return answers;
      }),
    );
    const answers = flood.flat();
    const spent = stack.counts().upstreamCalls - 1;
    assert.ok(spent <= 40, `${spent} early reads reached the upstream (their share is 40 of 50)`);
    const spared = answers.filter(({ response }) => response.status === 429);
    assert.ok(spared.length >= 200, `${spared.length} of 300 early reads spared`);
    for (const { body } of spared) assert.match(body.payload.errors[0].code, /^upstream_(budget|spared)$/);
    assert.equal(stack.counts().upstream429, 0, 'the proxy stopped before the upstream had to');

    // Guests' final checks and bookings are paid from the reserve.
    const guests = await Promise.all(slots.slice(0, 4).map((time, index) => guestBooks(stack, `guest-${index}`, time)));
    for (const { check, booked } of guests) {
      assert.equal(check.response.status, 200, JSON.stringify(check.body));
      assert.equal(booked.response.status, 200, JSON.stringify(booked.body));
    }
    // Complete checks from the crowd too: they may spend the reserve only down to the bookings' half.
    const checks = await Promise.all(
      Array.from({ length: 30 }, (_, address) => stack.send(final('20:00', address + 1), `10.0.1.${address}`)),
    );
    assert.ok(checks.some(({ response }) => response.status === 429));
    const last = await stack.send('/api/bookings', 'late-guest', postJson(booking(slots[5]!, 'Late')));
    assert.equal(last.response.status, 200, JSON.stringify(last.body));
    assert.equal(stack.counts().upstream429, 0);
  });

  test('few calls left upstream: early misses are served from stale copies or refused, never spent', async () => {
    let clock = Date.now();
    // The sandbox's quota (20) is its reserve's size from the first answer: frugal at once.
    const stack = quotaStack(20, { now: () => clock, upstreamQuota: 5000, lowWater: 19 });
    assert.equal((await stack.send(early(2), 'a')).response.headers.get('x-cache'), 'MISS');
    clock += 60_000; // past the TTL
    const calls = stack.counts().upstreamCalls;
    const stale = await stack.send(early(2), 'b');
    assert.equal(stale.response.headers.get('x-cache'), 'STALE');
    const refused = await stack.send(early(3), 'b');
    assert.equal(refused.response.status, 429);
    assert.equal(refused.body.payload.errors[0].code, 'upstream_spared');
    assert.ok(Number(refused.response.headers.get('retry-after')) >= 1);
    assert.equal(stack.counts().upstreamCalls, calls, 'no early read was sent');
    // A final check is what the last calls are for, and it is never served stale.
    const check = await stack.send(final('19:00'), 'b');
    assert.equal(check.response.status, 200);
    assert.equal(check.response.headers.get('x-cache'), 'MISS');
  });
});

describe("a date's cached reads", () => {
  const other = `/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=2030-06-05&num_people=2`;
  const cacheOf = async (stack: ReturnType<typeof quotaStack>, path: string) =>
    (await stack.send(path, 'guest')).response.headers.get('x-cache');

  test("outlive a booking made here, while the date's complete checks are asked again", async () => {
    const stack = quotaStack(5000);
    const [time] = await times(stack.send);
    assert.equal(await cacheOf(stack, early(2)), 'HIT');
    assert.equal(await cacheOf(stack, final(time!)), 'MISS');
    assert.equal(await cacheOf(stack, final(time!)), 'HIT', 'a complete check is shared for a few seconds');
    const booked = await stack.send('/api/bookings', 'guest', postJson(booking(time!, 'Ada')));
    assert.equal(booked.response.status, 200);
    assert.equal(await cacheOf(stack, early(2)), 'HIT', "the date's times are still shared");
    // POST /bookings skips the availability check: no check from before the booking vouches for the slot.
    assert.equal(await cacheOf(stack, final(time!)), 'MISS');
  });

  test('are retired when a fresh final check refuses the time, so no early copy goes on offering it', async () => {
    const stack = quotaStack(5000);
    await times(stack.send);
    assert.equal(await cacheOf(stack, other), 'MISS');
    const accepted = await stack.send(final('19:00'), 'guest');
    assert.equal(accepted.body.payload.validation.time.valid, true);
    assert.equal(await cacheOf(stack, early(2)), 'HIT', 'an accepted time retires nothing');
    const refused = await stack.send(final('03:00'), 'guest');
    assert.equal(refused.response.status, 200);
    assert.equal(refused.body.payload.validation.time.valid, false);
    assert.equal(await cacheOf(stack, early(2)), 'MISS');
    assert.equal(await cacheOf(stack, other), 'HIT');
  });
});

describe('marketing preferences and venue lists', () => {
  test('are shared for an hour, then served stale while one background call refreshes them', async () => {
    let clock = Date.now();
    const stack = quotaStack(5000, { now: () => clock });
    const path = `/api/venues/${VENUE}/marketing-preferences`;
    const first = await stack.send(path, 'guest');
    assert.equal(first.response.headers.get('x-cache'), 'MISS');
    clock += 3_599_000;
    assert.equal((await stack.send(path, 'guest')).response.headers.get('x-cache'), 'HIT', 'an hour long');
    const calls = stack.counts().upstreamCalls;
    clock += 2_000;
    const stale = await stack.send(path, 'guest');
    assert.equal(stale.response.headers.get('x-cache'), 'STALE', 'answered at once from the old copy');
    assert.deepEqual(stale.body.payload, first.body.payload);
    // The refresh runs after the answer: wait (a bounded number of turns) until its copy is stored.
    const key = `GET /venues/${VENUE}/marketing-preferences`;
    for (let turn = 0; !(await stack.proxy.state.peekRead(key, false)) && turn < 1000; turn++)
      await new Promise((resolve) => setImmediate(resolve));
    assert.equal(stack.counts().upstreamCalls, calls + 1, 'one refresh in the background');
    assert.equal((await stack.send(path, 'other')).response.headers.get('x-cache'), 'HIT', 'fresh again');
    assert.equal(stack.counts().upstreamCalls, calls + 1);
  });
});

describe('Idempotency-Key answers given before the details are compared', () => {
  test('a retry refused by the booking limit or the body limit says stored: unknown, not false', async () => {
    const stack = quotaStack(5000, { bookingRateLimit: { limit: 1, windowMs: 600_000 } });
    const [time] = await times(stack.send);
    const sent = postJson(booking(time!, 'Ada'), { 'idempotency-key': 'stored-key-1' });
    assert.equal((await stack.send('/api/bookings', 'guest', sent)).response.status, 200);
    const retry = await stack.send(
      '/api/bookings',
      'guest',
      postJson(booking(time!, 'Ada'), { 'idempotency-key': 'stored-key-1' }),
    );
    assert.equal(retry.response.status, 429);
    assert.equal(retry.body.payload.stored, 'unknown', 'the key holds a stored booking');
    const fresh = await stack.send(
      '/api/bookings',
      'guest',
      postJson(booking(time!, 'Ada'), { 'idempotency-key': 'never-used-1' }),
    );
    assert.equal(fresh.response.status, 429);
    assert.equal(fresh.body.payload.stored, false, 'nothing is stored under a new key');
  });

  test('413, 400 and 409 on a key that holds a booking say stored: unknown; on a new key false', async () => {
    const stack = quotaStack(5000);
    const [time] = await times(stack.send);
    const key = 'stored-key-2';
    assert.equal(
      (await stack.send('/api/bookings', 'guest', postJson(booking(time!, 'Ada'), { 'idempotency-key': key }))).response
        .status,
      200,
    );
    const big = postJson({ ...booking(time!, 'Ada'), notes: 'x'.repeat(20_000) }, { 'idempotency-key': key });
    const tooLarge = await stack.send('/api/bookings', 'guest', big);
    assert.equal(tooLarge.response.status, 413);
    assert.equal(tooLarge.body.payload.stored, 'unknown');
    const invalid = await stack.send(
      '/api/bookings',
      'guest',
      postJson({ ...booking(time!, 'Ada'), date: 'soon' }, { 'idempotency-key': key }),
    );
    assert.equal(invalid.response.status, 400);
    assert.equal(invalid.body.payload.stored, 'unknown');
    const other = await stack.send(
      '/api/bookings',
      'guest',
      postJson(booking(time!, 'Bea'), { 'idempotency-key': key }),
    );
    assert.equal(other.response.status, 409);
    assert.equal(other.body.payload.stored, 'unknown');
    const newKey = { 'idempotency-key': 'never-used-2' };
    const bigNew = await stack.send(
      '/api/bookings',
      'guest',
      postJson({ ...booking(time!, 'Ada'), notes: 'x'.repeat(20_000) }, newKey),
    );
    assert.equal(bigNew.body.payload.stored, false);
    const invalidNew = await stack.send(
      '/api/bookings',
      'guest',
      postJson({ ...booking(time!, 'Ada'), date: 'soon' }, newKey),
    );
    assert.equal(invalidNew.body.payload.stored, false);
  });

  test("a replay goes only to the client that made the booking; another address gets 409, not the guest's answer", async () => {
    const stack = quotaStack(5000);
    const [time] = await times(stack.send);
    const sent = () => postJson(booking(time!, 'Ada'), { 'idempotency-key': 'bound-key-1' });
    const first = await stack.send('/api/bookings', '198.51.100.1', sent());
    assert.equal(first.response.status, 200);
    const reference = first.body.payload.booking.reference as string;
    const again = await stack.send('/api/bookings', '198.51.100.1', sent());
    assert.equal(again.response.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.payload.booking.reference, reference);
    const stolen = await stack.send('/api/bookings', '203.0.113.66', sent());
    assert.equal(stolen.response.status, 409);
    assert.equal(stolen.body.payload.stored, 'unknown');
    assert.ok(!JSON.stringify(stolen.body).includes(reference), 'the reference is not handed to another client');
    assert.equal(stack.sandbox.store.bookings.filter((item: any) => item.first_name === 'Ada').length, 1);
  });
});
