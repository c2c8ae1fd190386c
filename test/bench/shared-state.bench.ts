/**
 * What sharing the proxy's state through Redis costs, against a real redis-server on loopback
 * (skipped, and said so, where redis-server is not installed):
 *
 * 1. Cached availability answers per second, in-process handler, with the Redis state and with
 *    the memory state, alternated in 5 rounds of 1 s each (the round with the median ratio is
 *    reported, as other work on the 2 cores comes and goes): the L1 keeps a hit off the network, so the goal is
 *    ≥ 0.8× memory. Every request is still counted once against its client's limit in Redis.
 * 2. The booking path's added latency: p50 of sequential bookings (each with its own
 *    Idempotency-Key) through the proxy with Redis minus the same with memory, against a loopback
 *    upstream answering at once. Goal ≤ 2 ms.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy, type ProxyApp } from '../../proxy/app.js';
import { silentLogger } from '../../proxy/core/log.js';
import { createRedisState } from '../../proxy/state/redis.js';
import type { SharedState } from '../../proxy/state/shared.js';
import { createStack } from '../../proxy/stack.js';
import { startRedis, until } from '../support/redis.js';
import { UNLIMITED } from './unlimited.js';

const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const TYPE = '64a1f0c2e4b0a1b2c3d4e601';
const ROUNDS = 5;

const redisState = (url: string) =>
  createRedisState({
    url,
    prefix: `bench-${Date.now()}:`,
    timeoutMs: 100,
    ttlMs: 600_000,
    staleMs: 600_000,
    holdMs: 15_000,
    logger: silentLogger,
    now: () => Date.now(),
  });

const connected = (state: SharedState) => until(() => state.health() === 'ok', 'Redis connected');

/** Cached answers per second of one handler over `ms`, 50 requests at a time (after a warm-up). */
async function answersPerSecond(fetch: (request: Request) => Promise<Response>, ms: number): Promise<number> {
  const url = `http://127.0.0.1/api/venues/${VENUE}/booking-availability?type=${TYPE}&num_people=2`;
  const burst = () =>
    Promise.all(Array.from({ length: 50 }, () => fetch(new Request(url)).then((r) => r.arrayBuffer())));
  for (let i = 0; i < 40; i++) await burst();
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    await burst();
    n += 50;
  }
  return n / ((performance.now() - started) / 1000);
}

async function cachedReads(redisUrl: string) {
  const state = redisState(redisUrl);
  await connected(state);
  const options = { logger: silentLogger, ...UNLIMITED, cacheTtlMs: 600_000 };
  const memory = createStack({ origin: 'http://127.0.0.1', proxy: options });
  const shared = createStack({ origin: 'http://127.0.0.1', proxy: { ...options, state } });
  const rounds: { memory: number; redis: number }[] = [];
  // Alternated, so drift (GC, CPU frequency, other load) hits both alike; the median round is kept.
  for (let round = 0; round < ROUNDS; round++) {
    // Which goes first alternates too, so neither always runs on a warmer or busier machine.
    const first = round % 2 ? shared : memory;
    const firstRate = await answersPerSecond(first.fetch, 1000);
    const secondRate = await answersPerSecond((first === memory ? shared : memory).fetch, 1000);
    rounds.push(first === memory ? { memory: firstRate, redis: secondRate } : { memory: secondRate, redis: firstRate });
  }
  await state.close();
  rounds.sort((a, b) => a.redis / a.memory - b.redis / b.memory);
  return rounds[Math.floor(ROUNDS / 2)]!;
}

const BOOKED = JSON.stringify({
  payload: { booking: { reference: 'BENCH-1', status: 'confirmed' }, bookingStatus: 'confirmed' },
  status: 200,
});

/** p50 of `n` sequential bookings through `proxy`, each with a new Idempotency-Key. */
async function bookingP50(proxy: ProxyApp, n: number, tag: string): Promise<number> {
  const body = JSON.stringify({
    venue_id: VENUE,
    type: TYPE,
    date: '2030-06-04',
    time: '19:00',
    num_people: 2,
    first_name: 'Bench',
    last_name: 'Mark',
  });
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const response = await proxy.fetch(
      new Request('http://127.0.0.1/api/bookings', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `bench-${tag}-${Date.now()}-${i}` },
        body,
      }),
    );
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`booking answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function bookingLatency(redisUrl: string) {
  const upstream: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(BOOKED);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const state = redisState(redisUrl);
  await connected(state);
  const settings = {
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v4`,
    appId: 'bench',
    apiKey: 'bench-key',
    venues: [VENUE],
    logger: silentLogger,
    ...UNLIMITED,
    bookingRateLimit: { limit: 1e9, windowMs: 60_000 },
  };
  const memory = createProxy(settings);
  const shared = createProxy({ ...settings, state });
  await bookingP50(memory, 200, 'warm-m');
  await bookingP50(shared, 200, 'warm-r');
  const p50 = { memory: 0, redis: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    p50.memory += (await bookingP50(memory, 300, `m${round}`)) / ROUNDS;
    p50.redis += (await bookingP50(shared, 300, `r${round}`)) / ROUNDS;
  }
  await state.close();
  await new Promise((resolve) => upstream.close(resolve));
  return p50;
}

/** Runs the shared-state benchmarks and returns the table rows. */
export async function run(): Promise<{ name: string; value: string; goal?: string }[]> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error) {
    return [{ name: 'shared state (Redis)', value: 'skipped: redis-server is not installed' }];
  }
  const redis = await startRedis();
  try {
    const reads = await cachedReads(redis.url);
    const booking = await bookingLatency(redis.url);
    return [
      {
        name: 'shared state: cached availability answers/s, in-process handler, Redis store (with L1) / memory store, median of 5 rounds',
        value: `${Math.round(reads.redis)}/s / ${Math.round(reads.memory)}/s = ${(reads.redis / reads.memory).toFixed(2)}×`,
        goal: '≥ 0.8×',
      },
      {
        name: 'shared state: booking path p50, Redis store − memory store (loopback upstream, 5 rounds of 300 sequential each, mean p50)',
        value: `${(booking.redis - booking.memory).toFixed(3)} ms (${booking.redis.toFixed(3)} ms − ${booking.memory.toFixed(3)} ms)`,
        goal: '≤ 2 ms',
      },
    ];
  } finally {
    await redis.kill();
  }
}
