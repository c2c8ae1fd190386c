/**
 * The QR code of a booking page's link, drawn from the matrix `uqr` makes (UnJS, no dependencies,
 * runs in any runtime; bundled into the server build): as SVG (sharp at any print size, and shown
 * inline by the studio) and as PNG (what a menu printer or a social post asks for). Four modules of
 * quiet zone, as the QR standard asks, and error correction M (15 %): a menu card may get a stain.
 *
 * The PNG is encoded here, not by a native image library: the proxy runs on Node and on Workers
 * alike. A one-bit greyscale image deflated by `fflate` is a few hundred bytes.
 *
 * The files are cached, few and small: the studio and a printer ask for the same link again and
 * again, and each link is one the booking page's settings allow (a bounded set), never a query's text.
 */
import { encode, renderSVG } from 'uqr';
import { zlibSync } from 'fflate';
import { escapeHtml } from './page.js';

/** The one error correction and quiet zone of every code. */
const QR_OPTIONS = { ecc: 'M', border: 4 } as const;

/** The SVG of `link`'s QR code, named for assistive technology. */
export function qrSvg(link: string, label = `QR code of ${link}`): string {
  return renderSVG(link, { ...QR_OPTIONS, pixelSize: 1 }).replace(
    '<svg ',
    `<svg role="img" aria-label="${escapeHtml(label)}" `,
  );
}

/** Pixels per module of the PNG: a version-5 code (the usual booking link) is 720 px, 6 cm at 300 dpi. */
export const PNG_MODULE_PIXELS = 16;

/** The CRC-32 table of PNG's chunks (ISO 3309, as zlib's). */
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The CRC-32 of `bytes`. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A PNG chunk: length, type, data, and the CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** The PNG signature. */
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The PNG of `link`'s QR code: one-bit greyscale (a dark module is 0, black), each module a square
 * of PNG_MODULE_PIXELS, rows unfiltered (filter byte 0) and the whole deflated in one IDAT.
 */
export function qrPng(link: string): Uint8Array<ArrayBuffer> {
  const { data, size } = encode(link, QR_OPTIONS);
  const width = size * PNG_MODULE_PIXELS;
  const stride = 1 + Math.ceil(width / 8);
  const raw = new Uint8Array(stride * width);
  for (let y = 0; y < width; y++) {
    const row = data[Math.floor(y / PNG_MODULE_PIXELS)]!;
    for (let x = 0; x < width; x++) {
      // Light pixels are set bits; the trailing bits of a row stay 0 and are not drawn.
      if (!row[Math.floor(x / PNG_MODULE_PIXELS)]) raw[y * stride + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, width);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filtering, no interlace
  const parts = [
    Uint8Array.from(SIGNATURE),
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (png.set(part, at), at + part.length), 0);
  return png;
}

/** A QR code file as served. */
export interface QrFile {
  body: string | Uint8Array<ArrayBuffer>;
  type: string;
}

/** How many files the cache keeps: each studio's few looks, in both formats. */
export const QR_CACHE_SIZE = 64;

const cache = new Map<string, QrFile>();

/**
 * The file of `link`'s QR code in `format`, from the cache when it was drawn lately (the least
 * recently used goes first). `link` must be one the booking page's settings allow: its length is
 * what keeps a code small.
 */
export function qrFile(link: string, format: 'svg' | 'png'): QrFile {
  const key = `${format} ${link}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const file: QrFile =
    format === 'png'
      ? { body: qrPng(link), type: 'image/png' }
      : { body: `<?xml version="1.0" encoding="UTF-8"?>\n${qrSvg(link)}`, type: 'image/svg+xml; charset=utf-8' };
  cache.set(key, file);
  if (cache.size > QR_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return file;
}
