/**
 * The sandbox: an offline, faithful emulation of the v4 booking service as a Fetch handler.
 *
 * It is the proxy's embedded default upstream (`npm start`, every test, partner developers), so it
 * is runtime-free: no `node:` import, nothing but `Request → Response`. Only `cli.ts` touches
 * process, ports and files. Paths are relative to the handler's root: the API under `/v4/...`, its
 * OpenAPI document at `/v4/openapi.json`, the hosted booking page under `/book` and, when asked
 * for, the partner controls under `/__sandbox`; whoever mounts it under a prefix strips the prefix.
 */

import { Hono, type Context as HonoContext } from 'hono';
import { Access, authenticate, RateLimiter } from './auth.js';
import type { Ctx, Handler, Method, Route } from './context.js';
import { CONTROL_PREFIX, controlRoutes, Journal, TravelClock } from './control.js';
import { ApiError, envelope, errorResponse, queryEcho, readParams, type Params, type RequestInfo } from './http.js';
import { openApiDocument } from './openapi.js';
import { ROUTES } from './routes.js';
import {
  defaultScenario,
  delay,
  lostAnswer,
  preferenceApplied,
  RETRY_AFTER_SECONDS,
  scenarioOf,
  type AppliedScenario,
  type ScenarioName,
} from './scenarios.js';
import { Store } from './store.js';
import { londonTimestamp, makeClock, type Clock } from './time.js';
import type { App, Dialect, Seed } from './types.js';
import { showBookingPage, submitBookingPage } from './web.js';
import defaultSeed from './seed.json' with { type: 'json' };

export type { Seed } from './types.js';
export type { ScenarioName } from './scenarios.js';

/** Options of {@link createSandbox}. Every one has a default, so `createSandbox()` is the demo. */
export interface SandboxOptions {
  /** Fixed clock (ISO 8601; zone-less = London wall time) or clock function; default real time. */
  now?: string | (() => Date);
  /** Apps added to the seed's apps. */
  apps?: { id: string; key: string; capabilities: string[] | 'all' }[];
  /** Requests per App ID per hour (default 5000). */
  rateLimit?: number;
  /** Seed data; default the bundled sandbox/seed.json. */
  seed?: Seed;
  /** 'spec' (default) answers as api-spec.md; 'live' as real-api-notes.md. */
  dialect?: 'spec' | 'live';
  /** Absolute URL where this handler is reachable by a browser; builds next.web and next.api. */
  publicUrl?: string;
  /** The scenario of every request that names none (`Prefer: scenario=…`); default the seed's, else none. */
  scenario?: ScenarioName;
  /** Milliseconds added to every API answer (default 0, or the scenario's). */
  latency?: number;
  /**
   * Serves the partner controls under `/__sandbox` (request journal, clock, reset). On in the CLI;
   * off by default, and never on in the proxy's embedded sandbox.
   */
  control?: boolean;
}

/** A running sandbox: the Fetch handler plus its store (for tests and benchmarks). */
export interface Sandbox {
  fetch(request: Request): Promise<Response>;
  /** The in-memory data; tests may read it, benchmarks may bulk-insert through it. A reset replaces it. */
  readonly store: Store;
  readonly dialect: Dialect;
  readonly publicUrl: string;
  /** The sandbox clock (time travel moves it). */
  readonly clock: Clock;
  /** Every request the sandbox answered, oldest first (also `GET /__sandbox/requests` with `control`). */
  readonly journal: Journal;
}

/**
 * The app of the default seed that a public booking widget proxy needs: it may read availability,
 * offers and settings, create and read bookings, and manage them (a guest's cancel is a status
 * change to `rejected`) at every venue of the demo group (`manage_venue_group_bookings_…500`).
 * The proxy uses it when run with no credentials.
 */
export const SANDBOX_APP: { id: string; key: string } = { id: 'sandbox-widget', key: 'sandbox-widget-key' };

/**
 * The same widget's app without the capability to manage bookings
 * (`confirm_venue_group_bookings_…500`): it books, reads and confirms, and a cancel (a move to
 * `rejected`) is 403, as an App ID whose default capabilities do not allow it would get (the live
 * service's are not documented: real-api-notes). The scenario `cannot-manage` refuses the same to any key.
 */
export const SANDBOX_CONFIRM_APP: { id: string; key: string } = {
  id: 'sandbox-confirm',
  key: 'sandbox-confirm-key',
};

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

/** What one sandbox instance holds: its clock, data, rate limiter, journal and answer settings. */
interface Runtime {
  clock: TravelClock;
  store: Store;
  limiter: RateLimiter;
  journal: Journal;
  dialect: Dialect;
  publicUrl: string;
  /** The scenario of requests that name none. */
  scenario: AppliedScenario;
  /** Rebuilds the data from the seed and forgets rate windows, journal and time travel. */
  reset(): void;
}

/** Resolves the options into a runtime; throws on bad options (an unparseable `now`, an unknown scenario). */
function runtimeOf(options: SandboxOptions): Runtime {
  const seed = options.seed ?? (defaultSeed as unknown as Seed);
  const rateLimit = options.rateLimit ?? 5000;
  const rt: Runtime = {
    clock: new TravelClock(makeClock(options.now)),
    store: new Store(seed, options.apps ?? []),
    limiter: new RateLimiter(rateLimit),
    journal: new Journal(),
    dialect: options.dialect === 'live' ? 'live' : 'spec',
    publicUrl: (options.publicUrl ?? 'http://localhost:8787').replace(/\/+$/, ''),
    scenario: defaultScenario(options.scenario ?? seed.scenario, options.latency),
    reset() {
      rt.store = new Store(seed, options.apps ?? []);
      rt.limiter = new RateLimiter(rateLimit);
      rt.journal.clear();
      rt.clock.reset();
    },
  };
  return rt;
}

/** One request on its way through the pipeline: what the answer's headers and the journal need. */
interface Exchange {
  info: RequestInfo;
  applied: AppliedScenario;
  app: string | null;
  params?: Params;
  rate: Record<string, string>;
  /** The handler ran (so a lost answer lost something that was applied). */
  ran: boolean;
}

/** The handler's context for an authenticated request. */
function contextOf(rt: Runtime, c: HonoContext, x: Exchange, app: App, now: number): Ctx {
  const { store, dialect, publicUrl } = rt;
  const access = new Access(store, app);
  return {
    info: x.info,
    params: x.params!,
    app,
    access,
    store,
    now,
    dialect,
    publicUrl,
    availability: { store, now, dialect, publicUrl, scenario: x.applied.scenario?.effects },
    path: (name) => c.req.param(name) ?? '',
    venue: (id, perm = 'see') => {
      const v = store.venues.get(id);
      if (!v) throw new ApiError(404, `Venue ${id} not found`);
      access.require(perm, v._id);
      return v;
    },
  };
}

/** A refusing scenario (429, 503) as its error: nothing is applied, and the client is told when to retry. */
function refusal(rt: Runtime, x: Exchange): ApiError | null {
  const refuse = x.applied.scenario?.refuse;
  const retry = { 'retry-after': String(RETRY_AFTER_SECONDS) };
  if (refuse === 429) {
    x.rate = { ...x.rate, 'X-RateLimit-Remaining': '0' };
    return new ApiError(
      429,
      `Rate limit of ${rt.limiter.limit} requests per hour exceeded (scenario rate-limited)`,
      [],
      retry,
    );
  }
  if (refuse === 503) return new ApiError(503, 'The booking service is unavailable (scenario unavailable)', [], retry);
  return null;
}

/**
 * The stages of an API request: authenticate, pick the scenario, refuse when it says so, count
 * against the rate limit, read the parameters, run, envelope.
 */
async function serve(rt: Runtime, c: HonoContext, x: Exchange, run: Handler, now: number): Promise<Response> {
  const app = authenticate(rt.store, c.req.header('authorization') ?? null, rt.dialect);
  x.app = app.id;
  x.applied = scenarioOf(c.req.header('prefer') ?? null, rt.scenario);
  x.rate = rt.limiter.hit(app.id, now, false).headers;
  const refused = refusal(rt, x);
  if (refused) throw refused;
  const hit = rt.limiter.hit(app.id, now);
  x.rate = hit.headers;
  if (!hit.allowed)
    throw new ApiError(
      429,
      `Rate limit of ${rt.limiter.limit} requests per hour exceeded; try again after ${x.rate['X-RateLimit-Reset']}`,
    );
  x.params = await readParams(c.req.raw, new URL(c.req.url));
  x.ran = true;
  const out = await run(contextOf(rt, c, x, app, now));
  return out instanceof Response ? out : envelope(x.info, 200, out);
}

/** An error as its enveloped answer; anything unexpected a 503 that says nothing was applied. */
function failure(info: RequestInfo, e: unknown): Response {
  if (e instanceof ApiError) return errorResponse(info, e);
  console.error('[sandbox] unexpected error', e);
  return errorResponse(info, new ApiError(503, 'The sandbox hit an unexpected error; the request was not applied'));
}

/**
 * The request pipeline around one handler ({@link serve}), then the transport scenarios (a lost
 * answer, added latency), the rate-limit and `Preference-Applied` headers, and the journal.
 */
async function handle(rt: Runtime, c: HonoContext, run: Handler): Promise<Response> {
  const now = rt.clock.now().getTime();
  const url = new URL(c.req.url);
  const info: RequestInfo = {
    url: url.pathname,
    method: c.req.method,
    params: queryEcho(url),
    requestTime: now,
    now: () => rt.clock.now().getTime(),
  };
  const x: Exchange = {
    info,
    applied: rt.scenario,
    app: null,
    rate: rt.limiter.hit('', now, false).headers,
    ran: false,
  };
  let response: Response;
  try {
    response = await serve(rt, c, x, run, now);
  } catch (e) {
    response = failure(info, e);
  }
  let lostStatus: number | undefined;
  if (x.ran && x.applied.scenario?.loseAnswer) {
    lostStatus = response.status;
    response = lostAnswer();
  }
  await delay(x.applied.latency, c.req.raw.signal);
  for (const [k, v] of Object.entries(x.rate)) response.headers.set(k, v);
  const applied = preferenceApplied(x.applied);
  if (applied) response.headers.set('preference-applied', applied);
  rt.journal.add({
    at: londonTimestamp(now),
    method: info.method,
    path: info.url,
    query: Array.isArray(info.params) ? {} : info.params,
    ...(x.params ? { params: x.params } : {}),
    app: x.app,
    scenario: x.applied.name ?? null,
    status: response.status,
    ...(lostStatus !== undefined ? { lostStatus } : {}),
  });
  return response;
}

/** Registers a route table under `/v4`: each path answers its methods and 405 (with Allow) to others. */
function mountApi(app: Hono, rt: Runtime, routes: readonly Route[]): void {
  for (const { path, methods } of routes) {
    const allowed = Object.keys(methods);
    app.all(`/v4${path.replace(/\{(\w+)\}/g, ':$1')}`, (c) =>
      handle(rt, c, (ctx) => {
        const operation = methods[ctx.info.method as Method];
        if (!operation)
          throw new ApiError(405, `Method ${ctx.info.method} not allowed here; use ${allowed.join(' or ')}`, [], {
            allow: allowed.join(', '),
          });
        return operation.run(ctx);
      }),
    );
  }
}

const textAnswer = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });

/** The hosted web booking page (no credentials: a guest's browser opens it). The sandbox's scenario applies. */
function mountBookingPage(app: Hono, rt: Runtime): void {
  const webContext = () => {
    const now = rt.clock.now().getTime();
    const { store, dialect, publicUrl } = rt;
    return { store, now, ctx: { store, now, dialect, publicUrl, scenario: rt.scenario.scenario?.effects } };
  };
  const webParams = async (req: Request) => {
    try {
      return await readParams(req, new URL(req.url));
    } catch {
      return null;
    }
  };
  const journaled = async (c: HonoContext, answer: () => Promise<Response>) => {
    const now = rt.clock.now().getTime();
    const url = new URL(c.req.url);
    const response = await answer();
    const query = queryEcho(url);
    rt.journal.add({
      at: londonTimestamp(now),
      method: c.req.method,
      path: url.pathname,
      query: Array.isArray(query) ? {} : query,
      app: null,
      scenario: rt.scenario.name ?? null,
      status: response.status,
    });
    return response;
  };
  app.get('/book', (c) => journaled(c, async () => showBookingPage(webContext(), (await webParams(c.req.raw))!)));
  app.post('/book', (c) =>
    journaled(c, async () => {
      const params = await webParams(c.req.raw);
      if (!params) return textAnswer(400, 'Bad request');
      try {
        return await submitBookingPage(webContext(), params);
      } catch (e) {
        console.error('[sandbox] web page error', e);
        return textAnswer(503, 'The sandbox hit an unexpected error; nothing was stored');
      }
    }),
  );
  app.all('/book', () => textAnswer(405, 'Method not allowed', { allow: 'GET, POST' }));
}

/** Serves the OpenAPI document of the v4 interface (no credentials: a partner's tooling reads it). */
function mountOpenApi(app: Hono, rt: Runtime): void {
  let document: string | undefined;
  app.get('/v4/openapi.json', () => {
    document ??= JSON.stringify(openApiDocument(rt.publicUrl), null, 2);
    return new Response(document, {
      headers: { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*' },
    });
  });
}

/** Creates a sandbox. Throws only on bad options (e.g. an unparseable `now`), never per request. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const rt = runtimeOf(options);
  const app = new Hono();
  mountOpenApi(app, rt);
  mountApi(app, rt, ROUTES);
  mountBookingPage(app, rt);
  if (options.control) {
    const { journal, clock, publicUrl } = rt;
    app.route(CONTROL_PREFIX, controlRoutes({ journal, clock, publicUrl, reset: () => rt.reset() }));
  }
  // Unknown routes: 404 in the envelope (after auth, as the API gateway would).
  app.notFound((c) =>
    handle(rt, c, (ctx) => {
      throw new ApiError(404, `No route ${ctx.info.method} ${ctx.info.url}`);
    }),
  );
  return {
    fetch: async (request: Request) => app.fetch(request),
    get store() {
      return rt.store;
    },
    dialect: rt.dialect,
    publicUrl: rt.publicUrl,
    clock: rt.clock.now,
    journal: rt.journal,
  };
}
