/**
 * The Node entry's cache-hit fast path (proxy/fast-path.ts, proxy/node/listener.ts), through real
 * sockets: it answers a repeated cached read with exactly the app's answer, and defers to the app
 * (which refuses) for every request the app would refuse: other methods, override headers, foreign
 * sites, foreign hosts, a client over its limit (counted once), an expired cache entry.
 */
import assert from 'node:assert/strict';
import { createServer, get as httpGet, type IncomingHttpHeaders, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { ProxyApp } from '../../proxy/app.js';
import { Metrics, total } from '../../proxy/core/metrics.js';
import type { FastRequest } from '../../proxy/pipeline/fast-path.js';
import type { Sequence } from '../../proxy/pipeline/sequence.js';
import { nodeListener } from '../../proxy/node/listener.js';
import { MemoryState } from '../../proxy/state/memory.js';
import {
  assertNoLeak,
  BASE,
  FOREIGN_VENUE,
  GROUP,
  memoryLogger,
  okScript,
  ORIGIN,
  OTHER_VENUE,
  recordingProxy,
  TYPE,
  upstreamJson,
  VENUE,
  type Script,
} from './support.js';

const READ = `/api/venues/${VENUE}/booking-availability?type=${TYPE}&num_people=2`;

/** A GET over node:http, the body as sent (not decoded), with `Accept-Encoding: encoding`. */
function rawGet(url: string, encoding: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'accept-encoding': encoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** The Node entry's listener on a loopback port, counting the answers the fast path gave. */
async function entry(proxy: ProxyApp) {
  let fastAnswers = 0;
  let relayed = 0;
  const answer = proxy.fast.answer.bind(proxy.fast);
  // Counted without turning an answer given at once into a promise: the listener's way is kept.
  const counted = <T>(result: T) => {
    if (result) fastAnswers++;
    return result;
  };
  proxy.fast.answer = (request) => {
    const result = answer(request);
    return result instanceof Promise ? result.then(counted) : counted(result);
  };
  // The answers for which the fast path ran the read itself (a `read` source in its sequence).
  const { sequence } = proxy.fast as unknown as { sequence: Sequence };
  const run = sequence.run.bind(sequence);
  sequence.run = (request, url, source) => {
    const result = run(request, url, source);
    if (!('read' in source)) return result;
    return Promise.resolve(result).then((sent) => {
      if (sent) relayed++;
      return sent;
    });
  };
  const server: Server = createServer(nodeListener(proxy));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    fast: () => fastAnswers,
    relayed: () => relayed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The headers of an answer, less those that differ per request or per connection (the count left,
 * in both fields), and the encoding, which follows the client's Accept-Encoding (Node's fetch asks
 * for gzip; the app's own answers here are asked without: `encodes alike` compares those).
 */
const stable = (response: Response) =>
  [...response.headers]
    .filter(
      ([name]) =>
        !/^(date|connection|keep-alive|content-length|content-encoding|transfer-encoding|x-ratelimit-remaining)$/.test(
          name,
        ),
    )
    .map(([name, value]) => [name, name === 'ratelimit' ? value.replace(/;r=\d+/, ';r=…') : value]);

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
    // The first read is run through the same sequence (an availability read of a configured venue).
    assert.deepEqual([node.fast(), node.relayed()], [1, 1]);
    const quick = await fetch(`${node.base}${READ}`, { headers: { origin: ORIGIN } });
    assert.deepEqual([node.fast(), node.relayed()], [2, 1]);
    // The app's own answer to the same request, over no socket at all.
    const app = await send(READ, { headers: { origin: ORIGIN, host: new URL(node.base).host } });
    assert.equal(quick.status, 200);
    assert.equal(quick.headers.get('x-cache'), 'HIT');
    assert.equal(quick.headers.get('access-control-allow-origin'), ORIGIN);
    assert.deepEqual(stable(quick), stable(app));
    const body = await assertNoLeak(quick, logger);
    assert.equal(body, await app.text());
    assert.equal(quick.headers.get('content-encoding'), 'gzip', 'Node’s fetch accepts gzip');
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

  test('encodes alike: gzip for a client that accepts it, the body as it is for one that does not', async () => {
    for (const encoding of ['gzip', 'identity']) {
      const before = node.fast();
      const raw = await rawGet(`${node.base}${READ}`, encoding);
      assert.equal(node.fast() - before, 1, 'the fast path answered');
      const app = await send(READ, { headers: { 'accept-encoding': encoding } });
      assert.equal(raw.headers['content-encoding'], app.headers.get('content-encoding') ?? undefined, encoding);
      assert.match(raw.headers.vary ?? '', /Accept-Encoding/);
      assert.equal(raw.headers['content-length'], String(raw.body.byteLength));
      const appBody = Buffer.from(await app.arrayBuffer());
      const decoded = (bytes: Buffer) => (encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString();
      assert.equal(decoded(raw.body), decoded(appBody), encoding);
    }
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

  test('an expired cache entry is not served as fresh: the read is made again', async () => {
    calls.length = 0;
    now += 601_000; // past the ten minutes of a read without a date
    const response = await fetch(`${node.base}${READ}`);
    assert.equal(response.headers.get('x-cache'), 'STALE', 'served stale while one call refreshes it');
    await response.arrayBuffer();
    for (let wait = 0; wait < 50 && calls.length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(calls.length, 1);
  });

  test('a remembered answer stands in for the route checks for a second; then the read is made again', async () => {
    const read = async () => {
      const response = await fetch(`${node.base}${READ}`);
      await response.arrayBuffer();
      return response.headers.get('x-cache');
    };
    await read();
    const lines = () => logger.lines.filter((line) => line.msg === 'request').length;
    const before = [node.fast(), node.relayed(), lines()];
    now += 1_500;
    assert.equal(await read(), 'HIT');
    assert.deepEqual(
      [node.fast(), node.relayed(), lines()],
      [before[0]! + 1, before[1]! + 1, before[2]! + 1],
      'after a second the route checks and the read run again (the cache still answers)',
    );
    assert.equal(await read(), 'HIT');
    assert.equal(node.relayed(), before[1]! + 1, 'and the answer is remembered again');
  });
});

describe('the fast path runs a relayed read as the app would', () => {
  // Two proxies alike: one behind the Node entry, one asked in-process (the app alone). Each gets
  // the same requests in the same order; their answers must be the same, refusals included.
  const script: Script = (request) => {
    const url = new URL(request.url);
    if (url.searchParams.get('venue_group') === GROUP) return upstreamJson({ pages: [{ _id: FOREIGN_VENUE }] });
    if (url.searchParams.get('num_people') === '9') return upstreamJson({ message: 'down' }, 500);
    if (url.searchParams.get('num_people') === '8') return upstreamJson({ message: 'No such type' }, 404);
    return okScript(request, '');
  };
  const settings = {
    now: () => Date.UTC(2030, 0, 1),
    venueGroups: [GROUP],
    missLimit: { limit: 6, windowMs: 600_000 },
  };
  const entered = recordingProxy(settings, script);
  const alone = recordingProxy(settings, script);
  let node: Awaited<ReturnType<typeof entry>>;
  before(async () => (node = await entry(entered.proxy)));
  after(() => node.close());

  const read = (query: string, venue = VENUE) => `/api/venues/${venue}/booking-availability?${query}`;
  /** An answer as compared: status, headers (less per-connection ones), body less its timestamps. */
  const seen = async (response: Response) => {
    const body = JSON.parse(await assertNoLeak(response, entered.logger)) as Record<string, unknown>;
    delete body.requestTime;
    delete body.responseTime;
    return { status: response.status, headers: stable(response), body };
  };
  const both = async (path: string) => {
    const init = { headers: { origin: ORIGIN } };
    const viaEntry = await seen(await fetch(`${node.base}${path}`, init));
    const host = new URL(node.base).host;
    const viaApp = await seen(await alone.send(path, { headers: { ...init.headers, host } }));
    assert.deepEqual(viaEntry, viaApp, path);
    return viaEntry;
  };

  test('the first read is run as the app runs it, headers and all', async () => {
    assert.equal((await both(read(`type=${TYPE}`))).status, 200);
    assert.equal(node.relayed(), 1);
  });

  test('what the route checks otherwise is the app’s: bad queries, unknown venues, venues of a group', async () => {
    const before = [node.fast(), node.relayed()];
    const cases: [string, number][] = [
      [read('num_people=abc'), 400],
      [read('num_people=2&num_people=3'), 400],
      [read('surprise=1'), 400],
      [read('num_people=2', 'not-an-id'), 404],
      [read('num_people=2', OTHER_VENUE.replace(/2$/, '3')), 404],
      [read('num_people=2', FOREIGN_VENUE), 200],
    ];
    for (const [path, status] of cases) assert.equal((await both(path)).status, status, path);
    assert.deepEqual([node.fast(), node.relayed()], before);
  });

  test('new reads, upstream faults and refusals after the count: the same answers and log lines', async () => {
    const expected: [string, number, string | null][] = [
      [read(`type=${TYPE}&num_people=3`), 200, 'MISS'],
      [read(`type=${TYPE}&num_people=3`), 200, 'HIT'],
      [read(`type=${TYPE}&num_people=8`), 404, 'MISS'],
      [read(`type=${TYPE}&num_people=9`), 502, 'MISS'],
      [read(`type=${TYPE}&num_people=4`), 200, 'MISS'],
      // The client's seventh miss: refused (miss_limit) after the count, rendered by the fast path.
      [read(`type=${TYPE}&num_people=5`), 429, null],
    ];
    const before = node.relayed();
    for (const [path, status, cache] of expected) {
      const answer = await both(path);
      assert.equal(answer.status, status, path);
      assert.equal(answer.headers.find(([name]) => name === 'x-cache')?.[1] ?? null, cache, path);
    }
    assert.equal(node.relayed() - before, 5, 'every one but the repeat, which the memo answered');
    assert.equal(entered.calls.length, alone.calls.length);
    const lines = (logger: typeof entered.logger) =>
      logger.lines.filter((line) => line.msg !== 'request' || line.path).map(({ ms: _, ...line }) => line);
    assert.deepEqual(lines(entered.logger), lines(alone.logger));
  });
});

describe('an unexpected error in a read the fast path runs', () => {
  // A store that fails one read: the app answers 500 and logs it; so must the fast path.
  const failing = () => {
    const state = new MemoryState({ ttlMs: 15_000, staleMs: 600_000, now: () => Date.now() });
    const read = state.read.bind(state);
    state.read = (key, load) =>
      key.includes('num_people=7') ? Promise.reject(new RangeError('boom')) : read(key, load);
    return state;
  };
  const entered = recordingProxy({ state: failing() });
  const alone = recordingProxy({ state: failing() });
  let node: Awaited<ReturnType<typeof entry>>;
  before(async () => (node = await entry(entered.proxy)));
  after(() => node.close());

  test('is answered 500 in the envelope, as the app answers it, and logged', async () => {
    const path = `/api/venues/${VENUE}/booking-availability?type=${TYPE}&num_people=7`;
    await (await fetch(`${node.base}/api/venues/${VENUE}/booking-availability?type=${TYPE}`)).arrayBuffer();
    const before = node.relayed();
    const viaEntry = await fetch(`${node.base}${path}`, { headers: { origin: ORIGIN } });
    const viaApp = await alone.send(path, { headers: { origin: ORIGIN, host: new URL(node.base).host } });
    assert.equal(node.relayed() - before, 1);
    assert.equal(viaEntry.status, 500);
    assert.deepEqual(stable(viaEntry), stable(viaApp));
    const payload = async (response: Response) =>
      (JSON.parse(await assertNoLeak(response, entered.logger)) as { payload: unknown }).payload;
    assert.deepEqual(await payload(viaEntry), await payload(viaApp));
    for (const { logger } of [entered, alone]) {
      const lines = logger.lines.filter((line) => line.msg === 'unexpected error' || line.status === 500);
      assert.deepEqual(
        lines.map((line) => [line.level, line.msg, line.error ?? line.status]),
        [
          ['error', 'unexpected error', 'RangeError'],
          ['error', 'request', 500],
        ],
      );
    }
  });
});

describe('a remembered read on the memory state', () => {
  const metrics = new Metrics();
  const state = new MemoryState({ ttlMs: 15_000, staleMs: 600_000, now: () => Date.now() });
  const { proxy } = recordingProxy({ state, metrics });
  let node: Awaited<ReturnType<typeof entry>>;
  before(async () => (node = await entry(proxy)));
  after(() => node.close());
  const host = new URL(BASE).host;
  const request = (): FastRequest => ({
    url: `${BASE}${READ}`,
    header: (name) => (name === 'origin' ? ORIGIN : name === 'host' ? host : null),
    env: {},
  });

  test('is answered in the turn it arrived: a value, not a promise', async () => {
    await (await fetch(`${node.base}${READ}`, { headers: { origin: ORIGIN } })).arrayBuffer();
    const answer = proxy.fast.answer(request());
    assert.ok(!(answer instanceof Promise), 'answered at once');
    assert.equal(answer?.status, 200);
    assert.equal(answer.headers[answer.headers.indexOf('x-cache') + 1], 'HIT');
  });

  test('a step that throws there hands the request to the app, which answers 500 in the envelope', async () => {
    await (await fetch(`${node.base}${READ}`, { headers: { origin: ORIGIN } })).arrayBuffer();
    const peekRead = state.peekRead.bind(state);
    state.peekRead = () => {
      throw new RangeError('boom');
    };
    try {
      assert.throws(() => proxy.fast.answer(request()), RangeError);
      const response = await fetch(`${node.base}${READ}`, { headers: { origin: ORIGIN } });
      assert.equal(response.status, 500);
      const body = (await response.json()) as { status: number; payload: { message: string } };
      assert.equal(body.status, 500);
      assert.equal(typeof body.payload.message, 'string');
    } finally {
      state.peekRead = peekRead;
    }
    assert.equal(total(await metrics.snapshot(), 'requests_in_flight'), 0, 'nothing left in flight');
    assert.equal((await fetch(`${node.base}${READ}`, { headers: { origin: ORIGIN } })).status, 200);
  });
});

describe('the fast path and the per-client limit', () => {
  const metrics = new Metrics();
  const { proxy, calls } = recordingProxy({
    metrics,
    rateLimit: { limit: 3, windowMs: 60_000 },
    clientKey: (request) => request.headers.get('x-client') ?? undefined,
  });
  let node: Awaited<ReturnType<typeof entry>>;
  before(async () => (node = await entry(proxy)));
  after(() => node.close());

  test('over the limit the 429 is the app’s, with the count made once; other clients go on', async () => {
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${node.base}${READ}`, { headers: { 'x-client': 'a' } });
      await response.arrayBuffer();
      statuses.push(`${response.status} ${response.headers.get('x-ratelimit-remaining')}`);
    }
    assert.deepEqual(statuses, ['200 2', '200 1', '200 0', '429 0', '429 0']);
    // Every one through the same sequence, the 429s included: each request counted once.
    assert.equal(node.fast(), 5);
    const other = await fetch(`${node.base}${READ}`, { headers: { 'x-client': 'b' } });
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('x-ratelimit-remaining'), '2');
    assert.equal(calls.length, 1);
    const snapshot = await metrics.snapshot();
    assert.equal(total(snapshot, 'refusals_total'), 2, 'each 429 counted as a refusal, as the app counts its own');
    assert.equal(total(snapshot, 'refusals_total', { reason: 'rate_limit' }), 2);
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
    assert.equal(node.fast(), 2);
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
    assert.equal(node.fast(), 2);
    assert.equal(calls.length, 1);
  });
});

describe('a proxy whose host never asks the fast path', () => {
  test('keeps nothing for it (Workers, Vite, in-process use)', async () => {
    const { proxy, send } = recordingProxy();
    // A read the fast path only replays (the venue's record), never runs itself.
    const READ = `/api/venues/${VENUE}`;
    for (let i = 0; i < 2; i++) assert.equal((await send(READ)).headers.get('x-cache'), i ? 'HIT' : 'MISS');
    const request = { url: `http://proxy.test${READ}`, header: () => null, env: {} };
    assert.equal(await proxy.fast.answer(request), null);
    // Once asked, the next answer from the cache is remembered.
    await send(READ);
    assert.equal((await proxy.fast.answer(request))?.status, 200);
  });
});
