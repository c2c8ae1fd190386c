/**
 * The credential-holding proxy: a Fetch handler (Hono) that is an allow-list, not a pipe. It lets
 * through only what a public booking widget needs, validates everything before the upstream sees
 * it, adds `Authorization: APPID:KEY` upstream, and spends the App ID's shared hourly quota
 * carefully (per-client limits, a read cache with coalescing, backing off when the upstream is
 * short). It imports no `node:` module, so the same handler runs in Node, in an edge runtime
 * (worker.ts), inside Vite's dev server and in tests.
 *
 * `createProxy` only assembles named parts, each read from one resolved config (config.ts): the
 * state, the upstream client, the route context, the fast path, and the Hono app with its
 * middleware (middleware.ts) and the route table (routes/table.ts).
 *
 * Order of the guards, cheapest first: address and method → Host (loopback only without a public
 * URL) → the calling site (Origin, Referer) → CORS → per-client rate limit → body size → route
 * (parameter validation, venue allow-list) → cache → per-client miss limit and the upstream budget
 * (guards/budget.ts) → upstream.
 */
import { Hono, type ExecutionContext } from 'hono';
import { compress } from 'hono/compress';
import { errorResponse } from './core/envelope.js';
import { urlOf } from './core/url.js';
import { resolveConfig, type ProxyConfig, type ResolvedConfig } from './config.js';
import { availabilityRelay, CacheKeys, FastPath, rememberSent, type FastRead } from './fast-path.js';
import { UpstreamBudget } from './guards/budget.js';
import { TokenThrottle } from './guards/operator.js';
import type { GuardSettings } from './guards/request.js';
import { siteRule } from './guards/request-site.js';
import { apiCors, bodySize, guards, limits, requestLog, securityHeaders } from './middleware.js';
import { bookingValid, storedBefore } from './routes/bookings.js';
import { asProxyError, createRouteContext, type ProxyContext } from './routes/context.js';
import { operatorRoutes } from './routes/operator.js';
import { handlerOf, methodsByPath, routeTable, type Route } from './routes/table.js';
import { MemoryState } from './state/memory.js';
import { RecentOrigins } from './state/recent-origins.js';
import type { ProxyState } from './state/types.js';
import { Upstream } from './upstream/client.js';
import { fetchTransport } from './upstream/transport.js';

export type { ProxyConfig } from './config.js';

/** A running proxy: its Fetch handler, plus its upstream client, state and fast path for hosts and tests. */
export interface ProxyApp {
  /**
   * `env` is the host's per-request context (Node's incoming message, a Worker's env); a Worker
   * also passes its `ExecutionContext`, so that background work (a stale read's refresh) outlives
   * the answer.
   */
  fetch(request: Request, env?: unknown, executionCtx?: ExecutionContext): Promise<Response>;
  readonly upstream: Upstream;
  /** Where the proxy keeps what it remembers between requests (memory unless a shared store is given). */
  readonly state: ProxyState;
  /** Answers repeated cached reads without the app, for hosts that can use it (fast-path.ts). */
  readonly fast: FastPath;
}

/** The upstream client of a proxy; only a shared state has a quota to share. */
function upstreamOf(config: ResolvedConfig): Upstream {
  return new Upstream({
    base: config.upstreamBase,
    appId: config.appId,
    apiKey: config.apiKey,
    transport: config.transport ?? fetchTransport(config.fetch ?? ((request) => fetch(request))),
    timeoutMs: config.timeoutMs,
    logger: config.logger,
    now: config.now,
    lowWater: config.budget.lowWater,
    state: config.state,
    metrics: config.metrics,
  });
}

/** The store states the `store_state` gauge names, one of them 1 at a time. */
const STORE_STATES = ['memory', 'ok', 'degraded', 'down'] as const;

/**
 * Sets, whenever the metrics are read, the gauges of what is read rather than counted: the
 * upstream's quota as it last reported it (absent before it said), its back-off, the store's state.
 */
function sampleGauges(config: ResolvedConfig, upstream: Upstream, state: ProxyState): void {
  const { metrics } = config;
  metrics.sample(() => {
    const { limit, remaining, resetAt } = upstream.quota;
    metrics.set('upstream_ratelimit_limit', {}, limit);
    metrics.set('upstream_ratelimit_remaining', {}, remaining);
    metrics.set('upstream_ratelimit_reset_timestamp_seconds', {}, resetAt === null ? null : Math.round(resetAt / 1000));
    metrics.set('upstream_backoff', {}, upstream.blocked() ? 1 : 0);
    const store = state.health();
    for (const name of STORE_STATES) metrics.set('store_state', { state: name }, name === store ? 1 : 0);
  });
}

/** What the Hono app is made of besides the route context. */
interface AppParts {
  routes: readonly Route[];
  guardSettings: GuardSettings;
  allowOrigin: (origin: string) => string | null;
  /** The proxy's own state (the limits count in it directly). */
  state: ProxyState;
  recentOrigins: RecentOrigins;
}

/** The Hono app: its error answers, the middleware in guard order, then the route table. */
function honoApp(ctx: ProxyContext, { routes, guardSettings, allowOrigin, state, recentOrigins }: AppParts): Hono {
  const { config, logger } = ctx;
  const stored = (request: Request) => storedBefore(ctx, request);
  const app = new Hono();
  app.onError((thrown, c) => {
    const booking = c.req.method === 'POST' && urlOf(c.req.raw).pathname === '/api/bookings';
    const error = asProxyError(thrown, booking, logger);
    return errorResponse(c.req.raw, error.status, error.message, error.options);
  });
  app.notFound((c) =>
    errorResponse(c.req.raw, 404, 'Not found', {
      errors: [{ code: 'not_found', message: 'No such route', fields: [] }],
    }),
  );
  app.use('*', requestLog(logger, config.now, config.metrics));
  app.use('*', securityHeaders);
  // HTML and JSON go gzipped to a client that accepts it, as the widget's files do (those are
  // compressed once, at start, and skip this: they carry their Content-Encoding). The Node fast
  // path does the same to the availability answers it sends (fast-path.ts, `encoded`).
  if (config.compress !== false) app.use('*', compress({ encoding: 'gzip' }));
  app.use(
    '*',
    guards(guardSettings, logger, {
      metrics: config.metrics,
      recentOrigins,
      peerAddress: config.peerAddress,
      clientOf: ctx.clientOf,
    }),
  );
  app.use('/api/*', apiCors(allowOrigin));
  // The body's size is checked first: the limits read a booking's body to tell an invalid one.
  app.use('/api/*', bodySize(config.bodyLimit, stored, config.metrics));
  app.use(
    '/api/*',
    limits(config, state, ctx.clientOf, stored, (c) => bookingValid(ctx, c)),
  );
  for (const route of routes) {
    const handler = handlerOf(route, ctx);
    for (const method of route.methods) if (method !== 'HEAD') app.on(method, route.path, handler);
  }
  // A known path with another method gets 405 with `Allow`, from the same table.
  for (const [path, methods] of methodsByPath(routes)) {
    app.all(path, (c) =>
      errorResponse(c.req.raw, 405, `Use ${methods.join(' or ')} here`, { headers: { allow: methods.join(', ') } }),
    );
  }
  return app;
}

/**
 * Creates the proxy's Fetch handler. Its state (cache, limits, idempotency, quota) is
 * `config.state`, or this instance's memory.
 */
export function createProxy(input: ProxyConfig): ProxyApp {
  const config = resolveConfig(input);
  const state = config.state ?? new MemoryState({ ttlMs: config.cacheTtlMs, staleMs: config.staleMs, now: config.now });
  const upstream = upstreamOf(config);
  const routes = routeTable({ script: config.widgetScript, chunks: config.widgetChunks }, config);
  const site = siteRule(config);
  const { token, loopback } = config.operatorPages;
  const guardSettings: GuardSettings = {
    files: new Set(routes.filter((route) => route.methods.includes('HEAD')).map((route) => route.path)),
    publicUrl: config.publicOrigin !== null,
    siteAllowed: site.siteAllowed,
    operator: {
      paths: new Set(operatorRoutes(config).map((route) => route.path)),
      token,
      loopback,
      throttle: new TokenThrottle(config.now),
    },
  };
  const recentOrigins = new RecentOrigins(config.now);
  sampleGauges(config, upstream, state);
  const keys = new CacheKeys();
  // The fast path runs the availability route's own read, which needs the route context below.
  let relay: (url: URL) => FastRead | null = () => null;
  const fast = new FastPath({
    state,
    logger: config.logger,
    now: config.now,
    guards: guardSettings,
    limits: config,
    clientKey: config.clientKey,
    allowOrigin: site.allowOrigin,
    relay: (url) => relay(url),
    metrics: config.metrics,
    recentOrigins,
  });
  const ctx = createRouteContext({
    config,
    upstream,
    state: keys.noting(state),
    budget: new UpstreamBudget(state, config.budget, config.metrics),
    recentOrigins,
    onSent: rememberSent(fast, keys, config),
  });
  relay = availabilityRelay(ctx, keys);
  const app = honoApp(ctx, { routes, guardSettings, allowOrigin: site.allowOrigin, state, recentOrigins });
  return {
    upstream,
    state,
    fast,
    fetch: (request, env, executionCtx) => Promise.resolve(app.fetch(request, env, executionCtx)),
  };
}
