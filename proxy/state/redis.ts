/**
 * The Redis store (`VENUE_BOOKING_REDIS_URL`): Redis, Valkey or a managed Redis, through the
 * `redis` client, with per-client limits counted by `rate-limiter-flexible`. Only the Node entry
 * imports this module (dynamically, when the URL is set), so the Worker bundle never holds it.
 *
 * The client connects in the background and reconnects with a growing pause; commands are never
 * queued while it is away (they fail at once, and the state answers from local memory). Whether
 * the store may be shared again is the link's probe's to say (store-link.ts), once a second; a
 * Redis without persistence may come back empty, which the state notices by its epoch.
 */
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { createClient } from 'redis';
import type { Logger } from '../core/log.js';
import { SharedState, type SharedStateOptions } from './shared.js';
import type { SharedStore } from './shared-store.js';
import { StoreLink } from './store-link.js';
import type { LimitRule } from './types.js';

/** Options of the Redis state. */
export interface RedisStateOptions extends SharedStateOptions {
  /** `redis://` or `rediss://` URL, credentials included when the server needs them. */
  url: string;
  /** Prefix of every key, so several proxies (or other apps) can share one server. */
  prefix: string;
  /** Timeout of every store call, in ms. */
  timeoutMs: number;
  logger: Logger;
}

/** Pause before reconnect attempt `retries`: 100 ms, doubling, at most a second (as the probe). */
const reconnectPause = (retries: number) => Math.min(100 * 2 ** retries, 1_000);

/** `compareAndSet` in one step: ARGV = expected, next, ttl in ms, and '1' to delete instead. */
const COMPARE_AND_SET = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[4] == '1' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;

/** Creates the Redis-backed state; it starts `down` and joins the shared state once connected. */
export function createRedisState(options: RedisStateOptions): SharedState {
  const link = new StoreLink({
    name: 'redis',
    timeoutMs: options.timeoutMs,
    logger: options.logger,
    now: options.now,
    initial: 'down',
    probeEveryMs: 1_000,
  });
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: reconnectPause },
  });
  // Errors are the link's business (one log line per change); an unhandled one would end the process.
  client.on('error', () => link.connected(false));
  client.on('ready', () => link.connected(true));
  client.connect().catch(() => link.connected(false));

  const limiters = new Map<string, RateLimiterRedis>();
  const limiterOf = (bucket: string, rule: LimitRule) => {
    let limiter = limiters.get(bucket);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: client,
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        keyPrefix: `${options.prefix}limit:${bucket}`,
        points: rule.limit,
        duration: Math.max(1, Math.round(rule.windowMs / 1000)),
      });
      limiters.set(bucket, limiter);
    }
    return limiter;
  };

  const store: SharedStore = {
    get: (key) => client.get(options.prefix + key),
    async set(key, value, ttlMs, onlyIfAbsent = false) {
      const done = await client.set(options.prefix + key, value, {
        expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) },
        ...(onlyIfAbsent ? { condition: 'NX' as const } : {}),
      });
      return done === 'OK';
    },
    async delete(key) {
      await client.del(options.prefix + key);
    },
    async compareAndSet(key, expected, next, ttlMs) {
      const done = await client.eval(COMPARE_AND_SET, {
        keys: [options.prefix + key],
        arguments: [expected, next ?? '', String(Math.max(1, Math.ceil(ttlMs))), next === null ? '1' : '0'],
      });
      return done === 1;
    },
    async count(bucket, client, points, rule) {
      // `penalty` adds the points without refusing: the shared state decides against the limit.
      const counted = await limiterOf(bucket, rule).penalty(client, points);
      return { count: counted.consumedPoints, resetAt: options.now() + counted.msBeforeNext };
    },
    tables: {
      all: (table) => client.hGetAll(`${options.prefix}table:${table}`),
      async set(table, field, value) {
        const key = `${options.prefix}table:${table}`;
        if (value === null) await client.hDel(key, field);
        else await client.hSet(key, field, value);
      },
      async add(table, field, by) {
        await client.hIncrBy(`${options.prefix}table:${table}`, field, by);
      },
    },
    async close() {
      client.removeAllListeners('error');
      client.on('error', () => {});
      // Commands in flight get a second to finish; a server that does not answer them (frozen, or
      // something else now on its port) must not hold a shutdown.
      let timer: ReturnType<typeof setTimeout> | undefined;
      if (client.isReady)
        await Promise.race([
          client.close().catch(() => undefined),
          new Promise((resolve) => (timer = setTimeout(resolve, 1_000))),
        ]);
      clearTimeout(timer);
      if (client.isOpen) client.destroy();
    },
  };
  return new SharedState(store, link, { ...options, volatile: true });
}
