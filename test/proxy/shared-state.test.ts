/**
 * Two proxy instances sharing one real redis-server, in front of one real sandbox served over
 * HTTP: every guarantee holds across them (one booking per Idempotency-Key, one upstream call per
 * identical read, one count per client, one back-off after a 429 or a low quota), nothing personal
 * but the replayable booking answers reaches the store, and both keep working (fail open) when
 * Redis is killed mid-run or slowed by a delaying TCP relay, then rejoin when it is back.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import { createClient } from 'redis';
import { createProxy, type ProxyApp, type ProxyConfig } from '../../proxy/app.js';
import { createSandbox, SANDBOX_APP, type Sandbox } from '../../sandbox/app.js';
import { createRedisState } from '../../proxy/state/redis.js';
import type { SharedState } from '../../proxy/state/shared.js';
import { freePort, startRedis, startRelay, until, type RedisServer } from '../support/redis.js';
import { memoryLogger, postJson, TYPE, VENUE } from './support.js';
import { fetchWithProof } from '../support/bot-proof.js';

const DATE = '2030-06-04';
type Envelope = { payload: Record<string, any>; status: number };

/** The sandbox as a real HTTP upstream. */
async function serveSandbox(rateLimit?: number): Promise<{ sandbox: Sandbox; upstream: string; server: ServerType }> {
  const sandbox = createSandbox({ now: '2030-05-01T10:00:00', ...(rateLimit ? { rateLimit } : {}) });
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: sandbox.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  return { sandbox, upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`, server };
}

let prefixes = 0;
/** Every state a test opened, closed after the suite even when a test failed (open sockets would hold the run). */
const opened: SharedState[] = [];

/** One proxy instance with its own Redis connection, as a separate process would have. */
function instance(
  upstream: string,
  redisUrl: string,
  prefix: string,
  overrides: Partial<ProxyConfig> & { storeTimeoutMs?: number } = {},
) {
  const logger = memoryLogger();
  const now = overrides.now ?? (() => Date.now());
  const state: SharedState = createRedisState({
    url: redisUrl,
    prefix,
    timeoutMs: overrides.storeTimeoutMs ?? 200,
    ttlMs: 15_000,
    staleMs: 600_000,
    holdMs: 15_000,
    logger,
    now,
  });
  opened.push(state);
  const proxy: ProxyApp = createProxy({
    upstream,
    appId: SANDBOX_APP.id,
    apiKey: SANDBOX_APP.key,
    venues: [VENUE],
    bookingSite: 'http://127.0.0.1/book',
    publicUrl: 'http://proxy.test',
    clientKey: (request) => request.headers.get('x-client') ?? undefined,
    logger,
    state,
    ...overrides,
  });
  // A booking carries a proof of work solved as the widget solves it (the bot check is on).
  const send = async (path: string, init: RequestInit = {}) => {
    const response = await fetchWithProof(proxy, `http://proxy.test${path}`, init);
    return { response, body: (await response.json()) as Envelope };
  };
  const health = async () => (await send('/healthz')).body as unknown as { ok: boolean; store: string };
  return { proxy, state, logger, send, health };
}

type Instance = ReturnType<typeof instance>;

/** Two instances on a fresh key prefix, connected. */
async function pair(upstream: string, redisUrl: string, overrides: Parameters<typeof instance>[3] = {}) {
  const prefix = `test-${process.pid}-${++prefixes}:`;
  const both = [instance(upstream, redisUrl, prefix, overrides), instance(upstream, redisUrl, prefix, overrides)];
  await until(() => both.every((one) => one.state.health() === 'ok'), 'both instances connected to Redis');
  return { a: both[0]!, b: both[1]!, prefix };
}

const availability = (time?: string) =>
  `/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=${DATE}&num_people=2${time ? `&time=${time}` : ''}`;

/** A time the sandbox will book. */
async function bookableTime(one: Instance): Promise<string> {
  const { body } = await one.send(availability());
  const times = body.payload.validation.time.suggestedValues as { value?: string; time?: string; valid: boolean }[];
  const time = times.find((item) => item.valid)!;
  return time.time ?? time.value!;
}

const booking = (time: string, extra: Record<string, unknown> = {}) => ({
  venue_id: VENUE,
  type: TYPE,
  date: DATE,
  time,
  num_people: 2,
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  ...extra,
});

const callsOf = (...instances: Instance[]) => instances.reduce((sum, one) => sum + one.proxy.upstream.calls, 0);

describe('two proxy instances sharing Redis', { timeout: 120_000 }, () => {
  let redis: RedisServer;
  let stack: Awaited<ReturnType<typeof serveSandbox>>;
  before(async () => {
    redis = await startRedis();
    stack = await serveSandbox();
  });
  after(async () => {
    await Promise.all(opened.map((state) => state.close()));
    await redis.kill();
    stack.server.close();
  });

  test('one booking per Idempotency-Key across instances: concurrent repeats and later retries replay it', async () => {
    const { a, b } = await pair(stack.upstream, redis.url);
    const time = await bookableTime(a);
    const before = stack.sandbox.store.bookings.length;
    const key = `shared-${Date.now()}`;
    const sent = () => postJson(booking(time), { 'idempotency-key': key });
    const answers = await Promise.all([a, b, a, b, a, b].map((one) => one.send('/api/bookings', sent())));
    assert.ok(
      answers.every(({ response }) => response.status === 200),
      JSON.stringify(answers.map(({ body }) => body)),
    );
    assert.equal(stack.sandbox.store.bookings.length, before + 1, 'exactly one booking upstream');
    assert.equal(new Set(answers.map(({ body }) => body.payload.booking.reference)).size, 1);
    assert.equal(answers.filter(({ response }) => response.headers.get('idempotent-replayed') === 'true').length, 5);
    // A retry after the answer, on the other instance: replayed, not booked again.
    const retry = await b.send('/api/bookings', sent());
    assert.equal(retry.response.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.body.payload.booking.reference, answers[0]!.body.payload.booking.reference);
    // Other details with the same key: 409 on either instance.
    const other = await a.send('/api/bookings', postJson(booking(time, { num_people: 3 }), { 'idempotency-key': key }));
    assert.equal(other.response.status, 409);
    assert.equal(other.body.payload.stored, 'unknown', 'the key holds a stored booking');
    assert.equal(stack.sandbox.store.bookings.length, before + 1);
  });

  test('a hand-off id one instance signed is accepted by the other (a key agreed through Redis), once', async () => {
    // The sandbox's booking page, as its `next.web` names it.
    const { a, b } = await pair(stack.upstream, redis.url, { bookingSite: `${stack.sandbox.publicUrl}/book` });
    // A brunch (the seed's deposit type) is handed off to the booking site: the hand-off gives an id.
    const brunch = 'type=64a1f0c2e4b0a1b2c3d4e602&date=2030-06-08&time=10:30&num_people=2&duration=120';
    const probe = await a.send(`/api/venues/${VENUE}/handoff?${brunch}`);
    const handoff = (probe.body.payload as { handoff: string }).handoff;
    const ret = (one: Instance, reference: string) =>
      one.proxy.fetch(
        new Request(
          `http://proxy.test/api/return?${new URLSearchParams({ venue: VENUE, page: 'http://proxy.test/venue', handoff, reference, status: 'complete' })}`,
        ),
      );
    const landed = await ret(b, 'DMN-7');
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.get('location'), 'http://proxy.test/venue?reference=DMN-7&status=complete');
    assert.equal((await ret(a, 'DMN-8')).status, 200, 'used by another reference on the other instance: unproven');
  });

  test('a stored: false answer on one instance frees the key for the other', async () => {
    const { a, b } = await pair(stack.upstream, redis.url);
    const time = await bookableTime(a);
    const key = `freed-${Date.now()}`;
    const refused = await a.send(
      '/api/bookings',
      postJson(booking(time, { type: '64a1f0c2e4b0a1b2c3d4e6ff' }), { 'idempotency-key': key }),
    );
    assert.ok(refused.response.status >= 400 && refused.response.status < 500, JSON.stringify(refused.body));
    assert.equal(refused.body.payload.stored, false);
    const corrected = await b.send('/api/bookings', postJson(booking(time), { 'idempotency-key': key }));
    assert.equal(corrected.response.status, 200, JSON.stringify(corrected.body));
    assert.equal(corrected.response.headers.get('idempotent-replayed'), null);
  });

  test('40 identical reads spread over both instances make one upstream call', async () => {
    const { a, b } = await pair(stack.upstream, redis.url);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).send(availability('19:00'))),
    );
    assert.ok(answers.every(({ response }) => response.status === 200));
    assert.equal(callsOf(a, b), 1);
    // Within the TTL, a later round is answered from the shared copy (and then the L1).
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).send(availability('19:00'))));
    assert.equal(callsOf(a, b), 1);
  });

  test('one client limited to 40 a minute gets 40 of 70 through, whichever instance it reaches', async () => {
    const { a, b } = await pair(stack.upstream, redis.url, { rateLimit: { limit: 40, windowMs: 60_000 } });
    const headers = { 'x-client': '203.0.113.7' };
    const answers = await Promise.all(
      Array.from({ length: 70 }, (_, i) => (i % 2 ? a : b).send(availability('19:00'), { headers })),
    );
    const statuses = answers.map(({ response }) => response.status);
    assert.equal(statuses.filter((status) => status === 200).length, 40);
    assert.equal(statuses.filter((status) => status === 429).length, 30);
    const refused = answers.find(({ response }) => response.status === 429)!.response;
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    // Another client has its own count.
    const other = await a.send(availability('19:00'), { headers: { 'x-client': '203.0.113.8' } });
    assert.equal(other.response.status, 200);
  });

  test('a client far below its limit is counted in batches: cached reads wait on no round trip, every hit reaches Redis', async () => {
    const { a, b, prefix } = await pair(stack.upstream, redis.url, { rateLimit: { limit: 1_000, windowMs: 60_000 } });
    const headers = { 'x-client': '203.0.113.20' };
    // The read is cached, and each instance has taken the client's count from Redis once.
    for (const one of [a, b]) assert.equal((await one.send(availability('18:00'), { headers })).response.status, 200);
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const commands = async () => Number(/total_commands_processed:(\d+)/.exec(await client.info('stats'))![1]);
      const before = await commands();
      for (let i = 0; i < 100; i++) {
        const { response } = await (i % 2 ? a : b).send(availability('18:00'), { headers });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('x-cache'), 'HIT');
      }
      // Counted per request, it took four commands each (rate-limiter-flexible's script and the three it runs).
      const spent = (await commands()) - before - 1;
      assert.ok(spent < 50, `${spent} Redis commands for 100 cached reads`);
      // Closing sends what is left: Redis has counted every hit.
      await Promise.all([a.state.close(), b.state.close()]);
      const keys = await client.keys(`${prefix}limit:api:*`);
      assert.equal(keys.length, 1);
      assert.equal(await client.get(keys[0]!), '102');
    } finally {
      await client.close();
    }
  });

  test('a client over its limit is refused on both instances, at most one batch per instance past it', async () => {
    // A limit of 100: batches of 5, counted in Redis at every hit from 75 on.
    const { a, b } = await pair(stack.upstream, redis.url, { rateLimit: { limit: 100, windowMs: 60_000 } });
    const headers = { 'x-client': '203.0.113.21' };
    const statuses: number[] = [];
    for (let wave = 0; wave < 15; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).send(availability('18:30'), { headers })),
      );
      statuses.push(...answers.map(({ response }) => response.status));
    }
    const allowed = statuses.filter((status) => status === 200).length;
    assert.ok(allowed >= 100 && allowed <= 110, `${allowed} of 300 let through`);
    assert.equal(statuses.filter((status) => status === 429).length, 300 - allowed);
    assert.deepEqual(
      statuses.slice(-100).filter((status) => status !== 429),
      [],
      'once over, refused on both',
    );
  });

  test('an upstream 429 met by one instance makes the other back off without calling', async () => {
    const limited = await serveSandbox(2);
    try {
      // No low water mark: the early reads go on until the upstream itself refuses.
      const { a, b } = await pair(limited.upstream, redis.url, { lowWater: 0 });
      assert.equal((await a.send(availability('18:00'))).response.status, 200);
      assert.equal((await a.send(availability('18:30'))).response.status, 200);
      assert.equal((await a.send(availability('19:00'))).response.status, 429, 'the sandbox refuses the third');
      const callsBefore = b.proxy.upstream.calls;
      const fromB = await b.send(availability('19:30'));
      assert.equal(fromB.response.status, 429);
      assert.ok(Number(fromB.response.headers.get('retry-after')) >= 1);
      assert.equal(b.proxy.upstream.calls, callsBefore, 'the other instance made no upstream call');
      assert.equal((await b.health()).store, 'ok');
    } finally {
      limited.server.close();
    }
  });

  test('few upstream requests left, seen by one instance, makes the other serve stale copies', async () => {
    // A quota of 10 an hour is below a low-water mark of 20 from the first answer on.
    const frugal = await serveSandbox(10);
    let clock = Date.now();
    try {
      const { a, b } = await pair(frugal.upstream, redis.url, { now: () => clock, cacheTtlMs: 15_000, lowWater: 20 });
      assert.equal((await a.send(availability('19:00'))).response.headers.get('x-cache'), 'MISS');
      clock += 20_000; // past the TTL, within the stale window
      const callsBefore = callsOf(a, b);
      const fromB = await b.send(availability('19:00'));
      assert.equal(fromB.response.status, 200);
      assert.equal(fromB.response.headers.get('x-cache'), 'STALE');
      assert.equal(callsOf(a, b), callsBefore, 'no upstream call while the quota is short');
    } finally {
      frugal.server.close();
    }
  });

  test('the upstream budget holds across instances: a hammering client and a crowd never cost a booking', async () => {
    const limited = await serveSandbox(50);
    try {
      const { a, b } = await pair(limited.upstream, redis.url, { upstreamQuota: 50 });
      const slots = (
        (await a.send(availability())).body.payload.validation.time.suggestedValues as {
          value: string;
          valid: boolean;
        }[]
      )
        .filter((item) => item.valid)
        .map((item) => item.value);
      const read = (one: Instance, people: number, client: string) =>
        one.send(`/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=${DATE}&num_people=${people}`, {
          headers: { 'x-client': client },
        });
      // One client on both instances: its miss limit (10 per 10 minutes) is counted once.
      const hammer = [];
      for (let people = 3; people <= 62; people++) hammer.push(await read(people % 2 ? a : b, people, '192.0.2.1'));
      assert.equal(hammer.filter(({ response }) => response.status === 200).length, 10, 'ten misses in all');
      // Forty addresses, three distinct reads each, alternating instances: the shared budget stops them.
      await Promise.all(
        Array.from({ length: 40 }, async (_, address) => {
          for (let step = 0; step < 3; step++)
            await read(step % 2 ? a : b, 100 + address * 3 + step, `198.51.100.${address}`);
        }),
      );
      assert.ok(callsOf(a, b) <= 40, `${callsOf(a, b)} upstream calls for early reads (their share is 40)`);
      // Guests book on either instance, with the final check first.
      for (const [index, time] of slots.slice(0, 4).entries()) {
        const one = index % 2 ? a : b;
        const client = { 'x-client': `203.0.113.${index}` };
        const check = await one.send(`${availability(time)}&duration=2`, { headers: client });
        assert.equal(check.response.status, 200, JSON.stringify(check.body));
        const booked = await one.send(
          '/api/bookings',
          postJson(booking(time, { first_name: `Guest${index}` }), {
            ...client,
            'idempotency-key': `budget-${index}-${Date.now()}`,
          }),
        );
        assert.equal(booked.response.status, 200, JSON.stringify(booked.body));
      }
      assert.equal(a.proxy.upstream.quota.blockedUntil + b.proxy.upstream.quota.blockedUntil, 0, 'no upstream 429');
    } finally {
      limited.server.close();
    }
  });

  test("a booking on one instance retires the date's complete checks on the other within a second", async () => {
    let clock = Date.now();
    const { a, b } = await pair(stack.upstream, redis.url, { now: () => clock });
    const time = await bookableTime(a);
    const check = `${availability(time)}&duration=2`;
    assert.equal((await a.send(check)).response.headers.get('x-cache'), 'MISS');
    assert.equal((await b.send(check)).response.headers.get('x-cache'), 'HIT', 'shared copy');
    const booked = await a.send('/api/bookings', postJson(booking(time, { first_name: 'Retire' })));
    assert.equal(booked.response.status, 200);
    clock += 1_001;
    const calls = callsOf(a, b);
    assert.equal((await b.send(check)).response.headers.get('x-cache'), 'MISS', 'asked again');
    assert.equal((await a.send(check)).response.headers.get('x-cache'), 'HIT', 'and shared again');
    assert.equal((await b.send(availability())).response.headers.get('x-cache'), 'HIT', "the date's times stay shared");
    assert.equal(callsOf(a, b), calls + 1);
  });

  test('the store holds nothing personal, and stored booking answers expire within 24 hours', async () => {
    const { a, prefix } = await pair(stack.upstream, redis.url);
    const time = await bookableTime(a);
    const key = `personal-${Date.now()}`;
    const booked = await a.send(
      '/api/bookings',
      postJson(booking(time), { 'idempotency-key': key, 'x-client': '198.51.100.9' }),
    );
    assert.equal(booked.response.status, 200);
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const keys = await client.keys(`${prefix}*`);
      assert.ok(
        keys.some((name) => name.startsWith(`${prefix}limit:`)),
        'limits are counted in Redis',
      );
      let answers = 0;
      for (const name of keys) {
        assert.ok(!name.includes('198.51.100.9'), 'no client address in key names');
        const type = await client.type(name);
        const value = type === 'string' ? ((await client.get(name)) ?? '') : '';
        if (name === `${prefix}key:${key}`) {
          answers++;
          // The reduced booking answer: what the confirmation shows, without the guest's name or email.
          assert.match(value, /reference\W+DMN-/);
          for (const personal of ['grace@example.com', 'Hopper', 'Grace', '198.51.100.9'])
            assert.ok(!value.includes(personal), 'the stored booking answer holds no personal data');
          const ttl = await client.pTTL(name);
          assert.ok(ttl > 0 && ttl <= 24 * 3_600_000, `booking answer expires within 24 h (${ttl} ms)`);
        } else if (name.startsWith(`${prefix}table:counts:`)) {
          // The counts /status shows are the venue's records, kept for good (one small table a
          // month): the day, venue, source and outcome of each, nothing of the guest.
          const fields = Object.keys(await client.hGetAll(name));
          assert.ok(fields.length > 0, `${name} counts the booking`);
          for (const field of fields)
            assert.match(
              field,
              /^\d{4}-\d{2}-\d{2}\|[A-Za-z0-9_-]+\|(page|qr|other|https?:\/\/[^|]+)\|(confirmed|enquiry|view)$/,
            );
        } else {
          for (const personal of ['grace@example.com', 'Hopper', 'Grace', '198.51.100.9'])
            assert.ok(!value.includes(personal), `${name} holds no personal data`);
          assert.ok((await client.pTTL(name)) > 0, `${name} expires`);
        }
      }
      assert.equal(answers, 1);
    } finally {
      await client.close();
    }
  });

  test('Redis killed mid-run: both keep answering on local state, /healthz says down, then they rejoin', async () => {
    const { a, b } = await pair(stack.upstream, redis.url);
    const time = await bookableTime(a);
    await redis.kill();
    try {
      await until(() => a.state.health() === 'down' && b.state.health() === 'down', 'both see Redis down');
      const health = await a.send('/healthz');
      assert.equal(health.response.status, 200);
      assert.deepEqual(health.body, { ok: true, upstream: 'ok', store: 'down' });
      assert.equal((await b.send(availability('20:00'))).response.status, 200, 'reads keep working');
      const key = `outage-${Date.now()}`;
      // A guest of its own: with the store away the proxy searches before it books, and the
      // identical bookings of the tests above would leave this one's outcome unknown (504).
      const guest = booking(time, { first_name: 'Outage' });
      const first = await a.send('/api/bookings', postJson(guest, { 'idempotency-key': key }));
      assert.equal(first.response.status, 200, 'bookings keep working');
      const repeat = await a.send('/api/bookings', postJson(guest, { 'idempotency-key': key }));
      assert.equal(
        repeat.response.headers.get('idempotent-replayed'),
        'true',
        'one booking per key within an instance',
      );
      // Many requests during the outage, one warning per instance.
      for (let i = 0; i < 5; i++) await a.send(availability('20:30'));
      const warnings = a.logger.lines.filter((line) => line.level === 'warn' && /shared state/.test(line.msg));
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
    } finally {
      await redis.restart();
    }
    await until(() => a.state.health() === 'ok' && b.state.health() === 'ok', 'both rejoin Redis');
    assert.ok(a.logger.lines.some((line) => line.level === 'info' && /is back/.test(line.msg)));
    const calls = callsOf(a, b);
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).send(availability('21:00'))));
    assert.equal(callsOf(a, b), calls + 1, 'sharing again after the rejoin');
  });

  test('Redis killed while a client is counted in batches: each instance limits it on its own again', async () => {
    const { a } = await pair(stack.upstream, redis.url, { rateLimit: { limit: 100, windowMs: 60_000 } });
    const headers = { 'x-client': '203.0.113.22' };
    // The instance has the client's count in hand, far below the limit: it counts locally.
    for (let i = 0; i < 3; i++) assert.equal((await a.send(availability('16:00'), { headers })).response.status, 200);
    await redis.kill();
    try {
      await until(() => a.state.health() === 'down', 'the instance sees Redis down');
      const statuses: number[] = [];
      for (let i = 0; i < 120; i++) statuses.push((await a.send(availability('16:00'), { headers })).response.status);
      assert.equal(statuses.filter((status) => status === 200).length, 100, 'the limit holds within the instance');
      assert.equal(statuses.at(-1), 429);
    } finally {
      await redis.restart();
    }
    await until(() => a.state.health() === 'ok', 'the instance rejoins Redis');
  });

  test('Redis slowed by a delaying relay: every call is cut short, answers keep coming, health says degraded', async () => {
    const relay = await startRelay(redis.port);
    try {
      const { a, b } = await pair(stack.upstream, relay.url, { storeTimeoutMs: 50 });
      relay.delayMs = 400;
      const read = await a.send(availability('17:00'));
      assert.equal(read.response.status, 200);
      assert.equal(a.state.health(), 'degraded');
      const health = await a.send('/healthz');
      assert.equal(health.response.status, 200);
      assert.equal((health.body as unknown as { store: string }).store, 'degraded');
      const time = await bookableTime(b);
      const booked = await b.send(
        '/api/bookings',
        postJson(booking(time), { 'idempotency-key': `slow-${Date.now()}` }),
      );
      assert.equal(booked.response.status, 200, 'bookings keep working');
      assert.equal(b.state.health(), 'degraded');
      assert.equal(
        a.logger.lines.filter((line) => line.level === 'warn' && /shared state/.test(line.msg)).length,
        1,
        'one warning for the change',
      );
      // Once Redis is quick again, the next probe finds it and sharing resumes.
      relay.delayMs = 0;
      await until(async () => {
        await a.send(availability('17:30'));
        return a.state.health() === 'ok';
      }, 'the instance probes Redis again and finds it quick');
    } finally {
      await relay.close();
    }
  });
});

describe('the Node entry with VENUE_BOOKING_REDIS_URL', { timeout: 60_000 }, () => {
  test('joins Redis and says so in /healthz', async () => {
    const redis = await startRedis();
    const port = await freePort();
    const entry = fileURLToPath(new URL('../../proxy/node/main.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port), VENUE_BOOKING_REDIS_URL: redis.url },
      stdio: 'ignore',
    });
    try {
      let store = '';
      await until(async () => {
        try {
          store = ((await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { store: string }).store;
        } catch {
          return false; // not listening yet
        }
        return store === 'ok';
      }, 'the entry reports Redis ok');
      assert.equal(store, 'ok');
    } finally {
      child.kill();
      await redis.kill();
    }
  });
});
