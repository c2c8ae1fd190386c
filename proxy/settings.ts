/**
 * The settings registry: every setting of the proxy written once, with its environment variable,
 * its flag (Node), its parser, its default, its unit and one line of doc. Everything else is read
 * from here:
 *
 * - env.ts and node/settings.ts parse an environment by walking these rows;
 * - node/main.ts builds `--help` and its flag map from them;
 * - config.ts takes its `DEFAULTS` from them (a default is the parsed default text);
 * - the README's settings table is rendered from them (`npm run docs`; test/package/readme.test.ts
 *   fails on drift, and test/package/architecture.test.ts on an environment variable spelled
 *   outside this file).
 *
 * A row's default is written as an operator would type it (`'60000'`, `'on'`), so the README, the
 * help and the resolved value cannot disagree: the value is that text run through the row's parser.
 */
import { canonicalOrigin } from './core/url.js';
import { ID_RE, isLoopback } from './guards/validate.js';
import type { LimitRule } from './state/types.js';

/** The windows of the per-client limits: what an operator sets is a count per window. */
export const WINDOWS = {
  /** `VENUE_BOOKING_RATE_LIMIT` counts requests per minute. */
  rateMs: 60_000,
  /** Bookings per client: 20 per 10 minutes (not an operator setting). */
  bookingMs: 600_000,
  /** `VENUE_BOOKING_MISS_LIMIT` counts cache misses per 10 minutes. */
  missMs: 600_000,
} as const;

/** Bookings a client may attempt per `WINDOWS.bookingMs`. */
export const BOOKINGS_PER_WINDOW = 20;

/** The largest request body accepted, in bytes (not an operator setting). */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** How long the venue list of a configured group is trusted, and kept through outages (context.ts). */
export const GROUP_LIST_TTL = { ttlMs: 300_000, staleMs: 3_600_000 } as const;

/** Who reads a row: the proxy itself (every host), the Node entry, its Redis client, the Worker. */
export type SettingScope = 'credentials' | 'proxy' | 'node' | 'redis' | 'worker';

/** Turns the trimmed text of a setting (never empty) into its value, or adds a problem naming it. */
export type Parser<T> = (raw: string, name: string, problems: string[]) => T | undefined;

/** One setting. */
export interface Setting<T = unknown> {
  /** The environment variable (a Worker's var or secret, or binding for `worker`). */
  env: string;
  /** The Node flag, without `--`; none: environment only. */
  flag?: string;
  /** What the flag's value is called in `--help` (`N`, `URL`, …). */
  arg?: string;
  scope: SettingScope;
  parse: Parser<T>;
  /** The default as an operator would write it; none when unset means something else (`defaultDoc`). */
  default?: string;
  /** The default in words, when it is derived or is an absence. */
  defaultDoc?: string;
  /** The unit of a number (`ms`, `requests per minute`, …). */
  unit?: string;
  /** One line of doc (Markdown: the README shows it as is, `--help` without the marks). */
  doc: string;
}

const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** A URL that is http(s) and holds no credentials, or null. */
export function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password ? url : null;
  } catch {
    return null;
  }
}

/** The parsers the rows use; each names the variable in its problem. */
export const parsers = {
  /** A whole number from `min` to `max`. */
  whole:
    (min: number, max: number): Parser<number> =>
    (raw, name, problems) => {
      const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
      if (!(value >= min && value <= max)) problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return value;
    },
  /** A count per window (`windowMs`), as a limit rule. */
  perWindow:
    (min: number, max: number, windowMs: number): Parser<LimitRule> =>
    (raw, name, problems) => {
      const before = problems.length;
      const limit = parsers.whole(min, max)(raw, name, problems);
      return problems.length > before || limit === undefined ? undefined : { limit, windowMs };
    },
  /** A comma list of ids. */
  ids: ((raw, name, problems) => {
    const values = list(raw);
    for (const value of values) if (!ID_RE.test(value)) problems.push(`${name}: "${value}" is not an id`);
    return values.length ? values : undefined;
  }) as Parser<string[]>,
  /**
   * A comma list of origins (scheme://host[:port]), any spelling (case, a default port, a trailing
   * slash) kept in the canonical form browsers send, which the origin rule and the studio's site
   * list compare (core/url.ts `canonicalOrigin`).
   */
  origins: ((raw, name, problems) => {
    const origins: string[] = [];
    for (const origin of list(raw)) {
      const canonical = canonicalOrigin(origin);
      if (canonical === null || canonical === 'null')
        problems.push(`${name}: "${origin}" is not an origin like https://example.com`);
      else if (!origins.includes(canonical)) origins.push(canonical);
    }
    return origins.length ? origins : undefined;
  }) as Parser<string[]>,
  /** An http(s) URL, without its trailing slashes. */
  url: ((raw, name, problems) => {
    if (httpUrl(raw)) return raw.replace(/\/+$/, '');
    problems.push(`${name}: "${raw}" is not an http(s) URL`);
    return undefined;
  }) as Parser<string>,
  /** `on` or `off`. */
  onOff: ((raw, name, problems) => {
    if (raw === 'on' || raw === 'off') return raw === 'on';
    problems.push(`${name} must be on (default) or off`);
    return undefined;
  }) as Parser<boolean>,
  /** Any text (its checks live with the setting that needs them). */
  text: ((raw) => raw) as Parser<string>,
  /** At most 100 printable characters. */
  printable: ((raw, name, problems) => {
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (raw.length <= 100 && !/[\u0000-\u001f]/.test(raw)) return raw;
    problems.push(`${name} must be at most 100 printable characters`);
    return undefined;
  }) as Parser<string>,
  /** One URL for every venue, or `venueId=url` pairs; `{venue}` in a URL is replaced by the venue id. */
  returnPages: ((raw, name, problems) => {
    const pages: Record<string, string> = {};
    for (const item of list(raw)) {
      const [venue, page] = /^[A-Za-z0-9_-]+=/.test(item)
        ? [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)]
        : ['*', item];
      if (!httpUrl(page!.replace('{venue}', 'x'))) problems.push(`${name}: "${page}" is not an http(s) URL`);
      else pages[venue!] = page!;
    }
    return pages;
  }) as Parser<Record<string, string>>,
  /** The service's base URL: ending in /v4, https unless on loopback. */
  upstream: ((raw, name, problems) => {
    const upstream = raw.replace(/\/+$/, '');
    const url = httpUrl(upstream);
    if (!url || !url.pathname.endsWith('/v4') || url.search)
      problems.push(`${name} must be the service base URL ending in /v4, e.g. https://api.example.com/v4`);
    else if (url.protocol === 'http:' && !isLoopback(url.hostname))
      problems.push(`${name} must use https (the key travels in a header)`);
    return upstream;
  }) as Parser<string>,
  /** A secret token: long enough not to be guessed, and never echoed in a problem. */
  token: ((raw, name, problems) => {
    if (/^[A-Za-z0-9._~+/=-]{16,200}$/.test(raw)) return raw;
    problems.push(`${name} must be 16 to 200 letters, digits or . _ ~ + / = - (e.g. from \`openssl rand -hex 32\`)`);
    return undefined;
  }) as Parser<string>,
  /** A header name, lower-cased. */
  header: ((raw, name, problems) => {
    const header = raw.toLowerCase();
    if (/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(header)) return header;
    problems.push(`${name} must be a header name, e.g. x-forwarded-for`);
    return undefined;
  }) as Parser<string>,
  /** A redis:// or rediss:// URL, never echoed (it may hold a password). */
  redisUrl: ((raw, name, problems) => {
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      // Reported below, without echoing a URL that may hold a password.
    }
    if (url && (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname) return raw;
    problems.push(`${name} must be a redis:// or rediss:// URL, e.g. redis://localhost:6379`);
    return undefined;
  }) as Parser<string>,
  /** A key prefix: printable, no spaces. */
  keyPrefix: ((raw, name, problems) => {
    if (/^[\x21-\x7e]{1,100}$/.test(raw)) return raw;
    problems.push(`${name} must be at most 100 printable characters without spaces`);
    return undefined;
  }) as Parser<string>,
  /** A signing secret: 32 to 200 letters, digits or `._~+/=-`; never echoed. */
  secret: ((raw, name, problems) => {
    if (/^[A-Za-z0-9._~+/=-]{32,200}$/.test(raw)) return raw;
    problems.push(`${name} must be 32 to 200 letters, digits or . _ ~ + / = - (e.g. from \`openssl rand -hex 32\`)`);
    return undefined;
  }) as Parser<string>,
  /** An address to listen on: an IPv4 or IPv6 address (brackets dropped) or a host name. */
  listenHost: ((raw, name, problems) => {
    const host = raw.replace(/^\[(.*)\]$/, '$1');
    if (
      /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) ||
      /^[0-9a-f:.]*:[0-9a-f:.]*$/i.test(host) ||
      /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(host)
    )
      return host;
    problems.push(`${name} must be an IP address or a host name, e.g. 127.0.0.1, ::1 or localhost`);
    return undefined;
  }) as Parser<string>,
  /** A port number. */
  port: ((raw, name, problems) => {
    const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (port >= 0 && port <= 65535) return port;
    problems.push(`${name} must be a port number from 0 to 65535`);
    return undefined;
  }) as Parser<number>,
  /** A binding the runtime hands over (a Worker's Durable Object namespace): never parsed from text. */
  binding: (() => undefined) as Parser<never>,
};

const { whole, perWindow } = parsers;

/**
 * Every setting, by the name the code reads it under (a `ProxyConfig` field for the proxy's own,
 * a field of the Node, Redis or Worker settings for theirs). The order is the README's and `--help`'s.
 */
export const SETTINGS = {
  appId: {
    env: 'VENUE_BOOKING_APP_ID',
    scope: 'credentials',
    parse: parsers.text,
    doc: 'The service App ID (environment only, never a flag). With neither credential set, the proxy runs on the embedded sandbox and says so.',
  },
  apiKey: {
    env: 'VENUE_BOOKING_API_KEY',
    scope: 'credentials',
    parse: parsers.text,
    doc: 'The service API key (environment only, never a flag; never logged or answered).',
  },
  upstream: {
    env: 'VENUE_BOOKING_UPSTREAM',
    flag: 'upstream',
    arg: 'URL',
    scope: 'credentials',
    parse: parsers.upstream,
    doc: 'The service base URL, ending in `/v4`; https (plain http only on loopback)',
  },
  venues: {
    env: 'VENUE_BOOKING_VENUES',
    flag: 'venues',
    arg: 'IDS',
    scope: 'proxy',
    parse: parsers.ids,
    defaultDoc: 'demo venues when embedded',
    doc: 'Comma list of the venue ids the widget may use',
  },
  venueGroups: {
    env: 'VENUE_BOOKING_VENUE_GROUPS',
    flag: 'venue-groups',
    arg: 'IDS',
    scope: 'proxy',
    parse: parsers.ids,
    doc: 'Comma list of venue groups: their venue list may be read and their venues are allowed',
  },
  origins: {
    env: 'VENUE_BOOKING_ORIGINS',
    flag: 'origins',
    arg: 'ORIGINS',
    scope: 'proxy',
    parse: parsers.origins,
    defaultDoc: "the proxy's own origin only",
    doc: 'Comma list of the site origins allowed to call from a browser (reads and writes alike; CORS)',
  },
  bookingSite: {
    env: 'VENUE_BOOKING_BOOKING_SITE',
    flag: 'booking-site',
    arg: 'URL',
    scope: 'proxy',
    parse: parsers.url,
    defaultDoc: "embedded: the sandbox's `/book`; else required (a start-up error names it)",
    doc: 'URL prefix of the hosted booking site; `next.web` is passed only when it starts with it (same origin, path under the prefix)',
  },
  returnPages: {
    env: 'VENUE_BOOKING_RETURN_PAGE',
    flag: 'return-page',
    arg: 'URL',
    scope: 'proxy',
    parse: parsers.returnPages,
    defaultDoc: '— (the page the guest left from, on an allowed origin)',
    doc: 'Page of the venue for the return bridge: one URL, or `venueId=url,…`; `{venue}` is replaced',
  },
  returnBridge: {
    env: 'VENUE_BOOKING_RETURN_BRIDGE',
    scope: 'proxy',
    parse: parsers.onOff,
    default: 'on',
    doc: '`off`: the bridge goes back only to configured return pages and tells widgets it offers none (they fall back to a GET return)',
  },
  partnerSource: {
    env: 'VENUE_BOOKING_PARTNER_SOURCE',
    flag: 'partner-source',
    arg: 'TEXT',
    scope: 'proxy',
    parse: parsers.printable,
    defaultDoc: "— (the widget's value)",
    doc: '`partner_source` of every booking (at most 100 printable characters)',
  },
  publicUrl: {
    env: 'VENUE_BOOKING_PUBLIC_URL',
    flag: 'public-url',
    arg: 'URL',
    scope: 'proxy',
    parse: parsers.url,
    defaultDoc:
      'unset: only requests to a loopback host (`localhost`, `127.0.0.1`, `[::1]`) are answered, on their own origin; others get 421 naming the setting (a warning at start says so)',
    doc: 'Public address of the proxy: its own origin, `next.api` and the printed script tag',
  },
  timeoutMs: {
    env: 'VENUE_BOOKING_TIMEOUT_MS',
    flag: 'timeout-ms',
    arg: 'N',
    scope: 'proxy',
    parse: whole(100, 120_000),
    default: '10000',
    unit: 'ms',
    doc: 'Upstream timeout',
  },
  cacheTtlMs: {
    env: 'VENUE_BOOKING_CACHE_TTL_MS',
    flag: 'cache-ttl-ms',
    arg: 'N',
    scope: 'proxy',
    parse: whole(0, 3_600_000),
    default: '60000',
    unit: 'ms',
    doc: 'How long identical early reads (availability of a date short of a complete choice, rules, offers filtered by a booking’s details) share one upstream answer; availability is then served stale while refreshed',
  },
  browseTtlMs: {
    env: 'VENUE_BOOKING_BROWSE_TTL_MS',
    scope: 'proxy',
    parse: whole(0, 86_400_000),
    default: '600000',
    unit: 'ms',
    doc: 'How long availability without a date (the type list and the calendar every guest starts with) is shared; then served stale while refreshed',
  },
  finalTtlMs: {
    env: 'VENUE_BOOKING_FINAL_TTL_MS',
    scope: 'proxy',
    parse: whole(0, 3_600_000),
    default: '5000',
    unit: 'ms',
    doc: 'How long a final check (availability with type, date, time, num_people and duration) is shared; never served stale',
  },
  staticTtlMs: {
    env: 'VENUE_BOOKING_STATIC_TTL_MS',
    scope: 'proxy',
    parse: whole(0, 86_400_000),
    default: '3600000',
    unit: 'ms',
    doc: 'How long marketing preferences, venue records, a group’s venue list and a venue’s whole offers list are shared; then served stale while refreshed in the background',
  },
  staleMs: {
    env: 'VENUE_BOOKING_STALE_MS',
    scope: 'proxy',
    parse: whole(0, 86_400_000),
    default: '600000',
    unit: 'ms',
    doc: 'How long past its TTL a cached answer may still be served while the upstream is spared or down',
  },
  rateLimit: {
    env: 'VENUE_BOOKING_RATE_LIMIT',
    flag: 'rate-limit',
    arg: 'N',
    scope: 'proxy',
    parse: perWindow(1, 1_000_000, WINDOWS.rateMs),
    default: '300',
    unit: 'requests per minute',
    doc: `Requests per minute per client on \`/api\`, cache hits included (bookings: ${BOOKINGS_PER_WINDOW} per 10 minutes)`,
  },
  upstreamQuota: {
    env: 'VENUE_BOOKING_UPSTREAM_QUOTA',
    scope: 'proxy',
    parse: whole(1, 10_000_000),
    default: '5000',
    unit: 'calls per hour',
    doc: "The App ID's upstream calls per hour: set it to your quota; the shares below derive from it (see [How it guards](#how-it-guards), **Upstream budget**)",
  },
  upstreamReserve: {
    env: 'VENUE_BOOKING_UPSTREAM_RESERVE',
    scope: 'proxy',
    parse: whole(0, 10_000_000),
    defaultDoc: 'a fifth of the quota, at least 5',
    unit: 'calls per hour',
    doc: 'Calls per hour that only final checks and bookings may spend (half of it bookings alone)',
  },
  missLimit: {
    env: 'VENUE_BOOKING_MISS_LIMIT',
    scope: 'proxy',
    parse: perWindow(1, 1_000_000, WINDOWS.missMs),
    defaultDoc: 'quota ÷ 50, at least 10 (100)',
    unit: 'misses per 10 minutes',
    doc: 'Cache misses per client per 10 minutes, for early reads and for final checks each',
  },
  lowWater: {
    env: 'VENUE_BOOKING_LOW_WATER',
    scope: 'proxy',
    parse: whole(0, 10_000_000),
    defaultDoc: 'the reserve of the limit the upstream reports (`X-RateLimit-Limit`), else of the quota',
    unit: 'calls',
    doc: 'Remaining upstream calls (`X-RateLimit-Remaining`) at or below which early reads are never sent upstream',
  },
  metrics: {
    env: 'VENUE_BOOKING_METRICS',
    scope: 'proxy',
    parse: parsers.onOff,
    default: 'on',
    doc: '`off`: no `/metrics` and no `/status`, and nothing is counted (see [Watching it run](#watching-it-run-metrics-probes-status))',
  },
  operatorToken: {
    env: 'VENUE_BOOKING_METRICS_TOKEN',
    scope: 'proxy',
    parse: parsers.token,
    defaultDoc: '— (the pages open from this machine only)',
    doc: 'Opens `/metrics`, `/status` and the embed studio `/embed` off this machine, as a bearer token (or as the password a browser asks for); 16 to 200 letters, digits or `._~+/=-`, e.g. `openssl rand -hex 32`',
  },
  returnSecret: {
    env: 'VENUE_BOOKING_RETURN_SECRET',
    scope: 'proxy',
    parse: parsers.secret,
    defaultDoc: '— (a random key the instances agree on through the shared state, else this process’s own)',
    doc: 'Environment only (a secret): the key that signs the hand-off id a return from the booking site must carry to count as a booking, so it stays valid across restarts and instances without a shared store; 32 to 200 letters, digits or `._~+/=-`',
  },
  studio: {
    env: 'VENUE_BOOKING_STUDIO',
    scope: 'proxy',
    parse: parsers.onOff,
    default: 'on',
    doc: '`off`: no embed studio at `/embed`',
  },
  clientIpHeader: {
    env: 'VENUE_BOOKING_CLIENT_IP_HEADER',
    flag: 'client-ip-header',
    arg: 'NAME',
    scope: 'node',
    parse: parsers.header,
    defaultDoc: 'the socket address',
    doc: 'Trust this header for the client address behind a reverse proxy (e.g. `x-forwarded-for`); empty or malformed values count as absent',
  },
  trustedHops: {
    env: 'VENUE_BOOKING_TRUSTED_HOPS',
    flag: 'trusted-hops',
    arg: 'N',
    scope: 'node',
    parse: whole(1, 20),
    default: '1',
    doc: 'Reverse proxies in front that append to that header; the client is the entry this many from the right (entries further left are the client’s own writing)',
  },
  headersTimeoutMs: {
    env: 'VENUE_BOOKING_HEADERS_TIMEOUT_MS',
    flag: 'headers-timeout-ms',
    arg: 'N',
    scope: 'node',
    parse: whole(100, 600_000),
    default: '10000',
    unit: 'ms',
    doc: 'Time to receive a request’s headers, then 408 and close',
  },
  requestTimeoutMs: {
    env: 'VENUE_BOOKING_REQUEST_TIMEOUT_MS',
    flag: 'request-timeout-ms',
    arg: 'N',
    scope: 'node',
    parse: whole(100, 600_000),
    default: '30000',
    unit: 'ms',
    doc: 'Time to receive a whole request, body included',
  },
  keepAliveTimeoutMs: {
    env: 'VENUE_BOOKING_KEEP_ALIVE_TIMEOUT_MS',
    flag: 'keep-alive-timeout-ms',
    arg: 'N',
    scope: 'node',
    parse: whole(100, 600_000),
    default: '5000',
    unit: 'ms',
    doc: 'How long an idle keep-alive connection stays open',
  },
  maxConnections: {
    env: 'VENUE_BOOKING_MAX_CONNECTIONS',
    flag: 'max-connections',
    arg: 'N',
    scope: 'node',
    parse: whole(1, 1_000_000),
    default: '1000',
    unit: 'connections',
    doc: 'Open connections at most; more are dropped at accept (and counted)',
  },
  redisUrl: {
    env: 'VENUE_BOOKING_REDIS_URL',
    scope: 'redis',
    parse: parsers.redisUrl,
    defaultDoc: '— (state in this process’s memory)',
    doc: 'Environment only (it may hold a password): `redis://` or `rediss://` URL of a Redis, Valkey or managed Redis that several instances share their state through (see [Running more than one instance](#running-more-than-one-instance))',
  },
  redisPrefix: {
    env: 'VENUE_BOOKING_REDIS_PREFIX',
    scope: 'redis',
    parse: parsers.keyPrefix,
    default: 'venue-booking:',
    doc: 'Prefix of every key the proxy writes, so several deployments can share one server',
  },
  redisTimeoutMs: {
    env: 'VENUE_BOOKING_REDIS_TIMEOUT_MS',
    scope: 'redis',
    parse: whole(5, 10_000),
    default: '100',
    unit: 'ms',
    doc: 'Timeout of every Redis call; past it the proxy answers from local state',
  },
  stateBinding: {
    env: 'VENUE_BOOKING_STATE',
    scope: 'worker',
    parse: parsers.binding,
    defaultDoc: '— (state per isolate)',
    doc: 'The Durable Object namespace binding (class `VenueBookingState`) every isolate shares its state through',
  },
  port: {
    env: 'PORT',
    flag: 'port',
    arg: 'N',
    scope: 'node',
    parse: parsers.port,
    default: '8080',
    doc: 'Port to listen on; one already in use stops the start with a one-line message naming it',
  },
  host: {
    env: 'HOST',
    flag: 'host',
    arg: 'ADDRESS',
    scope: 'node',
    parse: parsers.listenHost,
    defaultDoc: 'every interface',
    doc: 'Address to listen on, e.g. 127.0.0.1',
  },
  operatorPort: {
    env: 'VENUE_BOOKING_OPERATOR_PORT',
    flag: 'operator-port',
    arg: 'N',
    scope: 'node',
    parse: whole(1, 65_535),
    defaultDoc: '— (the operator pages on the main port)',
    doc: 'Serve `/metrics`, `/status` and `/embed` on 127.0.0.1 at this port only, as Envoy’s admin listener; the public port then opens them with the token alone',
  },
} as const satisfies Record<string, Setting>;

/** The name a setting is read under. */
export type SettingKey = keyof typeof SETTINGS;
/** The value a setting's parser gives. */
export type SettingValue<K extends SettingKey> = (typeof SETTINGS)[K]['parse'] extends Parser<infer T> ? T : never;
/** An environment variable the proxy reads. */
export type SettingEnvName = (typeof SETTINGS)[SettingKey]['env'];

/** The environment the proxy reads (Node's `process.env`, a Worker's `env`): its variables, all optional. */
export type ProxyEnv = Partial<Record<SettingEnvName, string>> & { [name: string]: unknown };

/** The trimmed text of a setting in `env` ('' when unset or not text). */
export function rawSetting(env: ProxyEnv, key: SettingKey): string {
  const value = env[SETTINGS[key].env];
  return typeof value === 'string' ? value.trim() : '';
}

/** A setting's value in `env`, parsed; undefined when unset (or bad: then `problems` says why). */
export function readSetting<K extends SettingKey>(
  env: ProxyEnv,
  key: K,
  problems: string[],
): SettingValue<K> | undefined {
  const raw = rawSetting(env, key);
  const setting: Setting = SETTINGS[key];
  return raw ? (setting.parse(raw, setting.env, problems) as SettingValue<K> | undefined) : undefined;
}

/** A setting's default value: its default text, parsed (so it is what an operator typing it would get). */
export function defaultOf<K extends SettingKey>(key: K): SettingValue<K> {
  const setting: Setting = SETTINGS[key];
  if (setting.default === undefined) throw new Error(`${setting.env} has no default`);
  const problems: string[] = [];
  const value = setting.parse(setting.default, setting.env, problems);
  if (problems.length) throw new Error(problems.join('; '));
  return value as SettingValue<K>;
}

/** A setting's value in `env`, or its default. */
export function settingOr<K extends SettingKey>(env: ProxyEnv, key: K, problems: string[]): SettingValue<K> {
  return readSetting(env, key, problems) ?? defaultOf(key);
}

/** The environment variable of a setting, for messages that name it. */
export const envName = (key: SettingKey): string => SETTINGS[key].env;

/** Every setting, in order, with its key. */
export function settingRows(): (Setting & { key: SettingKey })[] {
  return (Object.keys(SETTINGS) as SettingKey[]).map((key) => ({ key, ...(SETTINGS[key] as Setting) }));
}

/** Markdown marks and links out of a doc line, for a terminal. */
const plain = (doc: string) => doc.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');

/** Wraps `text` to lines of `width` columns, every line after the first indented by `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join(`\n${indent}`);
}

/** What a row's default reads as, for the help and the README. */
function defaultText(setting: Setting, markdown: boolean): string {
  if (setting.default !== undefined) {
    const value = markdown ? `\`${setting.default}\`` : setting.default;
    return setting.unit ? `${value} (${setting.unit})` : value;
  }
  return setting.defaultDoc ?? '—';
}

/** Whether the help names a row's default: a value, or one described in words (a `—`, none, is left out). */
const shownDefault = (setting: Setting) =>
  setting.default !== undefined || (setting.defaultDoc !== undefined && !setting.defaultDoc.startsWith('—'));

/** `venue-booking-proxy --help`: the flags, then what is read from the environment only. */
export function helpText(): string {
  const rows = settingRows().filter((row) => row.scope !== 'worker');
  const flagged = rows.filter((row) => row.flag);
  const flagLine = (row: (typeof rows)[number]) => {
    const head = `  --${row.flag} ${row.arg ?? 'VALUE'}`.padEnd(30);
    const tail = `${plain(row.doc)} [${row.env}${shownDefault(row) ? `, default ${plain(defaultText(row, false))}` : ''}]`;
    return `${head} ${wrap(tail, 70, ' '.repeat(31))}`;
  };
  const envLine = (row: (typeof rows)[number]) =>
    `  ${row.env}\n${' '.repeat(31)}${wrap(
      `${plain(row.doc)}${shownDefault(row) ? ` [default ${plain(defaultText(row, false))}]` : ''}`,
      70,
      ' '.repeat(31),
    )}`;
  return [
    'Usage: venue-booking-proxy [flags]',
    '',
    'Flags (each overrides the environment variable in brackets):',
    ...flagged.map(flagLine),
    '',
    'Environment only (credentials, Redis, the operator pages, the budget and TTLs):',
    ...rows.filter((row) => !row.flag).map(envLine),
    '',
    'With neither credential set the proxy runs on the embedded sandbox (no real bookings).',
  ].join('\n');
}

/** The flags the Node entry takes: flag → environment variable. */
export function flagMap(): Record<string, string> {
  return Object.fromEntries(settingRows().flatMap((row) => (row.flag ? [[row.flag, row.env]] : [])));
}

const SCOPE_NOTE: Record<SettingScope, string> = {
  credentials: '',
  proxy: '',
  node: 'Node only: ',
  redis: 'Node only: ',
  worker: 'Workers only (binding): ',
};

/** The README's settings table (between its `settings-table` markers). */
export function settingsTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const lines = settingRows().map((row) => {
    const name = `\`${row.env}\`${row.flag ? ` [\`--${row.flag}\`]` : ''}`;
    return `| ${name} | ${cell(SCOPE_NOTE[row.scope] + row.doc)} | ${cell(defaultText(row, true))} |`;
  });
  return ['| Environment | Meaning | Default |', '|---|---|---|', ...lines].join('\n');
}
