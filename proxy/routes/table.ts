/**
 * The proxy's routes as one declarative table: each path with its methods, how its answers are
 * shared (the cache tier of its reads) and what answers it. app.ts registers every row with Hono
 * and answers every other method of a row's path with 405 and `Allow` from the same row, and the
 * method guard learns the widget's files from it, so a route is declared once.
 */
import type { Context } from 'hono';
import type { ProxyContext } from './context.js';
import { book } from './bookings.js';
import { BOOKING_ROUTES } from './booking-page.js';
import type { ResolvedConfig } from '../config.js';
import { health, live, ready } from './health.js';
import { operatorRoutes } from './operator.js';
import { cachedRead, type CacheTier, type ReadSpec } from './read-through.js';
import {
  availability,
  bookingRules,
  marketingPreferences,
  offers,
  venueList,
  venueRecord,
  type TieredRead,
} from './reads.js';
import { returnGet, returnPost } from './return-bridge.js';
import { scriptFiles } from './script.js';
import { siteCheck } from './wordpress.js';

/** A method a route answers; HEAD is answered from the GET handler (files only). */
export type RouteMethod = 'GET' | 'POST' | 'HEAD';

type Answer = (ctx: ProxyContext, c: Context) => Response | Promise<Response>;

/**
 * One route. A read route gives the upstream read its request asks for and is run through the
 * cache: with its row's tier, or with the tier its query picks (`by query`). Any other route
 * answers itself and is never cached.
 */
export type Route = { path: string; methods: readonly RouteMethod[] } & (
  | { cache: CacheTier; read: (ctx: ProxyContext, c: Context) => Promise<TieredRead> }
  | { cache: 'by query'; read: (ctx: ProxyContext, c: Context) => Promise<ReadSpec> }
  | { cache: 'none'; answer: Answer }
);

/** The API's routes. */
const API_ROUTES: readonly Route[] = [
  { path: '/api/venues/:venue/booking-availability', methods: ['GET', 'POST'], cache: 'by query', read: availability },
  { path: '/api/venues/:venue/booking-rules', methods: ['GET', 'POST'], cache: 'early', read: bookingRules },
  { path: '/api/venues/:venue/offers', methods: ['GET'], cache: 'by query', read: offers },
  {
    path: '/api/venues/:venue/marketing-preferences',
    methods: ['GET'],
    cache: 'static',
    read: marketingPreferences,
  },
  { path: '/api/venues/:venue', methods: ['GET'], cache: 'static', read: venueRecord },
  { path: '/api/venues', methods: ['GET'], cache: 'static', read: venueList },
  { path: '/api/bookings', methods: ['POST'], cache: 'none', answer: book },
  { path: '/api/return', methods: ['GET'], cache: 'none', answer: returnGet },
  { path: '/api/return', methods: ['POST'], cache: 'none', answer: returnPost },
  { path: '/healthz', methods: ['GET'], cache: 'none', answer: health },
  { path: '/livez', methods: ['GET'], cache: 'none', answer: live },
  { path: '/readyz', methods: ['GET'], cache: 'none', answer: ready },
  { path: '/site-check', methods: ['GET'], cache: 'none', answer: siteCheck },
];

/**
 * Every route of a proxy: the widget's files first when the host has the bundle (served with
 * their own HTTP caching, GET and HEAD only), then the API's, the booking pages, then the operator's pages that
 * `config` serves (routes/operator.ts).
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
      }))
    : [];
  const operator: Route[] = config
    ? operatorRoutes(config).map(({ path, answer }) => ({ path, methods: ['GET'], cache: 'none', answer }))
    : [];
  // The booking pages are for guests: open to anyone, like the widget's files.
  const booking: Route[] = BOOKING_ROUTES.map(({ path, answer }) => ({
    path,
    methods: ['GET'],
    cache: 'none',
    answer,
  }));
  return [...files, ...API_ROUTES, ...booking, ...operator];
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
