/**
 * The cache-hit fast path: a read the proxy has just answered from its cache, asked again, is
 * answered from pre-serialised bytes and precomputed headers without building a Request, running
 * Hono's router or building a Response. The Node entry (node-listener.ts) tries it before handing a
 * request to the full app; an edge runtime simply never calls it.
 *
 * It answers only what the full app would answer the same way, and defers (returns null) on any
 * doubt, so every refusal still comes from the full app and the guard order cannot be skipped:
 *
 * 1. only GET, with a URL the adapter takes as it is, no longer than the app's limit and with a
 *    path the request guard accepts, and no method-override header;
 * 2. a loopback Host when the proxy has no public URL; a calling site (Origin, Referer,
 *    Sec-Fetch-Site) the origin rule accepts;
 * 3. this very URL (and, without a public URL, this Host) answered by the full app in the last
 *    second with a 2xx from the cache: so its parameters and venue passed the route's checks
 *    (a second bounds how late a change of the venue groups or of the date reaches it);
 * 4. that cache entry still fresh and unchanged (the state's own `peekRead`, shared states too);
 * 5. last, the per-client limit, counted once: a refusal is handed to the full app with the count
 *    already made (`COUNTED`), which then answers the 429 itself.
 *
 * Where 3 or 4 fails, a relayed read whose route checks are simple (an availability GET of a
 * configured venue with a valid query, `options.relay`) is run here instead (3'), once the app has
 * sent an answer whose middleware headers it can reuse: the route's own read, after 5. Whatever
 * that read answers, refusals included, is what the app would answer.
 *
 * Every answer gets the same log line as one from the app.
 */
import { MAX_URL_LENGTH, OVERRIDE_HEADERS, pathProblem } from './guards/request.js';
import type { Logger } from './core/log.js';
import type { RateDecision } from './state/rate-limit.js';
import { requestSite } from './guards/request-site.js';
import type { Relayed } from './upstream/relay.js';
import type { LimitRule, ProxyState } from './state/types.js';
import { isLoopback } from './guards/validate.js';

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

/**
 * Key of the host context under which the fast path hands over a rate-limit decision it already
 * counted: the app's limiter uses it instead of counting the request a second time. A symbol, so
 * nothing a client sends can set it.
 */
export const COUNTED = Symbol('venue-booking.counted');

/** A host context that may carry a counted decision. */
export type CountedEnv = { [COUNTED]?: RateDecision };

/** What the fast path needs from its proxy. */
export interface FastPathOptions {
  state: ProxyState;
  logger: Logger;
  now: () => number;
  rateLimit: LimitRule;
  clientKey?: (request: { headers: { get(name: string): string | null } }, env: unknown) => string | undefined;
  /** Without a public URL only loopback hosts are served, and the Host is part of the memo key. */
  publicUrl: boolean;
  /** The origin rule of the app. */
  siteAllowed: (site: string, url: URL) => boolean;
  /** The `Access-Control-Allow-Origin` for an `Origin` (`''` when absent), or null. */
  allowOrigin: (origin: string) => string | null;
  /**
   * The read the app's route would run for a GET of `url`, when its checks are simple enough to
   * make here (a configured venue, a valid query); null leaves the request to the app.
   */
  relay?: (url: URL) => FastRead | null;
}

/** One remembered answer. */
interface Memo {
  cacheKey: string;
  relayed: Relayed;
  body: Uint8Array;
  /** Every header of the app's answer but the per-request ones (CORS origin, limits, X-Cache), flat. */
  headers: string[];
  until: number;
}

/** How long a remembered answer stands in for the app's route checks. */
export const MEMO_MS = 1_000;
const MAX_MEMOS = 1_000;

/** Headers that differ per request; everything else of a remembered answer is replayed as it is. */
const PER_REQUEST = new Set([
  'access-control-allow-origin',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'x-cache',
]);

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
    return this.options.publicUrl ? `${url.pathname}${url.search}` : url.href;
  }

  /**
   * Called by the app for every read answered from its cache: remembers a 2xx, fresh answer of a
   * GET with the bytes and headers the app sent.
   */
  remember(url: URL, cacheKey: string, relayed: Relayed, body: Uint8Array, headers: Record<string, string>): void {
    if (!this.asked || relayed.status < 200 || relayed.status >= 300 || relayed.headers) return;
    const kept: string[] = [];
    for (const name in headers) if (!PER_REQUEST.has(name)) kept.push(name, headers[name]!);
    this.around = kept.slice();
    this.keep(url, cacheKey, relayed, body, kept);
  }

  private keep(url: URL, cacheKey: string, relayed: Relayed, body: Uint8Array, kept: string[]): void {
    kept.push('content-length', String(body.byteLength), 'x-cache', 'HIT');
    const key = this.memoKey(url);
    this.memos.delete(key);
    this.memos.set(key, { cacheKey, relayed, body, headers: kept, until: this.options.now() + MEMO_MS });
    while (this.memos.size > MAX_MEMOS) this.memos.delete(this.memos.keys().next().value!);
  }

  /** The answer to `request`, or null when the full app must answer it. */
  async answer(request: FastRequest): Promise<FastAnswer | null> {
    const { options } = this;
    this.asked = true;
    const started = options.now();
    // 1. The request guard: length, path, method override (the method is the host's check).
    if (request.url.length > MAX_URL_LENGTH) return null;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return null;
    }
    if (pathProblem(url.pathname) !== null) return null;
    for (const name of OVERRIDE_HEADERS) if (request.header(name) !== null) return null;
    // 2. Host and calling site.
    if (!options.publicUrl && !isLoopback(url.hostname)) return null;
    const headers = { get: (name: string) => request.header(name) };
    const site = requestSite({ headers });
    if (site === 'hidden' || (site !== null && site !== 'same-origin' && !options.siteAllowed(site, url))) return null;
    // 3. Answered by the app just now.
    const key = this.memoKey(url);
    const memo = this.memos.get(key);
    if (memo && started >= memo.until) this.memos.delete(key);
    if (!memo || started >= memo.until) return this.relay(request, url, started);
    // 4. Still the cache's fresh answer.
    const cached = await options.state.peekRead(memo.cacheKey, false);
    if (cached?.value !== memo.relayed || cached.source !== 'HIT') {
      this.memos.delete(key);
      return this.relay(request, url, started);
    }
    // 5. The client's limit, counted once.
    const counted = await this.count(request);
    if (!counted) return null;
    const out = memo.headers.slice();
    this.perRequest(out, request, counted.decision.headers);
    this.log(url, memo.relayed.status, started, 'HIT');
    return { status: memo.relayed.status, headers: out, body: memo.body };
  }

  /**
   * 3'. Not answered just now: the read itself, when the app's route checks are simple enough to
   * make here (`options.relay`) and the app has sent an answer of its own (whose middleware
   * headers this one gets). The read is the app's own (reads.ts `readThrough`); refusals it makes
   * after the count (a spared upstream, a spent budget) are rendered as the app renders them.
   */
  private async relay(request: FastRequest, url: URL, started: number): Promise<FastAnswer | null> {
    const { around, options } = this;
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
        this.keep(url, sent.memo.cacheKey, sent.memo.relayed, sent.body, kept);
    }
    out.push('content-length', String(sent.body.byteLength));
    this.perRequest(out, request, counted.decision.headers);
    this.log(url, sent.status, started, cache);
    return { status: sent.status, headers: out, body: sent.body };
  }

  /** The client's limit, counted once: a refusal is handed to the app with the count made. */
  private async count(request: FastRequest): Promise<{ client: string; decision: RateDecision } | null> {
    const { options } = this;
    const client = options.clientKey?.({ headers: { get: (name) => request.header(name) } }, request.env) ?? 'shared';
    const decision = await options.state.hit('api', client, options.rateLimit);
    if (decision.allowed) return { client, decision };
    (request.env as CountedEnv)[COUNTED] = decision;
    return null;
  }

  /** The headers that differ per request: CORS origin and the client's limit. */
  private perRequest(out: string[], request: FastRequest, limit: Record<string, string>): void {
    const allowOrigin = this.options.allowOrigin(request.header('origin') || '');
    if (allowOrigin) out.push('access-control-allow-origin', allowOrigin);
    for (const name in limit) out.push(name.toLowerCase(), limit[name]!);
  }

  /** The app's log line of an answer. */
  private log(url: URL, status: number, started: number, cache: string | undefined): void {
    const { options } = this;
    options.logger.log({
      level: status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: 'GET',
      path: url.pathname.slice(0, 120),
      status,
      ms: options.now() - started,
      cache,
    });
  }
}
