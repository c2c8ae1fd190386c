/**
 * Proves the edge entry (proxy/worker.ts) runs in the Cloudflare Workers runtime: the entry is
 * bundled with esbuild and run in workerd through miniflare, once on the embedded sandbox and once
 * with credentials against an upstream that miniflare's outbound hook answers from this process.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { TYPE, VENUE } from './support.js';

const entry = fileURLToPath(new URL('../../proxy/worker.ts', import.meta.url));
let script = '';

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', write: false,
    mainFields: ['module', 'main'], conditions: ['workerd', 'worker', 'browser'], logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

function worker(bindings: Record<string, string>, outbound?: (request: Request) => Promise<Response>) {
  return new Miniflare({
    modules: true, script, compatibilityDate: '2025-01-01', bindings,
    ...(outbound ? { outboundService: outbound as never } : {}),
  });
}

describe('the edge entry in workerd (miniflare)', { timeout: 120_000 }, () => {
  before(async () => {
    script = await bundle();
  });

  describe('embedded sandbox (no credentials)', () => {
    let mf: Miniflare;
    before(() => { mf = worker({}); });
    after(() => mf.dispose());

    test('availability is answered by the sandbox inside the worker, next.api names the worker', async () => {
      const response = await mf.dispatchFetch(`http://edge.test/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=2030-06-04&num_people=2&time=19:00&duration=120`);
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
      mf = worker(
        {
          VENUE_BOOKING_APP_ID: 'edge-app', VENUE_BOOKING_API_KEY: 'edge-secret-key-123',
          VENUE_BOOKING_UPSTREAM: 'https://upstream.example/v4', VENUE_BOOKING_VENUES: VENUE,
          VENUE_BOOKING_BOOKING_SITE: 'https://book.example/book',
        },
        async (request) => {
          seen.push(request);
          return Response.json({ payload: { valid: true, next: { api: 'https://upstream.example/v4/bookings', web: 'https://evil.example/phish' } }, status: 200 });
        },
      );
    });
    after(() => mf.dispose());

    test('adds Authorization upstream, rewrites next, never forwards client credentials', async () => {
      const response = await mf.dispatchFetch(`https://edge.test/api/venues/${VENUE}/booking-availability?num_people=2`, {
        headers: { authorization: 'client:creds', cookie: 'a=b' },
      });
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

  describe('misconfigured', () => {
    let mf: Miniflare;
    before(() => { mf = worker({ VENUE_BOOKING_APP_ID: 'only-an-id' }); });
    after(() => mf.dispose());

    test('answers 500 "misconfigured" in the envelope', async () => {
      const response = await mf.dispatchFetch('https://edge.test/healthz');
      assert.equal(response.status, 500);
      const body = (await response.json()) as { payload: { message: string } };
      assert.match(body.payload.message, /misconfigured/);
    });
  });
});
