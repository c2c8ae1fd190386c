/**
 * The request pipeline, written once: the steps every request takes, in this order, as plain
 * functions over a `GuardRequest`, which the Hono app (pipeline/hono.ts, every request) and the Node
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
 * The Node entry's cache (pipeline/fast-path.ts) finds what to send; this module sends it.
 */
import type { RequestUrl } from '../core/url.js';
import { envelopeText, errorPayload } from '../core/envelope.js';
import { encoded } from '../core/encoding.js';
import { combined } from '../core/headers.js';
import type { SentAnswer } from '../state/answer-memo.js';
import { clientOf } from '../guards/client-ip.js';
import { clientLimit, LIMIT_MESSAGE, limitHeaders, limitHeadersInto, limitReason } from '../guards/limits.js';
import { firstRefusal, noteSite, type GuardRequest, type GuardSettings } from '../guards/request.js';
import { asProxyError, type ProxyContext } from '../context.js';
import { readThrough, type ReadCall, type ReadSpec } from '../api/read-through.js';
import { after, type Awaitable } from '../state/types.js';
import type { RequestRecorder, Series } from './recorder.js';
import { apiLayers } from './steps.js';

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

/**
 * What the route part of the sequence sends: status, the route's own headers and the body; a
 * remembered answer keeps its flat headers for the origin it was last sent to (`around`).
 */
export type Made = SentAnswer;

/**
 * What the Node entry sends for a read, found by its cache (pipeline/fast-path.ts): an answer the app sent
 * just now (`made`, replayed, with the metric series its answers count in), or the route's read
 * to run (`read`); `route` labels its metrics.
 */
export type Source = { route: string; made: Made; series: Series } | { route: string; read: ReadSpec };

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
  /** The cache hits of remembered answers (`cache_reads_total{result="hit"}`), looked up once. */
  private readonly hit: (by: number) => void;

  constructor(
    private readonly ctx: ProxyContext,
    private readonly parts: SequenceParts,
  ) {
    this.hit = ctx.config.metrics.counter('cache_reads_total', { result: 'hit' });
  }

  /** The answer to a GET of `url` from `source`, or null when the app must answer (a guard refuses). */
  run(request: FastRequest, url: RequestUrl, source: Source): Awaitable<FastAnswer | null> {
    const { ctx, parts } = this;
    const { config } = ctx;
    // 1. guards: a refusal is the app's to answer.
    const guarded: GuardRequest = { href: request.url, url, method: 'GET', header: request.header };
    if (firstRefusal(guarded, parts.guards)) return null;
    noteSite(guarded, parts.guards, ctx.recentOrigins);
    const started = ctx.now();
    parts.recorder.begin();
    // 2. limit, counted once; over it, the app's 429 is sent here.
    const client = clientOf(config.clientKey, request.header, request.env);
    const answered = after(clientLimit(ctx.state, config, client, false), (decision) => {
      if (!decision.allowed) config.metrics.refused(limitReason(decision));
      const making = decision.allowed
        ? this.made(source, url, client)
        : limitRefusal(url, limitHeaders(decision, config, false, started));
      return after(making, (made) => {
        const { status, body } = made;
        // 3. headers: the route's own, every layer of an API answer, then (unless this is its refusal) the limit's.
        const out = around(made, config.compress, parts.allowOrigin(request.header('origin') || '')).slice();
        if (decision.allowed) limitHeadersInto(out, decision, config, started);
        // 4. encode.
        return after(encoded(out, body, request.header('accept-encoding'), config.compress), (sent) => {
          // 5. record.
          // A remembered answer counts in the series found for it once, and as a cache hit.
          const replayed = 'made' in source && decision.allowed ? source : undefined;
          parts.recorder.record(
            {
              method: 'GET',
              path: url.pathname,
              route: source.route,
              status,
              started,
              cache: made.own['x-cache'],
              requestBytes: 0,
              responseBytes: sent.byteLength,
            },
            replayed?.series,
          );
          if (replayed) this.hit(1);
          return { status, headers: out, body: sent };
        });
      });
    });
    return answered instanceof Promise ? answered.catch(this.abandoned) : answered;
  }

  /** The metric series of a GET's answers on `route` with `status` (looked up once by whoever keeps it). */
  series(route: string, status: number): Series {
    return this.parts.recorder.series(route, 'GET', status);
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
        const own: Record<string, string> = {};
        for (const name in sent.headers) own[name.toLowerCase()] = sent.headers[name]!;
        return { status: sent.status, own, body: sent };
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

/**
 * `made`'s own headers combined with every layer of an API answer but the limit's (which no other
 * layer names, so it goes last), flat; kept on `made` for its last origin, so that a remembered
 * answer's repeats build no header object at all.
 */
function around(made: Made, compress: boolean, allowOrigin: string | null): string[] {
  if (made.around?.origin === allowOrigin) return made.around.headers;
  const headers = combined(made.own, apiLayers(compress, allowOrigin));
  const flat: string[] = [];
  for (const name in headers) flat.push(name, headers[name]!);
  made.around = { origin: allowOrigin, headers: flat };
  return flat;
}

/** The headers of every envelope the proxy builds itself (core/envelope.ts `envelopeResponse`). */
const ENVELOPE_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
const encoder = new TextEncoder();

/** The 429 of a client over its limit (`limited`: its limit's headers), as the app's limit middleware sends it. */
function limitRefusal(url: RequestUrl, limited: Record<string, string>): Made {
  const text = envelopeText(url.pathname, 'GET', 429, errorPayload(LIMIT_MESSAGE));
  return { status: 429, own: { ...limited, ...ENVELOPE_HEADERS }, body: { body: encoder.encode(text) } };
}
