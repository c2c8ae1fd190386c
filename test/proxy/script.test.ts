import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createStack } from '../../proxy/stack.js';

const encode = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;

describe('the widget bundle served by the proxy', () => {
  const stack = createStack({
    origin: 'http://proxy.test',
    proxy: {
      logger: { log() {} },
      widgetScript: encode('import("./fr-abc123.js")'),
      widgetChunks: { 'fr-abc123.js': encode('export default {}') },
    },
  });
  const get = (path: string) => stack.fetch(new Request(`http://proxy.test${path}`));

  it('serves the script with revalidation, and its locale chunks for good, to any origin', async () => {
    const script = await get('/venue-booking.js');
    assert.equal(script.status, 200);
    assert.match(script.headers.get('cache-control')!, /max-age=300/);
    assert.equal(script.headers.get('access-control-allow-origin'), '*');
    const chunk = await get('/fr-abc123.js');
    assert.equal(chunk.status, 200);
    assert.equal(await chunk.text(), 'export default {}');
    assert.match(chunk.headers.get('cache-control')!, /immutable/);
    assert.equal(chunk.headers.get('access-control-allow-origin'), '*');
    assert.match(chunk.headers.get('content-type')!, /javascript/);
  });

  it('answers HEAD for the script and its chunks with the headers of a GET and no body', async () => {
    for (const path of ['/venue-booking.js', '/fr-abc123.js']) {
      const full = await get(path);
      const head = await stack.fetch(new Request(`http://proxy.test${path}`, { method: 'HEAD' }));
      assert.equal(head.status, 200, path);
      assert.equal((await head.arrayBuffer()).byteLength, 0, path);
      assert.deepEqual([...head.headers], [...full.headers], path);
      assert.equal(head.headers.get('content-length'), String((await full.arrayBuffer()).byteLength), path);
    }
    const tag = (await get('/venue-booking.js')).headers.get('etag')!;
    const revalidated = await stack.fetch(
      new Request('http://proxy.test/venue-booking.js', { method: 'HEAD', headers: { 'if-none-match': tag } }),
    );
    assert.equal(revalidated.status, 304);
  });

  it('answers other methods on the files with 405, and HEAD nowhere else', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await stack.fetch(new Request('http://proxy.test/venue-booking.js', { method }));
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'GET, HEAD');
    }
    for (const path of ['/healthz', '/api/venues/64a1f0c2e4b0a1b2c3d4e501/offers', '/de-abc123.js']) {
      const response = await stack.fetch(new Request(`http://proxy.test${path}`, { method: 'HEAD' }));
      assert.equal(response.status, 405, path);
    }
  });

  it('serves no other file', async () => {
    for (const path of ['/de-abc123.js', '/fr-abc123.js.map', '/../package.json', '/proxy/app.ts']) {
      assert.equal((await get(path)).status, 404, path);
    }
  });
});
