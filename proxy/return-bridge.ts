/**
 * The return bridge of the web hand-off. With `return_method=post` the booking site POSTs the
 * guest's details (reference, status, name, email) back instead of putting them in a URL; this
 * route accepts that POST and answers 303 to the venue's configured page with only the reference
 * and the status in the URL, so no personal data lands in browser history, referrers or logs.
 *
 * The widget passes `return_url=<proxy>/api/return?venue=<id>`; the target page comes from the
 * settings (`returnPages`), never from the request, so the bridge is not an open redirect. The
 * origin guard in app.ts lets only the booking site, our own pages and configured origins post here.
 */
import type { Context, Hono } from 'hono';
import { ProxyError } from './envelope.js';
import type { ProxyContext } from './context.js';
import { urlOf } from './url.js';
import { ID_RE } from './validate.js';

const REFERENCE_RE = /^[A-Za-z0-9-]{1,40}$/;
const STATUS_RE = /^[a-z_]{1,20}$/;

/** Reads a form or JSON body into strings (other values are ignored). */
async function fields(c: Context): Promise<Record<string, string>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const text = await c.req.text();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  if (type === 'application/json') {
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(body ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
    } catch {
      throw new ProxyError(400, 'The request body is not valid JSON');
    }
  }
  throw new ProxyError(415, 'Send the return as a form or as JSON');
}

/** Registers `POST /api/return`. */
export function registerReturnBridge(app: Hono, ctx: ProxyContext): void {
  app.post('/api/return', async (c) => {
    const venue = urlOf(c.req.raw).searchParams.get('venue') ?? '';
    if (!ID_RE.test(venue) || !(await ctx.venueAllowed(venue)))
      throw new ProxyError(404, 'Unknown venue', {
        errors: [{ code: 'unknown_venue', message: 'Unknown venue', fields: ['venue'] }],
      });
    const page = ctx.config.returnPages?.[venue] ?? ctx.config.returnPages?.['*'];
    if (!page) throw new ProxyError(404, 'No return page is configured for this venue');
    const body = await fields(c);
    const reference = body.reference?.trim() ?? '';
    const status = body.status?.trim() ?? '';
    if (!REFERENCE_RE.test(reference) || !STATUS_RE.test(status)) {
      throw new ProxyError(400, 'The return is missing a valid reference or status', {
        errors: [
          { code: 'invalid_return', message: 'reference and status are required', fields: ['reference', 'status'] },
        ],
      });
    }
    const target = new URL(page.replace('{venue}', venue));
    target.searchParams.set('reference', reference);
    target.searchParams.set('status', status);
    ctx.logger.log({ level: 'info', msg: 'booking returned', venue, status });
    return new Response(null, {
      status: 303,
      headers: { location: target.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    });
  });
}
