/**
 * The Node entry's own guards, through real sockets: whose address keys the per-client limit behind
 * a reverse proxy (X-Forwarded-For rotation, empty values, IPv6 /64), and slow or surplus
 * connections cut off by the configured timeouts and cap (small values set here, not waited out),
 * and kept-alive connections that must survive a refused body.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { addressKey, clientKeyFor, forwardedClient } from '../../proxy/guards/client-ip.js';
import { freePort, runBin } from './node-bin.js';
import { VENUE } from './support.js';

const READ = `/api/venues/${VENUE}/booking-availability?num_people=2`;
const LISTENING = /(Add the widget|not built)[^\n]*\n/;

async function start(env: Record<string, string>) {
  const port = await freePort();
  const run = await runBin({ PORT: String(port), ...env }, [], LISTENING);
  return { base: `http://127.0.0.1:${port}`, port, stop: run.stop };
}

/** Status of a read sent with these headers. */
async function readAs(base: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${base}${READ}`, { headers });
  await response.arrayBuffer();
  return response.status;
}

/** A raw connection; `closed` settles when the server ends it, with what it sent before. */
function open(port: number): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const closed = new Promise<string>((done) => socket.on('close', () => done(received)));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** Writes `chunks` one by one, `gapMs` apart, until they run out or the socket is closed. */
async function trickle(socket: Socket, chunks: string[], gapMs: number): Promise<'closed' | 'sent all'> {
  for (const chunk of chunks) {
    if (socket.destroyed || socket.readyState !== 'open') return 'closed';
    socket.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return socket.destroyed || socket.readyState !== 'open' ? 'closed' : 'sent all';
}

describe('client addresses (proxy/client-ip.ts)', () => {
  test('the entry trustedHops from the right; short, empty or malformed values are absent', () => {
    assert.equal(forwardedClient('6.6.6.6, 203.0.113.7'), '203.0.113.7');
    assert.equal(forwardedClient('6.6.6.6, 203.0.113.7, 10.0.0.2', 2), '203.0.113.7');
    assert.equal(forwardedClient('203.0.113.7', 2), null);
    assert.equal(forwardedClient(''), null);
    assert.equal(forwardedClient(' , '), null);
    assert.equal(forwardedClient('1.2.3.4, not-an-address'), null);
    assert.equal(forwardedClient(null), null);
  });

  test('IPv6 grouped by /64, IPv4-mapped addresses as IPv4', () => {
    assert.equal(addressKey('2001:db8:1:2::1'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:0db8:0001:0002:ffff:1:2:3'), '2001:db8:1:2::/64');
    assert.equal(addressKey('[2001:db8:1:2::9]'), '2001:db8:1:2::/64');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
    assert.equal(addressKey('::ffff:127.0.0.1'), '127.0.0.1');
    assert.equal(addressKey('2001:db8::1::2'), null);
    assert.equal(addressKey('1.2.3.256'), null);
  });

  test('the Worker key: CF-Connecting-IP grouped, empty treated as absent', () => {
    const key = clientKeyFor({ header: 'cf-connecting-ip' });
    const request = (value: string) => new Request('http://edge.test/', { headers: { 'cf-connecting-ip': value } });
    assert.equal(key(request('2001:db8:aa:bb::1'), undefined), '2001:db8:aa:bb::/64');
    assert.equal(key(request(''), undefined), undefined);
  });
});

describe('the Node entry behind a reverse proxy (X-Forwarded-For)', { timeout: 60_000 }, () => {
  let server: Awaited<ReturnType<typeof start>>;
  before(async () => {
    server = await start({ VENUE_BOOKING_RATE_LIMIT: '5', VENUE_BOOKING_CLIENT_IP_HEADER: 'x-forwarded-for' });
  });
  after(() => server.stop());

  test('rotating the client-written entries does not open new buckets', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push(await readAs(server.base, { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` }));
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    assert.equal(await readAs(server.base, { 'x-forwarded-for': '203.0.113.8' }), 200, 'another client is unaffected');
  });

  test('addresses inside one IPv6 /64 share a bucket', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push(await readAs(server.base, { 'x-forwarded-for': `2001:db8:5:6::${i}` }));
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });

  test('an empty value counts as absent: the socket address, not one bucket of its own', async () => {
    for (let i = 0; i < 3; i++) assert.equal(await readAs(server.base, { 'x-forwarded-for': ' ' }), 200);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push(await readAs(server.base, { 'x-forwarded-for': '127.0.0.1' }));
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});

describe('slow and surplus connections on the Node entry', { timeout: 60_000 }, () => {
  let server: Awaited<ReturnType<typeof start>>;
  before(async () => {
    server = await start({
      VENUE_BOOKING_HEADERS_TIMEOUT_MS: '300',
      VENUE_BOOKING_REQUEST_TIMEOUT_MS: '600',
      VENUE_BOOKING_KEEP_ALIVE_TIMEOUT_MS: '200',
    });
  });
  after(() => server.stop());

  // Each trickle would go on for 20 s; the server must end it long before, at its set timeout.
  test('headers sent slowly: the connection is closed with 408 before they are done', async () => {
    const { socket, closed } = await open(server.port);
    const lines = ['GET /healthz HTTP/1.1\r\n', ...Array.from({ length: 200 }, (_, i) => `x-slow-${i}: 1\r\n`)];
    assert.equal(await trickle(socket, lines, 100), 'closed');
    assert.match(await closed, /^HTTP\/1\.1 408/);
  });

  test('a body sent slowly: the connection is closed before it is done', async () => {
    const { socket, closed } = await open(server.port);
    socket.write(
      `POST /api/bookings HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 200\r\n\r\n`,
    );
    assert.equal(await trickle(socket, Array<string>(200).fill(' '), 100), 'closed');
    assert.doesNotMatch(await closed, /^HTTP\/1\.1 2/);
  });

  test('an idle keep-alive connection is closed after its answer', async () => {
    const { socket, closed } = await open(server.port);
    socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    assert.match(await closed, /^HTTP\/1\.1 200/);
  });
});

describe('the connection cap on the Node entry', { timeout: 60_000 }, () => {
  let server: Awaited<ReturnType<typeof start>>;
  before(async () => {
    server = await start({ VENUE_BOOKING_MAX_CONNECTIONS: '2' });
  });
  after(() => server.stop());

  test('connections past the cap are dropped unanswered; those inside it are served', async () => {
    const first = await open(server.port);
    const second = await open(server.port);
    const third = await open(server.port);
    third.socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    assert.equal(await third.closed, '');
    first.socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
    assert.match(await first.closed, /^HTTP\/1\.1 200/);
    second.socket.destroy();
  });
});

describe('kept-alive connections on the Node entry', { timeout: 60_000 }, () => {
  let server: Awaited<ReturnType<typeof start>>;
  before(async () => {
    server = await start({});
  });
  after(() => server.stop());

  /** One request over `agent`; resolves with the status, the Connection header and the body. */
  const send = (agent: Agent, path: string, method = 'GET', body?: string) =>
    new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          path,
          method,
          agent,
          headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  test('an oversized body is refused with 413 and Connection: close; the next request on the agent succeeds', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      assert.equal((await send(agent, READ)).status, 200);
      const refused = await send(agent, '/api/bookings', 'POST', JSON.stringify({ notes: 'n'.repeat(40_000) }));
      assert.equal(refused.status, 413);
      assert.equal(refused.connection, 'close');
      assert.equal(JSON.parse(refused.body).payload.stored, false);
      for (let i = 0; i < 3; i++) assert.equal((await send(agent, READ)).status, 200);
    } finally {
      agent.destroy();
    }
  });

  test('a body that was read stays on its kept-alive connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await send(agent, '/api/bookings', 'POST', '{"venue_id":');
      assert.equal(refused.status, 400);
      assert.equal(refused.connection, 'keep-alive');
      assert.equal((await send(agent, READ)).status, 200);
    } finally {
      agent.destroy();
    }
  });
});

/** Whether a TCP connection to `host:port` is accepted. */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the listen address and port of the Node entry', { timeout: 60_000 }, () => {
  test('HOST (or --host) chooses the address; by default every interface, as --help says', async () => {
    const help = await runBin({}, ['--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /--host ADDRESS .*\[HOST, default every interface\]/);

    // 127.0.0.2 is this machine too: a listener on every interface answers there, one on 127.0.0.1 does not.
    const everywhere = await start({});
    try {
      assert.equal(await reachable('127.0.0.2', everywhere.port), true, 'the default is unchanged');
    } finally {
      everywhere.stop();
    }
    const port = await freePort();
    const local = await runBin({ PORT: String(port) }, ['--host', '127.0.0.1'], LISTENING);
    try {
      assert.match(local.out, new RegExp(`listening on http://127\\.0\\.0\\.1:${port}`));
      assert.equal(await readAs(`http://127.0.0.1:${port}`, {}), 200);
      assert.equal(await reachable('127.0.0.2', port), false);
    } finally {
      local.stop();
    }
  });

  test('a port in use: one line naming the port and the setting to change, a non-zero exit, no stack', async () => {
    const port = await freePort();
    const taken = createServer().listen(port);
    await once(taken, 'listening');
    try {
      const { out, code } = await runBin({ PORT: String(port) }, []);
      assert.ok(code !== null && code !== 0, `exit code ${code}`);
      const lines = out.trim().split('\n');
      assert.equal(lines.length, 1, out);
      assert.match(lines[0]!, new RegExp(`Port ${port} is already in use.*PORT or --port`));
      assert.doesNotMatch(out, /EADDRINUSE|\n\s+at /);
    } finally {
      taken.close();
    }
  });

  test('a HOST that is no address: a clear error before listening', async () => {
    const bad = await runBin({ PORT: '0', HOST: 'not an address!' }, []);
    assert.equal(bad.code, 2);
    assert.match(bad.out, /^ {2}- HOST must be an IP address or a host name/m);
    const absent = await runBin({ PORT: '0', HOST: '192.0.2.1' }, []);
    assert.ok(absent.code !== null && absent.code !== 0);
    assert.equal(absent.out.trim().split('\n').length, 1, absent.out);
    assert.match(absent.out, /Cannot listen on 192\.0\.2\.1: .*HOST or --host/);
  });
});
