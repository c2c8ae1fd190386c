/**
 * The Node entry's way to the upstream (proxy/node-fetch.ts), against a real loopback server: what
 * the proxy's upstream client relies on (method, URL, headers and body out; status, headers and
 * body back), redirects never followed, bodiless statuses, aborts, and an unreachable upstream —
 * and the proxy over it, relaying a read and turning a refused connection into its 502.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createProxy } from '../../proxy/app.js';
import { nodeFetch } from '../../proxy/node-fetch.js';
import { freePort } from './node-bin.js';
import { API_KEY, APP_ID, memoryLogger, VENUE } from './support.js';

describe('nodeFetch', () => {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url === '/moved') {
        res.writeHead(302, { location: 'http://elsewhere.example/' });
        return res.end('go away');
      }
      if (req.url === '/empty') {
        res.writeHead(204);
        return res.end();
      }
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 2_000).unref();
      if (req.url?.startsWith('/v4/')) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '99' });
        return res.end(JSON.stringify({ payload: { valid: true, echo: req.url }, status: 200 }));
      }
      res.writeHead(201, { 'content-type': 'application/json', 'x-two': 'a' });
      res.end(JSON.stringify({ got: body }));
    });
  });
  let base = '';
  const fetcher = nodeFetch();
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('sends method, URL, headers and body; returns status, headers and body', async () => {
    const response = await fetcher(
      new Request(`${base}/things?a=1`, {
        method: 'POST',
        headers: { authorization: 'app:key', 'content-type': 'application/json' },
        body: '{"x":1}',
      }),
    );
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('x-two'), 'a');
    assert.deepEqual(await response.json(), { got: '{"x":1}' });
    const last = seen.at(-1)!;
    assert.equal(last.method, 'POST');
    assert.equal(last.url, '/things?a=1');
    assert.equal(last.headers.authorization, 'app:key');
    assert.equal(last.headers['content-length'], '7');
  });

  test('never follows a redirect; a 204 has no body', async () => {
    const moved = await fetcher(new Request(`${base}/moved`, { redirect: 'manual' }));
    assert.equal(moved.status, 302);
    assert.equal(moved.headers.get('location'), 'http://elsewhere.example/');
    assert.equal(seen.filter((request) => request.url === '/moved').length, 1);
    const empty = await fetcher(new Request(`${base}/empty`));
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
  });

  test('an aborted request and an unreachable server reject', async () => {
    const controller = new AbortController();
    const pending = fetcher(new Request(`${base}/slow`, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending);
    await assert.rejects(fetcher(new Request(`http://127.0.0.1:${await freePort()}/`)));
    await assert.rejects(fetcher(new Request('ftp://127.0.0.1/')), TypeError);
  });

  test('the proxy over it relays a read, and answers 502 when the upstream is unreachable', async () => {
    const proxyAt = (upstream: string) =>
      createProxy({
        upstream,
        appId: APP_ID,
        apiKey: API_KEY,
        venues: [VENUE],
        logger: memoryLogger(),
        fetch: fetcher,
      });
    const path = `http://localhost/api/venues/${VENUE}/booking-availability`;
    const read = await proxyAt(`${base}/v4`).fetch(new Request(path));
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as { payload: { valid: boolean } }).payload.valid, true);
    assert.equal(seen.at(-1)!.headers.authorization, `${APP_ID}:${API_KEY}`);
    const refused = await proxyAt(`http://127.0.0.1:${await freePort()}/v4`).fetch(new Request(path));
    assert.equal(refused.status, 502);
  });
});
