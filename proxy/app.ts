/**
 * The credential-holding proxy: a Fetch handler (Hono) that lets through only what a public
 * booking widget needs and adds `Authorization: APPID:KEY` upstream. It imports no `node:` module,
 * so the same handler runs in Node, in an edge runtime, inside Vite's dev server and in tests.
 */
import { Hono } from 'hono';
import type { Envelope, WireAvailability } from '../src/api/types.js';

/** Settings of one proxy instance. See `config.ts` for how they are read from the environment. */
export interface ProxyConfig {
  /** Upstream base URL, ending in `/v4`. */
  upstream: string;
  appId: string;
  apiKey: string;
  /** The fetch that reaches the upstream; the sandbox's handler when embedded. */
  fetch?: (request: Request) => Promise<Response>;
  /** Venue ids the widget may book. */
  venues: string[];
  /** Upstream timeout in milliseconds. */
  timeoutMs?: number;
}

/** A running proxy: its Fetch handler. */
export interface Proxy {
  fetch(request: Request): Promise<Response>;
}

/** Builds an error in the service's envelope, so clients parse one shape for every answer. */
function envelope(request: Request, status: number, payload: unknown): Response {
  const now = new Date().toISOString().slice(0, 19);
  const body: Envelope = {
    payload,
    status,
    requestTime: now,
    responseTime: now,
    statusText: status === 200 ? 'OK' : 'Error',
    url: new URL(request.url).pathname,
    method: request.method,
    params: [],
  };
  return Response.json(body, { status });
}

/** Creates the proxy's Fetch handler. */
export function createProxy(config: ProxyConfig): Proxy {
  const upstreamFetch = config.fetch ?? ((request: Request) => fetch(request));
  const base = config.upstream.replace(/\/$/, '');
  const app = new Hono();

  async function upstream(request: Request, path: string, init: { method: string; search?: string; body?: unknown }) {
    const headers = new Headers({ Authorization: `${config.appId}:${config.apiKey}`, Accept: 'application/json' });
    if (init.body !== undefined) headers.set('Content-Type', 'application/json');
    const response = await upstreamFetch(
      new Request(`${base}${path}${init.search ?? ''}`, {
        method: init.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
      }),
    );
    return response;
  }

  const venueAllowed = (venue: string) => config.venues.includes(venue);

  app.get('/healthz', (c) => c.json({ ok: true }));

  app.get('/api/venues/:venue/booking-availability', async (c) => {
    const venue = c.req.param('venue');
    if (!venueAllowed(venue)) return envelope(c.req.raw, 404, { message: 'Unknown venue' });
    const search = new URL(c.req.url).search;
    const response = await upstream(c.req.raw, `/venues/${venue}/booking-availability`, { method: 'GET', search });
    const body = (await response.json()) as Envelope<WireAvailability>;
    if (body.payload?.next?.api) body.payload.next.api = new URL('/api/bookings', c.req.url).href;
    return c.json(body, response.status as 200);
  });

  app.post('/api/bookings', async (c) => {
    const body = (await c.req.json()) as Record<string, unknown>;
    if (!venueAllowed(String(body.venue_id))) return envelope(c.req.raw, 404, { message: 'Unknown venue' });
    const response = await upstream(c.req.raw, '/bookings', { method: 'POST', body: { ...body, source: 'partner' } });
    return c.json(await response.json(), response.status as 200);
  });

  app.all('*', (c) => envelope(c.req.raw, 404, { message: 'Not found' }));
  return { fetch: (request) => Promise.resolve(app.fetch(request)) };
}
