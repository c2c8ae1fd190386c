/**
 * Proxy benchmarks, loopback only, bounded loops:
 *
 * 1. Added latency: p50/p99 of sequential requests through the proxy (cache off, so every request
 *    makes its upstream call) minus the same requests sent straight to the upstream. The upstream
 *    is a trivial loopback HTTP server answering a fixed 2 KB envelope at once.
 * 2. Throughput of cached availability answers: in-process (the handler alone) and over loopback
 *    HTTP with 32 keep-alive connections: from `wrk` when it is on the PATH (`apt-get install
 *    wrk`; a C load generator, so the figure is the server's, not the client's), else from a
 *    Node worker thread (which spends much of the 2 cores itself). The row says which.
 * 3. Upstream calls per 100 widget calls: 600 simulated visitors browsing one venue over 30
 *    simulated minutes, each stepping through type → date → party size → time → duration with
 *    choices drawn from what real guests pick; against the real sandbox; simulated clock.
 * 4. Identical concurrent requests: 1000 at once → upstream calls (goal: 1 per cache window).
 */
import { execFile, spawnSync } from 'node:child_process';
import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createProxy } from '../../proxy/app.js';
import { silentLogger } from '../../proxy/log.js';
import { createStack } from '../../proxy/stack.js';

/** No per-client or upstream-budget limit: these benchmarks measure sharing and speed, not refusals. */
const UNLIMITED = {
  rateLimit: { limit: 1e9, windowMs: 60_000 },
  missLimit: { limit: 1e9, windowMs: 600_000 },
  upstreamQuota: 1e9,
  lowWater: 0,
};

const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const TYPES = ['64a1f0c2e4b0a1b2c3d4e601', '64a1f0c2e4b0a1b2c3d4e605'];
const PAYLOAD = JSON.stringify({
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
function get(agent: Agent, port: number, path: string): Promise<number> {
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

async function addedLatency() {
  const upstream = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(PAYLOAD);
  });
  const upPort = await listen(upstream);
  const proxy = createProxy({
    upstream: `http://127.0.0.1:${upPort}/v4`,
    appId: 'bench',
    apiKey: 'bench-key',
    venues: [VENUE],
    cacheTtlMs: 0,
    staleMs: 0,
    logger: silentLogger,
    ...UNLIMITED,
  });
  const server = serve({ fetch: proxy.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const proxied = (i: number) => `/api/venues/${VENUE}/booking-availability?num_people=${(i % 8) + 1}`;
  const direct = (i: number) => `/v4/venues/${VENUE}/booking-availability?num_people=${(i % 8) + 1}`;
  const rounds = 3;
  const d: number[] = [];
  const p: number[] = [];
  await sequential(agent, upPort, direct, 300);
  await sequential(agent, port, proxied, 300);
  // Interleaved rounds, so drift (GC, CPU frequency) hits both sides alike.
  for (let r = 0; r < rounds; r++) {
    d.push(...(await sequential(agent, upPort, direct, 1000)));
    p.push(...(await sequential(agent, port, proxied, 1000)));
  }
  d.sort((a, b) => a - b);
  p.sort((a, b) => a - b);
  const calls = proxy.upstream.calls;
  agent.destroy();
  await close(server);
  await close(upstream);
  return { d, p, calls };
}

/** The load generator runs in a worker thread, so it does not share the server's event loop. */
const CLIENT = `
const { request, Agent } = require('node:http');
const { workerData, parentPort } = require('node:worker_threads');
const agent = new Agent({ keepAlive: true, maxSockets: workerData.conns });
const get = () => new Promise((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port: workerData.port, path: workerData.path, agent }, (res) => { res.resume(); res.on('end', resolve); });
  req.on('error', reject); req.end();
});
(async () => {
  let done = 0; const t0 = performance.now(); const deadline = t0 + workerData.ms;
  await Promise.all(Array.from({ length: workerData.conns }, async () => { while (performance.now() < deadline) { await get(); done++; } }));
  parentPort.postMessage(done / ((performance.now() - t0) / 1000)); agent.destroy();
})();`;

/** True when `wrk` can be run. */
const hasWrk = () => spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

/**
 * Requests per second from `wrk -t1 -c32 -d3s url`. Asynchronous on purpose: the server under test
 * shares this process's event loop. Answers other than 2xx/3xx make the figure meaningless: refused.
 */
function wrk(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('wrk', ['-t1', '-c32', '-d3s', url], { timeout: 30_000 }, (error, stdout) => {
      if (error) return reject(error);
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
      const failed = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout);
      if (!rate) return reject(new Error(`wrk printed no Requests/sec:\n${stdout}`));
      if (failed) return reject(new Error(`wrk saw ${failed[1]} answers other than 2xx/3xx from ${url}`));
      resolve(Number(rate[1]));
    });
  });
}

async function cachedThroughput() {
  const stack = createStack({
    origin: 'http://127.0.0.1',
    proxy: { logger: silentLogger, ...UNLIMITED, cacheTtlMs: 600_000 },
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
  // Over loopback HTTP: 32 keep-alive connections from a worker thread.
  const server = serve({ fetch: stack.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const path = new URL(url).pathname + new URL(url).search;
  const client = hasWrk() ? 'wrk -t1 -c32 -d3s' : '32 connections from a worker thread';
  const load = async (target: string) => {
    if (client.startsWith('wrk')) return wrk(`http://127.0.0.1:${port}${target}`);
    const worker = new Worker(CLIENT, { eval: true, workerData: { port, path: target, conns: 32, ms: 2500 } });
    const rate = await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    return rate;
  };
  // The same server answering /healthz (no proxy work) is the ceiling of this machine and client.
  const baseline = await load('/healthz');
  const overHttp = await load(path);
  await close(server);
  return { inProcess, overHttp, baseline, client, upstreamCalls: stack.proxy.upstream.calls };
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
  const latency = await addedLatency();
  const throughput = await cachedThroughput();
  const sim = await visitors(15_000);
  const simLong = await visitors(60_000);
  const burst = await identicalBurst();
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  const p50 = percentile(latency.p, 50) - percentile(latency.d, 50);
  const p99 = percentile(latency.p, 99) - percentile(latency.d, 99);
  return [
    {
      name: 'proxy: direct upstream call p50 / p99 (loopback, 3000 sequential)',
      value: `${ms(percentile(latency.d, 50))} / ${ms(percentile(latency.d, 99))}`,
    },
    {
      name: 'proxy: through the proxy, cache off, p50 / p99',
      value: `${ms(percentile(latency.p, 50))} / ${ms(percentile(latency.p, 99))} (${latency.calls} upstream calls)`,
    },
    { name: 'proxy: added latency p50', value: ms(p50), goal: '≤ 1 ms' },
    { name: 'proxy: added latency p99', value: ms(p99) },
    {
      name: 'proxy: cached availability answers/s, in-process handler',
      value: `${Math.round(throughput.inProcess)}/s`,
      goal: '≥ 5000/s',
    },
    {
      name: `proxy: cached availability answers/s, loopback HTTP, ${throughput.client}`,
      value: `${Math.round(throughput.overHttp)}/s (${throughput.upstreamCalls} upstream call)`,
      goal: '≥ 5000/s',
    },
    {
      name: `proxy: loopback HTTP ceiling of this machine: /healthz on the same server (${throughput.client})`,
      value: `${Math.round(throughput.baseline)}/s (load average ${loadavg()[0]!.toFixed(1)})`,
    },
    {
      name: `proxy: upstream calls per 100 widget calls (600 visitors, one venue, ${Math.round(sim.minutes)} simulated min, 15 s TTL)`,
      value: ((100 * sim.upstreamCalls) / sim.widgetCalls).toFixed(1),
      goal: 'fewer is better (100 = no sharing)',
    },
    {
      name: 'proxy: the same with a 60 s TTL',
      value: ((100 * simLong.upstreamCalls) / simLong.widgetCalls).toFixed(1),
    },
    {
      name: 'proxy: upstream calls for 1000 identical concurrent requests',
      value: String(burst),
      goal: '1 per cache window',
    },
  ];
}
