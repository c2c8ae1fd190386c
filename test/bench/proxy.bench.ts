/**
 * Proxy benchmarks, loopback only, bounded loops. "The Node entry" is the bin as shipped: built
 * from this checkout (`npm run build:server`), run as operators run it
 * (`dist/server/venue-booking-proxy.js` in a process of its own, its defaults: prom-client metrics,
 * the batched JSON line per request on stdout, here a pipe drained by a collector process), per-client limits raised.
 *
 * 1. Added latency: p50/p99 of sequential requests through the Node entry (cache off, so every
 *    request makes its upstream call) minus the same requests sent straight to the upstream. The
 *    proxy runs in the bench's process, built as the bin is (`builtRelayingParts`), and beside it
 *    from the sources under tsx, as this row was measured before.
 *    The upstream is a trivial loopback HTTP server answering a fixed 2 KB envelope at once. Beside
 *    it, in the same rounds: a minimal hand-written `node:http` relay, also a process of its own
 *    (what Node itself costs for the extra hop: no checks, no reshaping, two headers) and, with
 *    nginx on the PATH, an nginx `proxy_pass`.
 * 2. Throughput of cached availability answers: in-process (the handler alone, from the sources),
 *    and over loopback HTTP with 32 keep-alive connections, side by side in one run: the Node entry
 *    (fast path), the same bin with its metrics off, the same app through @hono/node-server alone
 *    (no fast path, in this process), a bare `node:http` server answering the very same bytes and
 *    headers (the ceiling of Node on this machine), and nginx's
 *    `proxy_cache` answering them from its cache (when nginx is on the PATH). Load from `wrk`
 *    when it is on the PATH (a C load generator, so the figure is the server's, not the
 *    client's), else from a Node worker thread (which spends much of the 2 cores itself).
 * 3. Upstream calls per 100 widget calls: 600 simulated visitors browsing one venue over 30
 *    simulated minutes, each stepping through type → date → party size → time → duration with
 *    choices drawn from what real guests pick; against the real sandbox; simulated clock.
 * 4. Identical concurrent requests: 1000 at once → upstream calls (goal: 1 per cache window).
 */
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { build } from 'vite';
import { silentLogger } from '../../proxy/core/log.js';
import { createStack } from '../../proxy/stack.js';
import type { ProxyConfig } from '../../proxy/config.js';
import { Metrics } from '../../proxy/core/metrics.js';
import { prometheusBackend } from '../../proxy/node/prometheus.js';
import type { Transport } from '../../proxy/upstream/transport.js';
import { binLogger } from './bin-logger.js';
import * as sources from './relaying-parts.js';
import { UNLIMITED } from './unlimited.js';
import { SERVER_MINIFY } from '../../vite.config.js';

export const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const TYPES = ['64a1f0c2e4b0a1b2c3d4e601', '64a1f0c2e4b0a1b2c3d4e605'];
/** The trivial upstream's answer: a 2 KB availability envelope. */
export const PAYLOAD = JSON.stringify({
  payload: {
    valid: true,
    action: 'accept',
    validation: {
      time: {
        valid: true,
        suggestedValues: Array.from({ length: 24 }, (_, i) => ({
          value: `${String(12 + (i >> 2)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`,
          valid: true,
          message: null,
        })),
      },
    },
    next: { api: 'http://x/v4/bookings' },
  },
  status: 200,
});

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const close = (server: { close(cb?: () => void): unknown }) =>
  new Promise<void>((resolve) => void server.close(() => resolve()));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** One GET over a keep-alive agent; resolves with the elapsed ms. */
export function get(agent: Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    });
    req.on('error', reject);
    req.end();
  });
}

async function sequential(agent: Agent, port: number, path: (i: number) => string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await get(agent, port, path(i)));
  return times.sort((a, b) => a - b);
}

/** True when `command` can be run. */
const has = (command: string, flag: string) => spawnSync(command, [flag], { stdio: 'ignore' }).error === undefined;

/** A loopback port free now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await close(probe);
  return port;
}

/** Resolves once `port` answers `path` (any status), polling every 30 ms for up to 10 s. */
async function answering(port: number, path: string): Promise<void> {
  const agent = new Agent({ keepAlive: false });
  for (let i = 0; ; i++) {
    try {
      await get(agent, port, path);
      return;
    } catch (error) {
      if (i > 300) throw error;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  }
}

/** A Node process the bench started: its port, and a stop that waits for its exit. */
interface Child {
  port: number;
  stop(): Promise<void>;
}

/**
 * A Node server in a process of its own, as operators run it: `args` after the node binary, with
 * `--port` and a free port appended, `env` added to this process's own, its stdout (the bin's log
 * lines) a pipe that a process of its own drains, as a log collector reads a server's stdout (`cat`
 * into /dev/null: a pipe nobody drains would stall the server, one drained in this process would
 * share its core with the load). Ready once `ready` answers.
 */
async function startNode(args: string[], env: Record<string, string>, ready: string): Promise<Child> {
  const port = await freePort();
  const child = spawn(process.execPath, [...args, '--port', String(port)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collector = spawn('cat', [], { stdio: [child.stdout!, openSync('/dev/null', 'w'), 'ignore'] });
  // Its warnings (no public URL on loopback) stay out of the table; they are shown if it dies.
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const died = exited.then(() => {
    throw new Error(`${args[0]} exited before it answered:\n${errors}`);
  });
  await Promise.race([answering(port, ready), died]);
  died.catch(() => {});
  return {
    port,
    stop: async () => {
      child.kill();
      await exited;
      collector.kill();
    },
  };
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The proxy's bin as shipped (`dist/server/venue-booking-proxy.js`, built from this checkout
 * first), with its defaults but for `env` and `args`: prom-client metrics, the batched JSON line
 * per request on stdout, the per-client key from the socket address. Every client here is
 * 127.0.0.1, so its limits are raised to their highest.
 */
async function startBin(args: string[], env: Record<string, string> = {}): Promise<Child> {
  const limits = { VENUE_BOOKING_RATE_LIMIT: '1000000', VENUE_BOOKING_MISS_LIMIT: '1000000' };
  return startNode(
    [`${root}dist/server/venue-booking-proxy.js`, '--host', '127.0.0.1', ...args],
    { ...limits, ...env },
    '/healthz',
  );
}

/** The upstream calls a running bin made, as its `/metrics` counts them (loopback may read it). */
async function upstreamCalls(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  let calls = 0;
  for (const line of text.split('\n'))
    if (line.startsWith('venue_booking_upstream_requests_total{'))
      calls += Number(line.slice(line.lastIndexOf(' ') + 1));
  return calls;
}

/**
 * The floor of a relay in Node, in a process of its own like the bin: the same upstream call over
 * a kept-alive agent, its body passed on (argv: the upstream's port, then `--port N`).
 */
const HAND_RELAY = `
const { createServer, request, Agent } = require('node:http');
const upPort = Number(process.argv[1]);
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
createServer((req, res) => {
  const path = req.url.replace('/api/', '/v4/');
  const headers = { authorization: 'bench:bench-key', accept: 'application/json' };
  request({ host: '127.0.0.1', port: upPort, path, headers, agent }, (up) => {
    const chunks = [];
    up.on('data', (chunk) => chunks.push(chunk));
    up.on('end', () => {
      const body = Buffer.concat(chunks);
      res.writeHead(up.statusCode, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  }).end();
}).listen(Number(process.argv[3]), '127.0.0.1');`;

/**
 * nginx in front of `upstreamPort` (one worker, no access log), with `proxy_cache` when `cache`:
 * the reference a reverse proxy in C gives on the same machine. Its files live in a temporary
 * directory removed by `stop`.
 */
async function startNginx(upstreamPort: number, cache: boolean): Promise<{ port: number; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-booking-nginx-'));
  const probe = createServer();
  const port = await listen(probe);
  await close(probe);
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_cache_path ${dir}/cache keys_zone=bench:1m;
  upstream up { server 127.0.0.1:${upstreamPort}; keepalive 32; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://up;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      ${cache ? 'proxy_cache bench; proxy_cache_valid 200 10m; proxy_ignore_headers Cache-Control Expires Set-Cookie;' : ''}
    }
  }
}`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const agent = new Agent({ keepAlive: false });
  for (let i = 0; ; i++) {
    try {
      await get(agent, port, '/');
      break;
    } catch (error) {
      if (i > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  }
  return {
    port,
    stop: async () => {
      child.kill();
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Interleaved rounds of sequential requests to each target, so drift (GC, CPU frequency, a noisy
 * neighbour of the VM) hits all alike, after 3000 warm-up requests each: a proxy runs for days, so
 * its steady state is what counts, and its code (guards, validation, cache, budget, reshaping)
 * takes the JIT a few thousand calls to compile fully where a hand-written relay's takes a few
 * hundred (with 300, the proxy's first rounds measured V8's tiers as much as its work). Ten rounds
 * of 300: on this VM a slow spell lasts a second or more, and with three rounds of 1000 it could
 * fall on one target's whole round, moving that target's p50 by half between runs.
 */
async function rounds(agent: Agent, targets: [number, (i: number) => string][]): Promise<number[][]> {
  const times = targets.map(() => [] as number[]);
  for (const [port, path] of targets) await sequential(agent, port, path, 3000);
  for (let r = 0; r < 10; r++) {
    for (const [i, [port, path]] of targets.entries()) times[i]!.push(...(await sequential(agent, port, path, 300)));
  }
  return times.map((list) => list.sort((a, b) => a - b));
}

/** The proxy's Node parts a relaying bench runs: the sources (as tsx runs them), or built as the bin is. */
export type RelayingParts = typeof import('./relaying-parts.js');

/**
 * The relaying proxy's settings: the bin's logger and metrics, its cache off, no limits. Also
 * test/bench/relay-micro.ts's, over a transport of its own.
 */
export function relayingConfig(parts: RelayingParts, upstream: string, transport: Transport): ProxyConfig {
  return {
    upstream,
    appId: 'bench',
    apiKey: 'bench-key',
    venues: [VENUE],
    cacheTtlMs: 0,
    browseTtlMs: 0,
    staleMs: 0,
    logger: parts.binLogger(),
    metrics: new parts.Metrics(parts.prometheusBackend()),
    ...UNLIMITED,
    transport,
  };
}

/**
 * The proxy's Node parts built as the bin is built: one bundle with its libraries in, minified with
 * the server build's options (vite.config.ts `SERVER_MINIFY`). So the proxy the bench runs in its
 * own process is the code operators run, not the sources under tsx, whose transform leaves them
 * unminified and wraps every named closure made per request in a `__name` call.
 */
export async function builtRelayingParts(): Promise<RelayingParts> {
  const outDir = mkdtempSync(join(tmpdir(), 'venue-booking-bench-'));
  await build({
    configFile: false,
    root,
    logLevel: 'silent',
    ssr: { noExternal: true, target: 'node' },
    build: {
      ssr: `${root}test/bench/relaying-parts.ts`,
      outDir,
      target: 'node22',
      rolldownOptions: { output: { entryFileNames: 'parts.mjs', minify: SERVER_MINIFY } },
    },
  });
  try {
    // One file (the parts load nothing later), so it can go once imported.
    return (await import(pathToFileURL(join(outDir, 'parts.mjs')).href)) as RelayingParts;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * The trivial upstream, and the proxy's Node entry in front of it in this process (its `parts`: by
 * default the sources), with the bin's logger and metrics and its cache off: client, proxy and
 * upstream share one thread, so what the proxy adds is its own work on the way, undisturbed by the
 * scheduler. Its fast path runs the reads (with the cache off, never from a memo). Also
 * test/bench/relay-latency.ts's.
 */
export async function relayingEntry(parts: RelayingParts = sources) {
  const upstream = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(PAYLOAD);
  });
  const upPort = await listen(upstream);
  const proxy = parts.createProxy(relayingConfig(parts, `http://127.0.0.1:${upPort}/v4`, parts.nodeTransport()));
  const server = createServer(parts.nodeListener(proxy));
  const port = await listen(server);
  return { upstream, upPort, proxy, server, port };
}

async function addedLatency() {
  const { upstream, upPort, proxy, server, port } = await relayingEntry(await builtRelayingParts());
  // The floor of a relay in Node, in this process too.
  const relayAgent = new Agent({ keepAlive: true, maxSockets: 64 });
  const relay = createServer((req, res) => {
    const path = req.url!.replace('/api/', '/v4/');
    const headers = { authorization: 'bench:bench-key', accept: 'application/json' };
    const out = httpRequest({ host: '127.0.0.1', port: upPort, path, headers, agent: relayAgent }, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (chunk: Buffer) => chunks.push(chunk));
      up.on('end', () => {
        const body = Buffer.concat(chunks);
        res.writeHead(up.statusCode!, { 'content-type': 'application/json', 'content-length': body.length });
        res.end(body);
      });
    });
    out.end();
  });
  const relayPort = await listen(relay);
  // The bin as shipped in front of the same upstream, cache off, and the hand-written relay in a
  // process of its own beside it: each hop now crosses processes, as in production.
  const bin = await startBin(['--upstream', `http://127.0.0.1:${upPort}/v4`, '--venues', VENUE], {
    VENUE_BOOKING_APP_ID: 'bench',
    VENUE_BOOKING_API_KEY: 'bench-key',
    VENUE_BOOKING_BOOKING_SITE: 'https://book.example.com/book',
    VENUE_BOOKING_CACHE_TTL_MS: '0',
    VENUE_BOOKING_BROWSE_TTL_MS: '0',
    VENUE_BOOKING_STALE_MS: '0',
    VENUE_BOOKING_UPSTREAM_QUOTA: '10000000',
    VENUE_BOOKING_LOW_WATER: '0',
  });
  const handRelay = await startNode(['-e', HAND_RELAY, String(upPort)], {}, '/api/venues');
  const nginx = has('nginx', '-v') ? await startNginx(upPort, false) : null;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const proxied = (i: number) => `/api/venues/${VENUE}/booking-availability?num_people=${(i % 8) + 1}`;
  const direct = (i: number) => `/v4/venues/${VENUE}/booking-availability?num_people=${(i % 8) + 1}`;
  const targets: [number, (i: number) => string][] = [
    [upPort, direct],
    [port, proxied],
    [relayPort, proxied],
    [bin.port, proxied],
    [handRelay.port, proxied],
  ];
  if (nginx) targets.push([nginx.port, direct]);
  const [d, p, b, pBin, bBin, n] = await rounds(agent, targets);
  const calls = proxy.upstream.calls;
  const binCalls = await upstreamCalls(bin.port);
  agent.destroy();
  relayAgent.destroy();
  await nginx?.stop();
  await handRelay.stop();
  await bin.stop();
  await close(relay);
  await close(server);
  await close(upstream);
  // The same proxy from the sources under tsx, as this row was measured until the proxy was built
  // for it: in rounds of its own after the others (it and the direct calls alone), so the rounds
  // above stay as they were. Fewer targets per round read lower on this VM, so the two rows are
  // each other's neighbours, not an A/B.
  const fromSources = await relayingEntry();
  const again = new Agent({ keepAlive: true, maxSockets: 64 });
  const [dSources, pSources] = await rounds(again, [
    [fromSources.upPort, direct],
    [fromSources.port, proxied],
  ]);
  again.destroy();
  await close(fromSources.server);
  await close(fromSources.upstream);
  return {
    d: d!,
    p: p!,
    b: b!,
    pBin: pBin!,
    bBin: bBin!,
    dSources: dSources!,
    pSources: pSources!,
    n,
    calls,
    binCalls,
  };
}

/** The load generator runs in a worker thread, so it does not share the server's event loop. */
const CLIENT = `
const { request, Agent } = require('node:http');
const { workerData, parentPort } = require('node:worker_threads');
const agent = new Agent({ keepAlive: true, maxSockets: workerData.conns });
const get = () => new Promise((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port: workerData.port, path: workerData.path, headers: workerData.headers, agent }, (res) => { res.resume(); res.on('end', resolve); });
  req.on('error', reject); req.end();
});
(async () => {
  let done = 0; const t0 = performance.now(); const deadline = t0 + workerData.ms;
  await Promise.all(Array.from({ length: workerData.conns }, async () => { while (performance.now() < deadline) { await get(); done++; } }));
  parentPort.postMessage(done / ((performance.now() - t0) / 1000)); agent.destroy();
})();`;

/**
 * Requests per second from `wrk -t1 -c32 -d2s url`. Asynchronous on purpose: the server under test
 * shares this process's event loop. Answers other than 2xx/3xx make the figure meaningless: refused.
 */
function wrk(url: string, headers: Record<string, string>): Promise<number> {
  const flags = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  return new Promise((resolve, reject) => {
    execFile('wrk', ['-t1', '-c32', '-d2s', ...flags, url], { timeout: 30_000 }, (error, stdout) => {
      if (error) return reject(error);
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
      const failed = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout);
      if (!rate) return reject(new Error(`wrk printed no Requests/sec:\n${stdout}`));
      if (failed) return reject(new Error(`wrk saw ${failed[1]} answers other than 2xx/3xx from ${url}`));
      resolve(Number(rate[1]));
    });
  });
}

/**
 * Requests per second of 32 keep-alive connections on `path` at `port`, with `headers` (wrk, else
 * a worker thread).
 */
async function load(
  client: 'wrk' | 'worker',
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<number> {
  if (client === 'wrk') return wrk(`http://127.0.0.1:${port}${path}`, headers);
  const worker = new Worker(CLIENT, { eval: true, workerData: { port, path, headers, conns: 32, ms: 2500 } });
  const rate = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return rate;
}

/** One answer's status line, headers (as sent, less those Node adds itself) and body, asked with `headers`. */
function capture(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ headers: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          if (!/^(date|connection|keep-alive|content-length|transfer-encoding)$/i.test(name))
            headers.push(name, res.rawHeaders[i + 1]!);
        }
        resolve({ headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The `Accept-Encoding` every browser sends. */
const BROWSER_ENCODING = { 'accept-encoding': 'gzip, deflate, br' };

async function cachedThroughput() {
  // In this process, from the sources: the handler alone, and the app through @hono/node-server.
  const stack = createStack({
    origin: 'http://127.0.0.1',
    proxy: { logger: binLogger(), ...UNLIMITED, cacheTtlMs: 600_000, metrics: new Metrics(prometheusBackend()) },
  });
  const url = `http://127.0.0.1/api/venues/${VENUE}/booking-availability?type=${TYPES[0]}&num_people=2`;
  const burst = () =>
    Promise.all(Array.from({ length: 50 }, () => stack.fetch(new Request(url)).then((r) => r.arrayBuffer())));
  // In-process: the handler alone (after a warm-up, so the JIT has settled).
  for (let i = 0; i < 40; i++) await burst();
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < 2000) {
    await burst();
    n += 50;
  }
  const inProcess = n / ((performance.now() - started) / 1000);

  const path = new URL(url).pathname + new URL(url).search;
  // The bin as shipped on its embedded sandbox: counting into prom-client's registry and writing
  // its JSON line per request; `quiet`, the same bin with its metrics off (nothing counted).
  const entry = await startBin([]);
  const entryPort = entry.port;
  const quiet = await startBin([], { VENUE_BOOKING_METRICS: 'off' });
  const quietPort = quiet.port;
  await capture(quietPort, path);
  await capture(entryPort, path);
  const hono = createServer(getRequestListener(stack.fetch));
  const honoPort = await listen(hono);
  // A bare node:http server answering exactly what the entry answers (headers and body).
  const sample = await capture(entryPort, path);
  const bare = createServer((req, res) => {
    res.writeHead(200, sample.headers);
    res.end(sample.body);
  });
  const barePort = await listen(bare);
  const nginx = has('nginx', '-v') ? await startNginx(barePort, true) : null;
  const client = has('wrk', '--version') ? 'wrk' : 'worker';
  const servers: [string, number][] = [
    ['entry', entryPort],
    ['quiet', quietPort],
    ['hono', honoPort],
    ['bare', barePort],
  ];
  if (nginx) servers.push(['nginx', nginx.port]);
  // Five interleaved rounds, in turn forwards and backwards. Each server's figure is its best round;
  // each ratio the median of the rounds' own ratios (servers measured seconds apart), so that a
  // neighbour's burst on the shared cores decides neither.
  const rounds: Record<string, number>[] = [];
  for (let round = 0; round < 5; round++) {
    const rates: Record<string, number> = {};
    for (const [name, port] of round % 2 ? [...servers].reverse() : servers)
      rates[name] = await load(client, port, path);
    rounds.push(rates);
  }
  const rate: Record<string, number> = {};
  for (const [name] of servers) rate[name] = Math.max(...rounds.map((rates) => rates[name]!));
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
  const ratio = (name: string) => median(rounds.map((rates) => rates[name]! / rates.bare!));
  // As browsers ask (every one accepts gzip): the entry against a bare server replaying its gzipped answer.
  const gzipped = await capture(entryPort, path, BROWSER_ENCODING);
  const bareGzip = createServer((req, res) => {
    res.writeHead(200, gzipped.headers);
    res.end(gzipped.body);
  });
  const bareGzipPort = await listen(bareGzip);
  const gzipRounds: { entry: number; bare: number }[] = [];
  for (let round = 0; round < 5; round++) {
    const entryRate = await load(client, entryPort, path, BROWSER_ENCODING);
    gzipRounds.push({ entry: entryRate, bare: await load(client, bareGzipPort, path, BROWSER_ENCODING) });
  }
  await close(bareGzip);
  await nginx?.stop();
  const upstreamCallsMade = await upstreamCalls(entryPort);
  for (const server of [hono, bare]) await close(server);
  for (const child of [entry, quiet]) await child.stop();
  return {
    inProcess,
    rate,
    ratio: {
      entry: ratio('entry'),
      hono: ratio('hono'),
      nginx: nginx ? ratio('nginx') : null,
      metrics: median(rounds.map((rates) => rates.entry! / rates.quiet!)),
    },
    gzip: {
      entry: Math.max(...gzipRounds.map((r) => r.entry)),
      bare: Math.max(...gzipRounds.map((r) => r.bare)),
      ratio: median(gzipRounds.map((r) => r.entry / r.bare)),
      bytes: gzipped.body.length,
    },
    bytes: sample.body.length,
    client: client === 'wrk' ? 'wrk -t1 -c32 -d2s' : '32 connections from a worker thread',
    upstreamCalls: upstreamCallsMade,
  };
}

/** Deterministic PRNG (mulberry32), so every run simulates the same visitors. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function visitors(cacheTtlMs: number) {
  let now = Date.UTC(2030, 4, 1, 9);
  const stack = createStack({
    origin: 'http://127.0.0.1',
    sandbox: { now: '2030-05-01T10:00:00' },
    proxy: { logger: silentLogger, now: () => now, cacheTtlMs, ...UNLIMITED },
  });
  const rand = random(42);
  const pick = <T>(items: T[], weights?: number[]) => {
    if (!weights) return items[Math.floor(rand() * items.length)]!;
    let r = rand() * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < items.length; i++) if ((r -= weights[i]!) < 0) return items[i]!;
    return items[items.length - 1]!;
  };
  // Guests mostly look at the next few days, for two to four people, in the evening.
  const dates = Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2030, 4, 2 + i)).toISOString().slice(0, 10));
  const dateWeights = dates.map((_, i) => 1 / (1 + i));
  const events: { at: number; query: string }[] = [];
  for (let v = 0; v < 600; v++) {
    const start = now + v * 3000;
    const type = pick(TYPES, [4, 1]);
    const date = pick(dates, dateWeights);
    const people = pick([2, 3, 4, 5, 6], [6, 2, 3, 1, 1]);
    const time = pick(['18:00', '18:30', '19:00', '19:30', '20:00'], [1, 2, 3, 2, 1]);
    const steps = [
      `type=${type}`,
      `type=${type}&date=${date}`,
      `type=${type}&date=${date}&num_people=${people}`,
      `type=${type}&date=${date}&num_people=${people}&time=${time}`,
      `type=${type}&date=${date}&num_people=${people}&time=${time}&duration=120`,
    ];
    steps.forEach((query, i) => events.push({ at: start + i * 5000, query }));
  }
  events.sort((a, b) => a.at - b.at);
  for (const event of events) {
    now = event.at;
    await stack.fetch(new Request(`http://127.0.0.1/api/venues/${VENUE}/booking-availability?${event.query}`));
  }
  return {
    widgetCalls: events.length,
    upstreamCalls: stack.proxy.upstream.calls,
    minutes: (events.at(-1)!.at - events[0]!.at) / 60_000,
  };
}

async function identicalBurst() {
  const stack = createStack({
    origin: 'http://127.0.0.1',
    proxy: { logger: silentLogger, ...UNLIMITED },
  });
  const url = `http://127.0.0.1/api/venues/${VENUE}/booking-availability?type=${TYPES[0]}&date=2030-06-04`;
  await Promise.all(Array.from({ length: 1000 }, () => stack.fetch(new Request(url)).then((r) => r.arrayBuffer())));
  return stack.proxy.upstream.calls;
}

/** Runs every proxy benchmark and returns the table rows. */
export async function run(): Promise<{ name: string; value: string; goal?: string }[]> {
  // The bin as this checkout ships it: the whole server half, as `npm run build` makes it (so the
  // package bench, and anything else reading dist/server, finds it whole afterwards).
  execFileSync('npm', ['run', 'build:server'], { cwd: root, stdio: 'ignore' });
  const latency = await addedLatency();
  const throughput = await cachedThroughput();
  const sim = await visitors(15_000);
  const simLong = await visitors(60_000);
  const burst = await identicalBurst();
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  const p50 = percentile(latency.p, 50) - percentile(latency.d, 50);
  const p99 = percentile(latency.p, 99) - percentile(latency.d, 99);
  const nginxAdded = latency.n ? percentile(latency.n, 50) - percentile(latency.d, 50) : null;
  const { rate } = throughput;
  const perSecond = (value: number | undefined) =>
    value === undefined ? 'nginx not installed' : `${Math.round(value)}/s`;
  return [
    {
      name: 'proxy: direct upstream call p50 / p99 (loopback, 3000 sequential)',
      value: `${ms(percentile(latency.d, 50))} / ${ms(percentile(latency.d, 99))}`,
    },
    {
      name: 'proxy: through the Node entry, cache off, p50 / p99 (built as the bin is, in the bench process: one thread for client, proxy and upstream)',
      value: `${ms(percentile(latency.p, 50))} / ${ms(percentile(latency.p, 99))} (${latency.calls} upstream calls)`,
    },
    { name: 'proxy: added latency of a relayed read, p50', value: ms(p50), goal: '≤ 0.3 ms' },
    { name: 'proxy: added latency p99', value: ms(p99) },
    {
      name: 'the same proxy from the sources under tsx (unminified, `__name` wrappers), in rounds of its own after the others (with the direct calls alone): added latency p50',
      value: ms(percentile(latency.pSources, 50) - percentile(latency.dSources, 50)),
    },
    {
      name: 'minimal hand-written node:http relay: added latency p50, same run',
      value: ms(percentile(latency.b, 50) - percentile(latency.d, 50)),
    },
    {
      name: 'the bin as shipped, a process of its own, cache off: added latency p50 / p99; the hand-written relay in a process of its own, p50',
      value: `${ms(percentile(latency.pBin, 50) - percentile(latency.d, 50))} / ${ms(
        percentile(latency.pBin, 99) - percentile(latency.d, 99),
      )} (${latency.binCalls} upstream calls); ${ms(percentile(latency.bBin, 50) - percentile(latency.d, 50))}`,
    },
    {
      name: 'nginx proxy_pass (no cache): added latency p50, same run',
      value: nginxAdded === null ? 'nginx not installed' : ms(nginxAdded),
    },
    {
      name: 'proxy: cached availability answers/s, in-process handler',
      value: `${Math.round(throughput.inProcess)}/s`,
      goal: '≥ 5000/s',
    },
    {
      name: `proxy: cached availability answers/s, Node entry (fast path, metrics on: prom-client), loopback HTTP, ${throughput.client}, best of 5 rounds`,
      value: `${perSecond(rate.entry)} (${throughput.upstreamCalls} upstream call, ${throughput.bytes} B answers)`,
      goal: '≥ 0.6 × bare node:http',
    },
    {
      name: 'proxy: the same Node entry with its metrics off (nothing counted), same run; metrics on ÷ off, median of 5 rounds',
      value: `${perSecond(rate.quiet)}; ${throughput.ratio.metrics.toFixed(2)}×`,
      goal: 'within noise of 1×',
    },
    {
      name: 'proxy: the same cached reads asked as browsers ask them (Accept-Encoding: gzip, deflate, br), Node entry ÷ bare node:http replaying its gzipped answer, median of 5 rounds',
      value: `${throughput.gzip.ratio.toFixed(2)}× (${perSecond(throughput.gzip.entry)} against ${perSecond(
        throughput.gzip.bare,
      )}, ${throughput.gzip.bytes} B answers)`,
    },
    {
      name: 'proxy: the same app through @hono/node-server alone (no fast path), same run',
      value: perSecond(rate.hono),
    },
    {
      name: 'bare node:http answering the same bytes and headers (the ceiling of Node here), same run',
      value: `${perSecond(rate.bare)} (load average ${loadavg()[0]!.toFixed(1)})`,
    },
    { name: 'nginx proxy_cache answering the same from its cache, same run', value: perSecond(rate.nginx) },
    {
      name: 'proxy: Node entry ÷ bare node:http, median of 5 rounds (without the fast path; nginx ÷ bare)',
      value: `${throughput.ratio.entry.toFixed(2)}× (${throughput.ratio.hono.toFixed(2)}×; ${
        throughput.ratio.nginx === null ? 'no nginx' : `${throughput.ratio.nginx.toFixed(2)}×`
      })`,
      goal: '≥ 0.6×',
    },
    {
      name: `proxy: upstream calls per 100 widget calls (600 visitors, one venue, ${Math.round(sim.minutes)} simulated min, 15 s TTL for a date's reads, 10 min without a date)`,
      value: ((100 * sim.upstreamCalls) / sim.widgetCalls).toFixed(1),
      goal: 'fewer is better (100 = no sharing)',
    },
    {
      name: "proxy: the same with 60 s for a date's reads (the default)",
      value: ((100 * simLong.upstreamCalls) / simLong.widgetCalls).toFixed(1),
    },
    {
      name: 'proxy: upstream calls for 1000 identical concurrent requests',
      value: String(burst),
      goal: '1 per cache window',
    },
  ];
}
