/**
 * An upstream redirect is a fault, never followed: following it would send the request (and, in
 * some runtimes, the key) to another host and serve that host's answer as the upstream's. Here
 * under Node's own fetch against two real loopback servers; worker.test.ts does the same in workerd.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createProxy } from '../../proxy/app.js';
import {
  API_KEY,
  APP_ID,
  assertNoLeak,
  fetchWithProof,
  memoryLogger,
  postJson,
  validBooking,
  VENUE,
} from './support.js';

type Hit = { url: string; authorization: string | undefined };

/** A loopback server that records each request and answers with `answer`. */
async function server(answer: (hits: Hit[]) => { status: number; headers: Record<string, string>; body: string }) {
  const hits: Hit[] = [];
  const listening: Server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    const { status, headers, body } = answer(hits);
    res.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return {
    hits,
    base: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`,
    close: () => listening.close(),
  };
}

describe('an upstream redirect under Node', () => {
  let elsewhere: Awaited<ReturnType<typeof server>>;
  let upstream: Awaited<ReturnType<typeof server>>;
  before(async () => {
    elsewhere = await server(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payload: { valid: true, planted: 'by another host' }, status: 200 }),
    }));
    upstream = await server((hits) => ({
      status: hits.at(-1)!.url.startsWith('/v4/bookings') ? 307 : 302,
      headers: { location: `${elsewhere.base}/v4/collect?from=upstream` },
      body: '',
    }));
  });
  after(() => {
    elsewhere.close();
    upstream.close();
  });

  test('a 302 on a read is a 502, logged with its target origin; the other host is never called', async () => {
    const logger = memoryLogger();
    const proxy = createProxy({
      upstream: `${upstream.base}/v4`,
      appId: APP_ID,
      apiKey: API_KEY,
      venues: [VENUE],
      logger,
    });
    const response = await proxy.fetch(
      new Request(`http://localhost/api/venues/${VENUE}/booking-availability?num_people=2`),
    );
    assert.equal(response.status, 502);
    const text = await assertNoLeak(response, logger);
    assert.doesNotMatch(text, /another host/);
    assert.equal(upstream.hits.length, 1);
    assert.equal(upstream.hits[0]!.authorization, `${APP_ID}:${API_KEY}`);
    assert.equal(elsewhere.hits.length, 0);
    const line = logger.lines.find((entry) => entry.fault === 'redirect');
    assert.equal(line?.detail, `redirect to ${elsewhere.base}`);
    assert.equal(
      ((await (await proxy.fetch(new Request('http://localhost/healthz'))).json()) as { upstream: string }).upstream,
      'failing',
    );
  });

  test('a 307 on a booking is a 502 with stored: unknown (the upstream may have acted)', async () => {
    const proxy = createProxy({
      upstream: `${upstream.base}/v4`,
      appId: APP_ID,
      apiKey: API_KEY,
      venues: [VENUE],
      logger: memoryLogger(),
    });
    const response = await fetchWithProof(proxy, 'http://localhost/api/bookings', postJson(validBooking()));
    assert.equal(response.status, 502);
    assert.equal(((await response.json()) as { payload: { stored: unknown } }).payload.stored, 'unknown');
    assert.equal(elsewhere.hits.length, 0);
  });
});
