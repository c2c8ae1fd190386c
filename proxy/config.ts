/**
 * The proxy's config: `ProxyConfig` (what an operator or a host entry may set), its defaults, and
 * `resolveConfig()`, which fills every default once. The operator's fields, their doc comments,
 * `DEFAULTS` and `ResolvedConfig`'s plain fields are all mapped from the settings registry
 * (settings/registry.ts), and `resolveConfig` walks its rows: a setting is one row there, and only
 * the values derived from several settings (the budget, the public origin, …) are written here.
 * Everything downstream of `createProxy` reads a `ResolvedConfig`, so a reader never has to climb
 * back to the entry to learn what an unset value means.
 *
 * How the settings are read from an environment (`VENUE_BOOKING_*`) is env.ts.
 */
import { consoleLogger, redactingLogger, type Logger } from './core/log.js';
import { Metrics } from './core/metrics.js';
import { canonicalOrigin } from './core/url.js';
import type { BudgetSettings } from './guards/budget.js';
import { BODY_LIMIT_BYTES, BOOKINGS_PER_WINDOW, WEBHOOK, WINDOWS } from './settings/fixed.js';
import { defaultsOf, resolveScope, type ResolvedScope, type ScopeFields } from './settings/read.js';
import { SETTINGS } from './settings/registry.js';
import type { Registry } from './settings/row.js';
import type { Records } from './state/records.js';
import type { LimitRule, ProxyState } from './state/types.js';
import type { Transport } from './upstream/transport.js';

/**
 * Settings of one proxy instance. See env.ts for how they are read from the environment. The
 * operator's settings (`upstream`, `venues`, `cacheTtlMs`, …) are the registry's rows, each
 * documented there once (settings/registry.ts, the row of the same name): its doc comment shows
 * here, and its default, unit and operator's doc in the README's table and `--help`.
 */
export interface ProxyConfig extends ScopeFields<'credentials' | 'proxy' | 'derived'> {
  /** The fetch that reaches the upstream; the sandbox's handler when embedded. */
  fetch?: (request: Request) => Promise<Response>;
  /** Reaches the upstream without `Request` or `Response` (the Node entry's node:http); takes precedence over `fetch`. */
  transport?: Transport;
  /** Booking attempts per client per window. */
  bookingRateLimit?: LimitRule;
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
  /**
   * Where the venue's records are kept (state/records.ts: its profile, the sites its manager
   * allowed, the counts of `/status`); default: in the shared state's store when it keeps tables,
   * else this instance's memory.
   */
  records?: Records;
  /** Venue profiles (checked, by venue id) that start off the venues with none yet (api/profile.ts). */
  profileSeed?: Record<string, unknown>;
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
  /**
   * The origin of the host's public listener for a request that came in on a listener no guest
   * reaches (the Node entry's operator port), from the host's per-request context; undefined for
   * the rest. What the venue-facing pages opened there name instead of the address they were
   * opened at (pages/page.ts `openedAt`): a snippet naming the operator port would serve nobody.
   */
  publicListener?: (env: unknown) => string | undefined;
  /** Turnstile's siteverify (api/turnstile.ts), for tests' stand-in: no operator points it elsewhere. */
  turnstileVerifyUrl?: string;
  /** Turnstile's script the widget loads (api/turnstile.ts), for tests' stand-in. */
  turnstileScriptUrl?: string;
  /** The proxy's version, for `venue_booking_build_info` (the Node entry reads its package's). */
  version?: string;
  /**
   * The venue webhook's waits before each retry, in ms (api/webhook.ts; default 2 s, then 8 s):
   * for tests, which cannot wait; its length is the number of retries.
   */
  webhookRetryDelaysMs?: readonly number[];
  /** How long one webhook attempt may take, in ms (default 5 s): for tests' stalled receiver. */
  webhookTimeoutMs?: number;
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
export interface OperatorPages extends ScopeFields<'operatorPages'> {
  loopback?: boolean;
}

/**
 * The defaults of the proxy's settings: the registry's rows (each its default text parsed, as an
 * operator typing it would get), and the two limits no operator sets.
 */
export const DEFAULTS = {
  ...defaultsOf(['proxy']),
  bookingRateLimit: { limit: BOOKINGS_PER_WINDOW, windowMs: WINDOWS.bookingMs },
  bodyLimit: BODY_LIMIT_BYTES,
} as const;

/**
 * The operator's settings (credentials aside) with every default filled: what `resolveConfig`
 * reads, and what a host reads before the proxy exists (`sharedStateTimings`).
 */
export type ResolvedSettings = ResolvedScope<'proxy' | 'derived'>;

/** `settings` resolved from the registry's rows (`rows`: the registry, or a test's with a row more). */
export function resolveSettings(settings: Partial<ProxyConfig>, rows: Registry = SETTINGS): ResolvedSettings {
  return resolveScope(settings, ['proxy', 'derived'], rows);
}

/**
 * A config with every default filled, and the values derived from it computed once: what every
 * part of the proxy reads. It holds resolved values only (no raw URL to derive from again): the
 * registry's `proxy` rows as fields of their own name, the rest below.
 */
export interface ResolvedConfig extends ResolvedScope<'proxy'> {
  appId: string;
  apiKey: string;
  /** How the upstream is reached: the host's transport, or one over the configured `fetch`. */
  transport?: Transport;
  fetch?: (request: Request) => Promise<Response>;
  /** The origin of `bookingSite`, or null. */
  bookingSiteOrigin: string | null;
  bookingRateLimit: LimitRule;
  bodyLimit: number;
  clientKey?: ProxyConfig['clientKey'];
  /** The operator's logger (or the console's), wrapped so that the API key can never reach a line. */
  logger: Logger;
  now: () => number;
  state?: ProxyState;
  records?: Records;
  profileSeed?: Record<string, unknown>;
  widgetScript?: Uint8Array<ArrayBuffer>;
  widgetChunks?: Record<string, Uint8Array<ArrayBuffer>>;
  peerAddress?: ProxyConfig['peerAddress'];
  publicListener?: ProxyConfig['publicListener'];
  turnstileVerifyUrl?: string;
  turnstileScriptUrl?: string;
  version: string;
  /** The venue webhook's waits before each retry, in ms. */
  webhookRetryDelaysMs: readonly number[];
  /** How long one webhook attempt may take, in ms. */
  webhookTimeoutMs: number;
  /** The upstream base URL without a trailing slash. */
  upstreamBase: string;
  /** The origin of `publicUrl`, or null: then the request's own origin, trusted on loopback only. */
  publicOrigin: string | null;
  /** `publicUrl` without a trailing slash, or null. */
  publicBase: string | null;
  /** The upstream budget's shares, derived from the quota unless set. */
  budget: BudgetSettings;
  metrics: Metrics;
  operatorPages: ResolvedScope<'operatorPages'> & { loopback: boolean };
  /** The upstream is a sandbox: the venue-facing pages say "Practice mode". */
  practice: boolean;
  /** Whether the app gzips its HTML and JSON for clients that accept it. */
  compress: boolean;
  /** `publicUrl` was derived by the host, not configured: pages name the address they were opened at. */
  publicUrlDerived: boolean;
}

/**
 * Fills every default of `config` once; the proxy's parts read nothing else. The registry's rows
 * (`rows`: a test passes one with a row more) are resolved in one walk; what follows them is the
 * host's parts and the values derived from several settings.
 */
export function resolveConfig(config: ProxyConfig, rows: Registry = SETTINGS): ResolvedConfig {
  const plain = resolveScope(config, ['proxy'], rows);
  const derived = resolveScope(config, ['derived'], rows);
  const { publicUrl } = derived;
  return {
    ...plain,
    // One spelling of each origin, the one browsers send (an unreadable one is kept: it matches nothing).
    origins: plain.origins.map((origin) => canonicalOrigin(origin) ?? origin),
    bookingSiteOrigin: plain.bookingSite ? new URL(plain.bookingSite).origin : null,
    publicOrigin: publicUrl ? new URL(publicUrl).origin : null,
    publicBase: publicUrl ? publicUrl.replace(/\/+$/, '') : null,
    budget: budgetSettings({ ...plain, ...derived }),
    operatorPages: {
      ...resolveScope(config.operatorPages ?? {}, ['operatorPages'], rows),
      loopback: config.operatorPages?.loopback ?? true,
    },
    appId: config.appId,
    apiKey: config.apiKey,
    upstreamBase: config.upstream.replace(/\/+$/, ''),
    logger: redactingLogger(config.logger ?? consoleLogger, [
      config.apiKey,
      `${config.appId}:${config.apiKey}`,
      ...(config.returnSecret ? [config.returnSecret] : []),
      ...(config.manageSecret ? [config.manageSecret] : []),
      ...(config.turnstileSecret ? [config.turnstileSecret] : []),
      ...(config.webhookSecret ? [config.webhookSecret] : []),
    ]),
    transport: config.transport,
    fetch: config.fetch,
    clientKey: config.clientKey,
    state: config.state,
    records: config.records,
    profileSeed: config.profileSeed,
    widgetScript: config.widgetScript,
    widgetChunks: config.widgetChunks,
    peerAddress: config.peerAddress,
    publicListener: config.publicListener,
    turnstileVerifyUrl: config.turnstileVerifyUrl,
    turnstileScriptUrl: config.turnstileScriptUrl,
    bookingRateLimit: config.bookingRateLimit ?? DEFAULTS.bookingRateLimit,
    bodyLimit: config.bodyLimit ?? DEFAULTS.bodyLimit,
    version: config.version ?? 'unknown',
    webhookRetryDelaysMs: config.webhookRetryDelaysMs ?? WEBHOOK.retryDelaysMs,
    webhookTimeoutMs: config.webhookTimeoutMs ?? WEBHOOK.timeoutMs,
    now: config.now ?? (() => Date.now()),
    metrics: config.metrics ?? new Metrics(),
    practice: config.practice ?? false,
    compress: config.compress ?? true,
    publicUrlDerived: config.publicUrlDerived ?? false,
  };
}

/** The upstream budget of resolved settings: each share derived from the quota unless set. */
export function budgetSettings(
  settings: Pick<ResolvedSettings, 'upstreamQuota' | 'upstreamReserve' | 'lowWater' | 'missLimit'>,
): BudgetSettings {
  const quota = settings.upstreamQuota;
  const reserveOf = (limit: number) => Math.min(limit, settings.upstreamReserve ?? Math.max(5, Math.ceil(limit / 5)));
  const reserve = reserveOf(quota);
  return {
    quota,
    reserve,
    bookingReserve: Math.ceil(reserve / 2),
    lowWater: (reported) => settings.lowWater ?? reserveOf(reported ?? quota),
    missLimit: settings.missLimit ?? { limit: Math.max(10, Math.ceil(quota / 50)), windowMs: WINDOWS.missMs },
  };
}

/**
 * The timings of a shared state (Redis, a Durable Object) for a proxy with these resolved settings:
 * its reads live as long as the proxy's, and a booking holds its key past the upstream timeout.
 */
export function sharedStateTimings(settings: Pick<ResolvedSettings, 'cacheTtlMs' | 'staleMs' | 'timeoutMs'>): {
  ttlMs: number;
  staleMs: number;
  holdMs: number;
} {
  return { ttlMs: settings.cacheTtlMs, staleMs: settings.staleMs, holdMs: settings.timeoutMs + 5_000 };
}
