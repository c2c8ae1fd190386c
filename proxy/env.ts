/**
 * Reads the proxy's settings from an environment (Node's `process.env`, a Worker's `env`), and
 * validates them at start so a misconfigured proxy refuses to start with a clear message instead
 * of failing on the first guest's booking. Runtime-free: node/main.ts and worker.ts both use it
 * (through host.ts).
 */
import type { ProxyConfig } from './config.js';
import { envName, readScope, readSetting, settingOr, type ProxyEnv } from './settings/read.js';
import { SETTINGS } from './settings/registry.js';
import type { Registry } from './settings/row.js';

export type { ProxyEnv } from './settings/read.js';

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

/**
 * The settings of the proxy itself, as set (an unset one is absent, so that defaults apply later):
 * every row of the registry that lands in `ProxyConfig`, credentials aside.
 */
function proxySettings(env: ProxyEnv, problems: string[], rows: Registry): Partial<ProxyConfig> {
  const settings: Partial<ProxyConfig> = readScope(env, ['proxy', 'derived'], problems, rows);
  const { upstreamQuota, upstreamReserve } = settings;
  if (upstreamQuota !== undefined && (upstreamReserve ?? 0) > upstreamQuota)
    problems.push(`${envName('upstreamReserve')} must not be more than ${envName('upstreamQuota')}`);
  // Turnstile needs both keys: a site key alone would render a widget whose tokens nobody checks.
  if ((settings.turnstileSiteKey === undefined) !== (settings.turnstileSecret === undefined))
    problems.push(`${envName('turnstileSiteKey')} and ${envName('turnstileSecret')} are set together, or neither`);
  // A webhook needs its secret (an unsigned call anyone could forge), and a secret alone signs nothing.
  if ((settings.webhookUrl === undefined) !== (settings.webhookSecret === undefined))
    problems.push(`${envName('webhookUrl')} and ${envName('webhookSecret')} are set together, or neither`);
  const operatorPages = readScope(env, ['operatorPages'], problems, rows);
  if (Object.keys(operatorPages).length) settings.operatorPages = operatorPages;
  return settings;
}

/**
 * Validates the environment and returns the settings, or throws a `ConfigError`. `rows`: the
 * registry, or a test's with a row more.
 */
export function configFromEnv(env: ProxyEnv, rows: Registry = SETTINGS): EnvConfig {
  const problems: string[] = [];
  const warnings: string[] = [];
  const settings = proxySettings(env, problems, rows);
  const redis = redisSettings(env, problems);

  const appId = readSetting(env, 'appId', problems) ?? '';
  const apiKey = readSetting(env, 'apiKey', problems) ?? '';
  if (!appId && !apiKey) {
    if (problems.length) throw new ConfigError(problems);
    return { embedded: true, settings, warnings, redis };
  }
  const [APP_ID, API_KEY, UPSTREAM] = [envName('appId'), envName('apiKey'), envName('upstream')];
  if (!appId) problems.push(`${APP_ID} is missing (the API key is set)`);
  if (!apiKey) problems.push(`${API_KEY} is missing (the App ID is set)`);
  if (/[\s:]/.test(appId)) problems.push(`${APP_ID} must not contain spaces or a colon`);
  if (/\s/.test(apiKey)) problems.push(`${API_KEY} must not contain spaces`);
  const upstream = readSetting(env, 'upstream', problems) ?? '';
  if (!upstream)
    problems.push(`${UPSTREAM} must be the service base URL ending in /v4, e.g. https://api.example.com/v4`);
  const venues = settings.venues ?? [];
  if (!venues.length && !settings.venueGroups?.length)
    problems.push(`${envName('venues')} (or ${envName('venueGroups')}) must list the venues the widget may book`);
  if (!settings.bookingSite)
    problems.push(
      `${envName('bookingSite')} is missing: the URL prefix of the hosted booking site (deposits, pre-orders), e.g. https://book.example.com/book; next.web is passed only under it`,
    );
  if (!settings.publicUrl)
    warnings.push(
      `${envName('publicUrl')} is not set: only requests to localhost are answered (local development); set it to the public address of this proxy`,
    );
  if (settings.botCheck === false)
    warnings.push(
      `${envName('botCheck')} is off with live credentials: bookings need no proof and bots are not answered with decoys; turn it on unless bookings come server to server`,
    );
  if (problems.length) throw new ConfigError(problems);
  return { embedded: false, settings: { ...settings, appId, apiKey, upstream, venues }, warnings, redis };
}

/** The Redis settings, when its URL is set (the prefix and timeout are checked either way). */
function redisSettings(env: ProxyEnv, problems: string[]): RedisSettings | undefined {
  const prefix = settingOr(env, 'redisPrefix', problems);
  const timeoutMs = settingOr(env, 'redisTimeoutMs', problems);
  const url = readSetting(env, 'redisUrl', problems);
  return url ? { url, prefix, timeoutMs } : undefined;
}
