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
import { plainHeadersOf } from './core/headers.js';
import { plainUrl, urlOf, type RequestUrl } from './core/url.js';
import { clientOf } from './guards/client-ip.js';
import { clientLimit, COUNTED, type CountedEnv, type LimitDecision } from './guards/limits.js';
import { firstRefusal, noteSite, type GuardRequest, type GuardSettings } from './guards/request.js';
import { queryParams } from './guards/validate.js';
import { routeLabel } from './middleware.js';
import { perRequestHeaders, relayedRead, type FastRead, type RequestRecorder, type Series } from './pipeline.js';
import { sendOptions, type ProxyContext } from './context.js';
import { acceptsGzip, gzip } from './core/encoding.js';
import { templateMatcher } from './paths.js';
import type { Route } from './routes.js';
import { after, type Awaitable, type Relayed } from './state/types.js';
import { prepare } from './upstream/relay.js';

/** A request as a host sees it before any `Request` is built. */
export interface FastRequest {
  /** The absolute URL the Fetch adapter would give the app, e.g. `http://localhost:8080/api/…`. */
  url: string;
  /** A request header by its lower-case name, values joined as `Headers.get` joins them; null when absent. */
  header(name: string): string | null;
  /** The host's per-request context, passed to `clientKey` as the app passes it. */
  env: unknown;
  /** The URL's parts, when the host found them plain (node/listener.ts): split without a parser. */
  plain?: { scheme: string; host: string; target: string };
}

/** A prepared answer the host writes as it is. */
export interface FastAnswer {
  status: number;
  /** Names and values in turn (lower-case names), as `ServerResponse.writeHead` takes them; `Content-Length` included. */
  headers: string[];
  body: Uint8Array;
}

/** What the fast path needs from its proxy besides the route context. */
export interface FastPathParts {
  /** The route table: which rows it may serve (`fast`), and how each is labelled. */
  routes: readonly Route[];
  /** The app's guard settings; without a public URL, the Host is also part of the memo key. */
  guards: GuardSettings;
  /** The `Access-Control-Allow-Origin` for an `Origin` (`''` when absent), or null. */
  allowOrigin: (origin: string) => string | null;
  /** The log line and metrics of every answer, as the app records its own (pipeline.ts). */
  recorder: RequestRecorder;
}

/** A body to send: as it is, or gzipped once (a remembered answer keeps its gzipped body for every later client). */
interface Encodable {
  body: Uint8Array;
  /** `Content-Length` of the body as it is. */
  length: string;
  /** The body gzipped, made when a client first accepts it, and kept once made. */
  gzipping?: Promise<Uint8Array>;
  gzipped?: Uint8Array;
}

/** One remembered answer. */
interface Memo extends Encodable {
  /** The route label its answers are counted under, and their series (looked up once). */
  route: string;
  series: Series;
  cacheKey: string;
  relayed: Relayed;
  /**
   * Every header of the app's answer but the per-request ones (CORS origin, limits, encoding and
   * length), flat, `Vary` naming `Accept-Encoding`, `X-Cache: HIT` last.
   */
  headers: string[];
  until: number;
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

/** A row the fast path runs itself, and the matcher of its template. */
interface RelayRow {
  route: string;
  match: (pathname: string) => Record<string, string> | null;
  read: NonNullable<Route['fastRead']>;
}

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
  private readonly relays: RelayRow[];
  private readonly hit: (by: number) => void;

  constructor(
    private readonly ctx: ProxyContext,
    private readonly parts: FastPathParts,
  ) {
    this.hit = ctx.config.metrics.counter('cache_reads_total', { result: 'hit' });
    this.relays = parts.routes.flatMap((route) =>
      route.fast === 'relay' && route.fastRead
        ? [{ route: route.label ?? route.path, match: templateMatcher(route.path), read: route.fastRead }]
        : [],
    );
    // Every relayed answer the app sends from its cache is a candidate to remember.
    ctx.watchSent((c, relayed, response, headers, cacheKey) => this.sent(c, relayed, response, headers, cacheKey));
  }

  private memoKey(url: RequestUrl): string {
    return this.parts.guards.publicUrl ? `${url.pathname}${url.search}` : url.href;
  }

  /**
   * What the app tells of each relayed answer it sends: a GET answered from a cache entry, not
   * stale, with the plain headers the app built, is remembered with its bytes, unless its body had
   * to be redacted.
   */
  private sent(
    c: Context,
    relayed: Relayed,
    response: Response,
    headers: Record<string, string> | undefined,
    cacheKey: string | undefined,
  ): void {
    if (!this.asked || c.req.method !== 'GET' || !cacheKey || headers?.['X-Cache'] === 'STALE') return;
    if (relayed.status < 200 || relayed.status >= 300 || relayed.headers) return;
    const plain = plainHeadersOf(response);
    if (!plain) return;
    const url = urlOf(c.req.raw);
    const { bookingUrl, apiKey } = sendOptions(this.ctx.config, url);
    const { bytes, leaked } = prepare(relayed, bookingUrl, apiKey);
    if (leaked) return;
    const kept: string[] = [];
    for (const name in plain) if (!PER_REQUEST.has(name)) kept.push(name, plain[name]!);
    this.around = kept.slice();
    this.keep(url, routeLabel(c), cacheKey, relayed, bytes, kept);
  }

  private keep(
    url: RequestUrl,
    route: string,
    cacheKey: string,
    relayed: Relayed,
    body: Uint8Array,
    kept: string[],
  ): void {
    varyOnEncoding(kept);
    kept.push('x-cache', 'HIT');
    const key = this.memoKey(url);
    this.memos.delete(key);
    const series = this.parts.recorder.series(route, 'GET', relayed.status);
    const until = this.ctx.now() + MEMO_MS;
    this.memos.set(key, {
      route,
      series,
      cacheKey,
      relayed,
      body,
      headers: kept,
      until,
      length: String(body.byteLength),
    });
    while (this.memos.size > MAX_MEMOS) this.memos.delete(this.memos.keys().next().value!);
  }

  /**
   * The answer to `request`, or null when the full app must answer it (and records it). At once
   * when the state answers at once (`ProxyState.peekRead` and `hit`: the memory state always), so
   * that a remembered read is answered in the turn it arrived; a promise otherwise.
   */
  answer(request: FastRequest): Awaitable<FastAnswer | null> {
    const { recorder } = this.parts;
    recorder.begin();
    let answer: Awaitable<FastAnswer | null>;
    try {
      answer = this.answerOrNull(request);
    } catch (error) {
      recorder.abandon();
      throw error;
    }
    if (!(answer instanceof Promise)) {
      if (!answer) recorder.abandon();
      return answer;
    }
    return answer.then(
      (settled) => {
        if (!settled) recorder.abandon();
        return settled;
      },
      (error: unknown) => {
        recorder.abandon();
        throw error;
      },
    );
  }

  private answerOrNull(request: FastRequest): Awaitable<FastAnswer | null> {
    this.asked = true;
    const started = this.ctx.now();
    // 1. A URL the app would take (the method is the host's check: GET only).
    const url = requestUrl(request);
    if (!url) return null;
    // 2. The app's guards, in the app's order; any refusal is the app's to answer.
    const guarded: GuardRequest = { href: request.url, url, method: 'GET', header: request.header };
    if (firstRefusal(guarded, this.parts.guards)) return null;
    // 3. Answered by the app just now.
    const key = this.memoKey(url);
    const memo = this.memos.get(key);
    if (memo && started >= memo.until) this.memos.delete(key);
    if (!memo || started >= memo.until) return this.relay(request, guarded, started);
    // 4. Still the cache's fresh answer.
    return after(this.ctx.state.peekRead(memo.cacheKey, false), (cached) => {
      if (cached?.value !== memo.relayed || cached.source !== 'HIT') {
        this.memos.delete(key);
        return this.relay(request, guarded, started);
      }
      // 5. The client's limit, counted once.
      return after(this.count(request), (counted) => counted && this.replay(memo, request, guarded, counted, started));
    });
  }

  /** A remembered answer replayed for a request the guards and the limit let through. */
  private replay(
    memo: Memo,
    request: FastRequest,
    guarded: GuardRequest,
    counted: { decision: LimitDecision },
    started: number,
  ): Awaitable<FastAnswer> {
    const out = memo.headers.slice();
    this.perRequest(out, request, counted.decision);
    return after(encoded(out, memo, request), (body) => {
      this.answered(guarded, memo.route, memo.relayed.status, started, body.byteLength, 'HIT', memo.series);
      this.hit(1);
      return { status: memo.relayed.status, headers: out, body };
    });
  }

  /**
   * 3'. Not answered just now: the read itself, when the table lets the fast path run it (`fast:
   * 'relay'`), its checks are simple enough to make here (the row's `fastRead`) and the app has
   * sent an answer of its own (whose middleware headers this one gets). The read is the app's own
   * (api/read-through.ts `readThrough`); refusals it makes after the count (a spared upstream, a
   * spent budget) are rendered as the app renders them.
   */
  private async relay(request: FastRequest, guarded: GuardRequest, started: number): Promise<FastAnswer | null> {
    const { around } = this;
    const found = around && this.relayOf(guarded.url);
    if (!found) return null;
    // 5. The client's limit, counted once.
    const counted = await this.count(request);
    if (!counted) return null;
    const sent = await found.read(counted.client);
    const out: string[] = [];
    for (let i = 0; i < around.length; i += 2) if (!(around[i]! in sent.headers)) out.push(around[i]!, around[i + 1]!);
    for (const name in sent.headers) out.push(name, sent.headers[name]!);
    const cache = sent.headers['x-cache'];
    if (sent.memo && cache !== 'STALE') {
      const kept: string[] = [];
      for (let i = 0; i < out.length; i += 2) if (!PER_REQUEST.has(out[i]!)) kept.push(out[i]!, out[i + 1]!);
      if (sent.status >= 200 && sent.status < 300 && !sent.memo.relayed.headers)
        this.keep(guarded.url, found.route, sent.memo.cacheKey, sent.memo.relayed, sent.body, kept);
    }
    this.perRequest(out, request, counted.decision);
    varyOnEncoding(out);
    return after(encoded(out, { body: sent.body, length: String(sent.body.byteLength) }, request), (body) => {
      this.answered(guarded, found.route, sent.status, started, body.byteLength, cache);
      return { status: sent.status, headers: out, body };
    });
  }

  /** The read of a row the fast path may run for a GET of `url`, with its route label; null leaves it to the app. */
  private relayOf(plain: RequestUrl): { route: string; read: FastRead } | null {
    for (const row of this.relays) {
      const params = row.match(plain.pathname);
      if (!params) continue;
      const query = queryParams(plain.search);
      if (query.errors.length) return null;
      let spec;
      try {
        spec = row.read(this.ctx, params, query.raw);
      } catch {
        return null;
      }
      return spec ? { route: row.route, read: relayedRead(this.ctx, plain, spec) } : null;
    }
    return null;
  }

  /** The client's limit, counted once: a refusal is handed to the app with the count made. */
  private count(request: FastRequest): Awaitable<{ client: string; decision: LimitDecision } | null> {
    const { config, state } = this.ctx;
    const client = clientOf(config.clientKey, request.header, request.env);
    return after(clientLimit(state, config, client, false), (decision) => {
      if (decision.allowed) return { client, decision };
      (request.env as CountedEnv)[COUNTED] = decision;
      return null;
    });
  }

  /** The headers that differ per request: CORS origin and the client's limit. */
  private perRequest(out: string[], request: FastRequest, decision: LimitDecision): void {
    const allowOrigin = this.parts.allowOrigin(request.header('origin') || '');
    perRequestHeaders(out, allowOrigin, decision, this.ctx.config, this.ctx.now());
  }

  /** What the app does with an answer it sends: its log line and metrics (pipeline.ts), its calling site noted. */
  private answered(
    request: GuardRequest,
    route: string,
    status: number,
    started: number,
    responseBytes: number,
    cache?: string,
    series?: Series,
  ): void {
    this.parts.recorder.record(
      { method: 'GET', path: request.url.pathname, route, status, started, cache, requestBytes: 0, responseBytes },
      series,
    );
    noteSite(request, this.parts.guards, this.ctx.recentOrigins);
  }
}

/** The URL of a fast request: split when the host found it plain, else parsed; null when it does not parse. */
function requestUrl(request: FastRequest): RequestUrl | null {
  const { plain } = request;
  const split = plain && plainUrl(plain.scheme, plain.host, plain.target);
  if (split) return split;
  try {
    return new URL(request.url);
  } catch {
    return null;
  }
}

/** `Vary` naming `Accept-Encoding`, as the app's compression middleware sends it (middleware.ts `compression`). */
function varyOnEncoding(out: string[]): void {
  const vary = out.indexOf('vary');
  if (vary < 0) out.push('vary', 'Accept-Encoding');
  else if (!/accept-encoding/i.test(out[vary + 1]!)) out[vary + 1] = `${out[vary + 1]}, Accept-Encoding`;
}

/**
 * The body as the app's compression middleware would send it: the JSON gzipped for a client that
 * accepts gzip (made once per `Encodable`, then at once); `Content-Encoding` and `Content-Length`
 * added to `out` for the bytes sent.
 */
function encoded(out: string[], target: Encodable, request: FastRequest): Awaitable<Uint8Array> {
  if (!acceptsGzip(request.header('accept-encoding') ?? undefined)) {
    out.push('content-length', target.length);
    return target.body;
  }
  const zipped =
    target.gzipped ??
    (target.gzipping ??= gzip(target.body as Uint8Array<ArrayBuffer>).then((made) => (target.gzipped = made)));
  return after(zipped, (body) => {
    out.push('content-encoding', 'gzip', 'content-length', String(body.byteLength));
    return body;
  });
}
