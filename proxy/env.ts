/**
 * Reads the proxy's settings from an environment (Node's `process.env`, a Worker's `env`), and
 * validates them at start so a misconfigured proxy refuses to start with a clear message instead
 * of failing on the first guest's booking. Runtime-free: node/main.ts and worker.ts both use it
 * (through host.ts).
 */
import type { ProxyConfig } from './config.js';
import { ID_RE, isLoopback } from './guards/validate.js';
import { canonicalOrigin } from './core/url.js';

/** Environment variables the proxy reads (all optional; see the README's settings table). */
export interface ProxyEnv {
  VENUE_BOOKING_APP_ID?: string;
  VENUE_BOOKING_API_KEY?: string;
  VENUE_BOOKING_UPSTREAM?: string;
  VENUE_BOOKING_ORIGINS?: string;
  VENUE_BOOKING_VENUES?: string;
  VENUE_BOOKING_VENUE_GROUPS?: string;
  VENUE_BOOKING_BOOKING_SITE?: string;
  VENUE_BOOKING_RETURN_PAGE?: string;
  VENUE_BOOKING_PARTNER_SOURCE?: string;
  VENUE_BOOKING_PUBLIC_URL?: string;
  VENUE_BOOKING_TIMEOUT_MS?: string;
  VENUE_BOOKING_CACHE_TTL_MS?: string;
  VENUE_BOOKING_RATE_LIMIT?: string;
  VENUE_BOOKING_UPSTREAM_QUOTA?: string;
  VENUE_BOOKING_UPSTREAM_RESERVE?: string;
  VENUE_BOOKING_MISS_LIMIT?: string;
  VENUE_BOOKING_LOW_WATER?: string;
  VENUE_BOOKING_FINAL_TTL_MS?: string;
  VENUE_BOOKING_STATIC_TTL_MS?: string;
  VENUE_BOOKING_BROWSE_TTL_MS?: string;
  VENUE_BOOKING_REDIS_URL?: string;
  VENUE_BOOKING_REDIS_PREFIX?: string;
  VENUE_BOOKING_REDIS_TIMEOUT_MS?: string;
  VENUE_BOOKING_METRICS?: string;
  VENUE_BOOKING_METRICS_TOKEN?: string;
  VENUE_BOOKING_STUDIO?: string;
  VENUE_BOOKING_RETURN_SECRET?: string;
  /** Node only: the port and address to listen on (validated in node/main.ts). */
  PORT?: string;
  HOST?: string;
  [name: string]: unknown;
}

/**
 * Settings read from the environment. `embedded` when no credentials were given: the proxy then
 * runs on the embedded sandbox, and `settings` only overrides the stack's defaults.
 */
export type EnvConfig = (
  { embedded: true; settings: Partial<ProxyConfig> } | { embedded: false; settings: ProxyConfig }
) & { warnings: string[]; redis?: RedisSettings };

/** Where the Node entry shares its state: a Redis (or Valkey) server. */
export interface RedisSettings {
  url: string;
  /** Prefix of every key (default `venue-booking:`). */
  prefix: string;
  /** Timeout of every Redis call in ms (default 100). */
  timeoutMs: number;
}

/** A settings error: every problem found, so the operator fixes them in one go. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid proxy settings:\n  - ${problems.join('\n  - ')}`);
  }
}

const text = (env: ProxyEnv, name: string) => (typeof env[name] === 'string' ? (env[name] as string).trim() : '');
const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** A whole-number setting from `min` to `max`, or undefined when unset; a bad value adds a problem. */
export function wholeNumber(env: ProxyEnv, name: string, min: number, max: number, problems: string[]) {
  const raw = text(env, name);
  if (!raw) return undefined;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) problems.push(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password ? url : null;
  } catch {
    return null;
  }
}

/** Validates the environment and returns the settings, or throws a `ConfigError`. */
export function configFromEnv(env: ProxyEnv): EnvConfig {
  const problems: string[] = [];
  const warnings: string[] = [];
  const settings: Partial<ProxyConfig> = {};

  const ids = (name: string) => {
    const values = list(text(env, name));
    for (const value of values) if (!ID_RE.test(value)) problems.push(`${name}: "${value}" is not an id`);
    return values;
  };
  const integer = (name: string, min: number, max: number) => wholeNumber(env, name, min, max, problems);
  const url = (name: string) => {
    const raw = text(env, name);
    if (!raw) return undefined;
    const parsed = httpUrl(raw);
    if (!parsed) problems.push(`${name}: "${raw}" is not an http(s) URL`);
    return parsed ? raw.replace(/\/+$/, '') : undefined;
  };

  const venues = ids('VENUE_BOOKING_VENUES');
  const venueGroups = ids('VENUE_BOOKING_VENUE_GROUPS');
  if (venues.length) settings.venues = venues;
  if (venueGroups.length) settings.venueGroups = venueGroups;
  // Any spelling of an origin is taken (case, a default port, a trailing slash) and kept in the
  // canonical form browsers send, which the origin rule and the studio's site list compare.
  const origins: string[] = [];
  for (const origin of list(text(env, 'VENUE_BOOKING_ORIGINS'))) {
    const canonical = canonicalOrigin(origin);
    if (canonical === null || canonical === 'null')
      problems.push(`VENUE_BOOKING_ORIGINS: "${origin}" is not an origin like https://example.com`);
    else if (!origins.includes(canonical)) origins.push(canonical);
  }
  if (origins.length) settings.origins = origins;
  settings.bookingSite = url('VENUE_BOOKING_BOOKING_SITE');
  settings.publicUrl = url('VENUE_BOOKING_PUBLIC_URL');
  settings.timeoutMs = integer('VENUE_BOOKING_TIMEOUT_MS', 100, 120_000);
  settings.cacheTtlMs = integer('VENUE_BOOKING_CACHE_TTL_MS', 0, 3_600_000);
  const perMinute = integer('VENUE_BOOKING_RATE_LIMIT', 1, 1_000_000);
  if (perMinute !== undefined) settings.rateLimit = { limit: perMinute, windowMs: 60_000 };
  // The upstream budget (guards/budget.ts): the App ID's hourly quota, the share only final checks and
  // bookings may spend, cache misses per client per 10 minutes, and the low water mark of the
  // upstream's reported remaining calls; each unset one derives from the quota.
  settings.upstreamQuota = integer('VENUE_BOOKING_UPSTREAM_QUOTA', 1, 10_000_000);
  settings.upstreamReserve = integer('VENUE_BOOKING_UPSTREAM_RESERVE', 0, 10_000_000);
  if (settings.upstreamQuota !== undefined && (settings.upstreamReserve ?? 0) > settings.upstreamQuota)
    problems.push('VENUE_BOOKING_UPSTREAM_RESERVE must not be more than VENUE_BOOKING_UPSTREAM_QUOTA');
  const misses = integer('VENUE_BOOKING_MISS_LIMIT', 1, 1_000_000);
  if (misses !== undefined) settings.missLimit = { limit: misses, windowMs: 600_000 };
  settings.lowWater = integer('VENUE_BOOKING_LOW_WATER', 0, 10_000_000);
  settings.finalTtlMs = integer('VENUE_BOOKING_FINAL_TTL_MS', 0, 3_600_000);
  settings.staticTtlMs = integer('VENUE_BOOKING_STATIC_TTL_MS', 0, 86_400_000);
  settings.browseTtlMs = integer('VENUE_BOOKING_BROWSE_TTL_MS', 0, 86_400_000);
  const partnerSource = text(env, 'VENUE_BOOKING_PARTNER_SOURCE');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (partnerSource.length > 100 || /[\u0000-\u001f]/.test(partnerSource))
    problems.push('VENUE_BOOKING_PARTNER_SOURCE must be at most 100 printable characters');
  else if (partnerSource) settings.partnerSource = partnerSource;

  // One URL for every venue, or `venueId=url` pairs; `{venue}` in a URL is replaced by the venue id.
  const returnPage = text(env, 'VENUE_BOOKING_RETURN_PAGE');
  if (returnPage) {
    const pages: Record<string, string> = {};
    for (const item of list(returnPage)) {
      const [venue, page] = /^[A-Za-z0-9_-]+=/.test(item)
        ? [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)]
        : ['*', item];
      if (!httpUrl(page!.replace('{venue}', 'x')))
        problems.push(`VENUE_BOOKING_RETURN_PAGE: "${page}" is not an http(s) URL`);
      else pages[venue!] = page!;
    }
    settings.returnPages = pages;
  }
  const bridge = text(env, 'VENUE_BOOKING_RETURN_BRIDGE');
  if (bridge === 'off') settings.returnBridge = false;
  else if (bridge && bridge !== 'on') problems.push('VENUE_BOOKING_RETURN_BRIDGE must be on (default) or off');
  // The key of the hand-off ids (routes/handoff.ts): shared by every instance and kept over restarts.
  const returnSecret = text(env, 'VENUE_BOOKING_RETURN_SECRET');
  if (returnSecret && !/^[A-Za-z0-9._~+/=-]{32,200}$/.test(returnSecret))
    problems.push(
      'VENUE_BOOKING_RETURN_SECRET must be 32 to 200 letters, digits or . _ ~ + / = - (e.g. from `openssl rand -hex 32`)',
    );
  else if (returnSecret) settings.returnSecret = returnSecret;
  const operatorPages = operatorPagesOf(env, problems);
  if (operatorPages) settings.operatorPages = operatorPages;
  for (const key of Object.keys(settings) as (keyof ProxyConfig)[])
    if (settings[key] === undefined) delete settings[key];
  const redis = redisSettings(env, problems, integer);

  const appId = text(env, 'VENUE_BOOKING_APP_ID');
  const apiKey = text(env, 'VENUE_BOOKING_API_KEY');
  if (!appId && !apiKey) {
    if (problems.length) throw new ConfigError(problems);
    return { embedded: true, settings, warnings, redis };
  }
  if (!appId) problems.push('VENUE_BOOKING_APP_ID is missing (the API key is set)');
  if (!apiKey) problems.push('VENUE_BOOKING_API_KEY is missing (the App ID is set)');
  if (/[\s:]/.test(appId)) problems.push('VENUE_BOOKING_APP_ID must not contain spaces or a colon');
  if (/\s/.test(apiKey)) problems.push('VENUE_BOOKING_API_KEY must not contain spaces');
  const upstream = text(env, 'VENUE_BOOKING_UPSTREAM').replace(/\/+$/, '');
  const upstreamUrl = httpUrl(upstream);
  if (!upstreamUrl || !upstreamUrl.pathname.endsWith('/v4') || upstreamUrl.search) {
    problems.push('VENUE_BOOKING_UPSTREAM must be the service base URL ending in /v4, e.g. https://api.example.com/v4');
  } else if (upstreamUrl.protocol === 'http:' && !isLoopback(upstreamUrl.hostname)) {
    problems.push('VENUE_BOOKING_UPSTREAM must use https (the key travels in a header)');
  }
  if (!venues.length && !venueGroups.length)
    problems.push('VENUE_BOOKING_VENUES (or VENUE_BOOKING_VENUE_GROUPS) must list the venues the widget may book');
  if (!settings.bookingSite)
    problems.push(
      'VENUE_BOOKING_BOOKING_SITE is missing: the URL prefix of the hosted booking site (deposits, pre-orders), e.g. https://book.example.com/book; next.web is passed only under it',
    );
  if (!settings.publicUrl)
    warnings.push(
      'VENUE_BOOKING_PUBLIC_URL is not set: only requests to localhost are answered (local development); set it to the public address of this proxy',
    );
  if (problems.length) throw new ConfigError(problems);
  return { embedded: false, settings: { ...settings, appId, apiKey, upstream, venues }, warnings, redis };
}

/**
 * The operator's pages: `VENUE_BOOKING_METRICS` and `VENUE_BOOKING_STUDIO` turn `/metrics` with
 * `/status`, and `/embed`, off; `VENUE_BOOKING_METRICS_TOKEN` opens them off this machine. A token
 * is a secret: long enough not to be guessed, and never echoed in a problem.
 */
function operatorPagesOf(env: ProxyEnv, problems: string[]): ProxyConfig['operatorPages'] {
  const pages: NonNullable<ProxyConfig['operatorPages']> = {};
  for (const [name, key] of [
    ['VENUE_BOOKING_METRICS', 'metrics'],
    ['VENUE_BOOKING_STUDIO', 'studio'],
  ] as const) {
    const value = text(env, name);
    if (value === 'off') pages[key] = false;
    else if (value && value !== 'on') problems.push(`${name} must be on (default) or off`);
  }
  const token = text(env, 'VENUE_BOOKING_METRICS_TOKEN');
  if (token && !/^[A-Za-z0-9._~+/=-]{16,200}$/.test(token))
    problems.push(
      'VENUE_BOOKING_METRICS_TOKEN must be 16 to 200 letters, digits or . _ ~ + / = - (e.g. from `openssl rand -hex 32`)',
    );
  else if (token) pages.token = token;
  return Object.keys(pages).length ? pages : undefined;
}

/** The Redis settings, when `VENUE_BOOKING_REDIS_URL` is set. */
function redisSettings(
  env: ProxyEnv,
  problems: string[],
  integer: (name: string, min: number, max: number) => number | undefined,
): RedisSettings | undefined {
  const raw = text(env, 'VENUE_BOOKING_REDIS_URL');
  const prefix = text(env, 'VENUE_BOOKING_REDIS_PREFIX') || 'venue-booking:';
  const timeoutMs = integer('VENUE_BOOKING_REDIS_TIMEOUT_MS', 5, 10_000) ?? 100;
  if (!/^[\x21-\x7e]{1,100}$/.test(prefix))
    problems.push('VENUE_BOOKING_REDIS_PREFIX must be at most 100 printable characters without spaces');
  if (!raw) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // Reported below, without echoing a URL that may hold a password.
  }
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) {
    problems.push('VENUE_BOOKING_REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://localhost:6379');
    return undefined;
  }
  return { url: raw, prefix, timeoutMs };
}
