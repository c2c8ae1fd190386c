/**
 * Settings only the Node entry has: whose address keys the per-client limits behind a reverse
 * proxy, and how long a slow client may hold a connection. Node's defaults let a client trickle its
 * headers for a minute and its body for five, and hold any number of idle connections, none of
 * which the rate limit sees; these bound both. Runtime-free, so it is tested like env.ts.
 */
import { parseArgs } from 'node:util';
import type { ClientIpOptions } from '../guards/client-ip.js';
import { ConfigError } from '../env.js';
import { envName, readSetting, settingOr, type ProxyEnv } from '../settings/read.js';
import { SETTINGS } from '../settings/registry.js';
import { flagMap } from '../settings/render.js';
import type { Registry } from '../settings/row.js';

/** The Node server's settings, every one filled. */
export interface NodeSettings {
  /** The port to listen on. */
  port: number;
  /** The address to listen on (undefined: every interface, Node's default). */
  host?: string;
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
  /** Where this process keeps the venue's records without Redis (node/records-file.ts). */
  dataFile?: string;
  /** Venue profiles that start off the venues with none yet (api/profile.ts `seed`). */
  profilesFile?: string;
}

/**
 * `env` with the flags of `args` written over it (a flag wins over its variable), and whether
 * `--help` was asked for; throws on a flag the registry (`rows`) does not define, or one without its
 * value. Apart from main.ts so that a test runs it with any arguments and rows.
 */
export function envWithFlags(
  args: readonly string[],
  env: ProxyEnv,
  rows: Registry = SETTINGS,
): { env: ProxyEnv; help: boolean } {
  const flags = flagMap(rows);
  const { values } = parseArgs({
    args: [...args],
    options: {
      help: { type: 'boolean', short: 'h' },
      ...Object.fromEntries(Object.keys(flags).map((flag) => [flag, { type: 'string' as const }])),
    },
    strict: true,
  });
  const withFlags: ProxyEnv = { ...env };
  for (const [flag, name] of Object.entries(flags)) {
    const value = (values as Record<string, unknown>)[flag];
    if (typeof value === 'string') withFlags[name] = value;
  }
  return { env: withFlags, help: values.help === true };
}

/** Reads the Node-only settings (defaults from the registry, proxy/settings/registry.ts), or throws a `ConfigError` listing every problem. */
export function nodeSettingsFromEnv(env: ProxyEnv): NodeSettings {
  const problems: string[] = [];
  const header = readSetting(env, 'clientIpHeader', problems);
  const trustedHops = readSetting(env, 'trustedHops', problems);
  if (trustedHops !== undefined && !header)
    problems.push(`${envName('trustedHops')} needs ${envName('clientIpHeader')} (the header those proxies append to)`);
  const settings: NodeSettings = {
    port: settingOr(env, 'port', problems),
    clientIp: header ? { header, trustedHops: trustedHops ?? settingOr(env, 'trustedHops', problems) } : {},
    headersTimeoutMs: settingOr(env, 'headersTimeoutMs', problems),
    requestTimeoutMs: settingOr(env, 'requestTimeoutMs', problems),
    keepAliveTimeoutMs: settingOr(env, 'keepAliveTimeoutMs', problems),
    maxConnections: settingOr(env, 'maxConnections', problems),
  };
  const host = readSetting(env, 'host', problems);
  if (host !== undefined) settings.host = host;
  const operatorPort = readSetting(env, 'operatorPort', problems);
  if (operatorPort !== undefined) settings.operatorPort = operatorPort;
  const dataFile = readSetting(env, 'dataFile', problems);
  if (dataFile) settings.dataFile = dataFile;
  const profilesFile = readSetting(env, 'profilesFile', problems);
  if (profilesFile) settings.profilesFile = profilesFile;
  if (settings.headersTimeoutMs > settings.requestTimeoutMs)
    problems.push(`${envName('headersTimeoutMs')} must not exceed ${envName('requestTimeoutMs')}`);
  if (problems.length) throw new ConfigError(problems);
  return settings;
}
