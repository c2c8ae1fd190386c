/**
 * The request pipeline's steps that both adapters run, written once: the Hono app (middleware.ts,
 * every request) and the Node fast path (fast-path.ts, repeated cached reads) differ only in how
 * they read a request and write an answer. In order:
 *
 * 1. guards: `firstRefusal` (guards/request.ts) with the settings `guardSettings` builds from the
 *    route table; the calling site noted (`noteSite`);
 * 2. limits: the per-client limit (`clientLimit`, guards/limits.ts) for the client `clientOf` names;
 *    its headers and the CORS origin of an answer (`answerHeaders`);
 * 3. route: the table's row (routes.ts), its read run through the cache (api/read-through.ts),
 *    by Hono's handler or, for the fast path's relayed reads, by `relayedRead`;
 * 4. answer: one log line and the request's metrics (`RequestRecorder`).
 */
import type { Logger } from './core/log.js';
import type { RequestUrl } from './core/url.js';
import type { Metrics } from './core/metrics.js';
import type { ResolvedConfig } from './config.js';
import type { GuardSettings } from './guards/request.js';
import { TokenThrottle } from './guards/operator.js';
import { quotaFields, type LimitDecision } from './guards/limits.js';
import { envelopeText, errorPayload } from './core/envelope.js';
import { asProxyError, sendOptions, type ProxyContext } from './context.js';
import { readThrough, type ReadCall, type ReadSpec } from './api/read-through.js';
import type { Route } from './routes.js';
import type { Relayed } from './state/types.js';
import { sent } from './upstream/relay.js';

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

/**
 * The headers of an answer that depend on the request: the CORS origin (when allowed) and the
 * client's limit (`X-RateLimit-*`, `RateLimit`, `RateLimit-Policy`), as name/value pairs.
 */
export function perRequestHeaders(
  out: string[],
  allowOrigin: string | null,
  decision: LimitDecision,
  limits: Parameters<typeof quotaFields>[1],
  now: number,
): void {
  if (allowOrigin) out.push('access-control-allow-origin', allowOrigin);
  for (const name in decision.headers) out.push(name.toLowerCase(), decision.headers[name]!);
  const quota = quotaFields(decision, limits, false, now);
  out.push('ratelimit-policy', quota['RateLimit-Policy'], 'ratelimit', quota.RateLimit);
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

/** The same headers with lower-case names. */
const lowerCase = (headers: Record<string, string>) => {
  const lower: Record<string, string> = {};
  for (const name in headers) lower[name.toLowerCase()] = headers[name]!;
  return lower;
};

/**
 * A route's read run outside Hono (the fast path's relay) for `client`, counted already: what the
 * app's route would send, its own headers only, and what it throws rendered as the app renders it.
 */
export function relayedRead(ctx: ProxyContext, url: RequestUrl, spec: ReadSpec): FastRead {
  return async (client) => {
    const call: ReadCall<FastSent> = {
      path: url.pathname,
      method: 'GET',
      client: () => client,
      waitUntil: () => {},
      send(relayed, headers, cacheKey) {
        const answer = sent(relayed, { ...sendOptions(ctx.config, url), headers });
        return {
          status: answer.status,
          body: answer.body,
          headers: lowerCase(answer.headers),
          memo: answer.leaked ? undefined : { cacheKey, relayed },
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
}
