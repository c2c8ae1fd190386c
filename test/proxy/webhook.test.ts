/**
 * The venue's webhook (issue 36, api/webhook.ts) against a real receiver, a `node:http` server on
 * loopback that checks each delivery as docs/webhook.md tells a venue to: the signature over
 * "<t>.<body>" under the secret, the event id, the body's fields and nothing personal. A receiver
 * that fails first gets the event again (same id, signed again); one that never takes it gets it
 * the last time and the event is counted failed and listed for `/status`; a stalled one is given up
 * per attempt. No log line holds the secret or the receiver's path. The route context is built
 * from its real parts, as createProxy builds it: the routes that call the webhook (cancel, change)
 * are another module's, and their tests go through the proxy.
 */
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { EVENT_ID_HEADER, recentWebhookFailures, sendVenueEvent, SIGNATURE_HEADER } from '../../proxy/api/webhook.js';
import { resolveConfig, type ProxyConfig } from '../../proxy/config.js';
import { createRouteContext, type ProxyContext } from '../../proxy/context.js';
import { total } from '../../proxy/core/metrics.js';
import { configFromEnv, ConfigError } from '../../proxy/env.js';
import { UpstreamBudget } from '../../proxy/guards/budget.js';
import { AllowedSites } from '../../proxy/state/allowed-sites.js';
import { AnswerMemo } from '../../proxy/state/answer-memo.js';
import { MemoryState } from '../../proxy/state/memory.js';
import { RecentOrigins } from '../../proxy/state/recent-origins.js';
import { MemoryRecords } from '../../proxy/state/records.js';
import { VenueProfiles } from '../../proxy/state/venue-profiles.js';
import { Upstream } from '../../proxy/upstream/client.js';
import { fetchTransport } from '../../proxy/upstream/transport.js';
import { API_KEY, APP_ID, memoryLogger, VENUE } from './support.js';

const SECRET = 'whsec-0123456789abcdef-never-in-a-log-line';
/** The receiver's own token in its path: a log line names the host alone. */
const HOOK_PATH = '/hooks/tok-9c1e77d0b3';

/** What a delivery carries, as the receiver got it. */
interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** How the receiver answers the next deliveries (then 200): a status, or `stall` (no answer). */
const script: (number | 'stall')[] = [];
const received: Received[] = [];
const stalled: (() => void)[] = [];

const server: Server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    received.push({ path: request.url ?? '', headers: request.headers, body });
    const next = script.shift() ?? 200;
    if (next === 'stall') stalled.push(() => response.destroy());
    else response.writeHead(next, { 'content-type': 'text/plain' }).end(next === 200 ? 'ok' : 'nope');
  });
});
let hookUrl = '';
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${HOOK_PATH}`;
});
after(() => {
  for (const end of stalled) end();
  server.close();
});

/** A route context built from its real parts, as createProxy builds it, with a webhook to `hookUrl`. */
function contextWith(overrides: Partial<ProxyConfig> = {}) {
  const logger = memoryLogger();
  const config = resolveConfig({
    upstream: 'http://upstream.internal/v4',
    appId: APP_ID,
    apiKey: API_KEY,
    venues: [VENUE],
    logger,
    webhookUrl: hookUrl,
    webhookSecret: SECRET,
    // No waits between attempts: the test cannot wait 10 s.
    webhookRetryDelaysMs: [0, 0],
    fetch: () => Promise.reject(new Error('no upstream in these tests')),
    ...overrides,
  });
  const state = new MemoryState({ ttlMs: config.cacheTtlMs, staleMs: config.staleMs, now: config.now });
  const records = new MemoryRecords();
  const upstream = new Upstream({
    base: config.upstreamBase,
    appId: config.appId,
    apiKey: config.apiKey,
    transport: fetchTransport(config.fetch!),
    timeoutMs: config.timeoutMs,
    logger: config.logger,
    now: config.now,
    lowWater: config.budget.lowWater,
    metrics: config.metrics,
  });
  const ctx: ProxyContext = createRouteContext({
    config,
    upstream,
    state,
    budget: new UpstreamBudget(state, config.budget, config.metrics),
    recentOrigins: new RecentOrigins(config.now),
    answers: new AnswerMemo(config.now),
    records,
    profiles: new VenueProfiles(records, config.logger),
    allowedSites: new AllowedSites(records, config.logger, config.now),
  });
  return { ctx, logger };
}

const CANCELLED = {
  type: 'booking.cancelled',
  venue_id: VENUE,
  reference: 'DMN-10000000042',
  date: '2026-03-21',
  time: '19:30',
  people: 4,
  booking_type: '64a1f0c2e4b0a1b2c3d4e601',
} as const;

/** The signature check a receiver makes (docs/webhook.md): the timestamp and the v1 HMAC of "<t>.<body>". */
function verified(delivery: Received, secret = SECRET): boolean {
  const header = String(delivery.headers[SIGNATURE_HEADER.toLowerCase()] ?? '');
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  if (!/^\d+$/.test(parts.t ?? '') || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${delivery.body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function deliveries(ctx: ProxyContext) {
  return (await ctx.config.metrics.snapshot()).webhook_deliveries_total ?? [];
}

const outcome = async (ctx: ProxyContext, name: string) =>
  total({ webhook_deliveries_total: await deliveries(ctx) }, 'webhook_deliveries_total', { outcome: name });

describe('the venue webhook', () => {
  test('a delivery is signed with the secret, names its event, and carries the event alone', async () => {
    received.length = 0;
    const { ctx } = contextWith();
    // Whatever else a caller's object holds (a guest's name here) is never sent.
    await sendVenueEvent(ctx, { ...CANCELLED, first_name: 'Ada', email: 'ada@example.com' } as typeof CANCELLED);
    assert.equal(received.length, 1);
    const [delivery] = received;
    assert.equal(delivery!.path, HOOK_PATH);
    assert.equal(delivery!.headers['content-type'], 'application/json');
    assert.ok(verified(delivery!), 'the signature checks out under the secret');
    assert.ok(!verified(delivery!, `${SECRET}x`), 'and not under another');
    const body = JSON.parse(delivery!.body);
    assert.match(body.id, /^evt_[0-9a-f]{24}$/);
    assert.equal(delivery!.headers[EVENT_ID_HEADER.toLowerCase()], body.id);
    assert.equal(body.type, 'booking.cancelled');
    assert.equal(typeof body.created, 'number');
    const { type: _type, ...data } = CANCELLED;
    assert.deepEqual(body.data, data);
    assert.ok(!/Ada|ada@example|SECRET|whsec/.test(delivery!.body), 'nothing personal, no secret');
    assert.equal(await outcome(ctx, 'delivered'), 1);
    assert.equal(await outcome(ctx, 'retried'), 0);
  });

  test('a change names the new booking too', async () => {
    received.length = 0;
    const { ctx } = contextWith();
    await sendVenueEvent(ctx, { ...CANCELLED, type: 'booking.changed', new_reference: 'DMN-10000000043' });
    const body = JSON.parse(received[0]!.body);
    assert.equal(body.type, 'booking.changed');
    assert.equal(body.data.new_reference, 'DMN-10000000043');
    assert.ok(verified(received[0]!));
  });

  test('a receiver that fails first gets the event again, same id, signed again', async () => {
    received.length = 0;
    script.push(500);
    const { ctx } = contextWith();
    await sendVenueEvent(ctx, CANCELLED);
    assert.equal(received.length, 2);
    const ids = received.map((delivery) => delivery.headers[EVENT_ID_HEADER.toLowerCase()]);
    assert.equal(ids[0], ids[1], 'one event, one id across attempts');
    assert.ok(received.every((delivery) => verified(delivery)));
    assert.equal(await outcome(ctx, 'retried'), 1);
    assert.equal(await outcome(ctx, 'delivered'), 1);
    assert.equal(await outcome(ctx, 'failed'), 0);
    assert.deepEqual(recentWebhookFailures(ctx), []);
  });

  test('a stalled attempt is given up at its timeout and the next one delivers', async () => {
    received.length = 0;
    script.push('stall');
    const { ctx, logger } = contextWith({ webhookTimeoutMs: 300 });
    await sendVenueEvent(ctx, CANCELLED);
    assert.equal(received.length, 2);
    assert.equal(await outcome(ctx, 'delivered'), 1);
    assert.ok(logger.lines.some((line) => line.msg === 'webhook attempt failed' && line.reason === 'timeout'));
  });

  test('after the last attempt the event is counted failed and listed for /status', async () => {
    received.length = 0;
    script.push(503, 503, 503);
    const { ctx, logger } = contextWith();
    await sendVenueEvent(ctx, CANCELLED);
    assert.equal(received.length, 3, 'three attempts in all');
    assert.equal(await outcome(ctx, 'retried'), 2);
    assert.equal(await outcome(ctx, 'failed'), 1);
    assert.equal(await outcome(ctx, 'delivered'), 0);
    const [failure, ...rest] = recentWebhookFailures(ctx);
    assert.equal(rest.length, 0);
    assert.equal(failure!.reference, CANCELLED.reference);
    assert.equal(failure!.venue_id, VENUE);
    assert.equal(failure!.attempts, 3);
    assert.equal(failure!.reason, 'http_503');
    assert.equal(failure!.id, received[0]!.headers[EVENT_ID_HEADER.toLowerCase()]);
    assert.ok(logger.lines.some((line) => line.level === 'error' && line.msg === 'webhook failed'));
  });

  test('a receiver nobody listens at, or a redirect, is a failure too', async () => {
    const { ctx } = contextWith({ webhookUrl: 'http://127.0.0.1:9/hook', webhookRetryDelaysMs: [] });
    await sendVenueEvent(ctx, CANCELLED);
    assert.equal(recentWebhookFailures(ctx)[0]!.reason, 'unreachable');
    received.length = 0;
    script.push(302);
    const redirected = contextWith({ webhookRetryDelaysMs: [] });
    await sendVenueEvent(redirected.ctx, CANCELLED);
    assert.equal(received.length, 1, 'the redirect is not followed');
    assert.equal(recentWebhookFailures(redirected.ctx)[0]!.reason, 'http_302');
  });

  test('no log line holds the secret or the receiver’s path', async () => {
    received.length = 0;
    script.push(500, 'stall');
    const { ctx, logger } = contextWith({ webhookTimeoutMs: 300 });
    await sendVenueEvent(ctx, CANCELLED);
    // The redacting logger is the last line of defence: a caller's line with the secret is cleaned too.
    ctx.logger.log({ level: 'warn', msg: `careless ${SECRET}` });
    assert.ok(logger.lines.length >= 4);
    for (const line of logger.lines) {
      const text = JSON.stringify(line);
      assert.ok(!text.includes(SECRET), text);
      assert.ok(!text.includes(HOOK_PATH), text);
    }
    assert.ok(logger.lines.some((line) => line.host === new URL(hookUrl).host));
  });

  test('without a webhook set nothing is sent', async () => {
    received.length = 0;
    const { ctx } = contextWith({ webhookUrl: undefined, webhookSecret: undefined });
    await sendVenueEvent(ctx, CANCELLED);
    assert.equal(received.length, 0);
    assert.deepEqual(await deliveries(ctx), []);
  });
});

describe('the webhook settings', () => {
  const ENV = {
    VENUE_BOOKING_APP_ID: 'app',
    VENUE_BOOKING_API_KEY: 'key',
    VENUE_BOOKING_UPSTREAM: 'https://api.example.com/v4',
    VENUE_BOOKING_VENUES: VENUE,
    VENUE_BOOKING_BOOKING_SITE: 'https://book.example.com/book',
  };
  const problems = (env: Record<string, string>) => {
    try {
      configFromEnv({ ...ENV, ...env });
      return [];
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.problems;
    }
  };

  test('the URL and the secret are set together, https off loopback, neither echoed', () => {
    assert.deepEqual(
      problems({ VENUE_BOOKING_WEBHOOK_URL: 'https://venue.example/hook', VENUE_BOOKING_WEBHOOK_SECRET: SECRET }),
      [],
    );
    assert.match(problems({ VENUE_BOOKING_WEBHOOK_URL: 'https://venue.example/hook' }).join(), /set together/);
    assert.match(problems({ VENUE_BOOKING_WEBHOOK_SECRET: SECRET }).join(), /set together/);
    const plain = problems({
      VENUE_BOOKING_WEBHOOK_URL: 'http://venue.example/hooks/tok-secret-path',
      VENUE_BOOKING_WEBHOOK_SECRET: SECRET,
    });
    assert.match(plain.join(), /https/);
    assert.ok(!plain.join().includes('tok-secret-path'));
    const short = problems({
      VENUE_BOOKING_WEBHOOK_URL: 'https://venue.example/hook',
      VENUE_BOOKING_WEBHOOK_SECRET: 'short',
    });
    assert.match(short.join(), /WEBHOOK_SECRET must be 32/);
    assert.ok(!short.join().includes('short,') && !/"short"/.test(short.join()));
  });
});
