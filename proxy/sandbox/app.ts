/**
 * The sandbox: an offline, faithful emulation of the v4 booking service as a Fetch handler.
 *
 * It is the proxy's embedded default upstream (`npm start`, every test, partner developers), so it
 * is runtime-free: no `node:` import, nothing but `Request → Response`. Only `cli.ts` touches
 * process, ports and files. Paths are relative to the handler's root: the API under `/v4/...` and
 * the hosted booking page under `/book`; whoever mounts it under a prefix strips the prefix first.
 */

import { Hono, type Context as HonoContext } from 'hono';
import { Access, authenticate, RateLimiter } from './auth.js';
import { BOOKING_ROUTES } from './booking-routes.js';
import type { Ctx, Handler, Method, Route } from './context.js';
import { ApiError, envelope, errorResponse, readParams, type Params, type RequestInfo } from './http.js';
import { PEOPLE_ROUTES } from './people.js';
import { RESOURCE_ROUTES } from './resources.js';
import { Store } from './store.js';
import { makeClock, type Clock } from './time.js';
import type { App, Dialect, Seed } from './types.js';
import { showBookingPage, submitBookingPage } from './web.js';
import defaultSeed from './seed.json' with { type: 'json' };

export type { Seed } from './types.js';

/** Options of {@link createSandbox}. Every one has a default, so `createSandbox()` is the demo. */
export interface SandboxOptions {
  /** Fixed clock (ISO 8601; zone-less = London wall time) or clock function; default real time. */
  now?: string | (() => Date);
  /** Apps added to the seed's apps. */
  apps?: { id: string; key: string; capabilities: string[] | 'all' }[];
  /** Requests per App ID per hour (default 5000). */
  rateLimit?: number;
  /** Seed data; default the bundled proxy/sandbox/seed.json. */
  seed?: Seed;
  /** 'spec' (default) answers as api-spec.md; 'live' as real-api-notes.md. */
  dialect?: 'spec' | 'live';
  /** Absolute URL where this handler is reachable by a browser; builds next.web and next.api. */
  publicUrl?: string;
}

/** A running sandbox: the Fetch handler plus its store (for tests and benchmarks). */
export interface Sandbox {
  fetch(request: Request): Promise<Response>;
  /** The in-memory data; tests may read it, benchmarks may bulk-insert through it. */
  readonly store: Store;
  readonly dialect: Dialect;
  readonly publicUrl: string;
  readonly clock: Clock;
}

/**
 * The app of the default seed that a public booking widget proxy needs: it may read availability,
 * offers and settings and create (and read) bookings at every venue of the demo group
 * (`confirm_venue_group_bookings_…500`). The proxy uses it when run with no credentials.
 */
export const SANDBOX_APP: { id: string; key: string } = { id: 'sandbox-widget', key: 'sandbox-widget-key' };

/** The fixed ids of the default seed, for tests and demos. */
export const SEED_IDS = {
  group: '64a1f0c2e4b0a1b2c3d4e500',
  venues: {
    quayside: '64a1f0c2e4b0a1b2c3d4e501',
    cellar: '64a1f0c2e4b0a1b2c3d4e502',
    kitchen: '64a1f0c2e4b0a1b2c3d4e503',
  },
  types: {
    table: '64a1f0c2e4b0a1b2c3d4e601',
    brunch: '64a1f0c2e4b0a1b2c3d4e602',
    privateHire: '64a1f0c2e4b0a1b2c3d4e603',
    expressLunch: '64a1f0c2e4b0a1b2c3d4e604',
    bar: '64a1f0c2e4b0a1b2c3d4e605',
    cocktailTable: '64a1f0c2e4b0a1b2c3d4e611',
    masterclass: '64a1f0c2e4b0a1b2c3d4e612',
    cellarParty: '64a1f0c2e4b0a1b2c3d4e613',
    kitchenTable: '64a1f0c2e4b0a1b2c3d4e621',
    sundayRoast: '64a1f0c2e4b0a1b2c3d4e622',
  },
  event: '64a1f0c2e4b0a1b2c3d4ec91',
} as const;

/** The whole v4 route table, in registration order. */
export const ROUTES: readonly Route[] = [...BOOKING_ROUTES, ...RESOURCE_ROUTES, ...PEOPLE_ROUTES];

/** What one sandbox instance holds: its clock, data, rate limiter and answer settings. */
interface Runtime {
  clock: Clock;
  store: Store;
  limiter: RateLimiter;
  dialect: Dialect;
  publicUrl: string;
}

/** Resolves the options into a runtime; throws on bad options (an unparseable `now`). */
function runtimeOf(options: SandboxOptions): Runtime {
  return {
    clock: makeClock(options.now),
    store: new Store(options.seed ?? (defaultSeed as unknown as Seed), options.apps ?? []),
    limiter: new RateLimiter(options.rateLimit ?? 5000),
    dialect: options.dialect === 'live' ? 'live' : 'spec',
    publicUrl: (options.publicUrl ?? 'http://localhost:8787').replace(/\/+$/, ''),
  };
}

/** What the envelope echoes of a request before its parameters are read (the query alone). */
function requestInfoOf(rt: Runtime, c: HonoContext, now: number): RequestInfo {
  const info: RequestInfo = {
    url: c.req.url,
    method: c.req.method,
    params: {},
    requestTime: now,
    now: () => rt.clock().getTime(),
  };
  for (const [k, v] of new URL(c.req.url).searchParams) info.params[k] = v;
  return info;
}

/** The handler's context for an authenticated request. */
function contextOf(rt: Runtime, c: HonoContext, info: RequestInfo, params: Params, app: App, now: number): Ctx {
  const { store, dialect, publicUrl } = rt;
  const access = new Access(store, app);
  return {
    info,
    params,
    app,
    access,
    store,
    now,
    dialect,
    publicUrl,
    availability: { store, now, dialect, publicUrl },
    path: (name) => c.req.param(name) ?? '',
    venue: (id, perm = 'see') => {
      const v = store.venues.get(id);
      if (!v) throw new ApiError(404, `Venue ${id} not found`);
      access.require(perm, v._id);
      return v;
    },
  };
}

/**
 * The request pipeline around one handler, in stages: authenticate, count against the rate limit,
 * read the parameters, run, envelope. Any ApiError becomes its enveloped answer; anything else a
 * 503 that says nothing was applied. Every answer carries the rate-limit headers.
 */
async function handle(rt: Runtime, c: HonoContext, run: Handler): Promise<Response> {
  const now = rt.clock().getTime();
  const info = requestInfoOf(rt, c, now);
  let rate: Record<string, string> = rt.limiter.hit('', now, false).headers;
  const withRate = (res: Response) => {
    for (const [k, v] of Object.entries(rate)) res.headers.set(k, v);
    return res;
  };
  try {
    const app = authenticate(rt.store, c.req.header('authorization') ?? null);
    const hit = rt.limiter.hit(app.id, now);
    rate = hit.headers;
    if (!hit.allowed)
      throw new ApiError(
        429,
        `Rate limit of ${rt.limiter.limit} requests per hour exceeded; try again after ${rate['X-RateLimit-Reset']}`,
      );
    info.params = await readParams(c.req.raw, new URL(c.req.url));
    const out = await run(contextOf(rt, c, info, info.params, app, now));
    return withRate(out instanceof Response ? out : envelope(info, 200, out));
  } catch (e) {
    if (e instanceof ApiError) return withRate(errorResponse(info, e));
    console.error('[sandbox] unexpected error', e);
    return withRate(
      errorResponse(info, new ApiError(503, 'The sandbox hit an unexpected error; the request was not applied')),
    );
  }
}

/** Registers a route table under `/v4`: each path answers its methods and 405 (with Allow) to others. */
function mountApi(app: Hono, rt: Runtime, routes: readonly Route[]): void {
  for (const { path, methods } of routes) {
    const allowed = Object.keys(methods);
    app.all(`/v4${path.replace(/\{(\w+)\}/g, ':$1')}`, (c) =>
      handle(rt, c, (ctx) => {
        const h = methods[ctx.info.method as Method];
        if (!h)
          throw new ApiError(405, `Method ${ctx.info.method} not allowed here; use ${allowed.join(' or ')}`, [], {
            allow: allowed.join(', '),
          });
        return h(ctx);
      }),
    );
  }
}

const textAnswer = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });

/** The hosted web booking page (no credentials: a guest's browser opens it). */
function mountBookingPage(app: Hono, rt: Runtime): void {
  const webContext = () => {
    const now = rt.clock().getTime();
    const { store, dialect, publicUrl } = rt;
    return { store, now, ctx: { store, now, dialect, publicUrl } };
  };
  const webParams = async (req: Request) => {
    try {
      return await readParams(req, new URL(req.url));
    } catch {
      return null;
    }
  };
  app.get('/book', async (c) => showBookingPage(webContext(), (await webParams(c.req.raw))!));
  app.post('/book', async (c) => {
    const params = await webParams(c.req.raw);
    if (!params) return textAnswer(400, 'Bad request');
    try {
      return await submitBookingPage(webContext(), params);
    } catch (e) {
      console.error('[sandbox] web page error', e);
      return textAnswer(503, 'The sandbox hit an unexpected error; nothing was stored');
    }
  });
  app.all('/book', () => textAnswer(405, 'Method not allowed', { allow: 'GET, POST' }));
}

/** Creates a sandbox. Throws only on bad options (e.g. an unparseable `now`), never per request. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const rt = runtimeOf(options);
  const app = new Hono();
  mountApi(app, rt, ROUTES);
  mountBookingPage(app, rt);
  // Unknown routes: 404 in the envelope (after auth, as the API gateway would).
  app.notFound((c) =>
    handle(rt, c, (ctx) => {
      throw new ApiError(404, `No route ${ctx.info.method} ${new URL(ctx.info.url).pathname}`);
    }),
  );
  return {
    fetch: async (request: Request) => app.fetch(request),
    store: rt.store,
    dialect: rt.dialect,
    publicUrl: rt.publicUrl,
    clock: rt.clock,
  };
}
