/**
 * Quota told to clients: the client's own limit in the IETF draft's `RateLimit-Policy` and
 * `RateLimit` fields (beside `X-RateLimit-*`), exposed to pages through CORS; and `Retry-After` on
 * every 429 and 503 the proxy makes: its limits, its miss limit, its upstream budget, a spared
 * upstream, the upstream's own 429 and the back-off after it, and the unready probes. Each
 * refusal is counted under its reason.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Metrics, total } from '../../proxy/core/metrics.js';
import { ORIGIN, postJson, recordingProxy, upstreamJson, VENUE } from './support.js';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 15);
const read = (people = 2) => `/api/venues/${VENUE}/booking-availability?num_people=${people}`;
const booking = {
  venue_id: VENUE,
  type: '64a1f0c2e4b0a1b2c3d4e601',
  date: '2030-01-02',
  time: '19:00',
  num_people: 2,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
};

/** Asserts a 429 or 503 says when to come back, and that `RateLimit`'s reset agrees with it. */
function assertRetryAfter(response: Response, what: string): number {
  assert.ok([429, 503].includes(response.status), `${what}: ${response.status}`);
  const seconds = Number(response.headers.get('retry-after'));
  assert.ok(Number.isInteger(seconds) && seconds >= 1, `${what}: Retry-After ${response.headers.get('retry-after')}`);
  const reset = /;t=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1];
  if (reset !== undefined && /rate_limit/.test(what)) assert.equal(Number(reset), seconds, `${what}: t = Retry-After`);
  return seconds;
}

describe('RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers)', () => {
  test("a read carries the client's request limit, counting down to a 429 whose reset is its Retry-After", async () => {
    const metrics = new Metrics();
    const { send } = recordingProxy({ now: () => NOW, rateLimit: { limit: 2, windowMs: 60_000 }, metrics });
    const first = await send(read(), { headers: { origin: ORIGIN } });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-policy'), '"requests";q=2;w=60');
    assert.equal(first.headers.get('ratelimit'), '"requests";r=1;t=45');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '1');
    const exposed = first.headers.get('access-control-expose-headers')!.split(',');
    assert.ok(exposed.includes('RateLimit') && exposed.includes('RateLimit-Policy'), 'a page may read them');
    assert.equal((await send(read())).headers.get('ratelimit'), '"requests";r=0;t=45');
    const refused = await send(read());
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('ratelimit'), '"requests";r=0;t=45');
    assert.equal(assertRetryAfter(refused, 'rate_limit'), 45);
    assert.equal(total(await metrics.snapshot(), 'refusals_total', { reason: 'rate_limit' }), 1);
  });

  test('a booking names both policies and answers under the booking limit', async () => {
    const metrics = new Metrics();
    const { send } = recordingProxy(
      { now: () => NOW, bookingRateLimit: { limit: 1, windowMs: 600_000 }, metrics },
      () => upstreamJson({ booking: { reference: 'ABC123', status: 'complete' }, bookingStatus: 'confirmed' }, 201),
    );
    const booked = await send('/api/bookings', postJson(booking, { origin: ORIGIN }));
    assert.equal(booked.status, 201);
    assert.equal(booked.headers.get('ratelimit-policy'), '"requests";q=100000;w=60, "bookings";q=1;w=600');
    assert.equal(booked.headers.get('ratelimit'), '"bookings";r=0;t=585');
    const again = await send('/api/bookings', postJson(booking, { origin: ORIGIN }));
    assert.equal(again.status, 429);
    assert.equal(again.headers.get('ratelimit'), '"bookings";r=0;t=585');
    assertRetryAfter(again, 'booking_rate_limit');
    const snapshot = await metrics.snapshot();
    assert.equal(total(snapshot, 'refusals_total', { reason: 'booking_rate_limit' }), 1);
    assert.equal(total(snapshot, 'bookings_total', { outcome: 'confirmed' }), 1);
  });
});

describe('invalid bookings spend no booking slot (issue 24, finding 6)', () => {
  test('400s for bad fields, a bad key or an unknown venue leave the one booking of the limit for the real one', async () => {
    const { send, calls } = recordingProxy({ now: () => NOW, bookingRateLimit: { limit: 1, windowMs: 600_000 } }, () =>
      upstreamJson({ booking: { reference: 'ABC123', status: 'complete' }, bookingStatus: 'confirmed' }, 201),
    );
    const invalid: [Record<string, unknown>, Record<string, string>][] = [
      [{ ...booking, email: 'not an email' }, {}],
      [{ ...booking, num_people: 'many' }, {}],
      [{ ...booking, venue_id: '64a1f0c2e4b0a1b2c3d4e5ff' }, {}],
      [booking, { 'idempotency-key': 'bad key!' }],
    ];
    for (const [body, headers] of invalid) {
      const refused = await send('/api/bookings', postJson(body, { origin: ORIGIN, ...headers }));
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.headers.get('ratelimit-policy'), '"requests";q=100000;w=60', 'counted as a request only');
    }
    const booked = await send('/api/bookings', postJson(booking, { origin: ORIGIN }));
    assert.equal(booked.status, 201);
    assert.equal(booked.headers.get('ratelimit'), '"bookings";r=0;t=585');
    assert.equal(calls.filter((call) => call.method === 'POST').length, 1);
  });
});

describe('Retry-After on every 429 and 503 the proxy makes', () => {
  test('the miss limit, the upstream budget and a spared upstream', async () => {
    const metrics = new Metrics();
    const misses = recordingProxy({ missLimit: { limit: 1, windowMs: 600_000 }, metrics });
    assert.equal((await misses.send(read(2))).status, 200);
    assertRetryAfter(await misses.send(read(3)), 'miss_limit');

    // A quota of 10 with a reserve of 5: early reads may spend 5 calls an hour.
    const budget = recordingProxy({ upstreamQuota: 10, upstreamReserve: 5, metrics });
    for (let people = 1; people <= 5; people++) assert.equal((await budget.send(read(people))).status, 200);
    assertRetryAfter(await budget.send(read(6)), 'upstream_budget');

    // The upstream says few calls are left: early reads are spared.
    const short = recordingProxy({ metrics, lowWater: 50 }, () =>
      upstreamJson({ valid: true }, 200, {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '40',
        'x-ratelimit-reset': new Date(Date.now() + 600_000).toISOString(),
      }),
    );
    assert.equal((await short.send(read(2))).status, 200);
    assertRetryAfter(await short.send(read(3)), 'upstream_spared');

    const snapshot = await metrics.snapshot();
    for (const reason of ['miss_limit', 'upstream_budget', 'upstream_spared'])
      assert.equal(total(snapshot, 'refusals_total', { reason }), 1, reason);
  });

  test("the upstream's own 429, and the back-off after it", async () => {
    const metrics = new Metrics();
    const { send, calls } = recordingProxy({ metrics }, () =>
      upstreamJson({ message: 'slow down' }, 429, { 'retry-after': '120' }),
    );
    const relayed = await send(read(2));
    assert.equal(assertRetryAfter(relayed, 'upstream 429'), 120);
    const backoff = await send('/api/bookings', postJson(booking, { origin: ORIGIN }));
    assertRetryAfter(backoff, 'upstream_backoff');
    assert.equal(calls.length, 1, 'the back-off made no call');
    const snapshot = await metrics.snapshot();
    assert.equal(total(snapshot, 'upstream_requests_total', { outcome: 'limited' }), 1);
    assert.equal(total(snapshot, 'refusals_total', { reason: 'upstream_backoff' }), 1);
    assert.equal(total(snapshot, 'bookings_total', { outcome: 'failed' }), 1);
  });
});
