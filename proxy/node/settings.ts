/**
 * Settings only the Node entry has: whose address keys the per-client limits behind a reverse
 * proxy, and how long a slow client may hold a connection. Node's defaults let a client trickle its
 * headers for a minute and its body for five, and hold any number of idle connections, none of
 * which the rate limit sees; these bound both. Runtime-free, so it is tested like env.ts.
 */
import type { ClientIpOptions } from '../guards/client-ip.js';
import { ConfigError, wholeNumber, type ProxyEnv } from '../env.js';

/** The Node server's settings, every one filled. */
export interface NodeSettings {
  clientIp: ClientIpOptions;
  /** Time to receive a request's headers (Node's `headersTimeout`). */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included (`requestTimeout`). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (`keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are refused at accept (`maxConnections`). */
  maxConnections: number;
  /**
   * A port of its own for the operator's pages, on 127.0.0.1 only (as Envoy's admin listener):
   * then only it opens them without the token, and the public port needs the token.
   */
  operatorPort?: number;
}

/** Defaults: generous for a guest on a slow phone, far below Node's own. */
export const NODE_DEFAULTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
} as const;

/** Reads the Node-only settings, or throws a `ConfigError` listing every problem. */
export function nodeSettingsFromEnv(env: ProxyEnv): NodeSettings {
  const problems: string[] = [];
  const header =
    typeof env.VENUE_BOOKING_CLIENT_IP_HEADER === 'string'
      ? env.VENUE_BOOKING_CLIENT_IP_HEADER.trim().toLowerCase()
      : '';
  if (header && !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(header))
    problems.push('VENUE_BOOKING_CLIENT_IP_HEADER must be a header name, e.g. x-forwarded-for');
  const trustedHops = wholeNumber(env, 'VENUE_BOOKING_TRUSTED_HOPS', 1, 20, problems);
  if (trustedHops !== undefined && !header)
    problems.push(
      'VENUE_BOOKING_TRUSTED_HOPS needs VENUE_BOOKING_CLIENT_IP_HEADER (the header those proxies append to)',
    );
  const ms = (name: string, fallback: number) => wholeNumber(env, name, 100, 600_000, problems) ?? fallback;
  const settings: NodeSettings = {
    clientIp: header ? { header, trustedHops: trustedHops ?? 1 } : {},
    headersTimeoutMs: ms('VENUE_BOOKING_HEADERS_TIMEOUT_MS', NODE_DEFAULTS.headersTimeoutMs),
    requestTimeoutMs: ms('VENUE_BOOKING_REQUEST_TIMEOUT_MS', NODE_DEFAULTS.requestTimeoutMs),
    keepAliveTimeoutMs: ms('VENUE_BOOKING_KEEP_ALIVE_TIMEOUT_MS', NODE_DEFAULTS.keepAliveTimeoutMs),
    maxConnections:
      wholeNumber(env, 'VENUE_BOOKING_MAX_CONNECTIONS', 1, 1_000_000, problems) ?? NODE_DEFAULTS.maxConnections,
  };
  const operatorPort = wholeNumber(env, 'VENUE_BOOKING_OPERATOR_PORT', 1, 65_535, problems);
  if (operatorPort !== undefined) settings.operatorPort = operatorPort;
  if (settings.headersTimeoutMs > settings.requestTimeoutMs)
    problems.push('VENUE_BOOKING_HEADERS_TIMEOUT_MS must not exceed VENUE_BOOKING_REQUEST_TIMEOUT_MS');
  if (problems.length) throw new ConfigError(problems);
  return settings;
}
