/**
 * The booking page's QR code as the studio offers it for download, through the real proxy app: after
 * choosing the dark theme and a colour, the PNG and the SVG encode the coloured link the studio shows,
 * not the bare one. The PNG is read back as a reader would (chunks and CRCs checked by node:zlib, the
 * IDAT inflated by node:zlib, not by the fflate that wrote it, one pixel read per module) and its
 * modules compared with the matrix of the expected link; so are the SVG's squares. A long query
 * cannot grow the code: the link is rebuilt from the page's checked settings. The cache is bounded.
 */
import assert from 'node:assert/strict';
import { crc32, inflateSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { encode } from 'uqr';
import { PNG_MODULE_PIXELS, QR_CACHE_SIZE, qrFile } from '../../proxy/pages/qr.js';
import { recordingProxy, VENUE } from './support.js';

const SCRIPT = new TextEncoder().encode('customElements.define("venue-booking", class {});') as Uint8Array<ArrayBuffer>;
const ORIGIN_HERE = 'http://127.0.0.1:8080';

/** The proxy with the studio, asked from this machine. */
function qrProxy() {
  const { proxy } = recordingProxy({ widgetScript: SCRIPT, peerAddress: () => '127.0.0.1', publicUrl: undefined });
  return (path: string) => proxy.fetch(new Request(path.startsWith('http') ? path : `${ORIGIN_HERE}${path}`));
}

/** The modules (true: dark) of `link`'s QR code as uqr draws it, quiet zone included. */
const matrixOf = (link: string) => encode(link, { ecc: 'M', border: 4 }).data;

/** A PNG's modules: its chunks' CRCs checked, one-bit greyscale, one pixel read in each module's middle. */
function pngModules(bytes: Uint8Array): boolean[][] {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: { type: string; data: Uint8Array }[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    assert.equal(view.getUint32(at + 8 + length), crc32(bytes.subarray(at + 4, at + 8 + length)), `${type}'s CRC`);
    chunks.push({ type, data });
    at += 12 + length;
  }
  assert.deepEqual(
    chunks.map((chunk) => chunk.type),
    ['IHDR', 'IDAT', 'IEND'],
  );
  const header = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset, 13);
  const [width, height] = [header.getUint32(0), header.getUint32(4)];
  assert.equal(width, height);
  assert.deepEqual([...chunks[0]!.data.subarray(8)], [1, 0, 0, 0, 0], 'one-bit greyscale, not interlaced');
  const raw = inflateSync(chunks[1]!.data);
  const stride = 1 + Math.ceil(width / 8);
  assert.equal(raw.length, stride * height);
  const size = width / PNG_MODULE_PIXELS;
  assert.ok(Number.isInteger(size), `${width} px is whole modules`);
  const half = PNG_MODULE_PIXELS / 2;
  return Array.from({ length: size }, (_, row) => {
    const y = row * PNG_MODULE_PIXELS + half;
    assert.equal(raw[y * stride], 0, 'rows are unfiltered');
    return Array.from({ length: size }, (_, column) => {
      const x = column * PNG_MODULE_PIXELS + half;
      return (raw[y * stride + 1 + (x >> 3)]! & (0x80 >> (x & 7))) === 0;
    });
  });
}

/** An SVG's modules: its viewBox's size, and the unit squares of its path dark. */
function svgModules(svg: string): boolean[][] {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
  const modules = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y] of svg.matchAll(/M(\d+),(\d+)h1v1h-1z/g)) modules[Number(y)]![Number(x)] = true;
  return modules;
}

describe('the QR code the studio offers for download', () => {
  test('encodes the coloured link the studio shows, in PNG and in SVG, after choosing dark and a colour', async () => {
    const get = qrProxy();
    const studio = await get(`/embed?venue=${VENUE}&theme=dark&accent=%238b1f3a`);
    assert.equal(studio.status, 200);
    const html = await studio.text();
    const link = `${ORIGIN_HERE}/book/${VENUE}?theme=dark&accent=%238b1f3a`;
    const anchors = html.matchAll(/<a id="([^"]+)" href="([^"]+)"( download="[^"]+")?>([^<]+)<\/a>/g);
    const links = Object.fromEntries(
      [...anchors].map((match) => [
        match[1],
        { href: match[2]!.replace(/&amp;/g, '&'), download: match[3], text: match[4] },
      ]),
    );
    assert.equal(links['booking-link']!.href, link, 'the link the studio shows');
    assert.ok(html.includes(`<svg role="img" aria-label="QR code of ${link.replace(/&/g, '&amp;')}"`));
    const expected = matrixOf(link);
    assert.notDeepEqual(matrixOf(link.split('?')[0]!), expected, 'the bare link makes another code');

    const png = links['qr-download-png']!;
    assert.equal(png.download, ' download="booking-qr-code.png"');
    assert.equal(png.text, 'Download QR code (PNG)');
    const pngAnswer = await get(png.href);
    assert.equal(pngAnswer.status, 200);
    assert.equal(pngAnswer.headers.get('content-type'), 'image/png');
    assert.equal(pngAnswer.headers.get('content-disposition'), 'attachment; filename="booking-qr-code.png"');
    assert.deepEqual(pngModules(new Uint8Array(await pngAnswer.arrayBuffer())), expected);

    const svg = links['qr-download']!;
    assert.equal(svg.download, ' download="booking-qr-code.svg"');
    assert.match(svg.text!, /^Download QR code \(SVG/);
    const svgAnswer = await get(svg.href);
    assert.equal(svgAnswer.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
    const text = await svgAnswer.text();
    assert.ok(text.includes(`aria-label="QR code of ${link.replace(/&/g, '&amp;')}"`));
    assert.deepEqual(svgModules(text), expected);
  });

  test('an oversized query cannot grow the code: what is not a checked setting is left out', async () => {
    const get = qrProxy();
    const link = `${ORIGIN_HERE}/book/${VENUE}?theme=dark&accent=%238b1f3a`;
    // 1,900 characters: the longest query the proxy's URL limit (2,048) lets through to this route.
    const junk = 'A'.repeat(1900);
    for (const query of [
      `theme=dark&accent=%238b1f3a&x=${junk}`,
      `theme=dark&accent=%238b1f3a&text=%23${junk}`,
      `theme=dark${junk.slice(950)}&locale=${junk.slice(950)}&accent=%238b1f3a`,
    ]) {
      const answer = await get(`/book/${VENUE}/qr.png?${query}`);
      assert.equal(answer.status, 200);
      const modules = pngModules(new Uint8Array(await answer.arrayBuffer()));
      const expected = query.startsWith('theme=dark&') ? link : `${ORIGIN_HERE}/book/${VENUE}?accent=%238b1f3a`;
      assert.deepEqual(modules, matrixOf(expected), query.slice(0, 40));
      assert.ok(modules.length <= 4 * 8 + 17 + 8, `a version-8 code at most: ${modules.length} modules`);
    }
    const svg = await (await get(`/book/${VENUE}/qr.svg?theme=dark&accent=%238b1f3a&x=${junk}`)).text();
    assert.deepEqual(svgModules(svg), matrixOf(link));
    assert.equal((await get(`/book/64a1f0c2e4b0a1b2c3d4e599/qr.png`)).status, 404);
  });

  test('the cache keeps the codes drawn lately, and no more than its size', () => {
    const first = qrFile('https://book.example/book/a', 'png');
    assert.equal(qrFile('https://book.example/book/a', 'png'), first, 'a repeat is served from the cache');
    for (let i = 0; i < QR_CACHE_SIZE; i++) qrFile(`https://book.example/book/${i}`, 'svg');
    assert.notEqual(qrFile('https://book.example/book/a', 'png'), first, 'the oldest was dropped');
  });
});
