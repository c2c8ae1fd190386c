/**
 * Serves the widget bundle at `/venue-booking.js`, so a venue needs one server for both the script
 * and the API. The script is public: any site may load it (with `crossorigin` for the integrity
 * check), it is revalidated by ETag, and its Subresource Integrity hash is printed at start so the
 * venue pins exactly this file. Every file answers HEAD too (the same headers, no body), as a
 * static file server does, for monitors and caches that check a file without fetching it.
 */
import type { Context } from 'hono';

/** The `sha384-…` Subresource Integrity value of a file. */
export async function integrityOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `sha384-${btoa(binary)}`;
}

/** The script tag a venue pastes into its page. */
export function scriptTag(src: string, integrity: string): string {
  return `<script type="module" src="${src}" integrity="${integrity}" crossorigin="anonymous"></script>`;
}

/** One file the proxy serves, and its answer to a GET (Hono answers HEAD from it, without the body). */
export interface ServedFile {
  path: string;
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
  const etag = integrityOf(bytes).then((integrity) => `"${integrity.slice(7, 39)}"`);
  const common = {
    'content-type': 'text/javascript; charset=utf-8',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  };
  const script: ServedFile = {
    path: '/venue-booking.js',
    async answer(c) {
      const tag = await etag;
      // Short freshness, then revalidation: the URL is not content-hashed, so an update must show.
      const headers = { ...common, 'cache-control': 'public, max-age=300, stale-while-revalidate=86400', etag: tag };
      if (c.req.header('if-none-match') === tag) return new Response(null, { status: 304, headers });
      return new Response(bytes, { status: 200, headers: { ...headers, 'content-length': String(bytes.byteLength) } });
    },
  };
  return [
    script,
    ...Object.entries(chunks).map(([name, chunk]) => ({
      path: `/${name}`,
      answer: () =>
        new Response(chunk, {
          status: 200,
          headers: {
            ...common,
            'cache-control': 'public, max-age=31536000, immutable',
            'content-length': String(chunk.byteLength),
          },
        }),
    })),
  ];
}
