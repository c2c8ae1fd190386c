/**
 * Serves the widget bundle at `/venue-booking.js`, so a venue needs one server for both the script
 * and the API. The script is public: any site may load it (with `crossorigin` for the integrity
 * check), it is revalidated by ETag, and its Subresource Integrity hash is printed at start so the
 * venue pins exactly this file.
 */
import type { Hono } from 'hono';

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

/** Registers `GET /venue-booking.js`. */
export function serveScript(app: Hono, bytes: Uint8Array<ArrayBuffer>): void {
  const etag = integrityOf(bytes).then((integrity) => `"${integrity.slice(7, 39)}"`);
  app.get('/venue-booking.js', async (c) => {
    const tag = await etag;
    const headers = {
      'content-type': 'text/javascript; charset=utf-8',
      // Short freshness, then revalidation: the URL is not content-hashed, so an update must show.
      'cache-control': 'public, max-age=300, stale-while-revalidate=86400',
      etag: tag,
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    };
    if (c.req.header('if-none-match') === tag) return new Response(null, { status: 304, headers });
    return new Response(bytes, { status: 200, headers });
  });
}
