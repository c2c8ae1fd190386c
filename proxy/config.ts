/**
 * Reads the proxy's settings from an environment (Node's `process.env`, a Worker's `env`), and
 * validates them at start so a misconfigured proxy refuses to start with a clear message instead
 * of failing on the first guest's booking.
 */
import type { ProxyConfig } from './app.js';

/** Environment variables the proxy reads. */
export interface ProxyEnv {
  VENUE_BOOKING_APP_ID?: string;
  VENUE_BOOKING_API_KEY?: string;
  VENUE_BOOKING_UPSTREAM?: string;
  VENUE_BOOKING_ORIGINS?: string;
  VENUE_BOOKING_VENUES?: string;
  [name: string]: string | undefined;
}

/** Settings read from the environment; `embedded` when no credentials were given. */
export type EnvConfig =
  | { embedded: true; origins: string[]; venues: string[] }
  | ({ embedded: false } & ProxyConfig & { origins: string[] });

/** A settings error: every problem found, so the operator fixes them in one go. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid proxy settings:\n  - ${problems.join('\n  - ')}`);
  }
}

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

/** Validates the environment and returns the settings, or throws a `ConfigError`. */
export function configFromEnv(env: ProxyEnv): EnvConfig {
  const problems: string[] = [];
  const appId = env.VENUE_BOOKING_APP_ID?.trim() ?? '';
  const apiKey = env.VENUE_BOOKING_API_KEY?.trim() ?? '';
  const origins = list(env.VENUE_BOOKING_ORIGINS);
  const venues = list(env.VENUE_BOOKING_VENUES);
  for (const venue of venues) if (!/^[A-Za-z0-9_-]{1,64}$/.test(venue)) problems.push(`VENUE_BOOKING_VENUES: "${venue}" is not a venue id`);
  for (const origin of origins) if (!/^https?:\/\/[^/]+$/.test(origin)) problems.push(`VENUE_BOOKING_ORIGINS: "${origin}" is not an origin like https://example.com`);
  if (!appId && !apiKey) {
    if (problems.length) throw new ConfigError(problems);
    return { embedded: true, origins, venues };
  }
  if (!appId) problems.push('VENUE_BOOKING_APP_ID is missing (the API key is set)');
  if (!apiKey) problems.push('VENUE_BOOKING_API_KEY is missing (the App ID is set)');
  const upstream = env.VENUE_BOOKING_UPSTREAM?.trim() ?? '';
  if (!/^https?:\/\/.+\/v4\/?$/.test(upstream)) problems.push('VENUE_BOOKING_UPSTREAM must be the service base URL ending in /v4');
  if (venues.length === 0) problems.push('VENUE_BOOKING_VENUES must list the venue ids the widget may book');
  if (problems.length) throw new ConfigError(problems);
  return { embedded: false, appId, apiKey, upstream: upstream.replace(/\/$/, ''), venues, origins };
}
