/**
 * A setting is one row of the registry (proxy/settings/registry.ts): every row's variable and
 * every row's flag reach the configuration the proxy and the Node entry resolve, and a row added to
 * the registry (here at test time, with no other file touched) reaches the resolved config, the
 * environment and flag readers, `--help` and the README's table.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveConfig, type ProxyConfig, type ResolvedConfig } from '../../proxy/config.js';
import { configFromEnv, ConfigError, type RedisSettings } from '../../proxy/env.js';
import { envWithFlags, nodeSettingsFromEnv, type NodeSettings } from '../../proxy/node/settings.js';
import { parsers } from '../../proxy/settings/parsers.js';
import { settingRows, type ProxyEnv, type SettingKey } from '../../proxy/settings/read.js';
import { SETTINGS } from '../../proxy/settings/registry.js';
import { helpText, settingsTable } from '../../proxy/settings/render.js';
import type { Registry } from '../../proxy/settings/row.js';

/** A valid value of every row that is text (a Worker's binding is not), none of them its default. */
const SAMPLES: Record<Exclude<SettingKey, 'stateBinding'>, string> = {
  appId: 'app-sample',
  apiKey: 'key-sample',
  upstream: 'https://api.sample.example/v4',
  venues: '64a1f0c2e4b0a1b2c3d4e501',
  venueGroups: '64a1f0c2e4b0a1b2c3d4e500',
  origins: 'https://site.example',
  bookingSite: 'https://book.sample.example/book',
  returnPages: 'https://venue.example/{venue}/done',
  returnBridge: 'off',
  partnerSource: 'our-site',
  publicUrl: 'https://proxy.example',
  timeoutMs: '8000',
  cacheTtlMs: '5000',
  browseTtlMs: '1000',
  finalTtlMs: '2000',
  staticTtlMs: '7000',
  staleMs: '3000',
  rateLimit: '60',
  botCheck: 'off',
  botWork: '5000',
  turnstileSiteKey: '0x4AAAAAAAsample',
  turnstileSecret: '0x4AAAAAAAsample-secret',
  webhookUrl: 'https://venue.example/hooks/bookings',
  webhookSecret: 'webhook-secret-0123456789abcdef012345',
  upstreamQuota: '1000',
  upstreamReserve: '40',
  missLimit: '8',
  lowWater: '7',
  metrics: 'off',
  operatorToken: 'operator-token-0123456789',
  returnSecret: 'return-secret-0123456789abcdef0123456789',
  manageSecret: 'manage-secret-0123456789abcdef0123456789',
  studio: 'off',
  clientIpHeader: 'x-forwarded-for',
  trustedHops: '2',
  headersTimeoutMs: '5000',
  requestTimeoutMs: '20000',
  keepAliveTimeoutMs: '4000',
  maxConnections: '50',
  redisUrl: 'redis://cache.example:6379',
  redisPrefix: 'sample:',
  redisTimeoutMs: '50',
  port: '9090',
  host: '127.0.0.1',
  operatorPort: '9091',
  dataFile: '/var/lib/venue-booking/records.json',
  profilesFile: '/etc/venue-booking/profiles.json',
};

/** Another valid environment with credentials, whose values differ from every sample. */
const BASE: ProxyEnv = {
  VENUE_BOOKING_APP_ID: 'app-base',
  VENUE_BOOKING_API_KEY: 'key-base',
  VENUE_BOOKING_UPSTREAM: 'https://api.base.example/v4',
  VENUE_BOOKING_VENUES: '64a1f0c2e4b0a1b2c3d4e5ff',
  VENUE_BOOKING_BOOKING_SITE: 'https://book.base.example/book',
};

/** What an environment resolves to, everywhere a row may land. */
interface Landed {
  proxy: ResolvedConfig;
  node: NodeSettings;
  redis?: RedisSettings;
}

function resolved(env: ProxyEnv): Landed {
  const config = configFromEnv(env);
  assert.equal(config.embedded, false);
  return { proxy: resolveConfig(config.settings as ProxyConfig), node: nodeSettingsFromEnv(env), redis: config.redis };
}

/** Where a row's value is found in what was resolved (a derived row: the value derived from it alone). */
function landing(key: string, { proxy, node, redis }: Landed): unknown {
  const row = SETTINGS[key as SettingKey];
  switch (row.scope) {
    case 'proxy':
      return proxy[key as keyof ResolvedConfig];
    case 'operatorPages':
      return proxy.operatorPages[('field' in row ? row.field : key) as keyof ResolvedConfig['operatorPages']];
    case 'credentials':
      return { appId: proxy.appId, apiKey: proxy.apiKey, upstream: proxy.upstreamBase }[key];
    case 'derived':
      return {
        publicUrl: proxy.publicBase,
        upstreamReserve: proxy.budget.reserve,
        missLimit: proxy.budget.missLimit,
        lowWater: proxy.budget.lowWater(null),
      }[key];
    case 'node':
      if (key === 'clientIpHeader') return node.clientIp.header;
      if (key === 'trustedHops') return node.clientIp.trustedHops;
      return node[key as keyof NodeSettings];
    case 'redis':
      return redis?.[({ redisUrl: 'url', redisPrefix: 'prefix', redisTimeoutMs: 'timeoutMs' } as const)[key]!];
    case 'worker':
      throw new Error(`${row.env} is a binding, not text`);
  }
}

/** A sample parsed by its row, as a variable or a flag set to it gives. */
function parsed(key: SettingKey): unknown {
  const row = settingRows().find((setting) => setting.key === key)!;
  const problems: string[] = [];
  const value = row.parse(SAMPLES[key as keyof typeof SAMPLES], row.env, problems);
  assert.deepEqual(problems, [], `${row.env} sample`);
  return value;
}

const sampled = settingRows().filter((row) => row.key in SAMPLES);

describe('every row of the settings registry', () => {
  test('has a sample here, but for the Worker binding, which is not text', () => {
    assert.deepEqual(
      settingRows()
        .filter((row) => !(row.key in SAMPLES))
        .map((row) => row.scope),
      ['worker'],
    );
  });

  test('its environment variable, set, reaches the resolved configuration', () => {
    const env: ProxyEnv = Object.fromEntries(sampled.map((row) => [row.env, SAMPLES[row.key as keyof typeof SAMPLES]]));
    const set = resolved(env);
    const base = resolved(BASE);
    for (const row of sampled) {
      const key = row.key as SettingKey;
      assert.deepEqual(landing(key, set), parsed(key), `${row.env} reaches the configuration`);
      assert.notDeepEqual(landing(key, base), parsed(key), `${row.env}'s sample is not what it is without it`);
    }
  });

  test('its flag, given, reaches the resolved configuration (and wins over its variable)', () => {
    const flagged = sampled.filter((row) => row.flag);
    assert.ok(flagged.length > 15, `${flagged.length} flags`);
    const args = flagged.flatMap((row) => [`--${row.flag}`, SAMPLES[row.key as keyof typeof SAMPLES]]);
    const { env, help } = envWithFlags(args, BASE);
    assert.equal(help, false);
    const set = resolved(env);
    for (const row of flagged) {
      const key = row.key as SettingKey;
      assert.deepEqual(landing(key, set), parsed(key), `--${row.flag} reaches the configuration`);
    }
    assert.throws(() => envWithFlags(['--nope', '1'], {}), /--nope/);
    assert.equal(envWithFlags(['--help'], {}).help, true);
  });
});

describe('a row added to the registry', () => {
  /** The registry with one row more, as a contributor would write it in registry.ts. */
  const rows: Registry = {
    ...SETTINGS,
    extraTtlMs: {
      env: 'VENUE_BOOKING_EXTRA_TTL_MS',
      flag: 'extra-ttl-ms',
      arg: 'N',
      scope: 'proxy',
      parse: parsers.whole(0, 60_000),
      default: '1500',
      unit: 'ms',
      doc: 'How long an extra read is shared (a row this test adds)',
    },
  };
  const config: ProxyConfig = { upstream: 'https://api.example/v4', appId: 'app', apiKey: 'key', venues: [] };
  const extra = (resolvedConfig: ResolvedConfig) => (resolvedConfig as unknown as Record<string, unknown>).extraTtlMs;

  test('reaches the resolved configuration: its default, its variable, its flag', () => {
    assert.equal(extra(resolveConfig(config, rows)), 1500);
    const fromEnv = configFromEnv({ VENUE_BOOKING_EXTRA_TTL_MS: '2500' }, rows);
    assert.deepEqual(fromEnv.settings, { extraTtlMs: 2500 });
    assert.equal(extra(resolveConfig({ ...config, ...fromEnv.settings }, rows)), 2500);
    const fromFlag = configFromEnv(envWithFlags(['--extra-ttl-ms', '3000'], {}, rows).env, rows);
    assert.equal(extra(resolveConfig({ ...config, ...fromFlag.settings }, rows)), 3000);
    assert.throws(
      () => configFromEnv({ VENUE_BOOKING_EXTRA_TTL_MS: 'soon' }, rows),
      (error: unknown) =>
        error instanceof ConfigError && /VENUE_BOOKING_EXTRA_TTL_MS must be a whole number/.test(error.message),
    );
    assert.equal(extra(resolveConfig(config)), undefined, 'the real registry has no such row');
  });

  test('reaches --help and the README table', () => {
    const help = helpText(rows);
    assert.match(help, /--extra-ttl-ms N +How long an extra read is shared \(a row this test adds\)/);
    assert.match(help, /\[VENUE_BOOKING_EXTRA_TTL_MS, default 1500 \(ms\)\]/);
    assert.ok(!helpText().includes('EXTRA_TTL'));
    assert.ok(
      settingsTable(rows).includes(
        '| `VENUE_BOOKING_EXTRA_TTL_MS` [`--extra-ttl-ms`] | How long an extra read is shared (a row this test adds) | `1500` (ms) |',
      ),
    );
    assert.ok(!settingsTable().includes('EXTRA_TTL'));
  });
});
