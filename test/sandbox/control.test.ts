/**
 * Issue 18: the partner controls under /__sandbox — request journal, clock, reset — on only when
 * the sandbox runs as a sandbox, and never reachable through the proxy.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSandbox } from '../../sandbox/app.js';
import { createStack } from '../../proxy/stack.js';
import { ADMIN, avail, bookingBody, NOW, setup, T, V1, WIDGET } from './helpers.js';

const control = () => setup({ control: true });

describe('request journal', () => {
  it('lists what reached the sandbox, filtered by path and method, without credentials in it', async () => {
    const { get, post, request } = control();
    await get(avail(V1, { type: T.table }));
    await post('/v4/bookings', bookingBody());
    await post('/v4/bookings', {});
    await get('/v4/bookings?limit=1', ADMIN);

    const all = (await get('/__sandbox/requests', null)).payload.requests;
    assert.equal(all.length, 4);
    assert.deepEqual(
      all.map((e: any) => `${e.method} ${e.path} ${e.status}`),
      [
        `GET /v4/venues/${V1}/booking-availability 200`,
        'POST /v4/bookings 200',
        'POST /v4/bookings 400',
        'GET /v4/bookings 200',
      ],
    );
    assert.equal(all[0].app, WIDGET.id);
    assert.deepEqual(all[0].query, { type: T.table });
    assert.equal(all[1].params.first_name, 'Test', 'what the sandbox read');
    assert.equal(all[0].at, '2026-03-20T10:00:00');
    assert.doesNotMatch(JSON.stringify(all), new RegExp(WIDGET.key), 'no API key in the journal');

    const posts = (await get('/__sandbox/requests?path=/v4/bookings&method=post', null)).payload.requests;
    assert.deepEqual(
      posts.map((e: any) => e.status),
      [200, 400],
    );
    const venues = (await get('/__sandbox/requests?path=/v4/venues/*', null)).payload.requests;
    assert.equal(venues.length, 1);
    const last = (await get('/__sandbox/requests?limit=1', null)).payload.requests;
    assert.equal(last[0].path, '/v4/bookings');
    assert.equal(last[0].method, 'GET');
    assert.equal((await get('/__sandbox/requests?limit=0', null)).status, 400);

    assert.equal((await request('DELETE', '/__sandbox/requests', undefined, {}, null)).status, 200);
    assert.deepEqual((await get('/__sandbox/requests', null)).payload.requests, []);
  });
});

describe('clock', () => {
  it('tells the time, and travels: set to an instant or advance by a duration', async () => {
    const { get, post } = control();
    assert.deepEqual((await get('/__sandbox/clock', null)).payload, {
      now: '2026-03-20T10:00:00.000Z',
      london: '2026-03-20T10:00:00',
    });
    const firstDate = async () =>
      (await get(avail(V1, { type: T.table }))).payload.validation.date.suggestedValues[0].value;
    assert.equal(await firstDate(), '2026-03-20');

    const advanced = await post('/__sandbox/clock', { advance: 'P1DT2H' }, null);
    assert.equal(advanced.payload.london, '2026-03-21T12:00:00');
    assert.equal(await firstDate(), '2026-03-21', 'today moved');

    const set = await post('/__sandbox/clock', { now: '2026-07-01T09:30:00' }, null);
    assert.equal(set.payload.london, '2026-07-01T09:30:00', 'zone-less = London wall time');
    assert.equal(set.payload.now, '2026-07-01T08:30:00.000Z');
    assert.equal((await get(avail(V1, { type: T.table }))).body.requestTime, '2026-07-01T09:30:00');

    for (const bad of [{}, { now: 'soon' }, { advance: '2 hours' }, { now: NOW, advance: 'PT1H' }]) {
      const r = await post('/__sandbox/clock', bad, null);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal(typeof r.payload.message, 'string');
    }
  });
});

describe('reset', () => {
  it('puts back the seed, forgets the journal, the rate windows and the time travel', async () => {
    const { get, post, sandbox } = setup({ control: true, rateLimit: 3 });
    const seeded = sandbox.store.bookings.length;
    await post('/v4/bookings', bookingBody());
    await post('/__sandbox/clock', { advance: 'PT10M' }, null); // same clock hour: same rate window
    await get(avail(V1));
    await get(avail(V1));
    assert.equal((await get(avail(V1))).status, 429, 'the window of 3 is used up');
    assert.equal(sandbox.store.bookings.length, seeded + 1);

    const r = await post('/__sandbox/reset', {}, null);
    assert.equal(r.status, 200);
    assert.equal(r.payload.reset, true);
    assert.equal(r.payload.london, '2026-03-20T10:00:00', 'the clock is back');
    assert.equal(sandbox.store.bookings.length, seeded, 'the stored booking is gone');
    assert.deepEqual((await get('/__sandbox/requests', null)).payload.requests, []);
    assert.equal((await get(avail(V1))).status, 200, 'a fresh rate window');
  });
});

describe('the controls are off unless the sandbox runs as a sandbox', () => {
  it('are not there by default', async () => {
    const { get } = setup();
    assert.equal((await get('/__sandbox/requests', null)).status, 401, 'an unknown route behind authentication');
    assert.equal((await get('/__sandbox/requests', ADMIN)).status, 404);
    assert.equal((await get('/__sandbox/clock', ADMIN)).status, 404);
  });

  it('answer only a loopback Host or the public URL host (no DNS rebinding), and POSTs only as JSON or with X-Sandbox-Control', async () => {
    const sandbox = createSandbox({ now: NOW, control: true, publicUrl: 'https://sandbox.example' });
    const status = async (url: string, init?: RequestInit) => (await sandbox.fetch(new Request(url, init))).status;
    for (const host of ['localhost:8787', '127.0.0.1', '[::1]:9', 'sandbox.example'])
      assert.equal(await status(`http://${host}/__sandbox/requests`), 200, host);
    for (const host of ['evil.example', 'localhost.evil.example', '192.168.1.20', '127.0.0.1.nip.io'])
      assert.equal(await status(`http://${host}/__sandbox/requests`), 403, host);
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' };
    assert.equal(
      await status('http://localhost/__sandbox/clock', { method: 'POST', headers: form, body: 'advance=P1D' }),
      415,
    );
    assert.equal(await status('http://localhost/__sandbox/reset', { method: 'POST', headers: form }), 415);
    assert.equal(await status('http://localhost/__sandbox/reset', { method: 'POST' }), 415);
    assert.equal((await sandbox.fetch(new Request('http://localhost/__sandbox/clock'))).status, 200);
    const json = { 'content-type': 'application/json' };
    assert.equal(
      await status('http://localhost/__sandbox/clock', { method: 'POST', headers: json, body: '{"advance":"P1D"}' }),
      200,
    );
    assert.equal(
      await status('http://localhost/__sandbox/reset', { method: 'POST', headers: { 'x-sandbox-control': '1' } }),
      200,
    );
  });

  it('answer an index and 404 for anything else', async () => {
    const { get } = control();
    const index = (await get('/__sandbox', null)).payload;
    assert.equal(index.openapi, 'http://localhost:8787/v4/openapi.json');
    assert.equal(index.requests, 'http://localhost:8787/__sandbox/requests');
    assert.equal((await get('/__sandbox/elsewhere', null)).status, 404);
    assert.ok((await get('/__sandbox/scenarios', null)).payload.scenarios.some((s: any) => s.name === 'answer-lost'));
  });

  it('are never reachable through the proxy, even when the sandbox behind it has them', async () => {
    const upstream: string[] = [];
    const stack = createStack({
      origin: 'http://localhost:5173',
      sandbox: { now: NOW, control: true },
      proxy: { logger: { log: () => undefined } },
      upstream: (sandbox) => (request) => {
        upstream.push(new URL(request.url).pathname);
        return sandbox.fetch(request);
      },
    });
    const attempts = [
      '/api/__sandbox/requests',
      '/api/__sandbox/reset',
      '/api/v4/../__sandbox/requests',
      '/api/venues/%2E%2E%2F__sandbox%2Frequests',
      '/api/venues/..%2F..%2F__sandbox%2Fclock',
      `/api/venues/${V1}/..%2F..%2F..%2F__sandbox%2Frequests`,
      '/__sandbox/requests',
      '/sandbox/__sandbox/requests',
      '/sandbox/%5F%5Fsandbox/requests',
      '/sandbox/book/../__sandbox/clock',
    ];
    for (const path of attempts) {
      for (const method of ['GET', 'POST']) {
        const res = await stack.fetch(
          new Request(`http://localhost:5173${path}`, {
            method,
            body: method === 'POST' ? '{}' : undefined,
            headers: { 'content-type': 'application/json' },
          }),
        );
        assert.ok(res.status >= 400, `${method} ${path} → ${res.status}`);
        assert.doesNotMatch(await res.text(), /"requests"|"london"|"reset"/, `${method} ${path} reached a control`);
      }
    }
    assert.ok(!upstream.some((p) => p.includes('__sandbox')), upstream.join(', '));
    assert.equal(
      stack.sandbox.journal.list().length,
      upstream.length,
      'nothing reached the sandbox but what the proxy sent',
    );
  });
});
