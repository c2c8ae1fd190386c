/**
 * Proves the edge entry (proxy/worker.ts) runs in the Cloudflare Workers runtime: the entry is
 * bundled with esbuild and run in workerd through miniflare, once on the embedded sandbox and once
 * with credentials against an upstream that miniflare's outbound hook answers from this process,
 * and as two Workers (two isolates) sharing the `VENUE_BOOKING_STATE` Durable Object in front of
 * one real sandbox.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { createSandbox, SANDBOX_APP } from '../../sandbox/app.js';
import { until } from '../support/redis.js';
import { postJson, TYPE, VENUE, withProof } from './support.js';

/** The README's `compatibility_date`: from 2025-09-01 workerd drops credentials on cross-origin redirects. */
const COMPATIBILITY_DATE = '2025-09-01';
const entry = fileURLToPath(new URL('../../proxy/worker.ts', import.meta.url));
let script = '';

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** A Worker's settings with credentials, against https://upstream.example. */
const CREDENTIALS = {
  VENUE_BOOKING_APP_ID: 'edge-app',
  VENUE_BOOKING_API_KEY: 'edge-secret-key-123',
  VENUE_BOOKING_UPSTREAM: 'https://upstream.example/v4',
  VENUE_BOOKING_VENUES: VENUE,
  VENUE_BOOKING_BOOKING_SITE: 'https://book.example/book',
  VENUE_BOOKING_PUBLIC_URL: 'https://edge.test',
};

function worker(bindings: Record<string, string>, outbound?: (request: Request) => Promise<Response>) {
  return new Miniflare({
    modules: true,
    script,
    compatibilityDate: COMPATIBILITY_DATE,
    bindings,
    ...(outbound ? { outboundService: outbound as never } : {}),
  });
}

describe('the edge entry in workerd (miniflare)', { timeout: 120_000 }, () => {
  before(async () => {
    script = await bundle();
  });

  test('the Worker bundle holds no Redis client (only the Node entry loads it)', () => {
    assert.ok(script.includes('VenueBookingState'));
    assert.ok(!/createClient|RateLimiterRedis|RedisClient/.test(script));
  });

  describe('embedded sandbox (no credentials)', () => {
    let mf: Miniflare;
    before(() => {
      mf = worker({});
    });
    after(() => mf.dispose());

    test('availability is answered by the sandbox inside the worker, next.api names the worker', async () => {
      const response = await mf.dispatchFetch(
        `http://edge.test/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=2030-06-04&num_people=2&time=19:00&duration=120`,
      );
      assert.equal(response.status, 200);
      const body = (await response.json()) as { payload: { next?: { api?: string } } };
      assert.equal(body.payload.next?.api, 'http://edge.test/api/bookings');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    });

    test('health and refusals work the same', async () => {
      assert.equal((await mf.dispatchFetch('http://edge.test/healthz')).status, 200);
      assert.equal((await mf.dispatchFetch('http://edge.test/api/users')).status, 404);
      assert.equal((await mf.dispatchFetch('http://edge.test/api/bookings', { method: 'DELETE' })).status, 405);
    });
  });

  describe('with credentials against an upstream', () => {
    const seen: Request[] = [];
    let mf: Miniflare;
    before(() => {
      mf = worker(CREDENTIALS, async (request) => {
        seen.push(request);
        return Response.json({
          payload: {
            valid: true,
            next: { api: 'https://upstream.example/v4/bookings', web: 'https://evil.example/phish' },
          },
          status: 200,
        });
      });
    });
    after(() => mf.dispose());

    test('adds Authorization upstream, rewrites next, never forwards client credentials', async () => {
      const response = await mf.dispatchFetch(
        `https://edge.test/api/venues/${VENUE}/booking-availability?num_people=2`,
        {
          headers: { authorization: 'client:creds', cookie: 'a=b' },
        },
      );
      assert.equal(response.status, 200);
      const body = (await response.json()) as { payload: { next: { api?: string; web?: string } } };
      assert.deepEqual(body.payload.next, { api: 'https://edge.test/api/bookings' });
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.url, `https://upstream.example/v4/venues/${VENUE}/booking-availability?num_people=2`);
      assert.equal(seen[0]!.headers.get('authorization'), 'edge-app:edge-secret-key-123');
      assert.equal(seen[0]!.headers.get('cookie'), null);
    });

    test('refuses foreign venues without calling the upstream', async () => {
      const before = seen.length;
      const response = await mf.dispatchFetch('https://edge.test/api/venues/64a1f0c2e4b0a1b2c3d4e599/offers');
      assert.equal(response.status, 404);
      assert.ok(!(await response.text()).includes('edge-secret-key-123'));
      assert.equal(seen.length, before);
    });
  });

  describe('against an upstream that redirects', () => {
    const seen: Request[] = [];
    let mf: Miniflare;
    before(() => {
      mf = worker(CREDENTIALS, async (request) => {
        seen.push(request);
        if (new URL(request.url).hostname === 'upstream.example')
          return new Response(null, { status: 302, headers: { location: 'https://collector.example/v4/steal' } });
        return Response.json({ payload: { valid: true, planted: 'by the collector' }, status: 200 });
      });
    });
    after(() => mf.dispose());

    test('a 302 is a 502, never followed: the key and the request stay with the upstream', async () => {
      const response = await mf.dispatchFetch(
        `https://edge.test/api/venues/${VENUE}/booking-availability?num_people=2`,
      );
      assert.equal(response.status, 502);
      assert.doesNotMatch(await response.text(), /collector|edge-secret-key-123/);
      assert.deepEqual(
        seen.map((request) => new URL(request.url).hostname),
        ['upstream.example'],
      );
    });
  });

  describe('stale-while-revalidate', () => {
    let calls = 0;
    let mf: Miniflare;
    before(() => {
      // A venue's settings are fresh for no time at all: every read after the first is stale.
      mf = worker({ ...CREDENTIALS, VENUE_BOOKING_STATIC_TTL_MS: '0' }, async () => {
        calls++;
        return Response.json({ payload: { venue: { _id: VENUE, title: `Version ${calls}` } }, status: 200 });
      });
    });
    after(() => mf.dispose());

    test('a stale copy is answered at once, and its refresh outlives the answer (waitUntil)', async () => {
      const read = async () => {
        const response = await mf.dispatchFetch(`https://edge.test/api/venues/${VENUE}`);
        const body = (await response.json()) as { payload: { venue: { title: string } } };
        return { cache: response.headers.get('x-cache'), title: body.payload.venue.title };
      };
      assert.deepEqual(await read(), { cache: 'MISS', title: 'Version 1' });
      assert.deepEqual(await read(), { cache: 'STALE', title: 'Version 1' });
      // The runtime ends a request's work when its answer is sent, unless the Worker asks it to
      // wait: only a refresh handed to waitUntil lands for a later reader.
      await until(async () => (await read()).title !== 'Version 1', 'a refreshed copy');
    });
  });

  describe('misconfigured', () => {
    let mf: Miniflare;
    before(() => {
      mf = worker({ VENUE_BOOKING_APP_ID: 'only-an-id' });
    });
    after(() => mf.dispose());

    test('answers 500 "misconfigured" in the envelope', async () => {
      const response = await mf.dispatchFetch('https://edge.test/healthz');
      assert.equal(response.status, 500);
      const body = (await response.json()) as { payload: { message: string } };
      assert.match(body.payload.message, /misconfigured/);
    });
  });

  describe('two isolates sharing the VENUE_BOOKING_STATE Durable Object', () => {
    const sandbox = createSandbox({ now: '2030-05-01T10:00:00' });
    let upstreamCalls = 0;
    let mf: Miniflare;
    before(() => {
      const bindings = {
        VENUE_BOOKING_APP_ID: SANDBOX_APP.id,
        VENUE_BOOKING_API_KEY: SANDBOX_APP.key,
        VENUE_BOOKING_UPSTREAM: 'https://upstream.example/v4',
        VENUE_BOOKING_VENUES: VENUE,
        VENUE_BOOKING_BOOKING_SITE: 'https://book.example/book',
        VENUE_BOOKING_PUBLIC_URL: 'https://edge.test',
      };
      const outboundService = (async (request: Request) => {
        upstreamCalls++;
        return sandbox.fetch(request);
      }) as never;
      // Two Workers are two isolates with nothing in common but the object of the first.
      mf = new Miniflare({
        workers: [
          {
            name: 'a',
            modules: true,
            script,
            compatibilityDate: COMPATIBILITY_DATE,
            bindings,
            outboundService,
            durableObjects: { VENUE_BOOKING_STATE: 'VenueBookingState' },
          },
          {
            name: 'b',
            modules: true,
            script,
            compatibilityDate: COMPATIBILITY_DATE,
            bindings,
            outboundService,
            durableObjects: { VENUE_BOOKING_STATE: { className: 'VenueBookingState', scriptName: 'a' } },
          },
        ],
      });
    });
    after(() => mf.dispose());

    test('concurrent repeats of one booking on both isolates make one booking; identical reads one call', async () => {
      // Without Workers types, miniflare's Fetcher type is unusable here: this is its shape.
      type Fetcher = { fetch(url: string, init?: RequestInit): Promise<Response> };
      const workers = [await mf.getWorker('a'), await mf.getWorker('b')] as unknown as Fetcher[];
      const send = (i: number, path: string, init?: RequestInit) =>
        workers[i % 2]!.fetch(`https://edge.test${path}`, init);
      const query = `/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=2030-06-04&num_people=2`;
      const reads = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i, query)));
      assert.ok(reads.every((response) => response.status === 200));
      assert.equal(upstreamCalls, 1, 'one upstream call for identical reads on both isolates');
      const availability = (await reads[0]!.json()) as {
        payload: { validation: { time: { suggestedValues: { time?: string; value?: string; valid: boolean }[] } } };
      };
      const slot = availability.payload.validation.time.suggestedValues.find((item) => item.valid)!;
      const body = {
        venue_id: VENUE,
        type: TYPE,
        date: '2030-06-04',
        time: slot.time ?? slot.value,
        num_people: 2,
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
      };
      const before = sandbox.store.bookings.length;
      // Each with its proof of work fetched from the other isolate: the signing key is agreed in
      // the Durable Object, and so is each proof's single use.
      const inits = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          withProof(
            (path, init) => send(i + 1, path, init),
            '/api/bookings',
            postJson(body, { 'idempotency-key': 'edge-key-0001' }),
          ),
        ),
      );
      const answers = await Promise.all(inits.map((init, i) => send(i, '/api/bookings', init)));
      const bodies = (await Promise.all(answers.map((response) => response.json()))) as {
        payload: { booking: { reference: string } };
      }[];
      assert.ok(
        answers.every((response) => response.status === 200),
        JSON.stringify(bodies),
      );
      assert.equal(sandbox.store.bookings.length, before + 1, 'exactly one booking upstream');
      assert.equal(new Set(bodies.map((answer) => answer.payload.booking.reference)).size, 1);
      assert.equal(answers.filter((response) => response.headers.get('idempotent-replayed') === 'true').length, 5);
      // A proof spent on one isolate, sent again under another key to the other: a decoy, no booking.
      const reused = await send(1, '/api/bookings', { ...inits[0]!, headers: { 'content-type': 'application/json' } });
      assert.equal(reused.status, 200);
      assert.match(
        ((await reused.json()) as { payload: { booking: { reference: string } } }).payload.booking.reference,
        /^DMN-/,
      );
      assert.equal(sandbox.store.bookings.length, before + 1, 'the reused proof booked nothing');
      const health = (await (await send(1, '/healthz')).json()) as { store: string };
      assert.equal(health.store, 'ok');
    });
  });
});
