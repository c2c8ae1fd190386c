/**
 * The guards that run before routing, as one ordered list of pure functions: the shape of the
 * address, the method, headers that try to change a request's meaning, the Host, the calling
 * site. They refuse early and cheaply, so hostile traffic never reaches a route, a cache or the
 * upstream.
 *
 * The Hono app (app.ts) and the Node entry's sequence (pipeline/sequence.ts) both run `firstRefusal`, so their
 * guard order cannot drift: the app answers a refusal, the fast path hands the request to the
 * app, which then answers it. A guard knows nothing of Hono or of a host: it reads a
 * `GuardRequest` and says why it refuses, with the log line the operator needs, or null.
 */
import type { RequestUrl } from '../core/url.js';
import type { ErrorOptions } from '../core/envelope.js';
import type { LogEntry } from '../core/log.js';
import type { RefusalReason } from '../core/metrics.js';
import type { RecentOrigins } from '../state/recent-origins.js';
import { operatorAllowed, presentedToken, type OperatorSettings } from './operator.js';
import { requestSite } from './request-site.js';
import { isLoopback } from './validate.js';
import { isApiPath, PATHS } from '../paths.js';

/** Longest URL (path + query) the widget ever needs; longer ones are refused with 414. */
const MAX_URL_LENGTH = 2048;

// Path characters the proxy's own routes use. No `%` (no encoded slashes, dots or NULs), no `;`
// (matrix parameters), no backslash, no non-ASCII.
const PATH_RE = /^\/[A-Za-z0-9_\-/.]*$/;

/** Headers that ask a server to treat a request as another method; refused outright. */
const OVERRIDE_HEADERS = ['x-http-method-override', 'x-http-method', 'x-method-override'];

/** The methods of the API; the widget's files take GET and HEAD only. */
const API_METHODS: readonly string[] = ['GET', 'POST', 'OPTIONS'];
const FILE_METHODS: readonly string[] = ['GET', 'HEAD'];

/** A request as every guard reads it: the app builds it from a `Request`, the fast path from Node's message. */
export interface GuardRequest {
  /** The absolute URL as received (its length is checked before anything parses it further). */
  href: string;
  url: RequestUrl;
  method: string;
  /** A header by its lower-case name; null when absent. */
  header(name: string): string | null;
  /** The peer's address as the host saw it (the socket's), where the host can tell (guards/operator.ts). */
  peer?: string;
  /** The names of every header, where the host can list them (guards/operator.ts: none, not local). */
  headerNames?: () => Iterable<string>;
  /** The client's rate-limit key, where the host knows it (throttles wrong operator tokens; read on operator paths only). */
  client?: () => string;
}

/** Why a guard refuses: the answer (in the service's envelope) and, when the operator must act, a log line. */
export interface Refusal {
  status: number;
  /** Why, as the refusals metric counts it. */
  reason: RefusalReason;
  message: string;
  options?: ErrorOptions;
  log?: LogEntry;
}

/** What the guards need to know of the proxy: built once from its config (guardSettings). */
export interface GuardSettings {
  /** Paths of the widget's files (GET and HEAD only). */
  files: ReadonlySet<string>;
  /** Whether the proxy knows its public address; without it only loopback hosts are answered. */
  publicUrl: boolean;
  /** Whether a path is a page's (the route table's `page` rows): one that names the proxy's own address. */
  isPage(pathname: string): boolean;
  /** The origin rule: may a page of `origin` call `url`? (request-site.ts `siteRule`). */
  siteAllowed(origin: string, url: RequestUrl): boolean;
  /** GET paths with no effect that any site may start (the route table's `anySite` rows: the return). */
  anySite: ReadonlySet<string>;
  /** Who may open the operator's pages (guards/operator.ts). */
  operator: OperatorSettings;
}

/** A guard: the refusal of a request, or null to let it on. */
export type Guard = (request: GuardRequest, settings: GuardSettings) => Refusal | null;

/** Why a path is refused, or null. Dots are allowed only in the name of the served script. */
function pathProblem(pathname: string): string | null {
  if (!PATH_RE.test(pathname)) return 'The address contains characters that are not allowed';
  if (pathname.includes('//')) return 'The address contains an empty segment';
  if (pathname.includes('/.') || (isApiPath(pathname) && pathname.includes('.')))
    return 'The address contains a dotted segment';
  return null;
}

/** Refuses an oversized URL (414) or a path with characters, empty or dotted segments no route uses (400). */
const addressGuard: Guard = (request) => {
  if (request.href.length > MAX_URL_LENGTH)
    return { status: 414, reason: 'uri_too_long', message: 'The address is too long' };
  const problem = pathProblem(request.url.pathname);
  if (!problem) return null;
  return {
    status: 400,
    reason: 'invalid_path',
    message: problem,
    options: { errors: [{ code: 'invalid_path', message: problem, fields: [] }] },
  };
};

/** Refuses a method the path never takes (405 with `Allow`): the API's three, the files' GET and HEAD. */
const methodGuard: Guard = (request, settings) => {
  const methods = settings.files.has(request.url.pathname) ? FILE_METHODS : API_METHODS;
  if (methods.includes(request.method)) return null;
  return {
    status: 405,
    reason: 'method',
    message: `Method ${request.method.slice(0, 20)} is not allowed`,
    options: { headers: { allow: methods.join(', ') } },
  };
};

/** Refuses headers that ask for another method (400). */
const overrideGuard: Guard = (request) => {
  let name: string | undefined;
  for (const header of OVERRIDE_HEADERS) if (request.header(header) !== null) name ??= header;
  if (name === undefined) return null;
  const message = 'Method override headers are not accepted';
  return {
    status: 400,
    reason: 'method_override',
    message,
    options: { errors: [{ code: 'invalid_header', message, fields: [name] }] },
  };
};

/**
 * For a proxy without `VENUE_BOOKING_PUBLIC_URL`: answers the API and the pages only when they are
 * addressed to a loopback host (local development). Elsewhere its own origin, `next.api`, a page's
 * script and `api`, a QR code's link and `/site-check`'s own-origin rule would come from a Host
 * header the client wrote (a DNS rebinding foothold), so the request is refused with 421 and the
 * operator told what to set. Files and probes name no address and stay open.
 */
const hostGuard: Guard = (request, settings) => {
  const { pathname, hostname } = request.url;
  if (settings.publicUrl || isLoopback(hostname) || !(isApiPath(pathname) || settings.isPage(pathname))) return null;
  return {
    status: 421,
    reason: 'unknown_host',
    message: 'The booking proxy is misconfigured',
    options: {
      errors: [
        { code: 'unknown_host', message: "Set VENUE_BOOKING_PUBLIC_URL to the proxy's public address", fields: [] },
      ],
    },
    log: { level: 'error', msg: 'request to a non-loopback host refused: set VENUE_BOOKING_PUBLIC_URL' },
  };
};

/**
 * Refuses API requests from a site that is neither the proxy's own nor a configured one, reads
 * and writes alike (see request-site.ts), so a misconfigured page fails at its first call. CORS
 * only stops browsers from reading answers; this stops the request from having effects. The log
 * line tells the operator which origin to add.
 */
const siteGuard: Guard = (request, settings) => {
  if (!isApiPath(request.url.pathname) || isAnySite(request, settings)) return null;
  const site = requestSite(request.header);
  if (site === null || site === 'same-origin' || (site !== 'hidden' && settings.siteAllowed(site, request.url)))
    return null;
  // A preflight stays unreadable: it fails on its status anyway, and says nothing the page needs.
  const readable = request.method === 'OPTIONS' ? null : readableBy(request.header('origin'));
  return {
    status: 403,
    reason: 'forbidden_origin',
    message: 'This site may not use the booking proxy',
    options: {
      ...(readable ? { headers: readable } : {}),
      errors: [{ code: 'forbidden_origin', message: "This site's origin is not in VENUE_BOOKING_ORIGINS", fields: [] }],
    },
    log: {
      level: 'warn',
      msg: 'request from a site not in VENUE_BOOKING_ORIGINS refused (add it there if it is yours)',
      origin: site.slice(0, 100),
    },
  };
};

/** An origin as browsers send it: a scheme and a host (and port), nothing else. */
const ORIGIN_RE = /^https?:\/\/[A-Za-z0-9.\-[\]:]{1,253}$/;

/**
 * The CORS header that lets a refused page read its refusal (`forbidden_origin`), so that the
 * widget there can tell the guest that online booking is not available on this site yet and tell
 * the site's owner which setting to change, where a browser would otherwise report only a generic
 * CORS failure. The refusal is the only answer such a page can read: `Access-Control-Allow-Origin`
 * for its own origin and nothing more (no credentials, no exposed headers; a preflight gets none); the
 * answer holds nothing but the refusal. Null when the request names no origin to answer.
 */
function readableBy(origin: string | null): Record<string, string> | null {
  if (!origin || !ORIGIN_RE.test(origin)) return null;
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

/**
 * A GET return is the booking site's top-level navigation, from a site that often names itself to
 * nobody (`Sec-Fetch-Site: cross-site` without a Referer). It has no effect (no upstream call, no
 * state): it only sends the guest to an allowed page or shows a readable one, so any site may
 * start it; a guest who paid must never meet a 403.
 */
function isAnySite(request: GuardRequest, settings: GuardSettings): boolean {
  return request.method === 'GET' && settings.anySite.has(request.url.pathname);
}

/**
 * Refuses the operator's pages (`/metrics`, `/status`, `/embed`) to a client that is neither on this
 * machine nor holding the operator token (401). The challenge asks a browser for the token as a
 * password on the pages, and names the bearer scheme on `/metrics`, which scrapers use; the answer
 * says nothing of the token or of the pages. A client that sent too many wrong tokens gets 429
 * with `Retry-After` for a while (guards/operator.ts `TokenThrottle`), and every wrong token is
 * counted (`bad_token`).
 */
const operatorGuard: Guard = (request, settings): Refusal | null => {
  const { operator } = settings;
  if (!operator.paths.has(request.url.pathname)) return null;
  const client = request.client?.() ?? request.peer ?? 'unknown';
  const retryAfterS = operator.throttle?.retryAfterS(client) ?? 0;
  if (retryAfterS > 0) {
    const message = 'Too many wrong operator tokens: try again later';
    const refusal: Refusal = {
      status: 429,
      reason: 'token_throttled',
      message,
      options: {
        headers: { 'retry-after': String(retryAfterS) },
        errors: [{ code: 'rate_limited', message, fields: [] }],
      },
    };
    return refusal;
  }
  if (operatorAllowed(request, operator)) return null;
  const wrongToken = operator.token !== null && presentedToken(request.header('authorization')) !== null;
  if (wrongToken) operator.throttle?.failed(client);
  const message = 'This page is for the operator: send the operator token';
  return {
    status: 401,
    reason: wrongToken ? 'bad_token' : 'unauthorized',
    message,
    options: {
      headers: {
        'www-authenticate': operator.scrape.has(request.url.pathname)
          ? 'Bearer realm="venue-booking"'
          : 'Basic realm="venue-booking operator pages", charset="UTF-8"',
      },
      errors: [{ code: 'unauthorized', message, fields: [] }],
    },
  };
};

/** The guards in the order they run, cheapest first. */
export const GUARDS: readonly Guard[] = [addressGuard, methodGuard, overrideGuard, operatorGuard, hostGuard, siteGuard];

/** The first refusal of the guards, in order; null when every guard lets the request on. */
export function firstRefusal(request: GuardRequest, settings: GuardSettings): Refusal | null {
  for (const guard of GUARDS) {
    const refusal = guard(request, settings);
    if (refusal) return refusal;
  }
  return null;
}

/**
 * Notes the calling site of a request for the widget's script or the API in `origins` (the embed
 * studio's list), with whether the origin rule lets it in; a GET of the script is a page view
 * (one a page, where the page's calls are several). The proxy's own pages are not listed.
 */
export function noteSite(request: GuardRequest, settings: GuardSettings, origins: RecentOrigins): void {
  const { pathname } = request.url;
  if (!isApiPath(pathname) && !settings.files.has(pathname)) return;
  const site = requestSite(request.header);
  if (site === null || site === 'same-origin' || site === 'hidden' || site === request.url.origin) return;
  origins.note(site, settings.siteAllowed(site, request.url), request.method === 'GET' && pathname === PATHS.script);
}
