/**
 * A refused site can read its refusal: the `forbidden_origin` answer (403) carries
 * `Access-Control-Allow-Origin` for the requesting origin and nothing more (no credentials, no
 * exposed headers), from the Hono app and from the Node entry (its fast path defers to the app,
 * even for a read it holds in its cache), so the widget there can say why it cannot book.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { nodeListener } from '../../proxy/node/listener.js';
import { ORIGIN, postJson, recordingProxy, TYPE, validBooking, VENUE } from './support.js';

const READ = `/api/venues/${VENUE}/booking-availability?type=${TYPE}&num_people=2`;
const REFUSED = 'https://not-configured.example';

type Body = { payload: { errors: { code: string; message: string }[] } };

/** Asserts a refusal a page of `origin` may read, and only that. */
async function assertReadableRefusal(response: Response, origin: string): Promise<void> {
  assert.equal(response.status, 403);
  assert.equal(response.headers.get('access-control-allow-origin'), origin);
  assert.match(response.headers.get('vary') ?? '', /\bOrigin\b/i);
  assert.equal(response.headers.get('access-control-allow-credentials'), null);
  assert.equal(response.headers.get('access-control-expose-headers'), null);
  const { payload } = (await response.json()) as Body;
  assert.equal(payload.errors[0]?.code, 'forbidden_origin');
  assert.match(payload.errors[0]!.message, /VENUE_BOOKING_ORIGINS/);
}

describe('the Hono app: a refused site may read why', () => {
  test('a read and a booking from a refused origin carry its origin in Access-Control-Allow-Origin, nothing else', async () => {
    const { send, calls } = recordingProxy();
    await assertReadableRefusal(await send(READ, { headers: { origin: REFUSED } }), REFUSED);
    await assertReadableRefusal(await send('/api/bookings', postJson(validBooking(), { origin: REFUSED })), REFUSED);
    assert.equal(calls.length, 0, 'nothing went upstream');
    // A preflight is refused as before, readable by nobody: a booking from there never leaves the browser.
    const preflight = await send('/api/bookings', {
      method: 'OPTIONS',
      headers: { origin: REFUSED, 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    assert.equal(preflight.headers.get('access-control-allow-methods'), null);
  });

  test('a refusal without an Origin (Referer only, or a made-up value) names no origin', async () => {
    const { send } = recordingProxy();
    const byReferer = await send(READ, { headers: { referer: `${REFUSED}/book` } });
    assert.equal(byReferer.status, 403);
    assert.equal(byReferer.headers.get('access-control-allow-origin'), null);
    const odd = await send(READ, { headers: { origin: 'https://a.example/path?x' } });
    assert.equal(odd.status, 403);
    assert.equal(odd.headers.get('access-control-allow-origin'), null);
  });
});

describe('the Node entry (fast path, then the app): a refused site may read why', () => {
  const { proxy } = recordingProxy({ cacheTtlMs: 60_000 });
  let server: Server;
  let base = '';
  before(async () => {
    server = createServer(nodeListener(proxy));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a cached read asked by a refused origin is refused, readable by that origin only', async () => {
    // Warm the cache from the configured site, so the fast path holds the answer.
    for (let i = 0; i < 2; i++) {
      const allowed = await fetch(`${base}${READ}`, { headers: { origin: ORIGIN } });
      assert.equal(allowed.status, 200);
      await allowed.arrayBuffer();
    }
    await assertReadableRefusal(await fetch(`${base}${READ}`, { headers: { origin: REFUSED } }), REFUSED);
  });
});
