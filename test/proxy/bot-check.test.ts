/**
 * The bot check through the real bin on its embedded sandbox (issue 34, part 2): a booking with
 * a solved proof books; one without, with a filled honeypot, a forged or reused proof, or one for
 * another venue gets a decoy shaped like a booking, and nothing reaches the upstream; a proof
 * fetched from another address is refused plainly (the widget fetches a new one); a client that
 * keeps failing gets harder work; `VENUE_BOOKING_BOT_CHECK=off` turns it all off. Clients are told
 * apart by the trusted hop's `X-Forwarded-For`, as behind a load balancer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { configFromEnv } from '../../proxy/env.js';
import { addDays, londonDate } from '../../proxy/state/day-counts.js';
import { solvedProof } from '../support/bot-proof.js';
import { freePort, runBin } from './node-bin.js';
import { OTHER_VENUE, postJson, recordingProxy, TYPE, validBooking, VENUE } from './support.js';

const STARTED = /(Add the widget|not built)[^\n]*\n/;
const SITE = 'https://venue.example';
const TOKEN = 'operator-token-bot-check-0123';

/** The bin on a free port with `env`, trusting one hop's `X-Forwarded-For`. */
async function startBin(env: Record<string, string> = {}) {
  const port = await freePort();
  const run = await runBin(
    {
      PORT: String(port),
      VENUE_BOOKING_ORIGINS: SITE,
      VENUE_BOOKING_VENUES: `${VENUE},${OTHER_VENUE}`,
      VENUE_BOOKING_CLIENT_IP_HEADER: 'x-forwarded-for',
      VENUE_BOOKING_TRUSTED_HOPS: '1',
      VENUE_BOOKING_BOT_WORK: '2000',
      VENUE_BOOKING_METRICS_TOKEN: TOKEN,
      ...env,
    },
    [],
    STARTED,
  );
  assert.ok(run.code === null && STARTED.test(run.out), `the bin did not start: ${run.out}`);
  return { base: `http://127.0.0.1:${port}`, stop: run.stop, output: run.output };
}

let minute = 0;
/** A booking's details a week ahead, each at its own time. */
function details(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const time = `${17 + Math.floor(minute / 4)}:${String(15 * (minute++ % 4)).padStart(2, '0')}`;
  return {
    venue_id: VENUE,
    type: TYPE,
    date: addDays(londonDate(Date.now()), 7),
    time,
    num_people: 2,
    duration: 2,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    ...extra,
  };
}

/** The one way this file posts a booking: from `client`, with `body` and an optional key. */
async function post(base: string, client: string, body: Record<string, unknown>, key?: string) {
  const response = await fetch(`${base}/api/bookings`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: SITE,
      'x-forwarded-for': client,
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const proofFor = (base: string, client: string, venue = VENUE) =>
  solvedProof(fetch, base, venue, { origin: SITE, 'x-forwarded-for': client });

/** An operator's page, opened with the token (behind a declared hop, loopback proves nothing). */
const operatorPage = async (url: string) =>
  (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text();

/** A counter's value on `/metrics` (0 when absent). */
async function metric(base: string, series: string): Promise<number> {
  const text = await operatorPage(`${base}/metrics`);
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}
const UPSTREAM_BOOKINGS = 'venue_booking_upstream_requests_total{route="POST /bookings",outcome="ok"}';
const checks = (outcome: string) => `venue_booking_bot_checks_total{outcome="${outcome}"}`;

describe('the bot check, on by default', () => {
  let bin: Awaited<ReturnType<typeof startBin>>;
  before(async () => (bin = await startBin()));
  after(() => bin.stop());

  test('a booking with a solved proof books; its key retried is the same booking', async () => {
    const proof = await proofFor(bin.base, '203.0.113.1');
    assert.ok(proof, 'the check is on: a challenge is given');
    const body = details({ proof });
    const first = await post(bin.base, '203.0.113.1', body, 'key-guest-0001');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.match(first.body.payload.booking.reference, /^DMN-\d{11}$/);
    const again = await post(bin.base, '203.0.113.1', body, 'key-guest-0001');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.payload.booking.reference, first.body.payload.booking.reference);
    assert.equal(await metric(bin.base, UPSTREAM_BOOKINGS), 1);
    assert.equal(await metric(bin.base, checks('passed')), 2);
  });

  test('bots get a decoy shaped like a booking, and nothing reaches the upstream', async () => {
    const before = await metric(bin.base, UPSTREAM_BOOKINGS);
    const client = '203.0.113.2';
    const used = await proofFor(bin.base, client);
    const real = await post(bin.base, client, details({ proof: used }), 'key-first-0001');
    assert.equal(real.status, 200);
    const forged = structuredClone(await proofFor(bin.base, client)) as any;
    forged.solution.derivedKey = '00'.repeat(32);
    const cases: [string, Record<string, unknown>][] = [
      ['missing', details()],
      ['honeypot', details({ proof: await proofFor(bin.base, client), website: 'https://spam.example' })],
      ['invalid', details({ proof: forged })],
      ['invalid', details({ proof: await proofFor(bin.base, client, OTHER_VENUE) })],
      ['replayed', details({ proof: used })],
    ];
    let link = '';
    for (const [outcome, body] of cases) {
      const decoy = await post(bin.base, client, body, `key-${outcome}-${minute}`);
      link = decoy.body.payload.manage_url;
      assert.equal(decoy.status, 200, `${outcome}: ${JSON.stringify(decoy.body)}`);
      assert.match(decoy.body.payload.booking.reference, /^DMN-\d{11}$/, outcome);
      assert.equal(decoy.body.payload.bookingStatus, 'confirmed', outcome);
      assert.deepEqual(Object.keys(decoy.body.payload).sort(), Object.keys(real.body.payload).sort(), outcome);
    }
    assert.equal(await metric(bin.base, UPSTREAM_BOOKINGS), before + 1, 'only the real booking went upstream');
    // A decoy's manage link is as long as a real one and opens the one "not found" page.
    assert.ok(Math.abs(link.length - real.body.payload.manage_url.length) < 40, `${link} beside a real link`);
    assert.equal((await fetch(link)).status, 404);
    for (const outcome of ['missing', 'honeypot', 'replayed'])
      assert.equal(await metric(bin.base, checks(outcome)), 1, outcome);
    assert.equal(await metric(bin.base, checks('invalid')), 2);
    assert.equal(await metric(bin.base, 'venue_booking_bookings_total{outcome="decoy"}'), 5);
    const status = await operatorPage(`${bin.base}/status`);
    assert.match(status, /Sent by bots, answered with a made-up booking \(nothing booked\)<\/th><td>5</);
  });

  test('a proof fetched from another address is refused plainly, to be fetched again', async () => {
    const proof = await proofFor(bin.base, '203.0.113.3');
    const moved = await post(bin.base, '198.51.100.3', details({ proof }), 'key-moved-0001');
    assert.equal(moved.status, 403);
    assert.equal(moved.body.payload.stored, false);
    assert.equal(moved.body.payload.errors[0].code, 'bot_check_stale');
  });

  test('a client whose proofs keep failing is given harder work', async () => {
    const client = '203.0.113.4';
    const work = async () => ((await proofFor(bin.base, client))!.challenge.parameters.data as any).work;
    assert.equal(await work(), 2000);
    for (let i = 0; i < 3; i++) await post(bin.base, client, details(), `key-fail-${i}-0001`);
    assert.equal(await work(), 16_000);
  });
});

describe('VENUE_BOOKING_BOT_CHECK=off', () => {
  test('bookings need no proof and no challenge is given', async () => {
    const bin = await startBin({ VENUE_BOOKING_BOT_CHECK: 'off' });
    try {
      assert.equal(await proofFor(bin.base, '203.0.113.5'), null);
      const booked = await post(bin.base, '203.0.113.5', details(), 'key-off-0001');
      assert.equal(booked.status, 200);
      assert.equal(await metric(bin.base, UPSTREAM_BOOKINGS), 1);
      assert.equal(await metric(bin.base, checks('missing')), 0);
    } finally {
      bin.stop();
    }
  });

  test('the proxy warns at start when the check is off with live credentials, and only then', () => {
    const live = {
      VENUE_BOOKING_APP_ID: 'app',
      VENUE_BOOKING_API_KEY: 'key',
      VENUE_BOOKING_UPSTREAM: 'https://api.example.com/v4',
      VENUE_BOOKING_VENUES: VENUE,
      VENUE_BOOKING_BOOKING_SITE: 'https://book.example.com/book',
      VENUE_BOOKING_PUBLIC_URL: 'https://proxy.example.com',
    };
    const warned = (env: Record<string, string>) =>
      configFromEnv(env).warnings.some((warning) => warning.startsWith('VENUE_BOOKING_BOT_CHECK is off'));
    assert.equal(warned({ ...live, VENUE_BOOKING_BOT_CHECK: 'off' }), true);
    assert.equal(warned(live), false);
    assert.equal(warned({ VENUE_BOOKING_BOT_CHECK: 'off' }), false, 'the embedded sandbox books nothing real');
  });
});

describe('a proof past its time', () => {
  test("is refused plainly after 2 hours by the proxy's own clock, and a fresh one books", async () => {
    let now = Date.parse('2030-05-01T10:00:00Z');
    const { sendAsIs, calls } = recordingProxy({ now: () => now });
    const proof = await solvedProof(sendAsIs, '', VENUE);
    now += 2 * 3_600_000 + 1000;
    const late = await sendAsIs(
      '/api/bookings',
      postJson(validBooking({ proof }), { 'idempotency-key': 'key-late-0001' }),
    );
    assert.equal(late.status, 403);
    assert.equal(((await late.json()) as any).payload.errors[0].code, 'bot_check_stale');
    assert.equal(calls.filter((call) => call.method === 'POST').length, 0);
    const fresh = await solvedProof(sendAsIs, '', VENUE);
    const booked = await sendAsIs(
      '/api/bookings',
      postJson(validBooking({ proof: fresh }), { 'idempotency-key': 'key-late-0001' }),
    );
    assert.equal(booked.status, 200);
    assert.equal(calls.filter((call) => call.method === 'POST').length, 1);
  });
});
