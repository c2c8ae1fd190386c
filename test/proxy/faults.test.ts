/**
 * The fault suite: a scripted upstream that is slow, down, failing (5xx), sending garbage,
 * refusing our credentials, or rate limiting us (429, few remaining). Also the cache (TTL and
 * coalescing), the per-client rate limit and the key-leak guard. Clocks are injected, so nothing
 * here waits for real time except the timeout case (50 ms).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  API_KEY,
  assertNoLeak,
  postJson,
  recordingProxy,
  upstreamJson,
  validBooking,
  VENUE,
  TYPE,
  type Script,
} from './support.js';

const A = `/api/venues/${VENUE}/booking-availability?num_people=2&date=2030-06-01`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Body = { payload: { message: string; errors: unknown[]; stored?: unknown } };

/** A clock the test moves by hand. */
function manualClock(start = Date.UTC(2030, 0, 1, 12)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

async function expectFault(script: Script, status: number, messagePart: RegExp, stored?: unknown) {
  const { send, logger } = recordingProxy({ timeoutMs: 50 }, script);
  assert.equal(
    ((await (await send('/healthz')).json()) as { upstream: string }).upstream,
    'ok',
    'healthy before any call',
  );
  const read = await send(A);
  assert.equal(read.status, status);
  const readBody = JSON.parse(await assertNoLeak(read, logger)) as Body;
  assert.match(readBody.payload.message, messagePart);
  assert.equal(read.headers.get('content-type'), 'application/json; charset=utf-8');
  const booking = await send('/api/bookings', postJson(validBooking(), { 'idempotency-key': 'fault-key-0001' }));
  assert.equal(booking.status, status);
  const bookingBody = JSON.parse(await assertNoLeak(booking, logger)) as Body;
  assert.equal(bookingBody.payload.stored, stored);
  const health = await send('/healthz');
  const misconfigured = /misconfigured/.test(messagePart.source);
  assert.equal(health.status, misconfigured ? 503 : 200);
  assert.deepEqual(await health.json(), {
    ok: !misconfigured,
    upstream: misconfigured ? 'misconfigured' : 'failing',
    store: 'memory',
  });
  return { logger, readBody, bookingBody };
}

describe('upstream faults become clean envelopes', () => {
  test('slow upstream → 504, booking stored unknown', async () => {
    await expectFault(
      async () => {
        await sleep(200);
        return upstreamJson({});
      },
      504,
      /did not answer in time/,
      'unknown',
    );
  });

  test('slow body (headers fast, body never ends) → 504', async () => {
    const stalled = () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"payload":'));
          },
        }),
        { status: 200 },
      );
    await expectFault(stalled, 504, /did not answer in time/, 'unknown');
  });

  test('unreachable upstream → 502, booking not stored', async () => {
    await expectFault(
      () => {
        throw new TypeError('fetch failed');
      },
      502,
      /could not be reached/,
      false,
    );
  });

  test('5xx with an HTML page → 502 without the page, booking stored unknown', async () => {
    const { readBody } = await expectFault(
      () => new Response('<html>Bad gateway at upstream-host-17</html>', { status: 503 }),
      502,
      /had a problem/,
      'unknown',
    );
    assert.ok(!JSON.stringify(readBody).includes('upstream-host-17'));
  });

  test('garbage 200 (not JSON) → 502', async () => {
    await expectFault(() => new Response('ok', { status: 200 }), 502, /could not be read/, 'unknown');
  });

  test('JSON without an envelope → 502', async () => {
    await expectFault(() => Response.json([1, 2, 3]), 502, /could not be read/, 'unknown');
  });

  test('401/403 upstream → 502 "misconfigured"; details only in the server log', async () => {
    for (const status of [401, 403]) {
      const { logger, readBody } = await expectFault(
        () => upstreamJson({ message: `Credentials ${API_KEY} rejected for app test-app` }, status),
        502,
        /misconfigured/,
        false,
      );
      assert.ok(!JSON.stringify(readBody).includes('rejected'));
      const line = logger.lines.find((entry) => entry.fault === 'auth');
      assert.ok(line, 'an error line for the operator');
      assert.equal(line.level, 'error');
      assert.match(String(line.detail), /rejected/);
    }
  });

  test("upstream 400 is relayed as field errors in the proxy's words, booking not stored", async () => {
    const { send } = recordingProxy({}, () =>
      upstreamJson(
        {
          message: 'Unknown booking type',
          errors: [{ code: 'invalid_type', message: 'Unknown booking type', fields: ['type'], extra: 'dropped' }],
        },
        400,
      ),
    );
    const response = await send('/api/bookings', postJson(validBooking()));
    assert.equal(response.status, 400);
    const body = (await response.json()) as Body;
    assert.deepEqual(body.payload, {
      message: 'Type: please check this.',
      errors: [{ code: 'invalid_type', message: 'Type: please check this.', fields: ['type'] }],
      stored: false,
    });
  });

  test('an upstream answer containing the key is redacted and logged', async () => {
    const { send, logger } = recordingProxy({}, () => upstreamJson({ valid: true, debug: `auth=${API_KEY}` }));
    const response = await send(A);
    const text = await assertNoLeak(response, logger);
    assert.match(text, /\[redacted\]/);
    assert.ok(logger.lines.some((line) => /contained the API key/.test(line.msg)));
  });
});

describe('sparing the upstream quota', () => {
  test('429 → client 429 with Retry-After; no upstream call until it passes; stale answers served', async () => {
    const clock = manualClock();
    let limited = false;
    const { send, calls } = recordingProxy({ now: clock.now, cacheTtlMs: 1000 }, () =>
      limited ? upstreamJson({ message: 'Rate limit' }, 429, { 'retry-after': '120' }) : upstreamJson({ valid: true }),
    );
    assert.equal((await send(A)).status, 200); // cached
    limited = true;
    const other = await send(`${A}&time=19:00`);
    assert.equal(other.status, 429);
    assert.equal(other.headers.get('retry-after'), '120');
    assert.equal(calls.length, 2);
    // Blocked: an uncached read is refused without calling; the cached one is served stale.
    clock.advance(5000);
    const uncached = await send(`${A}&time=20:00`);
    assert.equal(uncached.status, 429);
    assert.ok(Number(uncached.headers.get('retry-after')) > 100);
    const stale = await send(A);
    assert.equal(stale.status, 200);
    assert.equal(stale.headers.get('x-cache'), 'STALE');
    const booking = await send('/api/bookings', postJson(validBooking()));
    assert.equal(booking.status, 429);
    assert.equal(((await booking.json()) as Body).payload.stored, false);
    assert.equal(calls.length, 2, 'no upstream call while blocked');
    // After Retry-After the upstream is called again.
    limited = false;
    clock.advance(120_000);
    assert.equal((await send(`${A}&time=20:00`)).status, 200);
    assert.equal(calls.length, 3);
  });

  test('few requests remaining → expired cache entries are served instead of calling', async () => {
    const clock = manualClock();
    let remaining = 1000;
    const { send, calls } = recordingProxy({ now: clock.now, cacheTtlMs: 1000, lowWater: 20 }, () =>
      upstreamJson({ valid: true }, 200, {
        'x-ratelimit-limit': '1000',
        'x-ratelimit-remaining': String(--remaining),
        'x-ratelimit-reset': new Date(clock.now() + 3_600_000).toISOString(),
      }),
    );
    await send(A);
    clock.advance(2000); // expired: served stale while one background call refreshes it
    assert.equal((await send(A)).headers.get('x-cache'), 'STALE');
    await sleep(20);
    assert.equal(calls.length, 2, 'plenty left: an expired entry is refreshed');
    remaining = 10;
    clock.advance(2000);
    await send(A); // its background refresh learns that few are left
    await sleep(20);
    clock.advance(2000);
    const frugal = await send(A);
    assert.equal(frugal.headers.get('x-cache'), 'STALE');
    assert.equal(calls.length, 3);
    const health = (await (await send('/healthz')).json()) as { upstream: string };
    assert.equal(health.upstream, 'frugal');
  });

  test('5xx on refresh → the stale copy is served', async () => {
    const clock = manualClock();
    let broken = false;
    const { send } = recordingProxy({ now: clock.now, cacheTtlMs: 1000 }, () =>
      broken ? new Response('no', { status: 500 }) : upstreamJson({ valid: true }),
    );
    await send(A);
    broken = true;
    clock.advance(2000);
    const response = await send(A);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-cache'), 'STALE');
  });
});

describe('cache and coalescing', () => {
  test('identical reads in flight share one upstream call; within the TTL too; after it, one more', async () => {
    const clock = manualClock();
    const { send, calls } = recordingProxy({ now: clock.now, cacheTtlMs: 10_000 }, async () => {
      await sleep(20);
      return upstreamJson({ valid: true });
    });
    const path = `/api/venues/${VENUE}/booking-availability`;
    const read = `${path}?type=${TYPE}&num_people=2&date=2030-06-01`;
    const answers = await Promise.all(Array.from({ length: 25 }, () => send(read)));
    assert.ok(answers.every((answer) => answer.status === 200));
    assert.equal(calls.length, 1);
    assert.deepEqual(new Set(answers.map((answer) => answer.headers.get('x-cache'))), new Set(['MISS', 'COALESCED']));
    // The same parameters in another order, and through POST in a third: the same canonical request.
    const reordered = await send(`${path}?date=2030-06-01&num_people=2&type=${TYPE}`);
    const posted = await send(path, postJson({ num_people: 2, date: '2030-06-01', type: TYPE }));
    assert.deepEqual([reordered.status, posted.status], [200, 200]);
    assert.deepEqual([reordered.headers.get('x-cache'), posted.headers.get('x-cache')], ['HIT', 'HIT']);
    assert.equal(calls.length, 1);
    clock.advance(10_001);
    await send(read);
    assert.equal(calls.length, 2);
  });

  test('faults are not cached', async () => {
    let fail = true;
    const { send, calls } = recordingProxy({}, () =>
      fail ? new Response('x', { status: 500 }) : upstreamJson({ valid: true }),
    );
    assert.equal((await send(A)).status, 502);
    fail = false;
    assert.equal((await send(A)).status, 200);
    assert.equal(calls.length, 2);
  });
});

describe('per-client rate limit', () => {
  test('429 with Retry-After and X-RateLimit-* per client; other clients unaffected', async () => {
    const clock = manualClock(Date.UTC(2030, 0, 1, 12, 0, 0));
    const { send, calls } = recordingProxy({
      now: clock.now,
      rateLimit: { limit: 3, windowMs: 60_000 },
      clientKey: (request) => request.headers.get('x-test-client') ?? undefined,
    });
    const as = (client: string) => send(A, { headers: { 'x-test-client': client } });
    for (let i = 0; i < 3; i++) assert.equal((await as('a')).status, 200);
    const refused = await as('a');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.equal(refused.headers.get('x-ratelimit-limit'), '3');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(refused.headers.get('x-ratelimit-reset'), '2030-01-01T12:01:00Z');
    assert.equal((await as('b')).status, 200);
    assert.equal(calls.length, 1, 'one cached upstream read served everyone');
    clock.advance(60_000);
    assert.equal((await as('a')).status, 200);
  });

  test('bookings have their own tighter limit, answered with stored: false', async () => {
    const { send } = recordingProxy({ bookingRateLimit: { limit: 1, windowMs: 600_000 } }, () =>
      upstreamJson({ booking: { reference: 'DMN-1' } }),
    );
    assert.equal((await send('/api/bookings', postJson(validBooking()))).status, 200);
    const second = await send('/api/bookings', postJson(validBooking()));
    assert.equal(second.status, 429);
    assert.equal(((await second.json()) as Body).payload.stored, false);
  });
});
