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

  it('serves no other file', async () => {
    for (const path of ['/de-abc123.js', '/fr-abc123.js.map', '/../package.json', '/proxy/app.ts']) {
      assert.equal((await get(path)).status, 404, path);
    }
  });
});
