/**
 * The operator's view of a running proxy: `/metrics` from the real Node entry (prom-client), which
 * counts a booking, a cached read, a refused origin and a rate-limited client and which Debian's
 * `promtool check metrics` accepts; the operator pages open on loopback only, elsewhere with the
 * token (a wrong one gets 401 and learns nothing); `/livez` and `/readyz` with a real Redis store
 * up and down, and with an upstream that refuses the App ID; the histograms, counted in memory,
 * render as prom-client's own Histogram would.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { Metrics, METRICS, memoryBackend, total } from '../../proxy/core/metrics.js';
import { configFromEnv, ConfigError } from '../../proxy/env.js';
import { isLoopbackAddress, presentedToken, sameSecret } from '../../proxy/guards/operator.js';
import { prometheusBackend } from '../../proxy/node/prometheus.js';
import { createStack } from '../../proxy/stack.js';
import { createRedisState } from '../../proxy/state/redis.js';
import type { SharedState } from '../../proxy/state/shared.js';
import { startRedis, until, type RedisServer } from '../support/redis.js';
import { freePort, runBin } from './node-bin.js';
import { memoryLogger, postJson, recordingProxy, TYPE, upstreamJson, VENUE, withProof } from './support.js';

const LISTENING = /(Add the widget|not built)[^\n]*\n/;
const TOKEN = 'op-token-0123456789abcdef';

/** Runs `promtool check metrics` on a scrape; resolves with its exit code and what it said. */
function promtool(text: string): Promise<{ code: number | null; said: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, said }));
    child.stdin.end(text);
  });
}

/** The value of one series in a Prometheus text scrape (labels in the order written), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics of the Node entry', { timeout: 60_000 }, () => {
  let base = '';
  let stop = () => {};
  before(async () => {
    const port = await freePort();
    // The embedded sandbox, with a small per-client limit so that one client can reach it.
    const run = await runBin({ PORT: String(port), VENUE_BOOKING_RATE_LIMIT: '40' }, [], LISTENING);
    base = `http://127.0.0.1:${port}`;
    stop = run.stop;
  });
  after(() => stop());

  test('counts a booking, a cached read, a refused origin and a rate-limited client; promtool accepts it', async () => {
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${path}`, { headers });
      return { status: response.status, body: await response.json() };
    };
    const read = `/api/venues/${VENUE}/booking-availability?type=${TYPE}&num_people=2`;
    const dates = (await get(read)).body.payload.validation.date.suggestedValues as { value: string; valid: boolean }[];
    const date = dates.filter((item) => item.valid)[1]!.value;
    const withDate = `${read}&date=${date}`;
    const times = (await get(withDate)).body.payload.validation.time.suggestedValues as {
      value?: string;
      time?: string;
      valid: boolean;
    }[];
    const slot = times.find((item) => item.valid)!;
    // A cached read: the same read again.
    assert.equal((await get(withDate)).status, 200);
    // With its proof of work, as the widget sends it.
    const booked = await fetch(
      `${base}/api/bookings`,
      await withProof(fetch, `${base}/api/bookings`, {
        ...postJson(
          {
            venue_id: VENUE,
            type: TYPE,
            date,
            time: slot.time ?? slot.value,
            num_people: 2,
            first_name: 'Grace',
            last_name: 'Hopper',
            email: 'grace@example.com',
          },
          // The embedded stack's own origin (its public URL names localhost).
          { origin: base.replace('127.0.0.1', 'localhost'), 'idempotency-key': `metrics-${Date.now()}` },
        ),
      }),
    );
    assert.equal(booked.status, 200, await booked.clone().text());
    // A refused origin.
    assert.equal((await get(read, { origin: 'https://not-listed.example' })).status, 403);
    // A rate-limited client: the limit is 40 a minute.
    let limited = 0;
    for (let i = 0; i < 45 && !limited; i++) if ((await get(withDate)).status === 429) limited++;
    assert.equal(limited, 1, 'the client reached its limit');

    const scrape = await fetch(`${base}/metrics`);
    assert.equal(scrape.status, 200);
    assert.match(scrape.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    const text = await scrape.text();
    assert.ok((sample(text, 'venue_booking_bookings_total{outcome="confirmed"}') ?? 0) >= 1, 'the booking');
    assert.ok((sample(text, 'venue_booking_cache_reads_total{result="hit"}') ?? 0) >= 1, 'the cached read');
    assert.equal(sample(text, 'venue_booking_refusals_total{reason="forbidden_origin"}'), 1, 'the refused origin');
    assert.equal(sample(text, 'venue_booking_refusals_total{reason="rate_limit"}'), 1, 'the rate-limited client');
    assert.ok(
      (sample(
        text,
        'venue_booking_requests_total{route="/api/venues/:venue/booking-availability",method="GET",code="429"}',
      ) ?? 0) >= 1,
    );
    assert.ok(
      (sample(text, 'venue_booking_upstream_requests_total{route="POST /bookings",outcome="ok"}') ?? 0) >= 1,
      'the booking reached the upstream',
    );
    assert.ok(
      (sample(text, 'venue_booking_upstream_duration_seconds_count{route="POST /bookings"}') ?? 0) >= 1,
      'and was timed',
    );
    assert.ok(sample(text, 'venue_booking_upstream_ratelimit_remaining')! > 0, "the upstream's quota, as it said");
    assert.equal(sample(text, 'venue_booking_store_state{state="memory"}'), 1);
    assert.match(text, /^process_cpu_seconds_total /m, "prom-client's process metrics beside ours");
    // Bounded labels: no venue id, no client address anywhere in the scrape.
    assert.doesNotMatch(text, new RegExp(VENUE));
    assert.doesNotMatch(text, /127\.0\.0\.1/);
    const checked = await promtool(text);
    assert.equal(checked.code, 0, checked.said);
  });

  test('loopback opens the pages without a token; a forwarded request is not loopback', async () => {
    for (const path of ['/metrics', '/status', '/embed', '/embed/studio.js', '/embed/pages.css'])
      assert.equal((await fetch(`${base}${path}`)).status, 200, path);
    const forwarded = await fetch(`${base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(forwarded.status, 401);
    assert.equal(forwarded.headers.get('www-authenticate'), 'Bearer realm="venue-booking"');
  });

  test('any header of the forwarding families means "not this machine" (fails closed)', async () => {
    const families = [
      'Forwarded',
      'Via',
      'X-Forwarded-For',
      'X-Forwarded-Host',
      'X-Forwarded-Proto',
      'X-Real-IP',
      'X-Client-IP',
      'Fastly-Client-IP',
      'X-Cluster-Client-IP',
      'True-Client-IP',
      'CF-Connecting-IP',
      'X-Original-Forwarded-For',
      'X-Original-URL',
      'X-Envoy-External-Address',
      'X-Amzn-Trace-Id',
    ];
    for (const name of families)
      for (const path of ['/metrics', '/status', '/embed']) {
        const response = await fetch(`${base}${path}`, { headers: { [name]: '203.0.113.9' } });
        assert.equal(response.status, 401, `${name} on ${path}`);
      }
    // The headers a browser or a scraper sends on its own still open them.
    const browser = await fetch(`${base}/status`, {
      headers: {
        'accept-language': 'en',
        'sec-fetch-site': 'none',
        'user-agent': 'Mozilla/5.0',
        'cache-control': 'no-cache',
      },
    });
    assert.equal(browser.status, 200);
  });
});

describe('an operator port of its own (VENUE_BOOKING_OPERATOR_PORT)', { timeout: 60_000 }, () => {
  test('serves the pages on 127.0.0.1 only, and nothing else; the public port then needs the token', async () => {
    const [port, operatorPort] = [await freePort(), await freePort()];
    const run = await runBin(
      { PORT: String(port), VENUE_BOOKING_OPERATOR_PORT: String(operatorPort), VENUE_BOOKING_METRICS_TOKEN: TOKEN },
      [],
      /Operator port[^\n]*\n/,
    );
    try {
      await until(async () => (await fetch(`http://127.0.0.1:${port}/livez`).catch(() => null))?.ok === true, 'live');
      const operator = `http://127.0.0.1:${operatorPort}`;
      for (const path of ['/metrics', '/status', '/embed'])
        assert.equal((await fetch(`${operator}${path}`)).status, 200, path);
      assert.equal((await fetch(`${operator}/api/venues/${VENUE}`)).status, 404, 'the API is not on it');
      assert.equal((await fetch(`${operator}/status`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status, 401);
      // The public port, even from this machine, opens them with the token only.
      const public_ = `http://127.0.0.1:${port}`;
      assert.equal((await fetch(`${public_}/status`)).status, 401);
      const scrape = await fetch(`${public_}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(scrape.status, 200);
      assert.equal((await fetch(`${public_}/api/venues/${VENUE}/booking-availability?num_people=2`)).status, 200);
      const outward = Object.values(networkInterfaces())
        .flat()
        .find((address) => address && !address.internal && address.family === 'IPv4')?.address;
      if (outward)
        assert.equal(
          await fetch(`http://${outward}:${operatorPort}/status`).then(
            (response) => response.status,
            () => null,
          ),
          null,
          'not listening elsewhere',
        );
    } finally {
      run.stop();
    }
  });
});

describe('the operator pages off loopback', { timeout: 60_000 }, () => {
  let base = '';
  let stop = () => {};
  before(async () => {
    const port = await freePort();
    // Behind a declared reverse proxy: no request is local, only the token opens the pages.
    const run = await runBin(
      {
        PORT: String(port),
        VENUE_BOOKING_CLIENT_IP_HEADER: 'x-forwarded-for',
        VENUE_BOOKING_METRICS_TOKEN: TOKEN,
      },
      [],
      LISTENING,
    );
    base = `http://127.0.0.1:${port}`;
    stop = run.stop;
  });
  after(() => stop());

  test('need the token: none or a wrong one gets 401 and learns nothing; the right one opens them', async () => {
    for (const [index, path] of ['/metrics', '/status', '/embed', '/embed/studio.js'].entries()) {
      // One client per page: wrong tokens are throttled per client (the next test).
      const client = `198.51.100.${index + 1}`;
      for (const authorization of [
        undefined,
        'Bearer wrong-token-0123456789',
        `Bearer ${TOKEN}x`,
        `Basic ${btoa('op:nope')}`,
      ]) {
        const headers: Record<string, string> = { 'x-forwarded-for': client };
        if (authorization) headers.authorization = authorization;
        const response = await fetch(`${base}${path}`, { headers });
        assert.equal(response.status, 401, `${path} ${authorization}`);
        const body = await response.text();
        assert.ok(!body.includes(TOKEN) && !body.includes('venue_booking_') && !body.includes(VENUE), body);
        assert.ok(!body.includes('wrong-token') && !body.includes('nope'), 'the wrong token is not echoed');
        assert.equal(JSON.parse(body).payload.errors[0].code, 'unauthorized');
      }
    }
    const challenge = await fetch(`${base}/embed`);
    assert.match(challenge.headers.get('www-authenticate')!, /^Basic realm=/, 'a browser asks for the token');
    const scrape = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(scrape.status, 200);
    assert.match(await scrape.text(), /^# TYPE venue_booking_requests_total counter$/m);
    const page = await fetch(`${base}/status`, { headers: { authorization: `Basic ${btoa(`staff:${TOKEN}`)}` } });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Requests to the booking service left/);
    // The API itself is not behind the token.
    assert.equal((await fetch(`${base}/api/venues/${VENUE}/booking-availability?num_people=2`)).status, 200);
  });

  test('wrong tokens are throttled per client: 429 with Retry-After, counted; other clients still get in', async () => {
    const guess = (client: string, token: string) =>
      fetch(`${base}/metrics`, { headers: { 'x-forwarded-for': client, authorization: `Bearer ${token}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await guess('203.0.113.77', `guess-${i}-0123456789`)).status);
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
    assert.deepEqual(statuses.slice(10), Array(30).fill(429));
    const throttled = await guess('203.0.113.77', TOKEN);
    assert.equal(throttled.status, 429, 'even the right token waits: the guesser learns nothing');
    const retryAfter = Number(throttled.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    const other = await guess('203.0.113.78', TOKEN);
    assert.equal(other.status, 200);
    const text = await other.text();
    assert.ok((sample(text, 'venue_booking_refusals_total{reason="bad_token"}') ?? 0) >= 10, 'wrong tokens counted');
    assert.ok((sample(text, 'venue_booking_refusals_total{reason="token_throttled"}') ?? 0) >= 31, 'throttled counted');
  });
});

describe('the operator rule (guards/operator.ts)', () => {
  test('loopback addresses, presented tokens, and a comparison without an early exit', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      assert.equal(isLoopbackAddress(address), true, address);
    for (const address of ['10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', '::2', '1127.0.0.1'])
      assert.equal(isLoopbackAddress(address), false, address);
    assert.equal(presentedToken(`Bearer ${TOKEN}`), TOKEN);
    assert.equal(presentedToken(`basic ${btoa(`any:${TOKEN}`)}`), TOKEN);
    assert.equal(presentedToken('Basic !!!'), null);
    assert.equal(presentedToken('Digest x'), null);
    assert.equal(presentedToken(null), null);
    assert.equal(sameSecret(TOKEN, TOKEN), true);
    for (const other of ['', TOKEN.slice(0, -1), `${TOKEN}0`, TOKEN.replace('o', 'O')])
      assert.equal(sameSecret(other, TOKEN), false, other);
  });

  test('an in-process proxy: the peer address decides, and the Host must be loopback too', async () => {
    const stack = createStack({
      origin: 'http://localhost:8080',
      proxy: {
        logger: memoryLogger(),
        peerAddress: (env) => (env as { peer?: string } | undefined)?.peer,
      },
    });
    const status = async (url: string, peer?: string, headers: Record<string, string> = {}) =>
      (await stack.fetch(new Request(url, { headers }), peer === undefined ? undefined : { peer })).status;
    assert.equal(await status('http://localhost:8080/status', '127.0.0.1'), 200);
    assert.equal(await status('http://localhost:8080/status', '::1'), 200);
    assert.equal(await status('http://localhost:8080/status', '198.51.100.4'), 401);
    assert.equal(await status('http://localhost:8080/status'), 401, 'a host that cannot tell is not loopback');
    assert.equal(await status('http://rebound.example:8080/status', '127.0.0.1'), 401, 'DNS rebinding');
    assert.equal(await status('http://localhost:8080/status', '127.0.0.1', { forwarded: 'for=1.2.3.4' }), 401);
  });

  test('the settings: each page can be turned off, and a token must look like one', async () => {
    const off = configFromEnv({ VENUE_BOOKING_METRICS: 'off', VENUE_BOOKING_STUDIO: 'off' });
    assert.deepEqual(off.settings.operatorPages, { metrics: false, studio: false });
    const stack = createStack({
      origin: 'http://localhost:8080',
      proxy: { ...off.settings, logger: memoryLogger(), peerAddress: () => '127.0.0.1' },
    });
    for (const path of ['/metrics', '/status', '/embed', '/embed/studio.js', '/embed/pages.css'])
      assert.equal((await stack.fetch(new Request(`http://localhost:8080${path}`))).status, 404, path);
    assert.equal(configFromEnv({ VENUE_BOOKING_METRICS_TOKEN: TOKEN }).settings.operatorPages?.token, TOKEN);
    for (const env of [{ VENUE_BOOKING_METRICS_TOKEN: 'short' }, { VENUE_BOOKING_METRICS: 'maybe' }]) {
      assert.throws(
        () => configFromEnv(env),
        (error: unknown) => error instanceof ConfigError && !error.message.includes('short'),
      );
    }
  });

  test('a host without a registry (the Worker) serves no /metrics, and says why', async () => {
    const stack = createStack({
      origin: 'http://localhost:8080',
      proxy: { logger: memoryLogger(), peerAddress: () => '127.0.0.1' },
    });
    const response = await stack.fetch(new Request('http://localhost:8080/metrics'));
    assert.equal(response.status, 404);
    assert.match((await response.json()).payload.message, /per isolate/);
  });
});

describe('/livez and /readyz', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  const states: SharedState[] = [];
  before(async () => (redis = await startRedis()));
  after(async () => {
    await Promise.all(states.map((state) => state.close()));
    await redis.kill();
  });

  test('a store outage leaves the proxy live and ready (it fails open), and says so', async () => {
    const logger = memoryLogger();
    const state = createRedisState({
      url: redis.url,
      prefix: `probes-${process.pid}:`,
      timeoutMs: 200,
      ttlMs: 15_000,
      staleMs: 600_000,
      holdMs: 15_000,
      logger,
      now: () => Date.now(),
    });
    states.push(state);
    const { proxy } = recordingProxy({ state, logger });
    const probe = async (path: string) => {
      const response = await proxy.fetch(new Request(`http://proxy.test${path}`));
      return { status: response.status, body: await response.json(), retry: response.headers.get('retry-after') };
    };
    await until(() => state.health() === 'ok', 'the store connected');
    assert.deepEqual(await probe('/readyz'), {
      status: 200,
      body: { ready: true, upstream: 'ok', store: 'ok' },
      retry: null,
    });
    assert.deepEqual((await probe('/livez')).body, { live: true });
    await redis.kill();
    // A call that needs the store finds it gone.
    await proxy.fetch(new Request(`http://proxy.test/api/venues/${VENUE}/booking-availability?num_people=2`));
    await until(() => state.health() === 'down', 'the store seen down');
    const ready = await probe('/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { ready: true, upstream: 'ok', store: 'down' });
    assert.equal((await probe('/livez')).status, 200);
    assert.equal((await probe('/healthz')).body.store, 'down');
    await redis.restart();
    await until(() => state.health() === 'ok', 'the store back');
    assert.equal((await probe('/readyz')).body.store, 'ok');
  });

  test('an upstream that refuses the App ID makes it unready (503 with Retry-After), still live', async () => {
    const { proxy, send } = recordingProxy({}, () => upstreamJson({ message: 'bad key' }, 401));
    assert.equal((await send(`/api/venues/${VENUE}/booking-availability?num_people=2`)).status, 502);
    for (const path of ['/readyz', '/healthz']) {
      const response = await proxy.fetch(new Request(`http://proxy.test${path}`));
      assert.equal(response.status, 503, path);
      assert.ok(Number(response.headers.get('retry-after')) > 0, path);
      assert.equal((await response.json())[path === '/readyz' ? 'ready' : 'ok'], false);
    }
    assert.equal((await proxy.fetch(new Request('http://proxy.test/livez'))).status, 200);
  });
});

describe('the metrics recorder (core/metrics.ts)', () => {
  test('the memory backend counts, sets and observes; an unknown gauge is absent, not 0', async () => {
    const metrics = new Metrics(memoryBackend());
    metrics.count('cache_reads_total', { result: 'hit' });
    metrics.count('cache_reads_total', { result: 'hit' }, 2);
    metrics.count('cache_reads_total', { result: 'miss' });
    metrics.observe('upstream_duration_seconds', { route: 'GET /venues' }, 0.25);
    let remaining: number | null = null;
    metrics.sample(() => metrics.set('upstream_ratelimit_remaining', {}, remaining));
    let snapshot = await metrics.snapshot();
    assert.equal(total(snapshot, 'cache_reads_total', { result: 'hit' }), 3);
    assert.equal(total(snapshot, 'cache_reads_total'), 4);
    assert.deepEqual(snapshot.upstream_duration_seconds, [{ labels: { route: 'GET /venues' }, value: 1, sum: 0.25 }]);
    assert.equal(snapshot.upstream_ratelimit_remaining?.length ?? 0, 0);
    remaining = 4321;
    snapshot = await metrics.snapshot();
    assert.equal(total(snapshot, 'upstream_ratelimit_remaining'), 4321);
    assert.equal(await metrics.exposition(), null, 'memory renders no Prometheus text');
  });

  test('the prom-client backend reads back the same numbers', async () => {
    const metrics = new Metrics(prometheusBackend({ processMetrics: false }));
    metrics.count('bookings_total', { outcome: 'enquiry' });
    metrics.observe('request_duration_seconds', { route: '/healthz' }, 0.002);
    metrics.set('upstream_ratelimit_limit', {}, null);
    const snapshot = await metrics.snapshot();
    assert.equal(total(snapshot, 'bookings_total', { outcome: 'enquiry' }), 1);
    assert.deepEqual(snapshot.request_duration_seconds, [{ labels: { route: '/healthz' }, value: 1, sum: 0.002 }]);
    const text = (await metrics.exposition())!.text;
    assert.doesNotMatch(text, /^venue_booking_upstream_ratelimit_limit /m, 'an unknown gauge is absent');
    assert.equal((await promtool(text)).code, 0);
  });

  test('a histogram renders cumulative buckets, its sum and count, from its first observation on', async () => {
    const metrics = new Metrics(prometheusBackend({ processMetrics: false }));
    const observe = metrics.histogram('request_size_bytes', { route: '/api/bookings' });
    // On a bound, just above one, and above the last (counted in `+Inf` alone).
    for (const bytes of [0, 100, 101, 2_999, 3_000, 1_000_000, 1_000_001]) observe(bytes);
    metrics.histogram('request_size_bytes', { route: '/api/never-observed' });
    // Labels given in another order than the catalogue's: rendered in the catalogue's.
    metrics.observe('request_latency_seconds', { status_class: '2xx', method: 'GET', route: '/livez' }, 0.0004);
    const text = (await metrics.exposition())!.text;
    const linesOf = (name: string) => text.split('\n').filter((line) => line.startsWith(`venue_booking_${name}`));
    const bookings = 'route="/api/bookings"';
    assert.deepEqual(linesOf('request_size_bytes'), [
      ...[
        ['100', 2],
        ['300', 3],
        ['1000', 3],
        ['3000', 5],
        ['10000', 5],
        ['30000', 5],
        ['100000', 5],
        ['300000', 5],
        ['1000000', 6],
        ['+Inf', 7],
      ].map(([le, count]) => `venue_booking_request_size_bytes_bucket{le="${le}",${bookings}} ${count}`),
      `venue_booking_request_size_bytes_sum{${bookings}} 2006201`,
      `venue_booking_request_size_bytes_count{${bookings}} 7`,
    ]);
    const livez = 'route="/livez",method="GET",status_class="2xx"';
    const latency = linesOf('request_latency_seconds');
    assert.equal(latency[0], `venue_booking_request_latency_seconds_bucket{le="0.0005",${livez}} 1`);
    assert.equal(latency.at(-2), `venue_booking_request_latency_seconds_sum{${livez}} 0.0004`);
    assert.equal(latency.at(-1), `venue_booking_request_latency_seconds_count{${livez}} 1`);
    assert.equal((await promtool(text)).code, 0);
  });

  test("a histogram's text is what prom-client's own Histogram renders of the same observations", async () => {
    const backend = prometheusBackend({ processMetrics: false });
    const metrics = new Metrics(backend);
    const name = 'venue_booking_request_latency_seconds';
    const definition = METRICS.request_latency_seconds;
    const reference = new Registry();
    const histogram = new Histogram({
      name,
      help: definition.help,
      labelNames: [...definition.labels],
      buckets: [...definition.buckets],
      registers: [reference],
    });
    const series = [
      { route: '/api/venues/:venue', method: 'GET', status_class: '2xx' },
      { route: 'a "quoted" \\ route', method: 'POST', status_class: '5xx' },
    ];
    for (let i = 0; i < 500; i++) {
      const labels = series[i % 2]!;
      const seconds = (i * 0.0137) % 12;
      metrics.observe('request_latency_seconds', labels, seconds);
      histogram.observe(labels, seconds);
    }
    const ours = await backend.registry.getSingleMetricAsString(name);
    assert.match(
      ours,
      /_bucket\{le="\+Inf",route="a \\"quoted\\" \\\\ route",method="POST",status_class="5xx"\} 250$/m,
    );
    assert.equal(ours, await reference.getSingleMetricAsString(name));
  });

  test('a proxy counts in the metrics it is given', async () => {
    const metrics = new Metrics();
    const { send } = recordingProxy({ metrics });
    await send(`/api/venues/${VENUE}/booking-availability?num_people=2`);
    await send(`/api/venues/${VENUE}/booking-availability?num_people=2`);
    const snapshot = await metrics.snapshot();
    assert.equal(total(snapshot, 'cache_reads_total', { result: 'miss' }), 1);
    assert.equal(total(snapshot, 'cache_reads_total', { result: 'hit' }), 1);
    assert.equal(total(snapshot, 'upstream_requests_total', { outcome: 'ok' }), 1);
    assert.equal(
      total(snapshot, 'requests_total', { route: '/api/venues/:venue/booking-availability', code: '200' }),
      2,
    );
  });
});
