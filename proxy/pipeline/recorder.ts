/**
 * The last step of every request, in both adapters: one log line and the request's metrics. The
 * series of a route, method and status are looked up once (a bounded set: the table's labels, the
 * known methods, the status codes the proxy sends).
 */
import type { Logger } from '../core/log.js';
import type { Metrics } from '../core/metrics.js';
import { redactedPath } from '../paths.js';

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
      path: redactedPath(entry.path).slice(0, 120),
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
