/**
 * The proxy's settings in one place: `ProxyConfig` (what an operator or a host entry may set), its
 * defaults, and `resolveConfig()`, which fills every default once. Everything downstream of
 * `createProxy` reads a `ResolvedConfig`, so a default is written here and nowhere else, and a
 * reader never has to climb back to the entry to learn what an unset value means.
 *
 * How the settings are read from an environment (`VENUE_BOOKING_*`) is env.ts.
 */
import { consoleLogger, redactingLogger, type Logger } from './core/log.js';
import { Metrics } from './core/metrics.js';
import { canonicalOrigin } from './core/url.js';
import type { BudgetSettings } from './guards/budget.js';
import type { LimitRule, ProxyState } from './state/types.js';
import type { Transport } from './upstream/transport.js';
import { BODY_LIMIT_BYTES, BOOKINGS_PER_WINDOW, defaultOf, WINDOWS } from './settings.js';

/** Settings of one proxy instance. See env.ts for how they are read from the environment. */
export interface ProxyConfig {
  // Each setting an operator sets is documented, with its default and unit, once: in the registry
  // (proxy/settings.ts, field of the same name); the README's table is rendered from it.
  /** Upstream base URL, ending in `/v4`. */
  upstream: string;
  appId: string;
  apiKey: string;
  /** The fetch that reaches the upstream; the sandbox's handler when embedded. */
  fetch?: (request: Request) => Promise<Response>;
  /** Reaches the upstream without `Request` or `Response` (the Node entry's node:http); takes precedence over `fetch`. */
  transport?: Transport;
  /** Venue ids the widget may use. */
  venues: string[];
  /** Venue groups whose venue list the widget may read; their venues are allowed too. */
  venueGroups?: string[];
  /** Origins (scheme://host[:port]) of the sites allowed to call the proxy from a browser. */
  origins?: string[];
  /** Public base URL of the proxy (where `/api` lives), for `next.api`; default: the request's origin. */
  publicUrl?: string;
  /** URL prefix of the hosted booking site; `next.web` is passed only when it starts with it. */
  bookingSite?: string;
  /** Return bridge targets: venue id (or `*` for any venue) → page URL of the venue. */
  returnPages?: Record<string, string>;
  /**
   * Whether the return bridge takes the guest back to the page they left from (on an allowed origin)
   * and tells widgets so (`GET /api/return`), so they ask for `return_method=post`. Default true;
   * false leaves only `returnPages` and the widgets fall back to a GET return.
   */
  returnBridge?: boolean;
  /**
   * The key that signs the hand-off ids of returns (api/handoff.ts), at least 32 characters.
   * Default: a random key agreed through the shared state, or this process's own with the memory
   * state (hand-offs then end with a restart, and differ between Worker isolates): set it there.
   */
  returnSecret?: string;
  /** `partner_source` sent with every booking; when unset the widget's value is passed on. */
  partnerSource?: string;
  /** Upstream timeout in milliseconds. */
  timeoutMs?: number;
  /**
   * How long identical early reads (availability with a date but short of a complete choice, rules,
   * filtered offers) share one upstream answer, in ms; past it, the stale copy is
   * served while one background call refreshes it.
   */
  cacheTtlMs?: number;
  /**
   * How long availability reads without a date (the type list and the calendar every guest of a
   * venue starts with) are shared, in ms, refreshed the same way.
   */
  browseTtlMs?: number;
  /** How long past the TTL a cached answer may still be served when sparing the upstream. */
  staleMs?: number;
  /** Requests per client per window on `/api`. */
  rateLimit?: LimitRule;
  /** Booking attempts per client per window. */
  bookingRateLimit?: LimitRule;
  /** The App ID's upstream calls per hour; the budget's shares derive from it. */
  upstreamQuota?: number;
  /** Upstream calls per hour only final checks and bookings may spend. */
  upstreamReserve?: number;
  /** Cache misses per client per window, early reads and final checks each. */
  missLimit?: LimitRule;
  /** Upstream requests left in its window at or below which early reads are never sent upstream. */
  lowWater?: number;
  /** How long complete availability checks (the one before submit) are shared, in ms. */
  finalTtlMs?: number;
  /** How long marketing preferences, venue records and lists, and a venue's whole offers list are shared, in ms. */
  staticTtlMs?: number;
  /** Largest accepted request body in bytes. */
  bodyLimit?: number;
  /** Identifies the client for rate limiting (e.g. the socket address); default one shared bucket. */
  clientKey?: (request: { headers: { get(name: string): string | null } }, env: unknown) => string | undefined;
  /** Where structured logs go. */
  logger?: Logger;
  /** Clock, for tests. */
  now?: () => number;
  /** Shared state (Redis, a Durable Object); default: this instance's memory. */
  state?: ProxyState;
  /** The widget bundle to serve at `/venue-booking.js`, when the host has it. */
  widgetScript?: Uint8Array<ArrayBuffer>;
  /** The chunks the bundle imports on demand (locale modules), by file name. */
  widgetChunks?: Record<string, Uint8Array<ArrayBuffer>>;
  /**
   * Where the proxy's counters go (core/metrics.ts): default this instance's memory, which the
   * status page reads; the Node entry gives a prom-client registry, which `/metrics` renders.
   */
  metrics?: Metrics;
  /** The operator's pages: which are served, and who may open them (see `OperatorPages`). */
  operatorPages?: OperatorPages;
  /** The address of the peer that sent a request (the socket's), from the host's per-request context. */
  peerAddress?: (env: unknown) => string | undefined;
  /** The proxy's version, for `venue_booking_build_info` (the Node entry reads its package's). */
  version?: string;
  /**
   * The upstream is a sandbox, not the live service (the offline stack sets it): the venue-facing
   * pages say "Practice mode: bookings here are not real".
   */
  practice?: boolean;
  /**
   * Whether the app gzips its HTML and JSON for clients that accept it (default true). A host that
   * compresses answers itself turns it off: a Worker's runtime encodes the body it is given.
   */
  compress?: boolean;
  /**
   * `publicUrl` was not configured but derived by the host (the offline stack's port or first
   * request): the venue-facing pages then name the address they were opened at, not `publicUrl`'s.
   */
  publicUrlDerived?: boolean;
}

/**
 * The operator's pages: `/metrics` and `/status` (`metrics`), the embed studio at `/embed`
 * (`studio`), each on unless false. A client on this machine opens them as it is (unless
 * `loopback` is false: a reverse proxy in front makes everyone look local), anyone else with
 * `token` as a bearer token (or as a Basic password, which browsers ask for).
 */
export interface OperatorPages {
  metrics?: boolean;
  studio?: boolean;
  token?: string;
  loopback?: boolean;
}

/**
 * Defaults applied to every optional number: the settings registry's (proxy/settings.ts), parsed
 * from the text an operator would write, and the two limits no operator sets.
 */
export const DEFAULTS = {
  timeoutMs: defaultOf('timeoutMs'),
  cacheTtlMs: defaultOf('cacheTtlMs'),
  browseTtlMs: defaultOf('browseTtlMs'),
  staleMs: defaultOf('staleMs'),
  rateLimit: defaultOf('rateLimit'),
  bookingRateLimit: { limit: BOOKINGS_PER_WINDOW, windowMs: WINDOWS.bookingMs },
  upstreamQuota: defaultOf('upstreamQuota'),
  finalTtlMs: defaultOf('finalTtlMs'),
  staticTtlMs: defaultOf('staticTtlMs'),
  bodyLimit: BODY_LIMIT_BYTES,
} as const;

/**
 * A config with every default filled, and the values derived from it computed once: what every
 * part of the proxy reads. It holds resolved values only (no raw URL to derive from again).
 */
export interface ResolvedConfig {
  appId: string;
  apiKey: string;
  /** How the upstream is reached: the host's transport, or one over the configured `fetch`. */
  transport?: Transport;
  fetch?: (request: Request) => Promise<Response>;
  venues: readonly string[];
  venueGroups: readonly string[];
  origins: readonly string[];
  /** The hosted booking site's URL prefix, or null. */
  bookingSite: string | null;
  /** The origin of `bookingSite`, or null. */
  bookingSiteOrigin: string | null;
  returnPages: Readonly<Record<string, string>>;
  returnBridge: boolean;
  /** The configured key that signs hand-off ids (api/handoff.ts), or null: one from the shared state. */
  returnSecret: string | null;
  partnerSource: string | null;
  timeoutMs: number;
  cacheTtlMs: number;
  browseTtlMs: number;
  staleMs: number;
  rateLimit: LimitRule;
  bookingRateLimit: LimitRule;
  upstreamQuota: number;
  finalTtlMs: number;
  staticTtlMs: number;
  bodyLimit: number;
  clientKey?: ProxyConfig['clientKey'];
  /** The operator's logger (or the console's), wrapped so that the API key can never reach a line. */
  logger: Logger;
  now: () => number;
  state?: ProxyState;
  widgetScript?: Uint8Array<ArrayBuffer>;
  widgetChunks?: Record<string, Uint8Array<ArrayBuffer>>;
  peerAddress?: ProxyConfig['peerAddress'];
  version: string;
  /** The upstream base URL without a trailing slash. */
  upstreamBase: string;
  /** The origin of `publicUrl`, or null: then the request's own origin, trusted on loopback only. */
  publicOrigin: string | null;
  /** `publicUrl` without a trailing slash, or null. */
  publicBase: string | null;
  /** The upstream budget's shares, derived from the quota unless set. */
  budget: BudgetSettings;
  metrics: Metrics;
  operatorPages: Required<Omit<OperatorPages, 'token'>> & { token: string | null };
  /** The upstream is a sandbox: the venue-facing pages say "Practice mode". */
  practice: boolean;
  /** Whether the app gzips its HTML and JSON for clients that accept it. */
  compress: boolean;
  /** `publicUrl` was derived by the host, not configured: pages name the address they were opened at. */
  publicUrlDerived: boolean;
}

/** Fills every default of `config` once; the proxy's parts read nothing else. */
export function resolveConfig(config: ProxyConfig): ResolvedConfig {
  return {
    appId: config.appId,
    apiKey: config.apiKey,
    transport: config.transport,
    fetch: config.fetch,
    venues: config.venues,
    bookingSite: config.bookingSite ?? null,
    returnPages: config.returnPages ?? {},
    returnBridge: config.returnBridge ?? defaultOf('returnBridge'),
    returnSecret: config.returnSecret ?? null,
    practice: config.practice ?? false,
    compress: config.compress ?? true,
    publicUrlDerived: config.publicUrlDerived ?? false,
    partnerSource: config.partnerSource ?? null,
    clientKey: config.clientKey,
    state: config.state,
    widgetScript: config.widgetScript,
    widgetChunks: config.widgetChunks,
    peerAddress: config.peerAddress,
    version: config.version ?? 'unknown',
    timeoutMs: config.timeoutMs ?? DEFAULTS.timeoutMs,
    cacheTtlMs: config.cacheTtlMs ?? DEFAULTS.cacheTtlMs,
    browseTtlMs: config.browseTtlMs ?? DEFAULTS.browseTtlMs,
    staleMs: config.staleMs ?? DEFAULTS.staleMs,
    rateLimit: config.rateLimit ?? DEFAULTS.rateLimit,
    bookingRateLimit: config.bookingRateLimit ?? DEFAULTS.bookingRateLimit,
    upstreamQuota: config.upstreamQuota ?? DEFAULTS.upstreamQuota,
    finalTtlMs: config.finalTtlMs ?? DEFAULTS.finalTtlMs,
    staticTtlMs: config.staticTtlMs ?? DEFAULTS.staticTtlMs,
    bodyLimit: config.bodyLimit ?? DEFAULTS.bodyLimit,
    venueGroups: config.venueGroups ?? [],
    // One spelling of each origin, the one browsers send (an unreadable one is kept: it matches nothing).
    origins: (config.origins ?? []).map((origin) => canonicalOrigin(origin) ?? origin),
    logger: redactingLogger(config.logger ?? consoleLogger, [
      config.apiKey,
      `${config.appId}:${config.apiKey}`,
      ...(config.returnSecret ? [config.returnSecret] : []),
    ]),
    now: config.now ?? (() => Date.now()),
    upstreamBase: config.upstream.replace(/\/+$/, ''),
    publicOrigin: config.publicUrl ? new URL(config.publicUrl).origin : null,
    publicBase: config.publicUrl ? config.publicUrl.replace(/\/+$/, '') : null,
    bookingSiteOrigin: config.bookingSite ? new URL(config.bookingSite).origin : null,
    budget: budgetSettings(config),
    metrics: config.metrics ?? new Metrics(),
    operatorPages: {
      metrics: config.operatorPages?.metrics ?? defaultOf('metrics'),
      studio: config.operatorPages?.studio ?? defaultOf('studio'),
      token: config.operatorPages?.token ?? null,
      loopback: config.operatorPages?.loopback ?? true,
    },
  };
}

/** The upstream budget's settings of `config`, with the shares derived from its quota unless set. */
export function budgetSettings(
  config: Pick<ProxyConfig, 'upstreamQuota' | 'upstreamReserve' | 'lowWater' | 'missLimit'>,
): BudgetSettings {
  const quota = config.upstreamQuota ?? DEFAULTS.upstreamQuota;
  const reserveOf = (limit: number) => Math.min(limit, config.upstreamReserve ?? Math.max(5, Math.ceil(limit / 5)));
  const reserve = reserveOf(quota);
  return {
    quota,
    reserve,
    bookingReserve: Math.ceil(reserve / 2),
    lowWater: (reported) => config.lowWater ?? reserveOf(reported ?? quota),
    missLimit: config.missLimit ?? { limit: Math.max(10, Math.ceil(quota / 50)), windowMs: WINDOWS.missMs },
  };
}

/**
 * The timings of a shared state (Redis, a Durable Object) for a proxy with these settings: its
 * reads live as long as the proxy's, and a booking holds its key past the upstream timeout.
 */
export function sharedStateTimings(settings: Partial<ProxyConfig>): { ttlMs: number; staleMs: number; holdMs: number } {
  return {
    ttlMs: settings.cacheTtlMs ?? DEFAULTS.cacheTtlMs,
    staleMs: settings.staleMs ?? DEFAULTS.staleMs,
    holdMs: (settings.timeoutMs ?? DEFAULTS.timeoutMs) + 5_000,
  };
}
