import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { createStack } from '../../proxy/stack.js';
import { acceptsGzip } from '../../proxy/core/encoding.js';
import { widgetSnippet } from '../../proxy/pages/snippet.js';

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

  it('sends each file gzipped to a browser that accepts it, the same bytes once unzipped, under its own tag', async () => {
    const gzip = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    for (const [path, text] of [
      ['/venue-booking.js', 'import("./fr-abc123.js")'],
      ['/fr-abc123.js', 'export default {}'],
    ] as const) {
      const zipped = await stack.fetch(new Request(`http://proxy.test${path}`, { headers: gzip }));
      assert.equal(zipped.status, 200, path);
      assert.equal(zipped.headers.get('content-encoding'), 'gzip', path);
      assert.equal(zipped.headers.get('vary'), 'accept-encoding', path);
      const body = new Uint8Array(await zipped.arrayBuffer());
      assert.equal(zipped.headers.get('content-length'), String(body.byteLength), path);
      assert.equal(gunzipSync(body).toString(), text, path);
      const plain = await get(path);
      assert.equal(plain.headers.get('content-encoding'), null, path);
      assert.equal(plain.headers.get('vary'), 'accept-encoding', path);
      assert.equal(await plain.text(), text, path);
    }
    const zippedTag = (
      await stack.fetch(new Request('http://proxy.test/venue-booking.js', { headers: gzip }))
    ).headers.get('etag')!;
    const plainTag = (await get('/venue-booking.js')).headers.get('etag')!;
    assert.notEqual(zippedTag, plainTag);
    const revalidated = await stack.fetch(
      new Request('http://proxy.test/venue-booking.js', { headers: { ...gzip, 'if-none-match': zippedTag } }),
    );
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers.get('vary'), 'accept-encoding');
    const otherTag = await stack.fetch(
      new Request('http://proxy.test/venue-booking.js', { headers: { ...gzip, 'if-none-match': plainTag } }),
    );
    assert.equal(otherTag.status, 200, 'a tag of the other representation does not match');
  });

  it('reads Accept-Encoding as HTTP says: a quality of 0 refuses, `*` accepts', () => {
    for (const [header, accepted] of [
      ['gzip', true],
      ['deflate, gzip;q=0.5', true],
      ['GZIP', true],
      ['*', true],
      ['gzip;q=0', false],
      ['gzip; q=0.0', false],
      ['deflate, br', false],
      ['', false],
      [undefined, false],
    ] as const)
      assert.equal(acceptsGzip(header), accepted, String(header));
  });

  it('prints a snippet that opens the connection and fetches the bundle as early as the page allows', () => {
    assert.equal(
      widgetSnippet('https://book.example.com/venue-booking.js', 'sha384-abc'),
      [
        '<link rel="preconnect" href="https://book.example.com" crossorigin>',
        '<link rel="modulepreload" href="https://book.example.com/venue-booking.js" integrity="sha384-abc" crossorigin="anonymous">',
        '<script type="module" src="https://book.example.com/venue-booking.js" integrity="sha384-abc" crossorigin="anonymous"></script>',
      ].join('\n'),
    );
  });
});
