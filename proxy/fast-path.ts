/**
 * The cache-hit fast path: a read the proxy has just answered from its cache, asked again, is
 * answered from pre-serialised bytes and precomputed headers without building a Request, running
 * Hono's router or building a Response. The Node entry (node/listener.ts) tries it before handing
 * a request to the full app; an edge runtime simply never calls it.
 *
 * It answers only what the full app would answer the same way, and defers (returns null) on any
 * doubt, so every refusal still comes from the full app and the guard order cannot be skipped:
 *
 * 1. only GET (the host's check), with a URL the adapter takes as it is;
 * 2. the app's own guard list (guards/request.ts `firstRefusal`: address, method, override
 *    headers, Host, calling site) lets it on;
 * 3. this very URL (and, without a public URL, this Host) answered by the full app in the last
 *    second with a 2xx from the cache: so its parameters and venue passed the route's checks
 *    (a second bounds how late a change of the venue groups or of the date reaches it);
 * 4. that cache entry still fresh and unchanged (the state's own `peekRead`, shared states too);
 * 5. last, the per-client limit (guards/limits.ts `clientLimit`, as the app counts it), counted
 *    once: a refusal is handed to the full app with the count already made (`COUNTED`), which
 *    then answers the 429 itself.
 *
 * Where 3 or 4 fails, a relayed read whose route checks are simple (an availability GET of a
 * configured venue with a valid query, `options.relay`) is run here instead (3'), once the app has
 * sent an answer whose middleware headers it can reuse: the route's own read, after 5. Whatever
 * that read answers, refusals included, is what the app would answer.
 *
 * Every answer gets the same log line as one from the app.
 */
import type { Context } from 'hono';
import { envelopeText, errorPayload } from './core/envelope.js';
import { plainHeadersOf } from './core/headers.js';
import type { Logger } from './core/log.js';
import type { Metrics } from './core/metrics.js';
import { urlOf } from './core/url.js';
import type { ResolvedConfig } from './config.js';
import {
  clientLimit,
  COUNTED,
  quotaFields,
  type ClientLimits,
  type CountedEnv,
  type LimitDecision,
} from './guards/limits.js';
import { firstRefusal, noteSite, type GuardRequest, type GuardSettings } from './guards/request.js';
import { routeLabel } from './middleware.js';
import { ID_RE, queryParams } from './guards/validate.js';
import { asProxyError, sendOptions, type ProxyContext } from './routes/context.js';
import { readThrough, type ReadCall } from './routes/read-through.js';
import { availabilityRead } from './routes/reads.js';
import { acceptsGzip, gzip } from './routes/script.js';
import type { RecentOrigins } from './state/recent-origins.js';
import type { ProxyState, Relayed } from './state/types.js';
import { prepare, sent } from './upstream/relay.js';

/** A request as a host sees it before any `Request` is built. */
export interface FastRequest {
  /** The absolute URL the Fetch adapter would give the app, e.g. `http://localhost:8080/api/…`. */
  url: string;
  /** A request header by its lower-case name, values joined as `Headers.get` joins them; null when absent. */
  header(name: string): string | null;
  /** The host's per-request context, passed to `clientKey` as the app passes it. */
  env: unknown;
}

/**
 * A read the fast path runs itself for `client` (counted already): what the app's route would
 * send, its own headers only (the middleware's are the ones the app sent last, see `relay`).
 * `memo` names the cache entry the answer came from when a repeat may be answered from it.
 */
export type FastRead = (client: string) => Promise<FastSent>;

/** What a `FastRead` sends. */
export interface FastSent {
  status: number;
  body: Uint8Array;
  headers: Record<string, string>;
  memo?: { cacheKey: string; relayed: Relayed };
}

/** A prepared answer the host writes as it is. */
export interface FastAnswer {
  status: number;
  /** Names and values in turn (lower-case names), as `ServerResponse.writeHead` takes them; `Content-Length` included. */
  headers: string[];
  body: Uint8Array;
}

/** What the fast path needs from its proxy. */
export interface FastPathOptions {
  state: ProxyState;
  logger: Logger;
  now: () => number;
  /** The app's guard settings; without a public URL, the Host is also part of the memo key. */
  guards: GuardSettings;
  limits: ClientLimits;
  clientKey?: (request: { headers: { get(name: string): string | null } }, env: unknown) => string | undefined;
  /** The `Access-Control-Allow-Origin` for an `Origin` (`''` when absent), or null. */
  allowOrigin: (origin: string) => string | null;
  /**
   * The read the app's route would run for a GET of `url`, when its checks are simple enough to
   * make here (a configured venue, a valid query); null leaves the request to the app.
   */
  relay?: (url: URL) => FastRead | null;
  /** Where the answers are counted, as the app counts its own. */
  metrics: Metrics;
  /** Where the calling sites of the answered requests are noted, as the app notes them. */
  recentOrigins: RecentOrigins;
}

/** One remembered answer. */
interface Memo {
  /** Its answers' series in the metrics (requests, their duration, cache hits), looked up once. */
  counted: { request: (by: number) => void; duration: (seconds: number) => void; hit: (by: number) => void };
  cacheKey: string;
  relayed: Relayed;
  body: Uint8Array;
  /** Every header of the app's answer but the per-request ones (CORS origin, limits, X-Cache), flat. */
  headers: string[];
  until: number;
  /** The body gzipped, made when a client first accepts it. */
  gzipped?: Promise<Uint8Array>;
}

/** How long a remembered answer stands in for the app's route checks. */
export const MEMO_MS = 1_000;
const MAX_MEMOS = 1_000;

/** Headers that differ per request; everything else of a remembered answer is replayed as it is. */
const PER_REQUEST = new Set([
  'access-control-allow-origin',
  // The encoding is the client's to choose (`encoded`), and the length follows it.
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'x-cache',
]);

/** The route template of the reads the fast path runs itself (`availabilityRelay`). */
const AVAILABILITY_ROUTE = '/api/venues/:venue/booking-availability';

/** The fast path of one proxy. */
export class FastPath {
  private readonly memos = new Map<string, Memo>();
  /**
   * The middleware's headers (security, CORS) of the last answer the app sent from its cache,
   * less the per-request ones: what a read run here gets besides its own. None until the app has
   * sent one, so until then the app answers everything.
   */
  private around: string[] | null = null;
  /** Whether a host asks this fast path at all: until then (Workers, tests, Vite) nothing is kept. */
  private asked = false;

  constructor(private readonly options: FastPathOptions) {}

  private memoKey(url: URL): string {
    return this.options.guards.publicUrl ? `${url.pathname}${url.search}` : url.href;
  }

  /**
   * Called by the app for every read answered from its cache: remembers a 2xx, fresh answer of a
   * GET with the bytes and headers the app sent.
   */
  remember(
    url: URL,
    route: string,
    cacheKey: string,
    relayed: Relayed,
    body: Uint8Array,
    headers: Record<string, string>,
  ): void {
    if (!this.asked || relayed.status < 200 || relayed.status >= 300 || relayed.headers) return;
    const kept: string[] = [];
    for (const name in headers) if (!PER_REQUEST.has(name)) kept.push(name, headers[name]!);
    this.around = kept.slice();
    this.keep(url, route, cacheKey, relayed, body, kept);
  }

  private keep(url: URL, route: string, cacheKey: string, relayed: Relayed, body: Uint8Array, kept: string[]): void {
    kept.push('x-cache', 'HIT');
    const key = this.memoKey(url);
    this.memos.delete(key);
    const { metrics } = this.options;
    const counted = {
      request: metrics.counter('requests_total', { route, method: 'GET', code: String(relayed.status) }),
      duration: metrics.histogram('request_duration_seconds', { route }),
      hit: metrics.counter('cache_reads_total', { result: 'hit' }),
    };
    this.memos.set(key, { counted, cacheKey, relayed, body, headers: kept, until: this.options.now() + MEMO_MS });
    while (this.memos.size > MAX_MEMOS) this.memos.delete(this.memos.keys().next().value!);
  }

  /** The answer to `request`, or null when the full app must answer it. */
  async answer(request: FastRequest): Promise<FastAnswer | null> {
    const { options } = this;
    this.asked = true;
    const started = options.now();
    // 1. A URL the app would take (the method is the host's check: GET only).
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return null;
    }
    // 2. The app's guards, in the app's order; any refusal is the app's to answer.
    const guarded: GuardRequest = { href: request.url, url, method: 'GET', header: (name) => request.header(name) };
    if (firstRefusal(guarded, options.guards)) return null;
    // 3. Answered by the app just now.
    const key = this.memoKey(url);
    const memo = this.memos.get(key);
    if (memo && started >= memo.until) this.memos.delete(key);
    if (!memo || started >= memo.until) return this.relay(request, guarded, started);
    // 4. Still the cache's fresh answer.
    const cached = await options.state.peekRead(memo.cacheKey, false);
    if (cached?.value !== memo.relayed || cached.source !== 'HIT') {
      this.memos.delete(key);
      return this.relay(request, guarded, started);
    }
    // 5. The client's limit, counted once.
    const counted = await this.count(request);
    if (!counted) return null;
    const out = memo.headers.slice();
    this.perRequest(out, request, counted.decision);
    const body = await encoded(out, memo.body, request, memo);
    const ms = this.logged(guarded, memo.relayed.status, started, 'HIT');
    memo.counted.request(1);
    memo.counted.duration(ms / 1000);
    memo.counted.hit(1);
    return { status: memo.relayed.status, headers: out, body };
  }

  /**
   * 3'. Not answered just now: the read itself, when the app's route checks are simple enough to
   * make here (`options.relay`) and the app has sent an answer of its own (whose middleware
   * headers this one gets). The read is the app's own (routes/read-through.ts `readThrough`); refusals it makes
   * after the count (a spared upstream, a spent budget) are rendered as the app renders them.
   */
  private async relay(request: FastRequest, guarded: GuardRequest, started: number): Promise<FastAnswer | null> {
    const { around, options } = this;
    const { url } = guarded;
    const read = around && options.relay?.(url);
    if (!read) return null;
    // 5. The client's limit, counted once.
    const counted = await this.count(request);
    if (!counted) return null;
    const sent = await read(counted.client);
    const out: string[] = [];
    for (let i = 0; i < around.length; i += 2) if (!(around[i]! in sent.headers)) out.push(around[i]!, around[i + 1]!);
    for (const name in sent.headers) out.push(name, sent.headers[name]!);
    const cache = sent.headers['x-cache'];
    if (sent.memo && cache !== 'STALE') {
      const kept: string[] = [];
      for (let i = 0; i < out.length; i += 2) if (!PER_REQUEST.has(out[i]!)) kept.push(out[i]!, out[i + 1]!);
      if (sent.status >= 200 && sent.status < 300 && !sent.memo.relayed.headers)
        this.keep(url, AVAILABILITY_ROUTE, sent.memo.cacheKey, sent.memo.relayed, sent.body, kept);
    }
    this.perRequest(out, request, counted.decision);
    const body = await encoded(out, sent.body, request);
    const ms = this.logged(guarded, sent.status, started, cache);
    options.metrics.count('requests_total', { route: AVAILABILITY_ROUTE, method: 'GET', code: String(sent.status) });
    options.metrics.observe('request_duration_seconds', { route: AVAILABILITY_ROUTE }, ms / 1000);
    return { status: sent.status, headers: out, body };
  }

  /** The client's limit, counted once: a refusal is handed to the app with the count made. */
  private async count(request: FastRequest): Promise<{ client: string; decision: LimitDecision } | null> {
    const { options } = this;
    const client = options.clientKey?.({ headers: { get: (name) => request.header(name) } }, request.env) ?? 'shared';
    const decision = await clientLimit(options.state, options.limits, client, false);
    if (decision.allowed) return { client, decision };
    (request.env as CountedEnv)[COUNTED] = decision;
    return null;
  }

  /** The headers that differ per request: CORS origin and the client's limit. */
  private perRequest(out: string[], request: FastRequest, decision: LimitDecision): void {
    const { options } = this;
    const allowOrigin = options.allowOrigin(request.header('origin') || '');
    if (allowOrigin) out.push('access-control-allow-origin', allowOrigin);
    for (const name in decision.headers) out.push(name.toLowerCase(), decision.headers[name]!);
    const quota = quotaFields(decision, options.limits, false, options.now());
    out.push('ratelimit-policy', quota['RateLimit-Policy'], 'ratelimit', quota.RateLimit);
  }

  /**
   * What the app does with an answer it sends besides counting it: its log line, its calling site
   * noted. The milliseconds it took.
   */
  private logged(request: GuardRequest, status: number, started: number, cache: string | undefined): number {
    const { options } = this;
    const ms = options.now() - started;
    options.logger.log({
      level: status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: 'GET',
      path: request.url.pathname.slice(0, 120),
      status,
      ms,
      cache,
    });
    noteSite(request, options.guards, options.recentOrigins);
    return ms;
  }
}

/**
 * Which cache key each relayed answer came from, so that an answer sent from the cache can be
 * remembered by the fast path with the key it must still be fresh under. The route modules see
 * the state through `noting`; nothing else changes.
 */
export class CacheKeys {
  private readonly keys = new WeakMap<Relayed, string>();

  /** The cache key `relayed` was read under, when it came through the state's reads. */
  of(relayed: Relayed): string | undefined {
    return this.keys.get(relayed);
  }

  /**
   * `state` as the route modules see it: its reads note their answers' keys; every other member
   * is the state's own (bound to it), so a new method needs no change here.
   */
  noting(state: ProxyState): ProxyState {
    const note = <T extends { value: Relayed } | undefined>(key: string, read: T): T => {
      if (read) this.keys.set(read.value, key);
      return read;
    };
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
}

/**
 * What the app tells the fast path of each relayed answer it sends (routes/context.ts `onSent`):
 * a GET answered from a cache entry, not stale, with the plain headers the app built, is
 * remembered with its bytes, unless its body had to be redacted.
 */
export function rememberSent(fast: FastPath, keys: CacheKeys, config: ResolvedConfig) {
  return (c: Context, relayed: Relayed, response: Response, headers: Record<string, string> | undefined): void => {
    const key = keys.of(relayed);
    const plain = plainHeadersOf(response);
    if (c.req.method !== 'GET' || !key || !plain || headers?.['X-Cache'] === 'STALE') return;
    const url = urlOf(c.req.raw);
    const { bookingUrl, apiKey } = sendOptions(config, url);
    const { bytes, leaked } = prepare(relayed, bookingUrl, apiKey);
    if (!leaked) fast.remember(url, routeLabel(c), key, relayed, bytes, plain);
  };
}

/**
 * The body as the app's compression middleware would send it (app.ts, `compress`): the JSON
 * gzipped for a client that accepts gzip, `Vary: Accept-Encoding` either way; `Content-Length`
 * added to `out` for the bytes sent. A memo keeps its gzipped body for the next client.
 */
async function encoded(out: string[], body: Uint8Array, request: FastRequest, memo?: Memo): Promise<Uint8Array> {
  const vary = out.indexOf('vary');
  if (vary < 0) out.push('vary', 'Accept-Encoding');
  else if (!/accept-encoding/i.test(out[vary + 1]!)) out[vary + 1] = `${out[vary + 1]}, Accept-Encoding`;
  let sent = body;
  if (acceptsGzip(request.header('accept-encoding') ?? undefined)) {
    const zipped = gzip(body as Uint8Array<ArrayBuffer>);
    sent = await (memo ? (memo.gzipped ??= zipped) : zipped);
    out.push('content-encoding', 'gzip');
  }
  out.push('content-length', String(sent.byteLength));
  return sent;
}

/** The same headers with lower-case names. */
const lowerCase = (headers: Record<string, string>) => {
  const lower: Record<string, string> = {};
  for (const name in headers) lower[name.toLowerCase()] = headers[name]!;
  return lower;
};

const AVAILABILITY = /^\/api\/venues\/([^/]+)\/booking-availability$/;

/**
 * An availability GET for the fast path (`FastPathOptions.relay`), when the route's checks are
 * simple: a configured venue (a venue of a group is the app's to look up) and a valid query. The
 * read is the route's own; what it sends, and what it throws, are what the app would send.
 */
export function availabilityRelay(ctx: ProxyContext, keys: CacheKeys): (url: URL) => FastRead | null {
  const venues = new Set(ctx.config.venues);
  return (url) => {
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
          const answer = sent(relayed, { ...sendOptions(ctx.config, url), headers });
          const key = keys.of(relayed);
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
        const error = asProxyError(thrown, false, ctx.logger);
        const headers = lowerCase(Object.fromEntries(new Headers(error.options.headers)));
        headers['content-type'] = 'application/json; charset=utf-8';
        headers['cache-control'] = 'no-store';
        const text = envelopeText(url.pathname, 'GET', error.status, errorPayload(error.message, error.options));
        return { status: error.status, body: new TextEncoder().encode(text), headers };
      }
    };
  };
}
