/**
 * Serves the widget bundle at `/venue-booking.js`, so a venue needs one server for both the script
 * and the API. The script is public: any site may load it (with `crossorigin` for the integrity
 * check), it is revalidated by ETag, and its Subresource Integrity hash is printed at start so the
 * venue pins exactly this file. Every file answers HEAD too (the same headers, no body), as a
 * static file server does, for monitors and caches that check a file without fetching it.
 *
 * Files go gzipped to browsers that accept it (all do): the bundle is three times smaller on the
 * wire, which on a phone's connection is the largest part of the wait for the first choice. They
 * are compressed once, at start, with `CompressionStream` (the same in Node and edge runtimes).
 */
import { acceptsGzip, gzip, integrityOf } from '../core/encoding.js';
import { PATHS } from '../paths.js';
import type { Context } from 'hono';

/** A file as served: its bytes, and the same gzipped (made once, when first asked). */
function servedFile(bytes: Uint8Array<ArrayBuffer>) {
  let gzipped: Promise<Uint8Array<ArrayBuffer>> | undefined;
  return {
    /** The representation for `c`'s request: its body, and its own headers. */
    async for(c: Context): Promise<{ body: Uint8Array<ArrayBuffer>; headers: Record<string, string> }> {
      if (!acceptsGzip(c.req.header('accept-encoding')))
        return { body: bytes, headers: { vary: 'accept-encoding', 'content-length': String(bytes.byteLength) } };
      const body = await (gzipped ??= gzip(bytes));
      return {
        body,
        headers: { vary: 'accept-encoding', 'content-encoding': 'gzip', 'content-length': String(body.byteLength) },
      };
    },
  };
}

/** One file the proxy serves, and its answer to a GET (Hono answers HEAD from it, without the body). */
export interface ServedFile {
  path: string;
  /** A chunk the bundle imports on demand (content-hashed name: one metrics label for them all). */
  chunk?: boolean;
  answer(c: Context): Response | Promise<Response>;
}

/**
 * The widget's files: `/venue-booking.js` and the chunks it imports on demand (the locale modules,
 * whose names carry a content hash and so are cached for good). Module scripts are fetched with
 * CORS, so every file says any origin may load it. `Content-Length` is set here so that a HEAD
 * names the size a GET would send.
 */
export function scriptFiles(
  bytes: Uint8Array<ArrayBuffer>,
  chunks: Record<string, Uint8Array<ArrayBuffer>> = {},
): ServedFile[] {
  const etag = integrityOf(bytes).then((integrity) => integrity.slice(7, 39));
  const common = {
    'content-type': 'text/javascript; charset=utf-8',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  };
  const served = servedFile(bytes);
  const script: ServedFile = {
    path: PATHS.script,
    async answer(c) {
      const { body, headers: own } = await served.for(c);
      // Each representation has its own tag, as a cache keeps them apart.
      const tag = `"${await etag}${own['content-encoding'] ? '-gzip' : ''}"`;
      // Short freshness, then revalidation: the URL is not content-hashed, so an update must show.
      const headers = {
        ...common,
        'cache-control': 'public, max-age=300, stale-while-revalidate=86400',
        etag: tag,
        vary: 'accept-encoding',
      };
      if (c.req.header('if-none-match') === tag) return new Response(null, { status: 304, headers });
      return new Response(body, { status: 200, headers: { ...headers, ...own } });
    },
  };
  return [
    script,
    ...Object.entries(chunks).map(([name, chunk]): ServedFile => {
      const file = servedFile(chunk);
      return {
        path: `/${name}`,
        chunk: true,
        async answer(c) {
          const { body, headers } = await file.for(c);
          return new Response(body, {
            status: 200,
            headers: { ...common, 'cache-control': 'public, max-age=31536000, immutable', ...headers },
          });
        },
      };
    }),
  ];
}
