/**
 * The Node entry's way to the upstream (proxy/node/transport.ts), against real loopback servers: what
 * the proxy's upstream client relies on (method, URL, headers and body out; status, headers and
 * body back, as plain values), redirects never followed, bodiless statuses, aborts, an unreachable
 * upstream, an https upstream with a certificate made for the test (trusted, and not) — and the
 * proxy over it, relaying a read and turning a refused connection into its 502.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createProxy } from '../../proxy/app.js';
import { nodeTransport } from '../../proxy/node/transport.js';
import type { PlainRequest } from '../../proxy/upstream/transport.js';
import { freePort } from './node-bin.js';
import { API_KEY, APP_ID, memoryLogger, VENUE } from './support.js';

const plain = (url: string, extra: Partial<PlainRequest> = {}): PlainRequest => ({
  method: 'GET',
  url,
  headers: {},
  signal: new AbortController().signal,
  ...extra,
});

const answerOf = (req: IncomingMessage, res: import('node:http').ServerResponse, body: string) => {
  if (req.url === '/moved') {
    res.writeHead(302, { location: 'http://elsewhere.example/' });
    return res.end('go away');
  }
  if (req.url === '/empty') {
    res.writeHead(204);
    return res.end();
  }
  if (req.url === '/odd') {
    res.writeHead(601);
    return res.end('odd');
  }
  if (req.url === '/bom') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end('\uFEFF{"a":"é"}');
  }
  if (req.url === '/slow' || req.url?.startsWith('/slow-v4/')) return setTimeout(() => res.end('late'), 2_000).unref();
  if (req.url === '/trickle') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"payload":');
    return setTimeout(() => res.end('null}'), 2_000).unref();
  }
  if (req.url?.startsWith('/v4/')) {
    res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '99' });
    return res.end(JSON.stringify({ payload: { valid: true, echo: req.url }, status: 200 }));
  }
  res.writeHead(201, [
    ['content-type', 'application/json'],
    ['x-two', 'a'],
    ['x-two', 'b'],
  ]);
  res.end(JSON.stringify({ got: body }));
};

describe('nodeTransport', () => {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      answerOf(req, res, body);
    });
  });
  let base = '';
  const transport = nodeTransport();
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('sends method, URL, headers and body; returns status, headers and body', async () => {
    const headers = { authorization: 'app:key', 'content-type': 'application/json' };
    const response = await transport(plain(`${base}/things?a=1`, { method: 'POST', headers, body: '{"x":"é"}' }));
    assert.equal(response.status, 201);
    assert.equal(response.header('x-two'), 'a, b', 'repeated headers joined as Headers.get joins them');
    assert.equal(response.header('x-absent'), null);
    assert.deepEqual(JSON.parse(response.text), { got: '{"x":"é"}' });
    const last = seen.at(-1)!;
    assert.equal(last.method, 'POST');
    assert.equal(last.url, '/things?a=1');
    assert.equal(last.headers.authorization, 'app:key');
    assert.equal(last.headers['content-length'], '10', 'the length in bytes, not characters');
    assert.deepEqual(headers, { authorization: 'app:key', 'content-type': 'application/json' }, 'left as given');
  });

  test('never follows a redirect; a 204 has no body; a byte-order mark is dropped as Response.text() drops it', async () => {
    const moved = await transport(plain(`${base}/moved`));
    assert.equal(moved.status, 302);
    assert.equal(moved.header('location'), 'http://elsewhere.example/');
    assert.equal(seen.filter((request) => request.url === '/moved').length, 1);
    const empty = await transport(plain(`${base}/empty`));
    assert.equal(empty.status, 204);
    assert.equal(empty.text, '');
    assert.deepEqual(JSON.parse((await transport(plain(`${base}/bom`))).text), { a: 'é' });
  });

  test('an aborted request (before or during the answer), an unreachable server, an unusable status and another scheme reject', async () => {
    const controller = new AbortController();
    const pending = transport(plain(`${base}/slow`, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending);
    const trickling = new AbortController();
    const halfway = transport(plain(`${base}/trickle`, { signal: trickling.signal }));
    setTimeout(() => trickling.abort(), 50);
    await assert.rejects(halfway, 'aborted after the answer began');
    await assert.rejects(transport(plain(`http://127.0.0.1:${await freePort()}/`)));
    await assert.rejects(transport(plain(`${base}/odd`)), TypeError);
    await assert.rejects(transport(plain('ftp://127.0.0.1/')), TypeError);
  });

  test('a request past its deadline rejects with a TimeoutError, before the answer or halfway through its body', async () => {
    const started = Date.now();
    const late = await transport(plain(`${base}/slow`, { timeoutMs: 50 })).catch((error: unknown) => error);
    assert.equal((late as Error).name, 'TimeoutError');
    const trickle = await transport(plain(`${base}/trickle`, { timeoutMs: 50 })).catch((error: unknown) => error);
    assert.equal((trickle as Error).name, 'TimeoutError', 'the body is read under the same deadline');
    assert.ok(Date.now() - started < 1_500, 'neither waited for the upstream');
    const quick = await transport(plain(`${base}/bom`, { timeoutMs: 1_000 }));
    assert.deepEqual(JSON.parse(quick.text), { a: 'é' });
  });

  test('the proxy over it relays a read, and answers 502 when the upstream is unreachable', async () => {
    const proxyAt = (upstream: string) =>
      createProxy({ upstream, appId: APP_ID, apiKey: API_KEY, venues: [VENUE], logger: memoryLogger(), transport });
    const path = `http://localhost/api/venues/${VENUE}/booking-availability`;
    const read = await proxyAt(`${base}/v4`).fetch(new Request(path));
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as { payload: { valid: boolean } }).payload.valid, true);
    assert.equal(seen.at(-1)!.headers.authorization, `${APP_ID}:${API_KEY}`);
    const refused = await proxyAt(`http://127.0.0.1:${await freePort()}/v4`).fetch(new Request(path));
    assert.equal(refused.status, 502);
  });

  test('the proxy over it answers 504 when the upstream is too slow, after its timeout', async () => {
    const logger = memoryLogger();
    const proxy = createProxy({
      upstream: `${base}/slow-v4`,
      appId: APP_ID,
      apiKey: API_KEY,
      venues: [VENUE],
      logger,
      transport,
      timeoutMs: 50,
    });
    const read = await proxy.fetch(new Request(`http://localhost/api/venues/${VENUE}/booking-availability`));
    assert.equal(read.status, 504);
    assert.match(((await read.json()) as { payload: { message: string } }).payload.message, /did not answer in time/);
    assert.ok(logger.lines.some((line) => line.msg === 'upstream failed' && line.fault === 'timeout'));
  });
});

// A certificate for 127.0.0.1, made for this run by openssl (node:crypto makes keys, not certificates).
const openssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).error === undefined;

describe('nodeTransport to an https upstream', { skip: !openssl && 'openssl is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'venue-booking-tls-'));
  let cert = '';
  let base = '';
  let server: ReturnType<typeof createHttpsServer>;
  const seen: IncomingMessage['headers'][] = [];
  let connections = 0;
  before(async () => {
    const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'].concat([
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ]),
      { stdio: 'ignore' },
    );
    cert = readFileSync(certFile, 'utf8');
    server = createHttpsServer({ key: readFileSync(keyFile, 'utf8'), cert }, (req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => answerOf(req, res, ''));
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('relays over TLS with a trusted certificate, over one kept-alive connection', async () => {
    const transport = nodeTransport({ ca: cert });
    const proxy = createProxy({
      upstream: `${base}/v4`,
      appId: APP_ID,
      apiKey: API_KEY,
      venues: [VENUE],
      logger: memoryLogger(),
      transport,
    });
    const read = await proxy.fetch(new Request(`http://localhost/api/venues/${VENUE}/booking-availability`));
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as { payload: { valid: boolean } }).payload.valid, true);
    assert.equal(seen.at(-1)!.authorization, `${APP_ID}:${API_KEY}`);
    const moved = await transport(plain(`${base}/moved`));
    assert.equal(moved.status, 302, 'redirects are not followed over TLS either');
    assert.equal(connections, 1, 'one kept-alive TLS connection for both calls');
  });

  test('refuses a certificate it does not trust: the proxy answers 502 and the key is never sent', async () => {
    const before = seen.length;
    connections = 0;
    await assert.rejects(nodeTransport()(plain(`${base}/v4/venues`)), /self-signed|certificate/i);
    const logger = memoryLogger();
    const proxy = createProxy({
      upstream: `${base}/v4`,
      appId: APP_ID,
      apiKey: API_KEY,
      venues: [VENUE],
      logger,
      transport: nodeTransport(),
    });
    const read = await proxy.fetch(new Request(`http://localhost/api/venues/${VENUE}/booking-availability`));
    assert.equal(read.status, 502);
    assert.equal(seen.length, before, 'no request reached the server');
    assert.equal(connections, 0, 'no TLS connection was completed');
    assert.ok(logger.lines.some((line) => line.msg === 'upstream failed' && line.fault === 'unreachable'));
  });
});
