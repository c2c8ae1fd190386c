/**
 * The metrics an operator expects from a gateway (proxy/core/metrics.ts, pipeline.ts): requests in
 * flight, latency by route, method and status class, request and response sizes, the build, the
 * quota gauges present from start, one bounded route label for the widget's chunks, and the
 * connections the Node entry drops at its cap.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { createProxy } from '../../proxy/app.js';
import { Metrics, memoryBackend, total, type MetricsSnapshot } from '../../proxy/core/metrics.js';
import { freePort, runBin } from './node-bin.js';
import { recordingProxy, upstreamJson, VENUE } from './support.js';

const READ = `/api/venues/${VENUE}/booking-availability?num_people=2`;

const labelsOf = (snapshot: MetricsSnapshot, name: keyof MetricsSnapshot) =>
  (snapshot[name] ?? []).map((sample) => sample.labels);

describe('gateway metrics', () => {
  test('quota gauges are present from start, at -1 until the upstream says; build_info names the version', async () => {
    const metrics = new Metrics(memoryBackend());
    const quota = { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4321', 'x-ratelimit-reset': '1900000000' };
    const { send } = recordingProxy({ metrics, version: '9.8.7' }, () =>
      upstreamJson({ valid: true, action: 'accept' }, 200, quota),
    );
    let snapshot = await metrics.snapshot();
    for (const name of [
      'upstream_ratelimit_limit',
      'upstream_ratelimit_remaining',
      'upstream_ratelimit_reset_timestamp_seconds',
    ] as const)
      assert.equal(total(snapshot, name), -1, `${name} before any upstream call`);
    assert.deepEqual(snapshot.build_info, [{ labels: { version: '9.8.7' }, value: 1 }]);
    assert.equal((await send(READ)).status, 200);
    snapshot = await metrics.snapshot();
    assert.equal(total(snapshot, 'upstream_ratelimit_remaining'), 4321, 'the upstream said');
  });

  test('latency by route, method and status class; sizes; nothing left in flight', async () => {
    const metrics = new Metrics(memoryBackend());
    const { send } = recordingProxy({ metrics });
    const ok = await send(READ);
    const body = await ok.arrayBuffer();
    assert.equal((await send(`/api/venues/${VENUE}/nope`)).status, 404);
    assert.equal((await send(READ, { method: 'DELETE' })).status, 405);
    const snapshot = await metrics.snapshot();
    const route = '/api/venues/:venue/booking-availability';
    assert.deepEqual(labelsOf(snapshot, 'request_latency_seconds'), [
      { route, method: 'GET', status_class: '2xx' },
      { route: 'unmatched', method: 'GET', status_class: '4xx' },
      { route, method: 'DELETE', status_class: '4xx' },
    ]);
    const size = snapshot.response_size_bytes!.find((sample) => sample.labels.route === route)!;
    assert.equal(size.value, 2, 'both answers of the route are measured');
    assert.ok(size.sum! >= body.byteLength, `${size.sum} bytes sent, the 200 alone ${body.byteLength}`);
    assert.equal(total(snapshot, 'request_size_bytes'), 3);
    assert.equal(total(snapshot, 'requests_in_flight'), 0);
  });

  test('a request is in flight while the upstream is slow', async () => {
    const metrics = new Metrics(memoryBackend());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const proxy = createProxy({
      upstream: 'http://upstream.internal/v4',
      appId: 'app',
      apiKey: 'key-key-key',
      venues: [VENUE],
      publicUrl: 'http://proxy.test',
      metrics,
      logger: { log: () => {} },
      fetch: async () => {
        await held;
        return Response.json({ payload: { valid: true }, status: 200 });
      },
    });
    const pending = proxy.fetch(new Request(`http://proxy.test${READ}`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(total(await metrics.snapshot(), 'requests_in_flight'), 1);
    release();
    assert.equal((await pending).status, 200);
    assert.equal(total(await metrics.snapshot(), 'requests_in_flight'), 0);
  });

  test('every widget chunk counts under one route label', async () => {
    const metrics = new Metrics(memoryBackend());
    const bytes = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
    const { send } = recordingProxy({
      metrics,
      widgetScript: bytes('export {}'),
      widgetChunks: { 'de-1a2b3c.js': bytes('export default 1'), 'fr-4d5e6f.js': bytes('export default 2') },
    });
    for (const chunk of ['de-1a2b3c.js', 'fr-4d5e6f.js']) assert.equal((await send(`/${chunk}`)).status, 200);
    const routes = labelsOf(await metrics.snapshot(), 'requests_total').map((labels) => labels.route);
    assert.deepEqual(routes, ['/:chunk.js']);
  });
});

describe('the Node entry at its connection cap', { timeout: 60_000 }, () => {
  test('counts the connections it drops', async () => {
    const port = await freePort();
    const { out, stop } = await runBin(
      { PORT: String(port) },
      ['--max-connections', '1'],
      /(<\/script>|not built[^\n]*)\n/,
    );
    try {
      assert.match(out, /listening/);
      // One kept-alive connection holds the cap; a second is dropped at accept.
      const first = connect(port, '127.0.0.1');
      await new Promise((resolve) => first.once('connect', resolve));
      const second = connect(port, '127.0.0.1');
      await new Promise((resolve) => second.once('close', resolve).once('error', resolve));
      const answer = new Promise<string>((resolve) => {
        let text = '';
        first.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (/\r\n0\r\n\r\n$|venue_booking_build_info[^\n]*\n[\s\S]*$/.test(text) && text.includes('refused'))
            resolve(text);
        });
        first.once('close', () => resolve(text));
      });
      first.end('GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      const text = await answer;
      assert.match(text, /^venue_booking_connections_refused_total 1$/m);
      assert.match(text, /^venue_booking_build_info\{version="\d+\.\d+\.\d+[^"]*"\} 1$/m);
    } finally {
      stop();
    }
  });
});
