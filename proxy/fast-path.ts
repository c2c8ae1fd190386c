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
 * Every answer gets the same log line as one from the app.
 */
import { MAX_URL_LENGTH, OVERRIDE_HEADERS, pathProblem } from './guard.js';
import type { Logger } from './log.js';
import type { RateDecision } from './rate-limit.js';
import { requestSite } from './request-site.js';
import type { Relayed } from './relay.js';
import type { LimitRule, ProxyState } from './state/types.js';
import { isLoopback } from './validate.js';

/** A request as a host sees it before any `Request` is built. */
export interface FastRequest {
  /** The absolute URL the Fetch adapter would give the app, e.g. `http://localhost:8080/api/…`. */
  url: string;
  /** A request header by its lower-case name, values joined as `Headers.get` joins them; null when absent. */
  header(name: string): string | null;
  /** The host's per-request context, passed to `clientKey` as the app passes it. */
  env: unknown;
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
    if (!memo) return null;
    if (started >= memo.until) {
      this.memos.delete(key);
      return null;
    }
    // 4. Still the cache's fresh answer.
    const cached = await options.state.peekRead(memo.cacheKey, false);
    if (cached?.value !== memo.relayed || cached.source !== 'HIT') return null;
    // 5. The client's limit, counted once.
    const client = options.clientKey?.({ headers }, request.env) ?? 'shared';
    const decision = await options.state.hit('api', client, options.rateLimit);
    if (!decision.allowed) {
      (request.env as CountedEnv)[COUNTED] = decision;
      return null;
    }
    const out = memo.headers.slice();
    const allowOrigin = options.allowOrigin(request.header('origin') || '');
    if (allowOrigin) out.push('access-control-allow-origin', allowOrigin);
    for (const name in decision.headers) out.push(name.toLowerCase(), decision.headers[name]!);
    options.logger.log({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: url.pathname.slice(0, 120),
      status: memo.relayed.status,
      ms: options.now() - started,
      cache: 'HIT',
    });
    return { status: memo.relayed.status, headers: out, body: memo.body };
  }
}
