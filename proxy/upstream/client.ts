/**
 * The proxy's only door to the upstream v4 service. It adds `Authorization: APPID:KEY` to a request
 * the proxy built itself (path from validated ids, query and body from validated values, no client
 * header at all), bounds it with a timeout, and turns every way the upstream can fail into a
 * `Fault` with a clean message. It also reads the upstream's `X-RateLimit-*` headers, so the proxy
 * knows when to spare the shared hourly quota.
 */
import type { Logger } from '../core/log.js';
import type { Metrics, UpstreamOutcome } from '../core/metrics.js';
import type { ProxyState, QuotaState } from '../state/types.js';
import { isTimeout, type PlainResponse, type Transport } from './transport.js';

/** A parsed upstream answer that the proxy can relay. */
export interface UpstreamAnswer {
  ok: true;
  status: number;
  /** The parsed JSON body (the envelope). */
  body: Record<string, unknown>;
}

/** Why no usable answer came back. */
export type FaultKind = 'timeout' | 'unreachable' | 'server' | 'redirect' | 'garbage' | 'auth' | 'limited';

/** An upstream failure, already phrased for the guest (the details are only in the log). */
export interface Fault {
  ok: false;
  kind: FaultKind;
  status: number;
  message: string;
  /** Whether the upstream may have acted on the request (for bookings). */
  mayHaveActed: boolean;
  retryAfterS?: number;
}

/** Options of the upstream client. */
export interface UpstreamOptions {
  base: string;
  appId: string;
  apiKey: string;
  transport: Transport;
  timeoutMs: number;
  logger: Logger;
  now: () => number;
  /** At or below this many remaining upstream requests (of the limit it reports), early reads are spared. */
  lowWater: (reportedLimit: number | null) => number;
  /** Where instances share what they learn of the quota, so one 429 makes every instance back off. */
  state?: Pick<ProxyState, 'loadQuota' | 'saveQuota'>;
  /** Where each call is counted and timed, by upstream route template and outcome. */
  metrics?: Metrics;
}

/** The template of an upstream path: the venue id of `/venues/{id}/…` replaced, so a label stays bounded. */
export function upstreamRoute(method: string, path: string): string {
  // A booking's `_id` (a guest's cancel) is neither a label value nor written in a log line.
  return `${method} ${path.replace(/^\/venues\/[^/]+/, '/venues/:venue').replace(/^\/bookings\/[^/]+/, '/bookings/:id')}`;
}

const MESSAGES: Record<FaultKind, string> = {
  timeout: 'The booking service did not answer in time. Please try again.',
  unreachable: 'The booking service could not be reached. Please try again.',
  server: 'The booking service had a problem. Please try again.',
  redirect: 'The booking service had a problem. Please try again.',
  garbage: 'The booking service sent an answer that could not be read. Please try again.',
  auth: 'The booking proxy is misconfigured. Please contact the venue.',
  limited: 'The booking service is busy. Please try again shortly.',
};

/** The origin of a redirect target, for the log; never its path or query. */
function originOf(location: string | null): string {
  try {
    return new URL(location ?? '').origin;
  } catch {
    return 'an unreadable location';
  }
}

/** How often a cached read takes in the quota other instances learnt (a call always does). */
const QUOTA_SYNC_MS = 1_000;

/** The metric series of one upstream route, looked up once: its duration, and a count per outcome. */
interface RouteSeries {
  duration: (seconds: number) => void;
  outcomes: Map<UpstreamOutcome, (by: number) => void>;
}

/** Calls the upstream with the proxy's credentials. */
export class Upstream {
  readonly quota: QuotaState = { limit: null, remaining: null, resetAt: null, blockedUntil: 0 };
  /** Count of calls made (health output, tests, bench). */
  calls = 0;
  /** How the last call went: null after an answer, else its fault (for `/healthz`). */
  private lastFault: FaultKind | null = null;
  /** When the quota was last taken from the shared state. */
  private syncedAt = -Infinity;
  /** The series of each `method path` called (a venue's paths share their route's), bounded. */
  private readonly series = new Map<string, RouteSeries>();

  constructor(private readonly options: UpstreamOptions) {}

  /** True while the upstream asked us to stop (429) and its window has not reset. */
  blocked(): boolean {
    return this.options.now() < this.quota.blockedUntil;
  }

  /** True when few upstream requests are left in the window: serve from cache where possible. */
  frugal(): boolean {
    if (this.blocked()) return true;
    const { remaining, resetAt } = this.quota;
    if (remaining === null) return false;
    if (resetAt !== null && this.options.now() >= resetAt) return false;
    return remaining <= this.options.lowWater(this.quota.limit);
  }

  /**
   * The upstream's state as the last call found it, without spending a call of the shared quota:
   * `misconfigured` (401/403: the key or its capabilities), `failing` (down, slow, 5xx, garbage),
   * `limited` (429 back-off), `frugal` (few calls left), or `ok`.
   */
  health(): 'ok' | 'frugal' | 'limited' | 'failing' | 'misconfigured' {
    if (this.blocked()) return 'limited';
    if (this.lastFault === 'auth') return 'misconfigured';
    if (this.lastFault && this.lastFault !== 'limited') return 'failing';
    return this.frugal() ? 'frugal' : 'ok';
  }

  /** Seconds until the upstream's quota window resets (a minute when it never said). */
  windowLeftS(): number {
    const until = Math.max(this.quota.blockedUntil, this.quota.resetAt ?? this.options.now() + 60_000);
    return Math.max(1, Math.ceil((until - this.options.now()) / 1000));
  }

  /** Seconds until the upstream may be called again. */
  retryAfterS(): number {
    return Math.max(1, Math.ceil((this.quota.blockedUntil - this.options.now()) / 1000));
  }

  /** A fault without calling the upstream (it is blocked). */
  limitedFault(): Fault {
    return {
      ok: false,
      kind: 'limited',
      status: 429,
      message: MESSAGES.limited,
      mayHaveActed: false,
      retryAfterS: this.retryAfterS(),
    };
  }

  /** Calls `method path+search` with an optional JSON body, remembering how it went. */
  async call(method: 'GET' | 'POST', path: string, search = '', body?: unknown): Promise<UpstreamAnswer | Fault> {
    await this.sync(true);
    const { metrics, now } = this.options;
    if (this.blocked()) {
      metrics?.refused('upstream_backoff');
      return this.limitedFault();
    }
    const started = now();
    const answer = await this.send(method, path, search, body);
    this.lastFault = answer.ok ? null : answer.kind;
    if (metrics) {
      const series = this.seriesOf(metrics, method, path);
      const outcome: UpstreamOutcome = !answer.ok ? answer.kind : answer.status < 300 ? 'ok' : 'refused';
      let count = series.outcomes.get(outcome);
      if (!count) {
        count = metrics.counter('upstream_requests_total', { route: upstreamRoute(method, path), outcome });
        series.outcomes.set(outcome, count);
      }
      count(1);
      series.duration((now() - started) / 1000);
    }
    return answer;
  }

  /** The series of a call to `method path`, looked up once (the map is emptied past 1 000 paths). */
  private seriesOf(metrics: Metrics, method: string, path: string): RouteSeries {
    const key = `${method} ${path}`;
    let found = this.series.get(key);
    if (!found) {
      if (this.series.size >= 1_000) this.series.clear();
      const route = upstreamRoute(method, path);
      found = { duration: metrics.histogram('upstream_duration_seconds', { route }), outcomes: new Map() };
      this.series.set(key, found);
    }
    return found;
  }

  /**
   * Takes in what other instances learnt of the quota (shared state only): before every call, and
   * before a cached read decides whether to spare the upstream, at most once a second.
   */
  async sync(beforeCall = false): Promise<void> {
    const now = this.options.now();
    if (!this.options.state || (!beforeCall && now - this.syncedAt < QUOTA_SYNC_MS)) return;
    this.syncedAt = now;
    const shared = await this.options.state.loadQuota();
    if (shared) this.adopt(shared);
  }

  /**
   * Takes in what another instance learnt: the longest back-off, and the quota of the latest
   * window (of the same window, the fewest requests left).
   */
  private adopt(shared: QuotaState): void {
    const quota = this.quota;
    quota.blockedUntil = Math.max(quota.blockedUntil, shared.blockedUntil);
    if (shared.remaining === null || shared.resetAt === null) return;
    const later = quota.resetAt === null || shared.resetAt > quota.resetAt;
    const sameWindow = shared.resetAt === quota.resetAt;
    if (later || (sameWindow && shared.remaining < (quota.remaining ?? Infinity))) {
      quota.limit = shared.limit;
      quota.remaining = shared.remaining;
      quota.resetAt = shared.resetAt;
    }
  }

  /** One call: the exchange with the service, then its answer read (or the fault it makes). */
  private async send(
    method: 'GET' | 'POST',
    path: string,
    search: string,
    body: unknown,
  ): Promise<UpstreamAnswer | Fault> {
    const route = upstreamRoute(method, path);
    const started = this.options.now();
    this.calls++;
    const response = await this.exchange(method, `${this.options.base}${path}${search}`, body, route, started);
    return 'ok' in response ? response : this.answerOf(response, method, route, started);
  }

  /**
   * Sends the request with the proxy's credentials under the timeout; the transport's answer, or
   * the fault of a call that got none (timed out, or never reached the service).
   */
  private async exchange(
    method: 'GET' | 'POST',
    url: string,
    body: unknown,
    route: string,
    started: number,
  ): Promise<PlainResponse | Fault> {
    const { options } = this;
    const headers: Record<string, string> = {
      authorization: `${options.appId}:${options.apiKey}`,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      // The transport keeps the deadline, the body's reading included: a slow trickle is as bad as
      // no answer.
      return await options.transport({
        method,
        url,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: options.timeoutMs,
      });
    } catch (error) {
      const kind: FaultKind = isTimeout(error) ? 'timeout' : 'unreachable';
      options.logger.log({
        level: 'warn',
        msg: 'upstream failed',
        route,
        fault: kind,
        ms: options.now() - started,
        error: error instanceof Error ? error.name : 'unknown',
      });
      // A timeout may have let the upstream act; a refused connection did not reach it.
      return {
        ok: false,
        kind,
        status: kind === 'timeout' ? 504 : 502,
        message: MESSAGES[kind],
        mayHaveActed: kind === 'timeout',
      };
    }
  }

  /**
   * What an answer of the service means: its quota learnt (and shared), then the envelope, or the
   * fault it makes (429, 401/403, 5xx, a redirect, anything but an envelope).
   */
  private async answerOf(
    response: PlainResponse,
    method: 'GET' | 'POST',
    route: string,
    started: number,
  ): Promise<UpstreamAnswer | Fault> {
    const { options } = this;
    const { text } = response;
    const learnt = this.readQuota(response);
    if (response.status === 429) this.quota.blockedUntil = options.now() + this.blockFor(response) * 1000;
    if (learnt || response.status === 429) await options.state?.saveQuota(this.quota);
    const fault = (kind: FaultKind, status: number, mayHaveActed: boolean, detail?: string): Fault => {
      options.logger.log({
        level: kind === 'auth' ? 'error' : 'warn',
        msg: 'upstream fault',
        route,
        fault: kind,
        upstreamStatus: response.status,
        detail: detail?.slice(0, 300),
      });
      return {
        ok: false,
        kind,
        status,
        message: MESSAGES[kind],
        mayHaveActed,
        ...(kind === 'limited' ? { retryAfterS: this.retryAfterS() } : {}),
      };
    };
    if (response.status === 429) return fault('limited', 429, false);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const envelope =
      parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    if (response.status === 401 || response.status === 403) {
      const payload = envelope?.payload as { message?: unknown } | undefined;
      return fault(
        'auth',
        502,
        false,
        `upstream ${response.status}: ${typeof payload?.message === 'string' ? payload.message : 'no message'} (check VENUE_BOOKING_APP_ID / VENUE_BOOKING_API_KEY and the app's capabilities)`,
      );
    }
    if (response.status >= 500) return fault('server', 502, true);
    // A 3xx is a fault, wherever it points: the target's origin is logged for the operator (never
    // its query, which may carry a guest's details). After a POST the upstream may have acted.
    if (response.status >= 300 && response.status < 400)
      return fault('redirect', 502, method === 'POST', `redirect to ${originOf(response.header('location'))}`);
    if (!envelope || !('payload' in envelope))
      return fault('garbage', 502, response.status < 300, `status ${response.status}, ${text.length} bytes`);
    options.logger.log({
      level: 'debug',
      msg: 'upstream',
      route,
      upstreamStatus: response.status,
      ms: options.now() - started,
    });
    return { ok: true, status: response.status, body: envelope };
  }

  /** Seconds to stay away after a 429: Retry-After, else the window reset, else a minute. */
  private blockFor(response: PlainResponse): number {
    const retryAfter = Number(response.header('retry-after'));
    if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter, 3600);
    if (this.quota.resetAt !== null && this.quota.resetAt > this.options.now()) {
      return Math.min(3600, Math.ceil((this.quota.resetAt - this.options.now()) / 1000));
    }
    return 60;
  }

  /** Reads the `X-RateLimit-*` headers; true when they said anything. */
  private readQuota(response: PlainResponse): boolean {
    const limit = Number(response.header('x-ratelimit-limit') ?? NaN);
    const remaining = Number(response.header('x-ratelimit-remaining') ?? NaN);
    const reset = Date.parse(response.header('x-ratelimit-reset') ?? '');
    if (Number.isFinite(limit)) this.quota.limit = limit;
    if (Number.isFinite(remaining)) this.quota.remaining = remaining;
    if (Number.isFinite(reset)) this.quota.resetAt = reset;
    return Number.isFinite(remaining) || Number.isFinite(reset);
  }
}
