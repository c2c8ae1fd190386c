/**
 * The proxy's Hono middleware, in the order app.ts mounts them: one log line per request, the
 * security headers, the guard list (guards/request.ts), CORS, the per-client limits
 * (guards/limits.ts) and the body size. Each is a thin adapter: the decisions are the guards' and
 * the limits', which the Node fast path runs too.
 *
 * Headers are set after the route has answered, as layers (core/headers.ts). `hono/cors` writes
 * its headers before `next()`, which makes Hono create a placeholder response and then rebuild
 * the route's response around it (`new Response(res.body, res)`): the body becomes a stream, and
 * Node's adapter loses its fast path for string bodies — a cached availability answer cost three
 * times a `/healthz`. Setting them afterwards keeps the route's response as it was built.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { routePath } from 'hono/route';
import { errorResponse } from '../core/envelope.js';
import { addLayer, applyLayer, bodySizeOf, headerOf, SECURITY_LAYER, type Layer } from '../core/headers.js';
import type { Logger } from '../core/log.js';
import type { Metrics } from '../core/metrics.js';
import type { RequestRecorder } from './recorder.js';
import { API_CORS, corsLayer, VARY_ENCODING } from './steps.js';
import type { ProxyContext } from '../context.js';
import { acceptsGzip } from '../core/encoding.js';
import { bookingRoutes, type Route } from '../routes.js';
import { urlOf } from '../core/url.js';
import type { ResolvedConfig } from '../config.js';
import { clientLimit, LIMIT_MESSAGE, limitHeaders, limitReason, pageLimit } from '../guards/limits.js';
import { busyPageResponse } from '../pages/page.js';
import { firstRefusal, noteSite, type GuardRequest, type GuardSettings } from '../guards/request.js';
import type { RecentOrigins } from '../state/recent-origins.js';
import type { ProxyState } from '../state/types.js';

/** The route label of a request: the template it matched (a bounded set), or `unmatched`. */
export function routeLabel(c: Context): string {
  const path = routePath(c, -1);
  return !path || path.endsWith('*') ? 'unmatched' : path;
}

/**
 * One structured line per request (method, path with ids only and never the query, status,
 * timing, cache), and the request's count and duration in the metrics, by route label: the
 * pipeline's recorder, which the fast path records with too.
 */
export function requestLog(recorder: RequestRecorder, now: () => number, labels: RouteLabels): MiddlewareHandler {
  return async (c, next) => {
    const started = now();
    recorder.begin();
    await next();
    recorder.record({
      method: c.req.method,
      path: urlOf(c.req.raw).pathname,
      route: labels(c),
      status: c.res.status,
      started,
      cache: headerOf(c.res, 'x-cache'),
      requestBytes: Number(c.req.header('content-length')) || 0,
      responseBytes: bodySizeOf(c.res),
    });
  };
}

/** The route label of a request, from the table (a chunk's shared label) or the matched template. */
export type RouteLabels = (c: Context) => string;

/** The route labels of a table: a row's `label` where it has one, else its template. */
export function routeLabels(routes: readonly Route[]): RouteLabels {
  const labelled = new Map(routes.flatMap((route) => (route.label ? [[route.path, route.label] as const] : [])));
  return (c) => {
    const route = routeLabel(c);
    return labelled.get(route) ?? route;
  };
}

/**
 * HTML and JSON gzipped for a client that accepts gzip (`hono/compress`), and `Vary:
 * Accept-Encoding` on every answer. The `Vary` goes in as a layer, built into the route's answer
 * with the other headers, so an answer to a client that takes no gzip stays as the route built it:
 * `hono/compress` would set it with `c.header`, which rebuilds the answer around its body (a
 * stream then, which Node's adapter writes more slowly, and whose size the metrics cannot read).
 */
export function compression(): MiddlewareHandler {
  const gzip = compress({ encoding: 'gzip' });
  return async (c, next) => {
    addLayer(c, VARY_ENCODING);
    const layered = async () => {
      await next();
      applyLayer(c.res, VARY_ENCODING);
    };
    return acceptsGzip(c.req.header('accept-encoding')) ? gzip(c, layered) : layered();
  };
}

/**
 * Security headers on every answer, where the route did not set its own (the widget script sets
 * its own Cross-Origin-Resource-Policy).
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  addLayer(c, SECURITY_LAYER);
  await next();
  applyLayer(c.res, SECURITY_LAYER);
};

/** A `Request` as the guards read it, with the peer address the host passed along. */
function guardRequestOf(request: Request, peer?: string, client?: () => string): GuardRequest {
  return {
    href: request.url,
    url: urlOf(request),
    method: request.method,
    header: (name) => request.headers.get(name),
    headerNames: () => request.headers.keys(),
    ...(peer === undefined ? {} : { peer }),
    ...(client === undefined ? {} : { client }),
  };
}

/** What the guard middleware reports to, besides the log. */
export interface GuardWatch {
  metrics: Metrics;
  recentOrigins: RecentOrigins;
  /** The peer address of a request, from the host's per-request context. */
  peerAddress?: (env: unknown) => string | undefined;
  /** The client's rate-limit key (throttles wrong operator tokens). */
  clientOf?: (c: Context) => string;
}

/**
 * Runs the guard list; a refusal is answered in the envelope, counted, and logged when the
 * operator must act. The calling site of the widget's and the API's requests is noted for the
 * embed studio either way.
 */
export function guards(settings: GuardSettings, logger: Logger, watch: GuardWatch): MiddlewareHandler {
  return async (c, next) => {
    const { clientOf } = watch;
    const request = guardRequestOf(c.req.raw, watch.peerAddress?.(c.env), clientOf && (() => clientOf(c)));
    noteSite(request, settings, watch.recentOrigins);
    const refusal = firstRefusal(request, settings);
    if (!refusal) return next();
    watch.metrics.refused(refusal.reason);
    if (refusal.log) logger.log(refusal.log);
    return errorResponse(c.req.raw, refusal.status, refusal.message, refusal.options);
  };
}

/**
 * What a booking's early refusal says of `stored`, from the row that makes it (routes.ts
 * `booking`); undefined for a request that is no booking.
 */
export type BookingOf = (c: Context) => ((request: Request) => Promise<false | 'unknown'>) | undefined;

/** The booking rows of a table as a `BookingOf`. */
export function bookingOf(routes: readonly Route[], ctx: ProxyContext): BookingOf {
  const bookings = bookingRoutes(routes);
  return (c) => {
    if (c.req.method !== 'POST') return undefined;
    const stored = bookings.get(urlOf(c.req.raw).pathname);
    return stored && ((request) => stored(ctx, request));
  };
}

/**
 * The per-client limits (guards/limits.ts) on every API request but a preflight, with their
 * `X-RateLimit-*` headers on the answer; a refusal is a 429. A booking the route will refuse as
 * invalid (`bookingValid` false: a 400) counts as a request only, never against the client's
 * bookings.
 */
export function limits(
  config: ResolvedConfig,
  state: Pick<ProxyState, 'hit'>,
  clientOf: (c: Context) => string,
  bookingOf: BookingOf,
  bookingValid: (c: Context) => Promise<boolean> = async () => true,
): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    const storedBefore = bookingOf(c);
    const countedAsBooking = storedBefore !== undefined && (await bookingValid(c));
    const decision = await clientLimit(state, config, clientOf(c), countedAsBooking);
    const headers = limitHeaders(decision, config, countedAsBooking, config.now());
    if (!decision.allowed) {
      config.metrics.refused(limitReason(decision));
      return errorResponse(c.req.raw, 429, LIMIT_MESSAGE, {
        headers,
        ...(storedBefore ? { stored: await storedBefore(c.req.raw) } : {}),
      });
    }
    const layer: Layer = { mode: 'set', headers };
    addLayer(c, layer);
    await next();
    applyLayer(c.res, layer);
  };
}

/**
 * The per-client page limit (guards/limits.ts `pageLimit`) before a page's handler (routes.ts
 * `page`), with its headers on the answer. Over it, 429 in the page's own form: the busy page
 * for a page people open (in the guest's language), the envelope for a JSON one (`/site-check`).
 */
export function pageLimits(
  config: ResolvedConfig,
  state: Pick<ProxyState, 'hit'>,
  clientOf: (c: Context) => string,
  form: 'html' | 'json',
): MiddlewareHandler {
  return async (c, next) => {
    const decision = await pageLimit(state, config, clientOf(c));
    const headers = limitHeaders(decision, config, false, config.now());
    if (!decision.allowed) {
      config.metrics.refused(limitReason(decision));
      return form === 'html'
        ? busyPageResponse(c.req.raw, headers)
        : errorResponse(c.req.raw, 429, LIMIT_MESSAGE, { headers });
    }
    const layer: Layer = { mode: 'set', headers };
    addLayer(c, layer);
    await next();
    applyLayer(c.res, layer);
  };
}

/**
 * The body size limit (413). Only POST carries a body; looking for one on a GET would make Node's
 * adapter build a full Request per read, which halves the throughput of cached answers.
 */
export function bodySize(maxSize: number, bookingOf: BookingOf, metrics: Metrics): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize,
    onError: async (c) => {
      metrics.refused('body_too_large');
      const storedBefore = bookingOf(c);
      return errorResponse(
        c.req.raw,
        413,
        'The request body is too large',
        storedBefore ? { stored: await storedBefore(c.req.raw) } : {},
      );
    },
  });
  return (c, next) => (c.req.method === 'POST' ? limit(c, next) : next());
}

/**
 * CORS for the configured origins (the origin rule's `allowOrigin`), as the widget needs it
 * (pipeline/steps.ts `API_CORS`): its headers on every answer, a preflight (`OPTIONS`) answered here with 204.
 */
export function apiCors(allowOrigin: (origin: string) => string | null): MiddlewareHandler {
  return async (c, next) => {
    const origin = allowOrigin(c.req.header('origin') || '');
    if (c.req.method === 'OPTIONS') {
      const headers = new Headers();
      if (origin) headers.set('Access-Control-Allow-Origin', origin);
      headers.set('Access-Control-Expose-Headers', API_CORS.exposeHeaders);
      headers.append('Vary', 'Origin');
      headers.set('Access-Control-Max-Age', API_CORS.maxAge);
      headers.set('Access-Control-Allow-Methods', API_CORS.allowMethods);
      headers.set('Access-Control-Allow-Headers', API_CORS.allowHeaders);
      headers.append('Vary', 'Access-Control-Request-Headers');
      return new Response(null, { headers, status: 204, statusText: 'No Content' });
    }
    const layer = corsLayer(origin);
    addLayer(c, layer);
    await next();
    applyLayer(c.res, layer);
  };
}
