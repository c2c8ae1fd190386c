/**
 * The Node entry's cache-hit fast path (proxy/fast-path.ts, proxy/node-listener.ts), through real
 * sockets: it answers a repeated cached read with exactly the app's answer, and defers to the app
 * (which refuses) for every request the app would refuse: other methods, override headers, foreign
 * sites, foreign hosts, a client over its limit (counted once), an expired cache entry.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Proxy } from '../../proxy/app.js';
import { nodeListener } from '../../proxy/node-listener.js';
import { assertNoLeak, memoryLogger, ORIGIN, recordingProxy, TYPE, VENUE } from './support.js';

const READ = `/api/venues/${VENUE}/booking-availability?type=${TYPE}&num_people=2`;

/** The Node entry's listener on a loopback port, counting the answers the fast path gave. */
async function entry(proxy: Proxy) {
  let fastAnswers = 0;
  const answer = proxy.fast.answer.bind(proxy.fast);
  proxy.fast.answer = async (request) => {
    const result = await answer(request);
    if (result) fastAnswers++;
    return result;
  };
  const server: Server = createServer(nodeListener(proxy));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    fast: () => fastAnswers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The headers of an answer, less those that differ per request or per connection. */
const stable = (response: Response) =>
  [...response.headers].filter(
    ([name]) => !/^(date|connection|keep-alive|content-length|x-ratelimit-remaining)$/.test(name),
  );

describe('the fast path answers a repeated cached read as the app would', () => {
  let now = Date.UTC(2030, 0, 1);
  const { proxy, calls, logger, send } = recordingProxy({ now: () => now, cacheTtlMs: 15_000 });
  let node: Awaited<ReturnType<typeof entry>>;
  before(async () => (node = await entry(proxy)));
  after(() => node.close());

  test('the same status, body and headers as the app, from one upstream call', async () => {
    const first = await fetch(`${node.base}${READ}`, { headers: { origin: ORIGIN } });
    assert.equal(first.headers.get('x-cache'), 'MISS');
    await first.arrayBuffer();
    assert.equal(node.fast(), 0);
    const quick = await fetch(`${node.base}${READ}`, { headers: { origin: ORIGIN } });
    assert.equal(node.fast(), 1);
    // The app's own answer to the same request, over no socket at all.
    const app = await send(READ, { headers: { origin: ORIGIN, host: new URL(node.base).host } });
    assert.equal(quick.status, 200);
    assert.equal(quick.headers.get('x-cache'), 'HIT');
    assert.equal(quick.headers.get('access-control-allow-origin'), ORIGIN);
    assert.deepEqual(stable(quick), stable(app));
    const body = await assertNoLeak(quick, logger);
    assert.equal(body, await app.text());
    assert.equal(quick.headers.get('content-length'), String(Buffer.byteLength(body)));
    assert.equal(calls.length, 1);
    const lines = logger.lines.filter((line) => line.msg === 'request');
    assert.deepEqual(
      lines.map((line) => [line.status, line.cache]),
      [
        [200, 'MISS'],
        [200, 'HIT'],
        [200, 'HIT'],
      ],
      'one request log line per answer, the fast ones included',
    );
  });

  test('the limit counts every fast answer once', async () => {
    const remaining = async () => {
      const response = await fetch(`${node.base}${READ}`);
      await response.arrayBuffer();
      return Number(response.headers.get('x-ratelimit-remaining'));
    };
    const before = node.fast();
    const counts = [await remaining(), await remaining(), await remaining()];
    assert.equal(node.fast() - before, 3);
    assert.deepEqual(counts, [counts[0], counts[0]! - 1, counts[0]! - 2]);
  });

  test('refusals are the app’s: the fast path never answers them, and nothing reaches the upstream', async () => {
    const refused: [RequestInit, number][] = [
      [{ method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }, 415],
      [{ method: 'HEAD' }, 405],
      [{ method: 'PUT' }, 405],
      [{ headers: { 'x-http-method-override': 'DELETE' } }, 400],
      [{ headers: { origin: 'https://evil.example' } }, 403],
      [{ headers: { referer: 'https://evil.example/page' } }, 403],
      [{ headers: { 'sec-fetch-site': 'cross-site' } }, 403],
      [{ headers: { origin: `${ORIGIN}.evil.example` } }, 403],
    ];
    calls.length = 0;
    const warm = await fetch(`${node.base}${READ}`);
    await warm.arrayBuffer();
    const before = node.fast();
    for (const [init, status] of refused) {
      const response = await fetch(`${node.base}${READ}`, init);
      assert.equal(response.status, status, JSON.stringify(init));
      if (init.method !== 'HEAD') await assertNoLeak(response, logger);
    }
    assert.equal(node.fast() - before, 0);
    assert.equal(calls.length, 0);
  });

  test('an expired cache entry is not served as fresh: the app answers and reads the upstream again', async () => {
    calls.length = 0;
    const before = node.fast();
    now += 601_000; // past the ten minutes of a read without a date
    const response = await fetch(`${node.base}${READ}`);
    assert.equal(response.headers.get('x-cache'), 'STALE', 'served stale while one call refreshes it');
    await response.arrayBuffer();
    assert.equal(node.fast(), before);
    for (let wait = 0; wait < 50 && calls.length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(calls.length, 1);
  });

  test('a remembered answer stands in for the route checks for a second only', async () => {
    const read = async () => (await fetch(`${node.base}${READ}`)).arrayBuffer();
    await read();
    const before = node.fast();
    now += 1_500;
    await read();
    assert.equal(node.fast(), before, 'after a second the app answers (and checks) again');
    await read();
    assert.equal(node.fast(), before + 1);
  });
});

describe('the fast path and the per-client limit', () => {
  const { proxy, calls } = recordingProxy({
    rateLimit: { limit: 3, windowMs: 60_000 },
    clientKey: (request) => request.headers.get('x-client') ?? undefined,
  });
  let node: Awaited<ReturnType<typeof entry>>;
  before(async () => (node = await entry(proxy)));
  after(() => node.close());

  test('over the limit the app answers 429 with the count made once; other clients go on', async () => {
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${node.base}${READ}`, { headers: { 'x-client': 'a' } });
      await response.arrayBuffer();
      statuses.push(`${response.status} ${response.headers.get('x-ratelimit-remaining')}`);
    }
    assert.deepEqual(statuses, ['200 2', '200 1', '200 0', '429 0', '429 0']);
    assert.equal(node.fast(), 2);
    const other = await fetch(`${node.base}${READ}`, { headers: { 'x-client': 'b' } });
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('x-ratelimit-remaining'), '2');
    assert.equal(calls.length, 1);
  });
});

describe('the fast path without a public URL', () => {
  const logger = memoryLogger();
  const { proxy, calls } = recordingProxy({ publicUrl: undefined, logger });
  let node: Awaited<ReturnType<typeof entry>>;
  before(async () => (node = await entry(proxy)));
  after(() => node.close());

  test('a foreign Host is refused by the app even when the same path was just served', async () => {
    for (let i = 0; i < 2; i++) assert.equal((await fetch(`${node.base}${READ}`)).status, 200);
    assert.equal(node.fast(), 1);
    const { port } = new URL(node.base);
    const response = await new Promise<number>((resolve, reject) => {
      // fetch() will not send another Host; node:http does.
      void import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port, path: READ, headers: { host: 'evil.example' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    });
    assert.equal(response, 421);
    assert.equal(node.fast(), 1);
    assert.equal(calls.length, 1);
  });
});

describe('a proxy whose host never asks the fast path', () => {
  test('keeps nothing for it (Workers, Vite, in-process use)', async () => {
    const { proxy, send } = recordingProxy();
    for (let i = 0; i < 2; i++) assert.equal((await send(READ)).headers.get('x-cache'), i ? 'HIT' : 'MISS');
    const request = { url: `http://proxy.test${READ}`, header: () => null, env: {} };
    assert.equal(await proxy.fast.answer(request), null);
    // Once asked, the next answer from the cache is remembered.
    await send(READ);
    assert.equal((await proxy.fast.answer(request))?.status, 200);
  });
});
