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
 * middleware (pipeline/hono.ts) and the route table (routes.ts).
 *
 * Order of the guards, cheapest first: address and method → Host (loopback only without a public
 * URL) → the calling site (Origin, Referer) → CORS → per-client rate limit → body size → route
 * (parameter validation, venue allow-list) → cache → per-client miss limit and the upstream budget
 * (guards/budget.ts) → upstream.
 */
import { Hono, type ExecutionContext } from 'hono';
import { errorResponse } from './core/envelope.js';
import { onceInAWhile } from './core/log.js';
import { resolveConfig, type ProxyConfig, type ResolvedConfig } from './config.js';
import { FastPath } from './pipeline/fast-path.js';
import { UpstreamBudget } from './guards/budget.js';
import type { GuardSettings } from './guards/request.js';
import { siteRule } from './guards/request-site.js';
import {
  apiCors,
  bodySize,
  bookingOf,
  compression,
  guards,
  limits,
  pageLimits,
  requestLog,
  routeLabels,
  securityHeaders,
  type BookingOf,
} from './pipeline/hono.js';
import { bookingValid } from './api/bookings.js';
import { keepCount } from './api/booking-source.js';
import { RequestRecorder } from './pipeline/recorder.js';
import { Sequence } from './pipeline/sequence.js';
import { guardSettings } from './pipeline/steps.js';
import { asProxyError, createRouteContext, type ProxyContext } from './context.js';
import { API_PREFIX } from './paths.js';
import { handlerOf, methodsByPath, routeTable, type Route } from './routes.js';
import { AnswerMemo } from './state/answer-memo.js';
import { MemoryState } from './state/memory.js';
import { MAX_ORIGINS, RecentOrigins } from './state/recent-origins.js';
import { AllowedSites } from './state/allowed-sites.js';
import { MemoryRecords, type Records } from './state/records.js';
import { SharedState } from './state/shared.js';
import { VenueProfiles } from './state/venue-profiles.js';
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
  /** Answers repeated cached reads without the app, for hosts that can use it (pipeline/fast-path.ts). */
  readonly fast: FastPath;
  /** What the venue keeps with the proxy (state/records.ts); a host closes it at shutdown. */
  readonly records: Records;
}

/** Where the venue's records live: as the host says, else in the shared store when it keeps tables, else here. */
function recordsOf(config: ResolvedConfig, state: ProxyState): Records {
  return config.records ?? (state instanceof SharedState ? state.records() : null) ?? new MemoryRecords();
}

/** Starts off the venues of the profile seed that have none yet; a failure is logged, not fatal. */
function seedProfiles(config: ResolvedConfig, profiles: VenueProfiles): void {
  if (!config.profileSeed) return;
  const venues = new Set(config.venues);
  profiles
    .seed(config.profileSeed, (venue) => venues.has(venue))
    .then((seeded) => seeded && config.logger.log({ level: 'info', msg: 'venue profiles seeded', seeded }))
    .catch((error: unknown) =>
      config.logger.log({ level: 'error', msg: 'venue profiles not seeded', error: (error as Error).message }),
    );
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

/** The value of a quota gauge before the upstream has said: present from start, so an alert has data. */
export const NOT_YET_KNOWN = -1;

/**
 * Sets, whenever the metrics are read, the gauges of what is read rather than counted: the
 * upstream's quota as it last reported it (`NOT_YET_KNOWN` before it said), its back-off, the
 * store's state, and the build.
 */
function sampleGauges(config: ResolvedConfig, upstream: Upstream, state: ProxyState): void {
  const { metrics } = config;
  metrics.sample(() => {
    const { limit, remaining, resetAt } = upstream.quota;
    metrics.set('build_info', { version: config.version }, 1);
    metrics.set('upstream_ratelimit_limit', {}, limit ?? NOT_YET_KNOWN);
    metrics.set('upstream_ratelimit_remaining', {}, remaining ?? NOT_YET_KNOWN);
    metrics.set(
      'upstream_ratelimit_reset_timestamp_seconds',
      {},
      resetAt === null ? NOT_YET_KNOWN : Math.round(resetAt / 1000),
    );
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
  recorder: RequestRecorder;
}

/** The Hono app: its error answers, the middleware in guard order, then the route table. */
function honoApp(ctx: ProxyContext, { routes, guardSettings, allowOrigin, state, recorder }: AppParts): Hono {
  const { config, logger } = ctx;
  const booking: BookingOf = bookingOf(routes, ctx);
  const api = `${API_PREFIX}/*`;
  const app = new Hono();
  app.onError((thrown, c) => {
    const error = asProxyError(thrown, booking(c) !== undefined, logger);
    return errorResponse(c.req.raw, error.status, error.message, error.options);
  });
  app.notFound((c) =>
    errorResponse(c.req.raw, 404, 'Not found', {
      errors: [{ code: 'not_found', message: 'No such route', fields: [] }],
    }),
  );
  app.use('*', requestLog(recorder, config.now, routeLabels(routes)));
  app.use('*', securityHeaders);
  // HTML and JSON go gzipped to a client that accepts it, as the widget's files do (those are
  // compressed once, at start, and skip this: they carry their Content-Encoding). The Node
  // entry's sequence does the same to the reads it sends (pipeline/sequence.ts, core/encoding.ts `encoded`).
  if (config.compress) app.use('*', compression());
  // A guard's line tells the operator what to set; a scanner repeating a refused request gets it
  // written once a minute, not once a request.
  app.use(
    '*',
    guards(guardSettings, onceInAWhile(logger, config.now), {
      metrics: config.metrics,
      recentOrigins: ctx.recentOrigins,
      peerAddress: config.peerAddress,
      clientOf: ctx.clientOf,
    }),
  );
  app.use(api, apiCors(allowOrigin));
  // The body's size is checked first: the limits read a booking's body to tell an invalid one.
  app.use(api, bodySize(config.bodyLimit, booking, config.metrics));
  app.use(
    api,
    limits(config, state, ctx.clientOf, booking, (c) => bookingValid(ctx, c)),
  );
  for (const route of routes) {
    const handler = handlerOf(route, ctx);
    // A page counts against the client's page limit before it is drawn (`page` of its row).
    const limit = route.page && pageLimits(config, state, ctx.clientOf, route.page);
    for (const method of route.methods) {
      if (method === 'HEAD') continue;
      if (limit) app.on(method, route.path, limit, handler);
      else app.on(method, route.path, handler);
    }
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
 * `config.state`, or this instance's memory. Everything is built from the route table: the
 * guards' settings, the Hono app's routes and the fast path's reads.
 */
export function createProxy(input: ProxyConfig): ProxyApp {
  const config = resolveConfig(input);
  const state = config.state ?? new MemoryState({ ttlMs: config.cacheTtlMs, staleMs: config.staleMs, now: config.now });
  const upstream = upstreamOf(config);
  const routes = routeTable({ script: config.widgetScript, chunks: config.widgetChunks }, config);
  const records = recordsOf(config, state);
  const profiles = new VenueProfiles(records, config.logger);
  seedProfiles(config, profiles);
  const allowedSites = new AllowedSites(records, config.logger, config.now);
  void allowedSites.start();
  const site = siteRule(
    config,
    new Set(routes.filter((route) => route.fromBookingSite).map((route) => route.path)),
    allowedSites,
  );
  const settings = guardSettings(routes, config, site.siteAllowed);
  // An allowed site's page views are counted for /status too, where counts outlive this instance.
  const counted = { records, logger: config.logger, now: config.now };
  const recentOrigins = new RecentOrigins(config.now, MAX_ORIGINS, (origin) => {
    void keepCount(counted, { venue: null, source: origin, outcome: 'view' });
  });
  sampleGauges(config, upstream, state);
  const ctx = createRouteContext({
    config,
    upstream,
    state,
    budget: new UpstreamBudget(state, config.budget, config.metrics),
    recentOrigins,
    answers: new AnswerMemo(config.now),
    records,
    profiles,
    allowedSites,
  });
  const recorder = new RequestRecorder(config.logger, config.metrics, config.now);
  const sequence = new Sequence(ctx, { guards: settings, allowOrigin: site.allowOrigin, recorder });
  const fast = new FastPath(ctx, routes, sequence);
  const app = honoApp(ctx, { routes, guardSettings: settings, allowOrigin: site.allowOrigin, state, recorder });
  return {
    upstream,
    state,
    fast,
    records,
    fetch: (request, env, executionCtx) => Promise.resolve(app.fetch(request, env, executionCtx)),
  };
}
