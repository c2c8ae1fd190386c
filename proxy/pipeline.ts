/**
 * The request pipeline, written once: the steps every request takes, in this order, as plain
 * functions over a `GuardRequest`, which the Hono app (middleware.ts, every request) and the Node
 * entry (`Sequence`, the reads it can answer without the app) both call:
 *
 * 1. guards: `firstRefusal` (guards/request.ts) with the settings `guardSettings` builds from the
 *    route table; the calling site noted (`noteSite`);
 * 2. limit: the per-client limit (guards/limits.ts `clientLimit`), counted once per request;
 * 3. headers: the route's own, then the layers every API answer carries (`apiLayers`: security,
 *    `Vary`, CORS, the limit's), combined as core/headers.ts `combined` says;
 * 4. encode: gzip for a client that accepts it (`encoded`);
 * 5. record: one log line and the request's metrics (`RequestRecorder`).
 *
 * The Node entry's cache (fast-path.ts) finds what to send; this module sends it.
 */
import type { Logger } from './core/log.js';
import type { RequestUrl } from './core/url.js';
import type { Metrics } from './core/metrics.js';
import type { ResolvedConfig } from './config.js';
import type { GuardRequest, GuardSettings } from './guards/request.js';
import { firstRefusal, noteSite } from './guards/request.js';
import { TokenThrottle } from './guards/operator.js';
import { clientOf } from './guards/client-ip.js';
import { clientLimit, LIMIT_MESSAGE, limitHeaders } from './guards/limits.js';
import { envelopeText, errorPayload } from './core/envelope.js';
import { acceptsGzip, gzip } from './core/encoding.js';
import { combined, SECURITY_LAYER, type Layer } from './core/headers.js';
import { asProxyError, type ProxyContext } from './context.js';
import { readThrough, type ReadCall, type ReadSpec } from './api/read-through.js';
import type { Route } from './routes.js';
import { after, type Awaitable } from './state/types.js';

/** What the guards need to know of the proxy, from its route table and config. */
export function guardSettings(
  routes: readonly Route[],
  config: ResolvedConfig,
  siteAllowed: GuardSettings['siteAllowed'],
): GuardSettings {
  const { token, loopback } = config.operatorPages;
  const operator = routes.filter((route) => route.operator);
  return {
    files: new Set(routes.filter((route) => route.methods.includes('HEAD')).map((route) => route.path)),
    publicUrl: config.publicOrigin !== null,
    siteAllowed,
    anySite: new Set(routes.filter((route) => route.anySite).map((route) => route.path)),
    operator: {
      paths: new Set(operator.map((route) => route.path)),
      scrape: new Set(operator.filter((route) => route.operator?.scrape).map((route) => route.path)),
      token,
      loopback,
      throttle: new TokenThrottle(config.now),
    },
  };
}

/** Methods counted by name; any other is `other`, so a client cannot make up label values. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);

/** What is recorded of one answered request. */
export interface RequestRecord {
  method: string;
  /** The path as requested (ids only, never the query). */
  path: string;
  /** The route label: the row's template (or label), or `unmatched`. */
  route: string;
  status: number;
  /** When the request came in (the config's clock). */
  started: number;
  /** Where the answer came from (`X-Cache`), when it says. */
  cache?: string | null;
  /** The request body's size in bytes (its Content-Length; 0 without one). */
  requestBytes: number;
  /** The answer body's size in bytes, when known (a stream's is not). */
  responseBytes: number | undefined;
}

/** The series of one route, method and status: looked up once, then counted directly. */
export interface Series {
  request: (by: number) => void;
  duration: (seconds: number) => void;
  latency: (seconds: number) => void;
  requestSize: (bytes: number) => void;
  responseSize: (bytes: number) => void;
}

/**
 * One log line and the request metrics per answer, for both adapters. The series of a route,
 * method and status are looked up once (a bounded set: the table's labels, the known methods, the
 * status codes the proxy sends).
 */
export class RequestRecorder {
  private readonly known = new Map<string, Series>();
  /** Requests begun and not yet recorded (the `requests_in_flight` gauge, read at each scrape). */
  private inFlight = 0;

  constructor(
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly now: () => number,
  ) {
    metrics.sample(() => metrics.set('requests_in_flight', {}, this.inFlight));
  }

  /** A request has come in: it is in flight until recorded (or abandoned, when another adapter takes it). */
  begin(): void {
    this.inFlight++;
  }

  /** A request begun here that another adapter answers (and records): the fast path's hand-over. */
  abandon(): void {
    this.inFlight--;
  }

  /** Logs and counts an answered request (in `series` when the caller has them); the milliseconds it took. */
  record(entry: RequestRecord, series?: Series): number {
    const ms = this.now() - entry.started;
    const method = entry.method.slice(0, 10);
    this.logger.log({
      level: entry.status >= 500 ? 'error' : 'info',
      msg: 'request',
      method,
      path: entry.path.slice(0, 120),
      status: entry.status,
      ms,
      cache: entry.cache ?? undefined,
    });
    const counted = series ?? this.series(entry.route, KNOWN_METHODS.has(method) ? method : 'other', entry.status);
    this.inFlight--;
    counted.request(1);
    counted.duration(ms / 1000);
    counted.latency(ms / 1000);
    counted.requestSize(entry.requestBytes);
    if (entry.responseBytes !== undefined) counted.responseSize(entry.responseBytes);
    return ms;
  }

  /** The series of a route, method and status (a known method's name, else `other`). */
  series(route: string, method: string, status: number): Series {
    const key = `${route} ${method} ${status}`;
    let found = this.known.get(key);
    if (!found) {
      const { metrics } = this;
      const statusClass = `${Math.floor(status / 100)}xx`;
      found = {
        request: metrics.counter('requests_total', { route, method, code: String(status) }),
        duration: metrics.histogram('request_duration_seconds', { route }),
        latency: metrics.histogram('request_latency_seconds', { route, method, status_class: statusClass }),
        requestSize: metrics.histogram('request_size_bytes', { route }),
        responseSize: metrics.histogram('response_size_bytes', { route }),
      };
      this.known.set(key, found);
    }
    return found;
  }
}

/** The CORS the widget needs: what it may send, and which of the answer's headers it may read. */
export const API_CORS = {
  allowMethods: 'GET,POST,OPTIONS',
  allowHeaders: 'Content-Type,Idempotency-Key',
  exposeHeaders: [
    'Retry-After',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'RateLimit',
    'RateLimit-Policy',
    'Idempotent-Replayed',
    'X-Cache',
  ].join(','),
  /** Seconds a browser may cache a preflight answer. */
  maxAge: '600',
} as const;

/** `Vary: Accept-Encoding` on every answer the proxy may compress. */
export const VARY_ENCODING: Layer = Object.freeze({
  mode: 'fill',
  headers: Object.freeze({}),
  vary: 'Accept-Encoding',
});

/** The CORS headers of an API answer for a request whose `Origin` gets `allowOrigin` (null: none). */
export function corsLayer(allowOrigin: string | null): Layer {
  const headers: Record<string, string> = {};
  if (allowOrigin) headers['Access-Control-Allow-Origin'] = allowOrigin;
  headers['Access-Control-Expose-Headers'] = API_CORS.exposeHeaders;
  return { mode: 'set', headers, vary: 'Origin' };
}

/**
 * Every layer an API answer carries, outermost first, as the app's middleware add them: security,
 * `Vary: Accept-Encoding` (with compression on), CORS and, when the request was counted, its limit.
 */
export function apiLayers(compress: boolean, allowOrigin: string | null, limit?: Layer): Layer[] {
  const layers = [SECURITY_LAYER];
  if (compress) layers.push(VARY_ENCODING);
  layers.push(corsLayer(allowOrigin));
  if (limit) layers.push(limit);
  return layers;
}

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

/** A body to send: as it is, or gzipped once (a remembered answer keeps its gzipped body for every later client). */
export interface Encodable {
  body: Uint8Array;
  /** The body gzipped, made when a client first accepts it, and kept once made. */
  gzipping?: Promise<Uint8Array>;
  gzipped?: Uint8Array;
}

/** What the route part of the sequence sends: status, the route's own headers and the body. */
export interface Made {
  status: number;
  own: Record<string, string>;
  body: Encodable;
}

/**
 * What the Node entry sends for a read, found by its cache (fast-path.ts): an answer the app sent
 * just now (`made`, replayed), or the route's read to run (`read`); `route` labels its metrics.
 */
export type Source = { route: string; made: Made } | { route: string; read: ReadSpec };

/** What the sequence needs of its proxy besides the route context. */
export interface SequenceParts {
  guards: GuardSettings;
  /** The `Access-Control-Allow-Origin` for an `Origin` (`''` when absent), or null. */
  allowOrigin: (origin: string) => string | null;
  recorder: RequestRecorder;
}

/**
 * The pipeline for the reads the Node entry answers without the app, in the app's order: guards
 * (a refusal is the app's to answer: null), limit (a refusal is a 429 sent here, as the app sends
 * it), the route's answer, headers, encoding, record.
 */
export class Sequence {
  constructor(
    private readonly ctx: ProxyContext,
    private readonly parts: SequenceParts,
  ) {}

  /** The answer to a GET of `url` from `source`, or null when the app must answer (a guard refuses). */
  run(request: FastRequest, url: RequestUrl, source: Source): Awaitable<FastAnswer | null> {
    const { ctx, parts } = this;
    const { config } = ctx;
    const guarded: GuardRequest = { href: request.url, url, method: 'GET', header: request.header };
    if (firstRefusal(guarded, parts.guards)) return null;
    const started = ctx.now();
    parts.recorder.begin();
    const client = clientOf(config.clientKey, request.header, request.env);
    const answered = after(clientLimit(ctx.state, config, client, false), (decision) => {
      const limited = limitHeaders(decision, config, false, ctx.now());
      const allowOrigin = parts.allowOrigin(request.header('origin') || '');
      // A refusal carries its limit in its own headers, as the app's 429 does; an answer in a layer.
      const layers = decision.allowed
        ? apiLayers(config.compress, allowOrigin, { mode: 'set', headers: limited })
        : apiLayers(config.compress, allowOrigin);
      const making = decision.allowed ? this.made(source, url, client) : limitRefusal(url, limited);
      return after(making, (made) => {
        const headers = combined(made.own, layers);
        const out: string[] = [];
        for (const name in headers) out.push(name, headers[name]!);
        return after(encoded(out, made.body, request, config.compress), (body) => {
          const cache = headers['x-cache'];
          const { status } = made;
          const path = url.pathname;
          const responseBytes = body.byteLength;
          parts.recorder.record({
            method: 'GET',
            path,
            route: source.route,
            status,
            started,
            cache,
            requestBytes: 0,
            responseBytes,
          });
          if (cache === 'HIT') config.metrics.count('cache_reads_total', { result: 'hit' });
          noteSite(guarded, parts.guards, ctx.recentOrigins);
          return { status, headers: out, body };
        });
      });
    });
    if (answered instanceof Promise) return answered.catch(this.abandoned);
    return answered;
  }

  /** A sequence that threw after it began: nothing stays in flight, and the host hands the request on. */
  private readonly abandoned = (error: unknown): never => {
    this.parts.recorder.abandon();
    throw error;
  };

  /** The route's answer: the remembered one as it is, or the read run through the cache as the app runs it. */
  private made(source: Source, url: RequestUrl, client: string): Awaitable<Made> {
    if ('made' in source) return source.made;
    const { ctx } = this;
    const call: ReadCall<Made> = {
      path: url.pathname,
      method: 'GET',
      client: () => client,
      waitUntil: () => {},
      send: (relayed, headers, cacheKey) => {
        const sent = ctx.sendPlain(url, relayed, headers, cacheKey);
        return { status: sent.status, own: sent.headers, body: sent };
      },
    };
    return readThrough(ctx, call, source.read).catch((thrown: unknown) => {
      const error = asProxyError(thrown, false, ctx.logger);
      const text = envelopeText(url.pathname, 'GET', error.status, errorPayload(error.message, error.options));
      const own = Object.fromEntries(new Headers(error.options.headers));
      return { status: error.status, own: { ...own, ...ENVELOPE_HEADERS }, body: { body: encoder.encode(text) } };
    });
  }
}

/** The headers of every envelope the proxy builds itself (core/envelope.ts `envelopeResponse`). */
const ENVELOPE_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
const encoder = new TextEncoder();

/** The 429 of a client over its limit (`limited`: its limit's headers), as the app's limit middleware sends it. */
function limitRefusal(url: RequestUrl, limited: Record<string, string>): Made {
  const text = envelopeText(url.pathname, 'GET', 429, errorPayload(LIMIT_MESSAGE));
  return { status: 429, own: { ...limited, ...ENVELOPE_HEADERS }, body: { body: encoder.encode(text) } };
}

/**
 * The body as the app's compression middleware would send it: gzipped for a client that accepts
 * gzip (made once per `Encodable`, then at once); `Content-Encoding` and `Content-Length` added to
 * `out` for the bytes sent.
 */
function encoded(out: string[], target: Encodable, request: FastRequest, compress: boolean): Awaitable<Uint8Array> {
  if (!compress || !acceptsGzip(request.header('accept-encoding') ?? undefined)) {
    out.push('content-length', String(target.body.byteLength));
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
