/**
 * The credential-holding proxy: a Fetch handler (Hono) that is an allow-list, not a pipe. It lets
 * through only what a public booking widget needs, validates everything before the upstream sees
 * it, adds `Authorization: APPID:KEY` upstream, and spends the App ID's shared hourly quota
 * carefully (per-client limits, a read cache with coalescing, backing off when the upstream is
 * short). It imports no `node:` module, so the same handler runs in Node, in an edge runtime
 * (worker.ts), inside Vite's dev server and in tests.
 *
 * Order of the guards, cheapest first: address and method → Host (loopback only without a public
 * URL) → the calling site (Origin, Referer) → CORS → per-client rate limit → body size → route
 * (parameter validation, venue allow-list) → cache → per-client miss limit and the upstream budget
 * (budget.ts) → upstream.
 */
import { Hono, type Context, type ExecutionContext } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { registerBookings, storedBefore } from './routes/bookings.js';
import { budgetSettings, UpstreamBudget } from './guards/budget.js';
import { ReadCache } from './state/cache.js';
import { cors } from './guards/cors.js';
import { DEFAULTS, type ProxyConfig, type ProxyContext } from './routes/context.js';
import { envelopeText, errorPayload, errorResponse, ProxyError } from './core/envelope.js';
import { COUNTED, FastPath, type CountedEnv, type FastRead, type FastSent } from './fast-path.js';
import { loopbackHostGuard, originGuard, requestGuard } from './guards/request.js';
import { addLayer, applyLayer, headerOf, plainHeadersOf, SECURITY_LAYER, type Layer } from './core/headers.js';
import { consoleLogger, redactingLogger } from './core/log.js';
import { availabilityRead, readThrough, registerReads, type ReadCall } from './routes/reads.js';
import { prepare, sent, toResponse, type Relayed } from './upstream/relay.js';
import { registerReturnBridge } from './routes/return-bridge.js';
import { scriptPaths, serveScript } from './routes/script.js';
import type { ProxyState } from './state/types.js';
import { MemoryState } from './state/memory.js';
import { fetchTransport, Upstream } from './upstream/client.js';
import { urlOf } from './core/url.js';
import { ID_RE, queryParams } from './guards/validate.js';

export type { ProxyConfig } from './routes/context.js';

/** A running proxy: its Fetch handler, plus its upstream client for health and tests. */
export interface Proxy {
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

/** The same headers with lower-case names. */
const lowerCase = (headers: Record<string, string>) => {
  const lower: Record<string, string> = {};
  for (const name in headers) lower[name.toLowerCase()] = headers[name]!;
  return lower;
};

/** The routes and their methods; a known path with another method gets 405 with `Allow`. */
const ROUTES: [string, string[]][] = [
  ['/api/venues/:venue/booking-availability', ['GET', 'POST']],
  ['/api/venues/:venue/booking-rules', ['GET', 'POST']],
  ['/api/venues/:venue/offers', ['GET']],
  ['/api/venues/:venue/marketing-preferences', ['GET']],
  ['/api/venues/:venue', ['GET']],
  ['/api/venues', ['GET']],
  ['/api/bookings', ['POST']],
  ['/api/return', ['GET', 'POST']],
  ['/healthz', ['GET']],
];

/**
 * Creates the proxy's Fetch handler. Its state (cache, limits, idempotency, quota) is
 * `config.state`, or this instance's memory.
 */
export function createProxy(config: ProxyConfig): Proxy {
  const now = config.now ?? (() => Date.now());
  const logger = redactingLogger(config.logger ?? consoleLogger, [config.apiKey, `${config.appId}:${config.apiKey}`]);
  const state =
    config.state ??
    new MemoryState({
      ttlMs: config.cacheTtlMs ?? DEFAULTS.cacheTtlMs,
      staleMs: config.staleMs ?? DEFAULTS.staleMs,
      now,
    });
  const budgetOptions = budgetSettings(config);
  const upstream = new Upstream({
    base: config.upstream.replace(/\/+$/, ''),
    appId: config.appId,
    apiKey: config.apiKey,
    transport: config.transport ?? fetchTransport(config.fetch ?? ((request) => fetch(request))),
    timeoutMs: config.timeoutMs ?? DEFAULTS.timeoutMs,
    logger,
    now,
    lowWater: budgetOptions.lowWater,
    // Only a shared state has a quota to share.
    state: config.state,
  });
  const groupVenues = new ReadCache<Set<string>>({ ttlMs: 300_000, staleMs: 3_600_000, maxEntries: 100, now });
  const venues = new Set(config.venues);
  const origins = new Set(config.origins ?? []);
  const bookingSiteOrigin = config.bookingSite ? new URL(config.bookingSite).origin : null;
  const publicBase = config.publicUrl?.replace(/\/+$/, '');
  const publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : null;
  const rateLimit = config.rateLimit ?? DEFAULTS.rateLimit;
  const budget = new UpstreamBudget(state, budgetOptions);
  const clientOf = (c: Context) => config.clientKey?.(c.req.raw, c.env) ?? 'shared';
  const bookingRateLimit = config.bookingRateLimit ?? DEFAULTS.bookingRateLimit;

  /** Venues of a configured group, read once per 5 minutes (stale copies kept through outages). */
  async function venuesOfGroup(group: string): Promise<Set<string>> {
    const kept = groupVenues.peek(group, true);
    if (kept?.source === 'HIT' || (kept && upstream.frugal())) return kept.value;
    const { value } = await groupVenues.get(group, async () => {
      const answer = await upstream.call('GET', '/venues', `?venue_group=${encodeURIComponent(group)}`);
      if (!answer.ok || answer.status >= 300) return { value: kept?.value ?? new Set<string>(), cache: false };
      const pages = (answer.body.payload as { pages?: { _id?: unknown }[] } | null)?.pages ?? [];
      return { value: new Set(pages.map((page) => String(page?._id))), cache: true };
    });
    return value;
  }

  // Which cache key each relayed answer came from, so that an answer sent from the cache can be
  // remembered by the fast path with the key it must still be fresh under. The route modules see
  // the state through this wrapper; nothing else changes.
  const keyOf = new WeakMap<Relayed, string>();
  const note = <T extends { value: Relayed } | undefined>(key: string, read: T): T => {
    if (read) keyOf.set(read.value, key);
    return read;
  };
  const routeState = notingReads(state, note);

  const reportLeak = () => logger.log({ level: 'error', msg: 'upstream answer contained the API key; redacted' });
  const bookingUrlOf = (url: URL) => `${publicBase ?? url.origin}/api/bookings`;
  const ctx: ProxyContext = {
    config,
    upstream,
    state: routeState,
    logger,
    now,
    budget,
    clientOf,
    async venueAllowed(id) {
      if (venues.has(id)) return true;
      for (const group of config.venueGroups ?? []) if ((await venuesOfGroup(group)).has(id)) return true;
      return false;
    },
    send(c, relayed, headers) {
      const url = urlOf(c.req.raw);
      const bookingUrl = bookingUrlOf(url);
      const response = toResponse(relayed, {
        context: c,
        bookingUrl,
        apiKey: config.apiKey,
        headers,
        onLeak: reportLeak,
      });
      const key = keyOf.get(relayed);
      const plain = plainHeadersOf(response);
      if (c.req.method === 'GET' && key && plain && headers?.['X-Cache'] !== 'STALE') {
        const { bytes, leaked } = prepare(relayed, bookingUrl, config.apiKey);
        if (!leaked) fast.remember(url, key, relayed, bytes, plain);
      }
      return response;
    },
  };

  // Without a public URL the request's own origin is trusted on loopback only (local development):
  // elsewhere the Host is the client's to write (`Host: evil.example` with a matching Origin, a DNS
  // rebinding foothold), so such requests are refused below.
  // The origin rule, for the app's guard and the fast path alike.
  // The return bridge is posted to by the booking site's page as a top-level navigation; a page
  // with `Referrer-Policy: no-referrer` (as the booking site's are) sends the opaque `Origin: null`.
  // The bridge makes no upstream call and only redirects to an allowed page with a reference and a
  // status, so that opaque origin may reach it (and nothing else).
  const siteAllowed = (origin: string, url: URL) =>
    origins.has(origin) ||
    origin === (publicOrigin ?? url.origin) ||
    ((origin === bookingSiteOrigin || origin === 'null') && url.pathname === '/api/return');
  const allowOrigin = (origin: string) => (origins.has(origin) ? origin : null);

  /** How the app answers what a route threw: a ProxyError as it says, anything else a logged 500. */
  const routeError = (error: unknown, booking: boolean): ProxyError => {
    if (error instanceof ProxyError) return error;
    logger.log({ level: 'error', msg: 'unexpected error', error: error instanceof Error ? error.name : 'unknown' });
    return new ProxyError(500, 'The booking proxy hit an unexpected error', booking ? { stored: 'unknown' } : {});
  };

  /**
   * An availability GET for the fast path, when the route's checks are simple: a configured venue
   * (a venue of a group is the app's to look up) and a valid query. The read is the route's own;
   * what it sends, and what it throws, are what the app would send.
   */
  const AVAILABILITY = /^\/api\/venues\/([^/]+)\/booking-availability$/;
  const relay = (url: URL): FastRead | null => {
    const venue = AVAILABILITY.exec(url.pathname)?.[1];
    if (!venue || !ID_RE.test(venue) || !venues.has(venue)) return null;
    const query = queryParams(url);
    if (query.errors.length) return null;
    let spec;
    try {
      spec = availabilityRead(ctx, venue, query.raw);
    } catch {
      return null;
    }
    return async (client) => {
      const call: ReadCall<FastSent> = {
        path: url.pathname,
        method: 'GET',
        client: () => client,
        waitUntil: () => {},
        send(relayed, headers) {
          const answer = sent(relayed, {
            bookingUrl: bookingUrlOf(url),
            apiKey: config.apiKey,
            headers,
            onLeak: reportLeak,
          });
          const key = keyOf.get(relayed);
          return {
            status: answer.status,
            body: answer.body,
            headers: lowerCase(answer.headers),
            memo: key && !answer.leaked ? { cacheKey: key, relayed } : undefined,
          };
        },
      };
      try {
        return await readThrough(ctx, call, spec);
      } catch (thrown) {
        const error = routeError(thrown, false);
        const headers = lowerCase(Object.fromEntries(new Headers(error.options.headers)));
        headers['content-type'] = 'application/json; charset=utf-8';
        headers['cache-control'] = 'no-store';
        const text = envelopeText(url.pathname, 'GET', error.status, errorPayload(error.message, error.options));
        return { status: error.status, body: new TextEncoder().encode(text), headers };
      }
    };
  };
  const fast = new FastPath({
    state,
    logger,
    now,
    rateLimit,
    clientKey: config.clientKey,
    publicUrl: Boolean(publicOrigin),
    siteAllowed,
    allowOrigin,
    relay,
  });
  const app = new Hono();

  app.onError((thrown, c) => {
    const booking = c.req.method === 'POST' && urlOf(c.req.raw).pathname === '/api/bookings';
    const error = routeError(thrown, booking);
    return errorResponse(c.req.raw, error.status, error.message, error.options);
  });
  app.notFound((c) =>
    errorResponse(c.req.raw, 404, 'Not found', {
      errors: [{ code: 'not_found', message: 'No such route', fields: [] }],
    }),
  );

  // One structured line per request: method, path (ids only, never the query), status, timing.
  app.use('*', async (c, next) => {
    const started = now();
    await next();
    logger.log({
      level: c.res.status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: c.req.method.slice(0, 10),
      path: urlOf(c.req.raw).pathname.slice(0, 120),
      status: c.res.status,
      ms: now() - started,
      cache: headerOf(c.res, 'x-cache'),
    });
  });
  // Security headers on every answer, where the route did not set its own (the widget script sets
  // its own Cross-Origin-Resource-Policy).
  app.use('*', async (c, next) => {
    addLayer(c, SECURITY_LAYER);
    await next();
    applyLayer(c.res, SECURITY_LAYER);
  });
  // The widget's files also answer HEAD, and only GET and HEAD.
  const apiGuard = requestGuard(['GET', 'POST', 'OPTIONS']);
  const fileGuard = requestGuard(['GET', 'HEAD']);
  const files = config.widgetScript ? scriptPaths(config.widgetChunks) : new Set<string>();
  app.use('*', (c, next) => (files.has(urlOf(c.req.raw).pathname) ? fileGuard : apiGuard)(c, next));
  if (!publicOrigin) app.use('/api/*', loopbackHostGuard(logger));
  const siteGuard = originGuard(
    (origin, request) => siteAllowed(origin, urlOf(request)),
    (origin) =>
      logger.log({
        level: 'warn',
        msg: 'request from a site not in VENUE_BOOKING_ORIGINS refused (add it there if it is yours)',
        origin: origin.slice(0, 100),
      }),
  );
  // A GET return is the booking site's top-level navigation, from a site that often names itself
  // to nobody (`Sec-Fetch-Site: cross-site` without a Referer). It has no effect (no upstream call,
  // no state): it only sends the guest to an allowed page or shows a readable one, so any site may
  // start it; a guest who paid must never meet a 403.
  app.use('/api/*', (c, next) =>
    c.req.method === 'GET' && urlOf(c.req.raw).pathname === '/api/return' ? next() : siteGuard(c, next),
  );
  app.use(
    '/api/*',
    cors({
      origin: allowOrigin,
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Idempotency-Key'],
      exposeHeaders: [
        'Retry-After',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Idempotent-Replayed',
        'X-Cache',
      ],
      maxAge: 600,
    }),
  );
  app.use('/api/*', async (c: Context, next) => {
    if (c.req.method === 'OPTIONS') return next();
    const client = clientOf(c);
    // A request the fast path refused has been counted there already.
    const decision = (c.env as CountedEnv | undefined)?.[COUNTED] ?? (await state.hit('api', client, rateLimit));
    const booking = c.req.method === 'POST' && urlOf(c.req.raw).pathname === '/api/bookings';
    const bookingDecision = booking && decision.allowed ? await state.hit('booking', client, bookingRateLimit) : null;
    const { allowed, headers } = bookingDecision ?? decision;
    if (!allowed) {
      return errorResponse(c.req.raw, 429, 'Too many requests: please wait a moment and try again', {
        headers,
        ...(booking ? { stored: await storedBefore(ctx, c.req.raw) } : {}),
      });
    }
    const layer: Layer = { mode: 'set', headers };
    addLayer(c, layer);
    await next();
    applyLayer(c.res, layer);
  });
  const limitBody = bodyLimit({
    maxSize: config.bodyLimit ?? DEFAULTS.bodyLimit,
    onError: async (c) =>
      errorResponse(
        c.req.raw,
        413,
        'The request body is too large',
        urlOf(c.req.raw).pathname === '/api/bookings' ? { stored: await storedBefore(ctx, c.req.raw) } : {},
      ),
  });
  // Only POST carries a body; looking for one on a GET would make Node's adapter build a full
  // Request per read, which halves the throughput of cached answers.
  app.use('/api/*', (c, next) => (c.req.method === 'POST' ? limitBody(c, next) : next()));

  // Health costs no upstream call: it reports what the last one found. Only a misconfiguration
  // (every booking would fail) is unhealthy; a failing upstream still gets cached answers and
  // clear errors from this proxy, so taking it out of rotation would not help. Nor would a shared
  // store that is down: the proxy then works on local state, and says so in `store`.
  app.get('/healthz', (c) => {
    const health = upstream.health();
    return c.json(
      { ok: health !== 'misconfigured', upstream: health, store: state.health() },
      health === 'misconfigured' ? 503 : 200,
      { 'cache-control': 'no-store' },
    );
  });
  if (config.widgetScript) serveScript(app, config.widgetScript, config.widgetChunks);
  registerReads(app, ctx);
  registerBookings(app, ctx);
  registerReturnBridge(app, ctx);
  for (const [path, methods] of ROUTES) {
    app.all(path, (c) =>
      errorResponse(c.req.raw, 405, `Use ${methods.join(' or ')} here`, { headers: { allow: methods.join(', ') } }),
    );
  }

  return {
    upstream,
    state,
    fast,
    fetch: (request, env, executionCtx) => Promise.resolve(app.fetch(request, env, executionCtx)),
  };
}

/**
 * `state` as the route modules see it: its reads pass their answers through `note`; every other
 * member is the state's own (bound to it), so a new method needs no change here.
 */
function notingReads(
  state: ProxyState,
  note: <T extends { value: Relayed } | undefined>(key: string, read: T) => T,
): ProxyState {
  const reads: Pick<ProxyState, 'peekRead' | 'read'> = {
    peekRead: (key, allowStale) => state.peekRead(key, allowStale).then((read) => note(key, read)),
    read: (key, load) => state.read(key, load).then((read) => note(key, read)),
  };
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(state, {
    get(target, name) {
      if (name === 'peekRead' || name === 'read') return reads[name];
      const member: unknown = Reflect.get(target, name, target);
      if (typeof member !== 'function') return member;
      if (!bound.has(name)) bound.set(name, member.bind(target));
      return bound.get(name);
    },
  });
}
