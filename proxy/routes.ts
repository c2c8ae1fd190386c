/**
 * The proxy's routes as one declarative table: each path (paths.ts) with its policy: the
 * methods it answers, how its answers are shared (the cache tier of its reads), whether it is a
 * booking (whose refusals say whether a booking may be stored), whether the API's guards, CORS and
 * per-client limits apply, whether the Node fast path may serve it, and what answers it. app.ts
 * registers every row with Hono and answers every other method of a row's path with 405 and
 * `Allow` from the same row; the guards learn the widget's files, the operator's pages and the
 * effect-free return from it; the fast path its reads. A route is declared once.
 */
import type { Context } from 'hono';
import type { ProxyContext } from './context.js';
import { book, storedBefore } from './api/bookings.js';
import { challengeRead } from './api/bot-check.js';
import { BOOKING_ROUTES } from './pages/booking-page.js';
import type { ResolvedConfig } from './config.js';
import { health, live, ready } from './api/health.js';
import { operatorRoutes } from './pages/operator.js';
import { CHUNK_ROUTE, PATHS } from './paths.js';
import { cachedRead, type CacheTier, type ReadSpec } from './api/read-through.js';
import {
  availability,
  availabilityFastRead,
  bookingRules,
  marketingPreferences,
  offers,
  venueList,
  venueRecord,
  type TieredRead,
} from './api/reads.js';
import { profileRead } from './api/profile.js';
import { manageCancel, manageRead } from './api/manage.js';
import { MANAGE_ROUTES } from './pages/manage-page.js';
import { handOff, returnBridge } from './api/return-bridge.js';
import { scriptFiles } from './api/script.js';
import { returnPageResponse } from './pages/return-page.js';
import { siteCheck } from './pages/wordpress/wordpress.js';

/** A method a route answers; HEAD is answered from the GET handler (files only). */
export type RouteMethod = 'GET' | 'POST' | 'HEAD';

type Answer = (ctx: ProxyContext, c: Context) => Response | Promise<Response>;

/** What a booking's early refusal says of `stored` (api/bookings.ts `storedBefore`). */
export type StoredBefore = (ctx: ProxyContext, request: Request) => Promise<false | 'unknown'>;

/**
 * What a row says beyond its handler:
 * - `booking`: the route makes bookings; a refusal before it ran (limit, body size, a crash) says
 *   whether an earlier booking under the request's key may be stored, as this function tells;
 * - `fast`: the Node fast path may answer it: `memo` a repeat of an answer the app just sent from
 *   its cache, `relay` also a first read, run here (pipeline/fast-path.ts);
 * - `anySite`: a GET with no effect that any site may start (the return bridge);
 * - `label`: the route label of its metrics, when not its path (the widget's chunks share one).
 */
export interface RoutePolicy {
  booking?: StoredBefore;
  fast?: 'memo' | 'relay';
  anySite?: boolean;
  label?: string;
  /**
   * For `fast: 'relay'`: the read of a GET with these path segments and query, when its checks are
   * simple enough for the fast path (a configured venue); null or a throw leaves it to the app.
   */
  fastRead?: (ctx: ProxyContext, params: Record<string, string>, query: Record<string, string>) => ReadSpec | null;
  /** The hosted booking site's pages may reach it, their opaque `Origin: null` too (the return bridge). */
  fromBookingSite?: boolean;
  /** An operator's page, and whether a scraper asks for it (a bearer challenge, not a password prompt). */
  operator?: { scrape: boolean };
  /**
   * A page (not a file, a probe or the scrape), in the form its refusals take: counted against the
   * client's page limit (pipeline/hono.ts `pageLimits`), and under the Host rule as the API is, since
   * a page names the proxy's own address (guards/request.ts `hostGuard`).
   */
  page?: 'html' | 'json';
}

/**
 * One route. A read route gives the upstream read its request asks for and is run through the
 * cache: with its row's tier, or with the tier its query picks (`by query`). Any other route
 * answers itself and is never cached.
 */
export type Route = { path: string; methods: readonly RouteMethod[] } & RoutePolicy &
  (
    | { cache: CacheTier; read: (ctx: ProxyContext, c: Context) => Promise<TieredRead> }
    | { cache: 'by query'; read: (ctx: ProxyContext, c: Context) => Promise<ReadSpec> }
    | { cache: 'none'; answer: Answer }
  );

/** The return bridge's routes, with the page that tells a guest a return that cannot land. */
const RETURN = returnBridge(returnPageResponse);

/** The API's routes. */
const API_ROUTES: readonly Route[] = [
  {
    path: PATHS.availability,
    methods: ['GET', 'POST'],
    cache: 'by query',
    read: availability,
    fast: 'relay',
    fastRead: availabilityFastRead,
  },
  { path: PATHS.rules, methods: ['GET', 'POST'], cache: 'early', read: bookingRules, fast: 'memo' },
  { path: PATHS.offers, methods: ['GET'], cache: 'by query', read: offers, fast: 'memo' },
  { path: PATHS.marketingPreferences, methods: ['GET'], cache: 'static', read: marketingPreferences, fast: 'memo' },
  { path: PATHS.venue, methods: ['GET'], cache: 'static', read: venueRecord, fast: 'memo' },
  { path: PATHS.profile, methods: ['GET'], cache: 'none', answer: profileRead },
  { path: PATHS.challenge, methods: ['GET'], cache: 'none', answer: challengeRead },
  { path: PATHS.venues, methods: ['GET'], cache: 'static', read: venueList, fast: 'memo' },
  { path: PATHS.bookings, methods: ['POST'], cache: 'none', answer: book, booking: storedBefore },
  { path: PATHS.return, methods: ['GET'], cache: 'none', answer: RETURN.get, anySite: true, fromBookingSite: true },
  { path: PATHS.return, methods: ['POST'], cache: 'none', answer: RETURN.post, fromBookingSite: true },
  { path: PATHS.handoff, methods: ['GET'], cache: 'none', answer: handOff },
  // A guest's own booking, by its manage link's token: the one write is the cancel.
  { path: PATHS.manage, methods: ['GET'], cache: 'none', answer: manageRead },
  { path: PATHS.manageCancel, methods: ['POST'], cache: 'none', answer: manageCancel },
  { path: PATHS.health, methods: ['GET'], cache: 'none', answer: health },
  { path: PATHS.live, methods: ['GET'], cache: 'none', answer: live },
  { path: PATHS.ready, methods: ['GET'], cache: 'none', answer: ready },
  { path: PATHS.siteCheck, methods: ['GET'], cache: 'none', answer: siteCheck, page: 'json' },
];

/**
 * Every route of a proxy: the widget's files first when the host has the bundle (served with
 * their own HTTP caching, GET and HEAD only), then the API's, the booking pages, then the operator's pages that
 * `config` serves (pages/operator.ts).
 */
export function routeTable(
  widget?: {
    script?: Uint8Array<ArrayBuffer>;
    chunks?: Record<string, Uint8Array<ArrayBuffer>>;
  },
  config?: Pick<ResolvedConfig, 'operatorPages'>,
): Route[] {
  const files: Route[] = widget?.script
    ? scriptFiles(widget.script, widget.chunks).map((file) => ({
        path: file.path,
        methods: ['GET', 'HEAD'],
        cache: 'none',
        answer: (_ctx, c) => file.answer(c),
        ...(file.chunk ? { label: CHUNK_ROUTE } : {}),
      }))
    : [];
  const operator: Route[] = config
    ? operatorRoutes(config).map(({ path, method, answer, page }) => ({
        path,
        methods: [method ?? 'GET'],
        cache: 'none',
        answer,
        operator: { scrape: path === PATHS.metrics },
        ...(page ? { page: 'html' as const } : {}),
      }))
    : [];
  // The booking pages are for guests: open to anyone, like the widget's files.
  const booking: Route[] = BOOKING_ROUTES.map((route) => ({
    path: route.path,
    methods: ['GET'],
    cache: 'none',
    answer: route.answer,
    ...(route.page ? { page: 'html' as const } : {}),
  }));
  // The guests' manage pages: the cancel form's POST is their one write (same origin only).
  const manage: Route[] = MANAGE_ROUTES.map((route) => ({
    path: route.path,
    methods: route.methods,
    cache: 'none',
    answer: route.answer,
    page: 'html' as const,
  }));
  return [...files, ...API_ROUTES, ...booking, ...manage, ...operator];
}

/** The Hono handler of a route. */
export function handlerOf(route: Route, ctx: ProxyContext): (c: Context) => Response | Promise<Response> {
  switch (route.cache) {
    case 'none':
      return (c) => route.answer(ctx, c);
    case 'by query':
      return async (c) => cachedRead(ctx, c, await route.read(ctx, c));
    default: {
      const tier = route.cache;
      return async (c) => cachedRead(ctx, c, { ...(await route.read(ctx, c)), tier });
    }
  }
}

/** The methods of every path, in table order (a path may span rows), for the 405 answers. */
export function methodsByPath(routes: readonly Route[]): Map<string, RouteMethod[]> {
  const methods = new Map<string, RouteMethod[]>();
  for (const route of routes) methods.set(route.path, [...(methods.get(route.path) ?? []), ...route.methods]);
  return methods;
}

/** The rows that make bookings, by path (their refusals report `stored`). */
export function bookingRoutes(routes: readonly Route[]): Map<string, StoredBefore> {
  return new Map(routes.flatMap((route) => (route.booking ? [[route.path, route.booking] as const] : [])));
}
