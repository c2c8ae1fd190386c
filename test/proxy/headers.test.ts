/**
 * The answer headers (proxy/core/headers.ts): the proxy's own security headers stay what `hono/secure-headers`
 * sets, and an answer built with every layer at once carries exactly what the middleware would
 * have written onto it one header at a time.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Hono, type Context } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { addLayer, answer, applyLayer, headerOf, SECURITY_LAYER, type Layer } from '../../proxy/core/headers.js';

const lower = (record: Record<string, string>) =>
  Object.fromEntries(Object.entries(record).map(([name, value]) => [name.toLowerCase(), value]));

describe('answer headers', () => {
  test('the security layer is what hono/secure-headers sets with the proxy CSP', async () => {
    const app = new Hono();
    app.use('*', secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } }));
    app.get('/', (c) => c.body(null, 204));
    const response = await app.request('/');
    assert.deepEqual(lower(SECURITY_LAYER.headers), Object.fromEntries(response.headers));
  });

  test('an answer built with its layers equals one the middleware wrote onto, header for header', async () => {
    const layers: Layer[] = [
      SECURITY_LAYER,
      {
        mode: 'set',
        headers: { 'Access-Control-Allow-Origin': 'https://venue.example', 'X-Cache': 'outer' },
        vary: 'Origin',
      },
      { mode: 'set', headers: { 'X-RateLimit-Remaining': '4' } },
    ];
    const own = {
      'content-type': 'application/json',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Cache': 'HIT',
      'X-Powered-By': 'x',
      Vary: 'Accept',
    };
    const run = (build: (c: Context) => Response) => {
      const app = new Hono();
      for (const layer of layers) {
        app.use('*', async (c, next) => {
          addLayer(c, layer);
          await next();
          applyLayer(c.res, layer);
        });
      }
      app.get('/', (c) => build(c));
      return app.request('/');
    };
    const built = await run((c) => answer(c, '{}', 200, own));
    const written = await run(() => new Response('{}', { status: 200, headers: own }));
    assert.deepEqual(Object.fromEntries(built.headers), Object.fromEntries(written.headers));
    assert.equal(built.headers.get('x-cache'), 'outer');
    assert.equal(built.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(built.headers.get('x-powered-by'), null);
    assert.equal(headerOf(built, 'X-Cache'), 'outer');
    assert.equal(headerOf(written, 'X-Cache'), 'outer');
  });
});
