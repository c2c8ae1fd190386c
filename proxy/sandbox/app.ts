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
import { computeAvailability, FIELDS, type AvailabilityContext, type Dialect, type Field } from './availability.js';
import {
  createdRecord,
  fullRecord,
  handlingOf,
  parseAreas,
  parseNewBooking,
  parseUpdate,
  storeBooking,
  venueSummary,
} from './bookings.js';
import {
  ApiError,
  bool,
  envelope,
  errorResponse,
  list,
  one,
  readParams,
  type Params,
  type RequestInfo,
} from './http.js';
import { search } from './search.js';
import { Store } from './store.js';
import { makeClock, type Clock } from './time.js';
import type { App, Seed, Venue } from './types.js';
import { showBookingPage, submitBookingPage } from './web.js';
import { registerResourceRoutes } from './resources.js';
import { registerPeopleRoutes } from './people.js';
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

/** Per-request context handed to route handlers. */
export interface Ctx {
  info: RequestInfo;
  params: Params;
  app: App;
  access: Access;
  store: Store;
  now: number;
  dialect: Dialect;
  publicUrl: string;
  availability: AvailabilityContext;
  /** A path parameter. */
  path(name: string): string;
  /** The venue named by a path parameter: 404 when unknown, 403 when the app may not `perm` there. */
  venue(id: string, perm?: Parameters<Access['require']>[0]): Venue;
}

/** A route handler: returns the payload of a 200 envelope, or a ready Response. */
export type Handler = (ctx: Ctx) => unknown;
/** Registers a route with its methods; other methods get 405. */
export type Route = (path: string, methods: Partial<Record<'GET' | 'POST' | 'DELETE', Handler>>) => void;

/** Creates a sandbox. Throws only on bad options (e.g. an unparseable `now`), never per request. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const clock = makeClock(options.now);
  const store = new Store(options.seed ?? (defaultSeed as unknown as Seed), options.apps ?? []);
  const limiter = new RateLimiter(options.rateLimit ?? 5000);
  const dialect: Dialect = options.dialect === 'live' ? 'live' : 'spec';
  const publicUrl = (options.publicUrl ?? 'http://localhost:8787').replace(/\/+$/, '');
  const app = new Hono();

  const route: Route = (path, methods) => {
    const allowed = Object.keys(methods);
    app.all(`/v4${path}`, (c) =>
      handle(c, (ctx) => {
        const h = methods[ctx.info.method as 'GET' | 'POST' | 'DELETE'];
        if (!h)
          throw new ApiError(405, `Method ${ctx.info.method} not allowed here; use ${allowed.join(' or ')}`, [], {
            allow: allowed.join(', '),
          });
        return h(ctx);
      }),
    );
  };

  /** Auth, rate limit, params, envelope and error mapping around one handler. */
  async function handle(c: HonoContext, run: Handler): Promise<Response> {
    const now = clock().getTime();
    const url = new URL(c.req.url);
    const info: RequestInfo = {
      url: c.req.url,
      method: c.req.method,
      params: {},
      requestTime: now,
      now: () => clock().getTime(),
    };
    for (const [k, v] of url.searchParams) info.params[k] = v;
    let rate: Record<string, string> = limiter.hit('', now, false).headers;
    const withRate = (res: Response) => {
      for (const [k, v] of Object.entries(rate)) res.headers.set(k, v);
      return res;
    };
    try {
      const appRecord = authenticate(store, c.req.header('authorization') ?? null);
      const hit = limiter.hit(appRecord.id, now);
      rate = hit.headers;
      if (!hit.allowed)
        throw new ApiError(
          429,
          `Rate limit of ${limiter.limit} requests per hour exceeded; try again after ${rate['X-RateLimit-Reset']}`,
        );
      const params = await readParams(c.req.raw, url);
      info.params = params;
      const access = new Access(store, appRecord);
      const ctx: Ctx = {
        info,
        params,
        app: appRecord,
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
      const out = await run(ctx);
      return withRate(out instanceof Response ? out : envelope(info, 200, out));
    } catch (e) {
      if (e instanceof ApiError) return withRate(errorResponse(info, e));
      console.error('[sandbox] unexpected error', e);
      return withRate(
        errorResponse(info, new ApiError(503, 'The sandbox hit an unexpected error; the request was not applied')),
      );
    }
  }

  // --- §4.1 availability ---
  const availability: Handler = (ctx) => {
    const venue = ctx.venue(ctx.path('venue_id'));
    const p = ctx.params;
    const fields = list(p.fields).filter((f): f is Field => (FIELDS as readonly string[]).includes(f));
    if (p.fields !== undefined && !fields.length) {
      throw new ApiError(400, `fields must name one or more of ${FIELDS.join(', ')}`, [
        { code: 'invalid_fields', message: 'Unknown field', fields: ['fields'] },
      ]);
    }
    if (ctx.dialect === 'live' && typeof one(p, 'type') === 'string') {
      const t = one(p, 'type') as string;
      if (
        t &&
        !venue.booking_types.some((x) => x.id === t) &&
        venue.booking_types.some((x) => x.name.toLowerCase() === t.toLowerCase())
      ) {
        throw new ApiError(400, 'Send the booking type id, not its name', [
          { code: 'invalid_type', message: 'Send the booking type id, not its name', fields: ['type'] },
        ]);
      }
    }
    return computeAvailability(ctx.availability, venue, {
      type: one(p, 'type'),
      num_people: one(p, 'num_people'),
      date: one(p, 'date'),
      time: one(p, 'time'),
      duration: one(p, 'duration'),
      getOffers: bool(one(p, 'getOffers')) === true,
      fields: fields.length ? fields : undefined,
    });
  };
  route('/venues/:venue_id/booking-availability', { GET: availability, POST: availability });

  // --- §4.2 create, §4.6 search ---
  route('/bookings', {
    POST: (ctx) => {
      const nb = parseNewBooking(ctx.store, ctx.params, ctx.now);
      ctx.venue(nb.venue._id, 'create_bookings');
      const handling = handlingOf(ctx.availability, nb);
      const booking = storeBooking(ctx.store, nb, {
        now: ctx.now,
        createdBy: ctx.app.id,
        status: handling === 'confirmed' ? 'complete' : 'new',
      });
      return {
        booking: createdRecord(ctx.store, booking, ctx.dialect),
        bookingStatus: handling,
        venue: venueSummary(nb.venue),
      };
    },
    GET: (ctx) => search(ctx.store, ctx.access, ctx.params, ctx.now),
  });

  // --- §4.3 update, §4.4 areas, §2.6 pre-orders ---
  const booking = (ctx: Ctx, perm: 'read_bookings' | 'update_bookings' | 'manage_bookings') => {
    const b = ctx.store.findBooking(ctx.path('booking_id'));
    if (!b) throw new ApiError(404, `Booking ${ctx.path('booking_id')} not found`);
    ctx.access.require(perm, b.venue_id);
    return b;
  };
  route('/bookings/:booking_id', {
    POST: (ctx) => {
      const b = booking(ctx, 'update_bookings');
      const patch = parseUpdate(ctx.store, b, ctx.params, ctx.now, ctx.app.id);
      ctx.store.update(b, patch);
      return { booking: fullRecord(ctx.store, b) };
    },
  });
  route('/bookings/:booking_id/areas', {
    GET: (ctx) => ({ areas: booking(ctx, 'read_bookings').assigned_areas }),
    POST: (ctx) => {
      const b = booking(ctx, 'manage_bookings');
      const areas = parseAreas(ctx.store, b, ctx.params);
      ctx.store.update(b, { assigned_areas: areas, last_updated: ctx.now });
      return { areas };
    },
  });
  route('/bookings/:booking_id/preorders', {
    GET: (ctx) => ({ preorders: booking(ctx, 'read_bookings').preorders }),
  });

  registerResourceRoutes(route);
  registerPeopleRoutes(route);

  // --- the hosted web booking page (no credentials: a guest's browser opens it) ---
  const webContext = () => {
    const now = clock().getTime();
    return { store, now, ctx: { store, now, dialect, publicUrl } };
  };
  const webParams = async (req: Request) => {
    const url = new URL(req.url);
    try {
      return await readParams(req, url);
    } catch {
      return null;
    }
  };
  app.get('/book', async (c) => showBookingPage(webContext(), (await webParams(c.req.raw))!));
  app.post('/book', async (c) => {
    const params = await webParams(c.req.raw);
    if (!params)
      return new Response('Bad request', { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    try {
      return await submitBookingPage(webContext(), params);
    } catch (e) {
      console.error('[sandbox] web page error', e);
      return new Response('The sandbox hit an unexpected error; nothing was stored', {
        status: 503,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    }
  });
  app.all(
    '/book',
    () =>
      new Response('Method not allowed', {
        status: 405,
        headers: { allow: 'GET, POST', 'content-type': 'text/plain; charset=utf-8' },
      }),
  );

  // Unknown routes: 404 in the envelope (after auth, as the API gateway would).
  app.notFound((c) =>
    handle(c, (ctx) => {
      throw new ApiError(404, `No route ${ctx.info.method} ${new URL(ctx.info.url).pathname}`);
    }),
  );

  return {
    fetch: async (request: Request) => app.fetch(request),
    store,
    dialect,
    publicUrl,
    clock,
  };
}
