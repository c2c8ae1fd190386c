/**
 * Who may open the operator's pages (`/metrics`, `/status`, the embed studio `/embed`): a client on
 * this very machine, and anyone with the operator token. Pure: the guard list (guards/request.ts)
 * runs it on the request and the peer address the host passes along.
 *
 * "This very machine" is strict and fails closed, because these pages tell how the proxy is doing
 * and which sites use it: the peer address is loopback, the request is addressed to a loopback
 * host (so a page on another site cannot reach it by DNS rebinding), it carries no header of the
 * forwarding families a reverse proxy adds (a proxy on the same machine would otherwise make every
 * visitor look local), and no reverse proxy is declared (`loopback: false` when the Node entry
 * trusts a client-address header). An nginx whose `proxy_pass` adds no header at all still makes
 * everyone local: declare it (a client-address header) or set a token.
 *
 * The token is sent as `Authorization: Bearer <token>` (Prometheus' `authorization` setting), or as
 * the password of HTTP Basic authentication, which a browser asks for by itself (any user name).
 */
import type { RequestUrl } from '../core/url.js';
import { isLoopback } from './validate.js';

/** The operator pages' settings. */
export interface OperatorSettings {
  /** The paths the pages answer at (with their files). */
  paths: ReadonlySet<string>;
  /** The pages a scraper asks for (a bearer challenge rather than a browser's password prompt). */
  scrape: ReadonlySet<string>;
  /** The token that opens them from anywhere; null: loopback only. */
  token: string | null;
  /** Whether a client on this machine may open them without the token. */
  loopback: boolean;
  /** Counts wrong tokens per client and refuses guessers for a while; none: no throttle. */
  throttle?: TokenThrottle;
}

/**
 * The families of headers reverse proxies, load balancers and CDNs add: a request that carries one
 * came through a proxy, wherever it started. Matched by pattern, not by a list of names, since
 * every product names its own (`Forwarded`, `Via`, `X-Forwarded-*`, `X-Original-*`, `X-Real-*`,
 * any `*-IP` such as `X-Client-IP`, `True-Client-IP`, `Fastly-Client-IP`, `X-Cluster-Client-IP`,
 * `CF-Connecting-IP`, and the `CF-*`, `Fastly-*`, `X-Envoy-*`, `X-Amzn-*`, `X-Azure-*`,
 * `X-ARR-*`, `Akamai-*` families): one too many only costs a local operator the token.
 */
const FORWARDING_RE =
  /^(?:(?:x-)?forwarded(?:-.*)?|via|x-original-.*|x-real-.*|.*-ip|cf-.*|fastly-.*|x-envoy-.*|x-amzn-.*|x-azure-.*|x-arr-.*|akamai-.*|x-akamai-.*|x-proxy-.*|x-proxyuser-.*|x-host|x-cloud-trace-context)$/;

/** Whether a header name (any case) belongs to a forwarding family. */
export function isForwardingHeader(name: string): boolean {
  return FORWARDING_RE.test(name.toLowerCase());
}

/** Whether a peer address is this machine's (IPv4 127/8, IPv6 ::1, and IPv4-mapped 127/8). */
export function isLoopbackAddress(address: string): boolean {
  const plain = address.toLowerCase().replace(/^::ffff:/, '');
  return /^127(?:\.\d{1,3}){3}$/.test(plain) || plain === '::1';
}

/** Equal strings, compared in time that depends on their lengths only (no early exit on the first difference). */
export function sameSecret(given: string, secret: string): boolean {
  let difference = given.length ^ secret.length;
  for (let i = 0; i < secret.length; i++)
    difference |= (given.charCodeAt(i % (given.length || 1)) || 0) ^ secret.charCodeAt(i);
  return difference === 0;
}

/** The token of an `Authorization` header: a bearer token, or a Basic password; null when neither. */
export function presentedToken(authorization: string | null): string | null {
  if (!authorization) return null;
  const [scheme, value] = authorization.trim().split(/\s+/, 2);
  if (!value) return null;
  if (scheme!.toLowerCase() === 'bearer') return value;
  if (scheme!.toLowerCase() !== 'basic') return null;
  try {
    const decoded = atob(value);
    return decoded.slice(decoded.indexOf(':') + 1);
  } catch {
    return null;
  }
}

/** What the operator rule reads of a request. */
export interface OperatorRequest {
  url: RequestUrl;
  header(name: string): string | null;
  /** The peer's address as the host saw it (the socket's); undefined where the host cannot tell. */
  peer?: string;
  /** The names of every header the request carries; undefined where the host cannot list them. */
  headerNames?: () => Iterable<string>;
}

/** Whether a request may open an operator page. */
export function operatorAllowed(request: OperatorRequest, settings: OperatorSettings): boolean {
  if (settings.token !== null) {
    const token = presentedToken(request.header('authorization'));
    if (token !== null && sameSecret(token, settings.token)) return true;
  }
  return (
    settings.loopback &&
    request.peer !== undefined &&
    isLoopbackAddress(request.peer) &&
    isLoopback(request.url.hostname) &&
    request.headerNames !== undefined &&
    ![...request.headerNames()].some(isForwardingHeader)
  );
}

/** Wrong tokens one client may send in a window before it is refused (429) until the window ends. */
const TOKEN_FAILURES = 10;
const TOKEN_WINDOW_MS = 60_000;
/** Clients remembered at most (the oldest go first). */
const MAX_CLIENTS = 10_000;

/**
 * Throttles guesses of the operator token per client: after `TOKEN_FAILURES` wrong tokens in a
 * minute, the client's operator requests get 429 with `Retry-After` until the minute is over,
 * right token or not, so the token cannot be guessed at the speed of the network. Per process:
 * a guess spread over instances is throttled by each.
 */
export class TokenThrottle {
  private readonly clients = new Map<string, { failures: number; resetAt: number }>();

  constructor(private readonly now: () => number) {}

  /** Seconds until `client` may try again; 0 when it may now. */
  retryAfterS(client: string): number {
    const entry = this.clients.get(client);
    const now = this.now();
    if (!entry || entry.resetAt <= now || entry.failures < TOKEN_FAILURES) return 0;
    return Math.ceil((entry.resetAt - now) / 1000);
  }

  /** Counts a wrong token of `client`. */
  failed(client: string): void {
    const now = this.now();
    let entry = this.clients.get(client);
    if (!entry || entry.resetAt <= now) entry = { failures: 0, resetAt: now + TOKEN_WINDOW_MS };
    entry.failures++;
    this.clients.delete(client);
    this.clients.set(client, entry);
    if (this.clients.size > MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
  }
}
