/**
 * The sandbox's own controls for a partner's tests and development, under `/__sandbox/…` (a path
 * the v4 interface can never use): the request journal, time travel and reset.
 *
 * Off unless the sandbox runs as a sandbox: the CLI turns them on, `createSandbox({ control: true })`
 * does in a partner's tests, and the proxy's embedded sandbox never has them (the proxy's allow-list
 * would not pass `/__sandbox` anyway). They need no credentials: whoever can reach them owns the
 * sandbox, so they are closed to pages on other sites. They answer only a request addressed to a
 * loopback host (`localhost`, `127.0.0.1`, `[::1]`) or to the host of the sandbox's public URL, so
 * that a DNS-rebinding page cannot read the journal (guests' names, emails, phone numbers); and a
 * POST must carry a JSON body (`Content-Type: application/json`) or the `X-Sandbox-Control` header,
 * which no cross-site form can send (a page's script would need a CORS preflight, which the
 * controls never grant). Answers use the v4 envelope, so a client parses one thing.
 */

import { Hono, type Context as HonoContext } from 'hono';
import { ApiError, envelope, errorResponse, int, readParams, str, type Params, type RequestInfo } from './http.js';
import { SCENARIOS } from './scenarios.js';
import { londonTimestamp, parseInstant, type Clock } from './time.js';

/** Where the controls live. */
export const CONTROL_PREFIX = '/__sandbox';

/** One request the sandbox answered, as the journal keeps it (never the Authorization header). */
export interface JournalEntry {
  /** Sequence number, from 1 since the last reset. */
  id: number;
  /** When it came, London wall time on the sandbox clock. */
  at: string;
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string | string[]>;
  /** The parameters the sandbox read (query and body), when it got that far. */
  params?: Params;
  /** The App ID that authenticated, if any. */
  app: string | null;
  /** The scenario that applied, if any. */
  scenario: string | null;
  /** The status the client got. */
  status: number;
  /** With `answer-lost`: the status of the answer that was applied and then lost. */
  lostStatus?: number;
}

/** How many entries the journal keeps (the oldest go first). */
export const JOURNAL_LIMIT = 1000;

/** The request journal: what reached the sandbox and how it was answered, oldest first. */
export class Journal {
  private entries: JournalEntry[] = [];
  private next = 1;

  /** Records one answered request. */
  add(entry: Omit<JournalEntry, 'id'>): void {
    this.entries.push({ id: this.next++, ...entry });
    if (this.entries.length > JOURNAL_LIMIT) this.entries.shift();
  }

  /** Entries matching a path (exact, or a `*` pattern) and a method, the last `limit` of them. */
  list(filter: { path?: string; method?: string; limit?: number } = {}): JournalEntry[] {
    const pattern = filter.path === undefined ? null : globOf(filter.path);
    const method = filter.method?.toUpperCase();
    const found = this.entries.filter((e) => (!pattern || pattern.test(e.path)) && (!method || e.method === method));
    return filter.limit === undefined ? found : found.slice(-filter.limit);
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries = [];
    this.next = 1;
  }
}

/** A path pattern where `*` stands for any characters (`/v4/venues/*` matches every venue route). */
function globOf(path: string): RegExp {
  const escaped = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/**
 * The sandbox clock with time travel: a base clock (fixed or real) plus an offset that `set` and
 * `advance` move. A fixed clock stays fixed at its new time; a real one goes on ticking from it.
 */
export class TravelClock {
  private offset = 0;

  constructor(private readonly base: Clock) {}

  /** Now, as every part of the sandbox reads it. */
  readonly now: Clock = () => new Date(this.base().getTime() + this.offset);

  /** Moves the clock to an instant. */
  set(instant: number): void {
    this.offset = instant - this.base().getTime();
  }

  /** Moves the clock by `ms` (negative goes back). */
  advance(ms: number): void {
    this.offset += ms;
  }

  /** Back to the base clock. */
  reset(): void {
    this.offset = 0;
  }
}

/** Milliseconds of an ISO 8601 duration of days, hours, minutes and seconds (`P1D`, `PT90M`, `-PT1H`), or null. */
export function parseDuration(text: string): number | null {
  const m = /^(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(text.trim());
  if (!m || text.trim().endsWith('T') || !m.slice(2).some((part) => part !== undefined)) return null;
  const [days, hours, minutes, seconds] = m.slice(2).map((part) => Number(part ?? 0));
  const ms = (((days! * 24 + hours!) * 60 + minutes!) * 60 + seconds!) * 1000;
  return m[1] ? -ms : ms;
}

/** What the controls act on; the app hands them over so this module needs nothing above it. */
export interface ControlTarget {
  journal: Journal;
  clock: TravelClock;
  /** Rebuilds the store from the seed, forgets the rate-limit windows, the journal and the clock's travel. */
  reset(): void;
  /** Absolute URL of the sandbox (for the index's links). */
  publicUrl: string;
}

/** The clock's state as the clock routes answer it. */
function clockState(clock: TravelClock) {
  const now = clock.now().getTime();
  return { now: new Date(now).toISOString(), london: londonTimestamp(now) };
}

/** Reads `{ now: ISO }` or `{ advance: ISO 8601 duration }` (exactly one) and moves the clock. */
function travel(clock: TravelClock, params: Params): void {
  const now = str(params, 'now');
  const advance = str(params, 'advance');
  if ((now === undefined) === (advance === undefined)) {
    const message = 'Send either now (an ISO 8601 date-time) or advance (an ISO 8601 duration such as PT2H)';
    throw new ApiError(400, message, [{ code: 'invalid_clock', message, fields: ['now', 'advance'] }]);
  }
  if (now !== undefined) {
    const instant = parseInstant(now);
    if (instant === null) {
      const message = 'now must be an ISO 8601 date-time (zone-less = London wall time)';
      throw new ApiError(400, message, [{ code: 'invalid_now', message, fields: ['now'] }]);
    }
    clock.set(instant);
  } else {
    const ms = parseDuration(advance!);
    if (ms === null) {
      const message = 'advance must be an ISO 8601 duration such as PT2H, P1D or -PT30M';
      throw new ApiError(400, message, [{ code: 'invalid_advance', message, fields: ['advance'] }]);
    }
    clock.advance(ms);
  }
}

/** Envelope and error handling of one control route. */
async function answer(target: ControlTarget, c: HonoContext, run: (params: Params) => unknown): Promise<Response> {
  const url = new URL(c.req.url);
  const now = target.clock.now().getTime();
  const info: RequestInfo = {
    url: url.pathname,
    method: c.req.method,
    params: {},
    requestTime: now,
    now: () => target.clock.now().getTime(),
  };
  try {
    const params = await readParams(c.req.raw, url);
    return envelope(info, 200, await run(params), { 'cache-control': 'no-store' });
  } catch (e) {
    if (e instanceof ApiError) return errorResponse(info, e);
    throw e;
  }
}

/** The journal filters of `GET /__sandbox/requests`: path (exact or with `*`), method, limit. */
function journalFilter(params: Params) {
  const limitText = str(params, 'limit');
  const limit = limitText === undefined ? undefined : int(limitText);
  if (limitText !== undefined && (limit === undefined || limit < 1 || limit > JOURNAL_LIMIT)) {
    const message = `limit must be a whole number from 1 to ${JOURNAL_LIMIT}`;
    throw new ApiError(400, message, [{ code: 'invalid_limit', message, fields: ['limit'] }]);
  }
  return { path: str(params, 'path'), method: str(params, 'method'), limit };
}

/** Whether a host name is this machine's: `localhost` (and `*.localhost`), 127/8, `::1`. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::1';
}

/** Why a control request is refused (a cross-site form, a foreign Host), or null. */
function controlRefusal(request: Request, publicHost: string): ApiError | null {
  const { hostname } = new URL(request.url);
  if (!isLoopbackHost(hostname) && hostname !== publicHost) {
    const message = 'The sandbox controls answer only requests addressed to localhost or to the sandbox public URL';
    return new ApiError(403, message, [{ code: 'forbidden_host', message, fields: ['Host'] }]);
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (request.method === 'POST' && type !== 'application/json' && request.headers.get('x-sandbox-control') === null) {
    const message =
      'Send sandbox controls as JSON (Content-Type: application/json) or with an X-Sandbox-Control header';
    return new ApiError(415, message, [{ code: 'json_required', message, fields: ['Content-Type'] }]);
  }
  return null;
}

/** The control routes, as a Hono app to mount under {@link CONTROL_PREFIX}. */
export function controlRoutes(target: ControlTarget): Hono {
  const app = new Hono();
  const base = `${target.publicUrl}${CONTROL_PREFIX}`;
  const publicHost = new URL(target.publicUrl).hostname;
  app.use('*', async (c, next) => {
    const refusal = controlRefusal(c.req.raw, publicHost);
    if (!refusal) return next();
    return answer(target, c, () => {
      throw refusal;
    });
  });
  app.get('/', (c) =>
    answer(target, c, () => ({
      openapi: `${target.publicUrl}/v4/openapi.json`,
      requests: `${base}/requests`,
      clock: `${base}/clock`,
      reset: `${base}/reset`,
      scenarios: `${base}/scenarios`,
    })),
  );
  app.get('/requests', (c) => answer(target, c, (p) => ({ requests: target.journal.list(journalFilter(p)) })));
  app.delete('/requests', (c) => answer(target, c, () => (target.journal.clear(), { cleared: true })));
  app.get('/clock', (c) => answer(target, c, () => clockState(target.clock)));
  app.post('/clock', (c) => answer(target, c, (p) => (travel(target.clock, p), clockState(target.clock))));
  app.post('/reset', (c) => answer(target, c, () => (target.reset(), { reset: true, ...clockState(target.clock) })));
  app.get('/scenarios', (c) =>
    answer(target, c, () => ({
      scenarios: Object.entries(SCENARIOS).map(([name, s]) => ({ name, description: s.doc })),
      header: 'Prefer: scenario=<name>, latency=<ms>',
    })),
  );
  app.all('*', (c) =>
    answer(target, c, () => {
      throw new ApiError(
        404,
        `No sandbox control ${c.req.method} ${new URL(c.req.url).pathname}; see GET ${CONTROL_PREFIX}`,
      );
    }),
  );
  return app;
}
