/**
 * The settings registry: every setting of the proxy written once, as one row: its environment
 * variable, its flag (Node), where its value lands (`scope`, `field`), its parser, its default, its
 * unit, one line of doc for operators and, for a `ProxyConfig` field, the doc comment the field
 * shows (mapped types carry it there). Everything else is read from here:
 *
 * - `ProxyConfig`'s operator fields, `DEFAULTS` and `ResolvedConfig`'s plain fields are mapped
 *   from these rows, and `resolveConfig` walks them (config.ts);
 * - env.ts and node/settings.ts read an environment by walking them;
 * - `--help`, the Node flags and the README's settings table are rendered from them (render.ts;
 *   `npm run docs`; test/package/readme.test.ts fails on drift, and test/package/architecture.test.ts
 *   on an environment variable spelled outside this file).
 *
 * A row's default is written as an operator would type it (`'60000'`, `'on'`), so the README, the
 * help and the resolved value cannot disagree: the value is that text run through the row's parser.
 * The order is the README's and `--help`'s.
 */
import { BOOKINGS_PER_WINDOW, WINDOWS } from './fixed.js';
import { parsers } from './parsers.js';
import type { Setting } from './row.js';

/**
 * Every setting, by the name the code reads it under (a `ProxyConfig` field for the proxy's own,
 * a field of the Node, Redis or Worker settings for theirs).
 */
export const SETTINGS = {
  appId: {
    env: 'VENUE_BOOKING_APP_ID',
    scope: 'credentials',
    required: true,
    parse: parsers.text,
    doc: 'The service App ID (environment only, never a flag). With neither credential set, the proxy runs on the embedded sandbox and says so.',
  },
  apiKey: {
    env: 'VENUE_BOOKING_API_KEY',
    scope: 'credentials',
    required: true,
    parse: parsers.text,
    doc: 'The service API key (environment only, never a flag; never logged or answered).',
  },
  /** Upstream base URL, ending in `/v4`. */
  upstream: {
    env: 'VENUE_BOOKING_UPSTREAM',
    flag: 'upstream',
    arg: 'URL',
    scope: 'credentials',
    required: true,
    parse: parsers.upstream,
    doc: 'The service base URL, ending in `/v4`; https (plain http only on loopback)',
  },
  /** Venue ids the widget may use. */
  venues: {
    env: 'VENUE_BOOKING_VENUES',
    flag: 'venues',
    arg: 'IDS',
    scope: 'proxy',
    required: true,
    parse: parsers.ids,
    defaultDoc: 'demo venues when embedded',
    doc: 'Comma list of the venue ids the widget may use',
  },
  /** Venue groups whose venue list the widget may read; their venues are allowed too. */
  venueGroups: {
    env: 'VENUE_BOOKING_VENUE_GROUPS',
    flag: 'venue-groups',
    arg: 'IDS',
    scope: 'proxy',
    parse: parsers.ids,
    doc: 'Comma list of venue groups: their venue list may be read and their venues are allowed',
  },
  /** Origins (scheme://host[:port]) of the sites allowed to call the proxy from a browser. */
  origins: {
    env: 'VENUE_BOOKING_ORIGINS',
    flag: 'origins',
    arg: 'ORIGINS',
    scope: 'proxy',
    parse: parsers.origins,
    defaultDoc: "the proxy's own origin only",
    doc: 'Comma list of the site origins allowed to call from a browser (reads and writes alike; CORS)',
  },
  /** URL prefix of the hosted booking site; `next.web` is passed only when it starts with it. */
  bookingSite: {
    env: 'VENUE_BOOKING_BOOKING_SITE',
    flag: 'booking-site',
    arg: 'URL',
    scope: 'proxy',
    parse: parsers.url,
    defaultDoc: "embedded: the sandbox's `/book`; else required (a start-up error names it)",
    doc: 'URL prefix of the hosted booking site; `next.web` is passed only when it starts with it (same origin, path under the prefix)',
  },
  /** Return bridge targets: venue id (or `*` for any venue) → page URL of the venue. */
  returnPages: {
    env: 'VENUE_BOOKING_RETURN_PAGE',
    flag: 'return-page',
    arg: 'URL',
    scope: 'proxy',
    parse: parsers.returnPages,
    defaultDoc: '— (the page the guest left from, on an allowed origin)',
    doc: 'Page of the venue for the return bridge: one URL, or `venueId=url,…`; `{venue}` is replaced',
  },
  /**
   * Whether the return bridge takes the guest back to the page they left from (on an allowed origin)
   * and tells widgets so (`GET /api/return`), so they ask for `return_method=post`. Default true;
   * false leaves only `returnPages` and the widgets fall back to a GET return.
   */
  returnBridge: {
    env: 'VENUE_BOOKING_RETURN_BRIDGE',
    scope: 'proxy',
    parse: parsers.onOff,
    default: 'on',
    doc: '`off`: the bridge goes back only to configured return pages and tells widgets it offers none (they fall back to a GET return)',
  },
  /** `partner_source` sent with every booking; when unset the widget's value is passed on. */
  partnerSource: {
    env: 'VENUE_BOOKING_PARTNER_SOURCE',
    flag: 'partner-source',
    arg: 'TEXT',
    scope: 'proxy',
    parse: parsers.printable,
    defaultDoc: "— (the widget's value)",
    doc: '`partner_source` of every booking (at most 100 printable characters)',
  },
  /** Public base URL of the proxy (where `/api` lives), for `next.api`; default: the request's origin. */
  publicUrl: {
    env: 'VENUE_BOOKING_PUBLIC_URL',
    flag: 'public-url',
    arg: 'URL',
    scope: 'derived',
    parse: parsers.url,
    defaultDoc:
      'unset: only requests to a loopback host (`localhost`, `127.0.0.1`, `[::1]`) are answered, on their own origin; others get 421 naming the setting (a warning at start says so)',
    doc: 'Public address of the proxy: its own origin, `next.api` and the printed script tag',
  },
  /** Upstream timeout in milliseconds. */
  timeoutMs: {
    env: 'VENUE_BOOKING_TIMEOUT_MS',
    flag: 'timeout-ms',
    arg: 'N',
    scope: 'proxy',
    parse: parsers.whole(100, 120_000),
    default: '10000',
    unit: 'ms',
    doc: 'Upstream timeout',
  },
  /**
   * How long identical early reads (availability with a date but short of a complete choice, rules,
   * filtered offers) share one upstream answer, in ms; past it, the stale copy is
   * served while one background call refreshes it.
   */
  cacheTtlMs: {
    env: 'VENUE_BOOKING_CACHE_TTL_MS',
    flag: 'cache-ttl-ms',
    arg: 'N',
    scope: 'proxy',
    parse: parsers.whole(0, 3_600_000),
    default: '60000',
    unit: 'ms',
    doc: 'How long identical early reads (availability of a date short of a complete choice, rules, offers filtered by a booking’s details) share one upstream answer; availability is then served stale while refreshed',
  },
  /**
   * How long availability reads without a date (the type list and the calendar every guest of a
   * venue starts with) are shared, in ms, refreshed the same way.
   */
  browseTtlMs: {
    env: 'VENUE_BOOKING_BROWSE_TTL_MS',
    scope: 'proxy',
    parse: parsers.whole(0, 86_400_000),
    default: '600000',
    unit: 'ms',
    doc: 'How long availability without a date (the type list and the calendar every guest starts with) is shared; then served stale while refreshed',
  },
  /** How long complete availability checks (the one before submit) are shared, in ms. */
  finalTtlMs: {
    env: 'VENUE_BOOKING_FINAL_TTL_MS',
    scope: 'proxy',
    parse: parsers.whole(0, 3_600_000),
    default: '5000',
    unit: 'ms',
    doc: 'How long a final check (availability with type, date, time, num_people and duration) is shared; never served stale',
  },
  /** How long marketing preferences, venue records and lists, and a venue's whole offers list are shared, in ms. */
  staticTtlMs: {
    env: 'VENUE_BOOKING_STATIC_TTL_MS',
    scope: 'proxy',
    parse: parsers.whole(0, 86_400_000),
    default: '3600000',
    unit: 'ms',
    doc: 'How long marketing preferences, venue records, a group’s venue list and a venue’s whole offers list are shared; then served stale while refreshed in the background',
  },
  /** How long past the TTL a cached answer may still be served when sparing the upstream. */
  staleMs: {
    env: 'VENUE_BOOKING_STALE_MS',
    scope: 'proxy',
    parse: parsers.whole(0, 86_400_000),
    default: '600000',
    unit: 'ms',
    doc: 'How long past its TTL a cached answer may still be served while the upstream is spared or down',
  },
  /** Requests per client per window on `/api`. */
  rateLimit: {
    env: 'VENUE_BOOKING_RATE_LIMIT',
    flag: 'rate-limit',
    arg: 'N',
    scope: 'proxy',
    parse: parsers.perWindow(1, 1_000_000, WINDOWS.rateMs),
    default: '300',
    unit: 'requests per minute',
    doc: `Requests per minute per client on \`/api\`, cache hits included (bookings: ${BOOKINGS_PER_WINDOW} per 10 minutes), and apart from them on the pages`,
  },
  /**
   * Whether a booking must pass the bot check (api/bot-check.ts: the honeypot, the proof of work,
   * Turnstile when set); one judged a bot gets a decoy success and never reaches the upstream.
   */
  botCheck: {
    env: 'VENUE_BOOKING_BOT_CHECK',
    scope: 'proxy',
    parse: parsers.onOff,
    default: 'on',
    doc: '`off`: bookings need no proof of work and no bot gets a decoy (bookings sent server to server, a load test); see [How it guards](#how-it-guards)',
  },
  /** The proof of work a booking carries: hashes a solver tries on average is half of it. */
  botWork: {
    env: 'VENUE_BOOKING_BOT_WORK',
    scope: 'proxy',
    parse: parsers.whole(100, 10_000_000),
    default: '30000',
    unit: 'SHA-256 hashes at most',
    doc: 'The work of the invisible proof each booking carries (the widget does half of it on average, in a worker while the guest types); 8 times as much for a client whose proofs keep failing',
  },
  /** Turnstile's site key (api/turnstile.ts): with the secret, the widget renders Cloudflare's check. */
  turnstileSiteKey: {
    env: 'VENUE_BOOKING_TURNSTILE_SITE_KEY',
    scope: 'proxy',
    parse: parsers.text,
    defaultDoc: '— (no Turnstile)',
    doc: 'Cloudflare Turnstile’s site key: with the secret, each booking also carries a Turnstile token the proxy verifies (fails closed); the page loads Cloudflare’s script, so its CSP must allow `challenges.cloudflare.com` (see [How it guards](#how-it-guards))',
  },
  /** Turnstile's secret key, sent to siteverify only: never logged or answered. */
  turnstileSecret: {
    env: 'VENUE_BOOKING_TURNSTILE_SECRET',
    scope: 'proxy',
    parse: parsers.text,
    defaultDoc: '—',
    doc: 'Environment only (a secret): Cloudflare Turnstile’s secret key, for the site key above; never logged or answered',
  },
  /**
   * Where the proxy tells the venue's own system of a guest's cancel or change (api/webhook.ts):
   * signed with the secret below, retried with backoff; unset, nothing is sent.
   */
  webhookUrl: {
    env: 'VENUE_BOOKING_WEBHOOK_URL',
    scope: 'proxy',
    parse: parsers.hookUrl,
    defaultDoc: '— (no webhook)',
    doc: 'An https URL (plain http only on loopback) that receives a signed JSON POST when a guest cancels or changes a booking online (`booking.cancelled`, `booking.changed`; no personal data), retried with backoff; set with the secret below (see [docs/webhook.md](docs/webhook.md))',
  },
  /** The key that signs each webhook delivery (`Venue-Booking-Signature`), never sent, logged or answered. */
  webhookSecret: {
    env: 'VENUE_BOOKING_WEBHOOK_SECRET',
    scope: 'proxy',
    parse: parsers.secret,
    defaultDoc: '—',
    doc: 'Environment only (a secret): the key of the webhook’s HMAC-SHA256 signature, which the venue’s receiver checks; 32 to 200 letters, digits or `._~+/=-`; never sent, logged or answered',
  },
  /** The App ID's upstream calls per hour; the budget's shares derive from it. */
  upstreamQuota: {
    env: 'VENUE_BOOKING_UPSTREAM_QUOTA',
    scope: 'proxy',
    parse: parsers.whole(1, 10_000_000),
    default: '5000',
    unit: 'calls per hour',
    doc: "The App ID's upstream calls per hour: set it to your quota; the shares below derive from it (see [How it guards](#how-it-guards), **Upstream budget**)",
  },
  /** Upstream calls per hour only final checks and bookings may spend. */
  upstreamReserve: {
    env: 'VENUE_BOOKING_UPSTREAM_RESERVE',
    scope: 'derived',
    parse: parsers.whole(0, 10_000_000),
    defaultDoc: 'a fifth of the quota, at least 5',
    unit: 'calls per hour',
    doc: 'Calls per hour that only final checks and bookings may spend (half of it bookings alone)',
  },
  /** Cache misses per client per window, early reads and final checks each. */
  missLimit: {
    env: 'VENUE_BOOKING_MISS_LIMIT',
    scope: 'derived',
    parse: parsers.perWindow(1, 1_000_000, WINDOWS.missMs),
    defaultDoc: 'quota ÷ 50, at least 10 (100)',
    unit: 'misses per 10 minutes',
    doc: 'Cache misses per client per 10 minutes, for early reads and for final checks each',
  },
  /** Upstream requests left in its window at or below which early reads are never sent upstream. */
  lowWater: {
    env: 'VENUE_BOOKING_LOW_WATER',
    scope: 'derived',
    parse: parsers.whole(0, 10_000_000),
    defaultDoc: 'the reserve of the limit the upstream reports (`X-RateLimit-Limit`), else of the quota',
    unit: 'calls',
    doc: 'Remaining upstream calls (`X-RateLimit-Remaining`) at or below which early reads are never sent upstream',
  },
  metrics: {
    env: 'VENUE_BOOKING_METRICS',
    scope: 'operatorPages',
    parse: parsers.onOff,
    default: 'on',
    doc: '`off`: no `/metrics` and no `/status`, and nothing is counted (see [Watching it run](#watching-it-run-metrics-probes-status))',
  },
  operatorToken: {
    env: 'VENUE_BOOKING_METRICS_TOKEN',
    scope: 'operatorPages',
    field: 'token',
    parse: parsers.token,
    defaultDoc: '— (the pages open from this machine only)',
    doc: 'Opens `/metrics`, `/status` and the embed studio `/embed` off this machine, as a bearer token (or as the password a browser asks for); 16 to 200 letters, digits or `._~+/=-`, e.g. `openssl rand -hex 32`',
  },
  /**
   * The key that signs the hand-off ids of returns (api/handoff.ts), at least 32 characters.
   * Default: a random key agreed through the shared state, or this process's own with the memory
   * state (hand-offs then end with a restart, and differ between Worker isolates): set it there.
   */
  returnSecret: {
    env: 'VENUE_BOOKING_RETURN_SECRET',
    scope: 'proxy',
    parse: parsers.secret,
    defaultDoc: '— (a random key the instances agree on through the shared state, else this process’s own)',
    doc: 'Environment only (a secret): the key that signs the hand-off id a return from the booking site must carry to count as a booking, so it stays valid across restarts and instances without a shared store (each instance then counts a return once, and again after a restart: the proxy warns; a shared store counts it once); 32 to 200 letters, digits or `._~+/=-`',
  },
  /**
   * The key that seals the guests' manage links (api/manage-token.ts), at least 32 characters.
   * Default: a random key agreed through the shared state, or this process's own with the memory
   * state (the links then stop working at a restart, and differ between Worker isolates).
   */
  manageSecret: {
    env: 'VENUE_BOOKING_MANAGE_SECRET',
    scope: 'proxy',
    parse: parsers.secret,
    defaultDoc: '— (a random key the instances agree on through the shared state, else this process’s own)',
    doc: 'Environment only (a secret): the key that seals the link a guest manages or cancels a booking with (`/manage/<token>`), so the link keeps working across restarts and instances without a shared store (the proxy warns when neither is set); 32 to 200 letters, digits or `._~+/=-`',
  },
  studio: {
    env: 'VENUE_BOOKING_STUDIO',
    scope: 'operatorPages',
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
    parse: parsers.whole(1, 20),
    default: '1',
    doc: 'Reverse proxies in front that append to that header; the client is the entry this many from the right (entries further left are the client’s own writing)',
  },
  headersTimeoutMs: {
    env: 'VENUE_BOOKING_HEADERS_TIMEOUT_MS',
    flag: 'headers-timeout-ms',
    arg: 'N',
    scope: 'node',
    parse: parsers.whole(100, 600_000),
    default: '10000',
    unit: 'ms',
    doc: 'Time to receive a request’s headers, then 408 and close',
  },
  requestTimeoutMs: {
    env: 'VENUE_BOOKING_REQUEST_TIMEOUT_MS',
    flag: 'request-timeout-ms',
    arg: 'N',
    scope: 'node',
    parse: parsers.whole(100, 600_000),
    default: '30000',
    unit: 'ms',
    doc: 'Time to receive a whole request, body included',
  },
  keepAliveTimeoutMs: {
    env: 'VENUE_BOOKING_KEEP_ALIVE_TIMEOUT_MS',
    flag: 'keep-alive-timeout-ms',
    arg: 'N',
    scope: 'node',
    parse: parsers.whole(100, 600_000),
    default: '5000',
    unit: 'ms',
    doc: 'How long an idle keep-alive connection stays open',
  },
  maxConnections: {
    env: 'VENUE_BOOKING_MAX_CONNECTIONS',
    flag: 'max-connections',
    arg: 'N',
    scope: 'node',
    parse: parsers.whole(1, 1_000_000),
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
    parse: parsers.whole(5, 10_000),
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
    parse: parsers.whole(1, 65_535),
    defaultDoc: '— (the operator pages on the main port)',
    doc: 'Serve `/metrics`, `/status` and `/embed` on 127.0.0.1 at this port only, as Envoy’s admin listener; the public port then opens them with the token alone',
  },
  dataFile: {
    env: 'VENUE_BOOKING_DATA_FILE',
    flag: 'data-file',
    arg: 'PATH',
    scope: 'node',
    parse: parsers.path,
    defaultDoc: '— (in memory, until the process ends)',
    doc: 'JSON file where one Node process keeps what the venue saves in the studio (its profile, the sites it allowed) and the bookings `/status` counts; with Redis they are kept there instead, shared by every instance',
  },
  profilesFile: {
    env: 'VENUE_BOOKING_PROFILES_FILE',
    flag: 'profiles-file',
    arg: 'PATH',
    scope: 'node',
    parse: parsers.path,
    defaultDoc: '—',
    doc: 'JSON file of venue profiles (`{"<venue id>": {"phone": …}}`, as `GET /api/venues/<id>/profile` answers) that start off the venues with none yet; the studio’s later changes stand',
  },
} as const satisfies Record<string, Setting>;
