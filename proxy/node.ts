/**
 * `venue-booking-proxy`: the proxy as a Node server. Settings come from the environment and flags
 * (flags win; see config.ts), validated at start. With no credentials it runs on the embedded
 * sandbox, and says so. It also serves the widget bundle (`dist/venue-booking.js`) at
 * `/venue-booking.js` and prints the script tag with its integrity hash.
 *
 * This is the only proxy module that touches process, ports and files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { createProxy } from './app.js';
import { configFromEnv, ConfigError, type ProxyEnv } from './config.js';
import type { ProxyConfig } from './context.js';
import { integrityOf, scriptTag } from './script.js';
import { createStack } from './stack.js';

const HELP = `Usage: venue-booking-proxy [flags]

Flags (each overrides the environment variable in brackets):
  --port N                 port to listen on [PORT, default 8080]
  --upstream URL           service base URL ending in /v4 [VENUE_BOOKING_UPSTREAM]
  --venues IDS             comma list of venue ids [VENUE_BOOKING_VENUES]
  --venue-groups IDS       comma list of venue group ids [VENUE_BOOKING_VENUE_GROUPS]
  --origins ORIGINS        comma list of allowed site origins [VENUE_BOOKING_ORIGINS]
  --booking-site URL       prefix next.web must start with [VENUE_BOOKING_BOOKING_SITE]
  --return-page URL        page (or id=url list) for the return bridge [VENUE_BOOKING_RETURN_PAGE]
  --partner-source TEXT    partner_source of every booking [VENUE_BOOKING_PARTNER_SOURCE]
  --public-url URL         public address of this proxy [VENUE_BOOKING_PUBLIC_URL]
  --timeout-ms N           upstream timeout [VENUE_BOOKING_TIMEOUT_MS, default 10000]
  --cache-ttl-ms N         read cache TTL [VENUE_BOOKING_CACHE_TTL_MS, default 15000]
  --rate-limit N           requests per minute per client [VENUE_BOOKING_RATE_LIMIT, default 300]
  --client-ip-header NAME  trust this header for the client address behind a reverse proxy
                           [VENUE_BOOKING_CLIENT_IP_HEADER]
Credentials come only from the environment: VENUE_BOOKING_APP_ID, VENUE_BOOKING_API_KEY.
With neither set the proxy runs on the embedded sandbox (no real bookings).`;

const FLAGS: Record<string, string> = {
  port: 'PORT', upstream: 'VENUE_BOOKING_UPSTREAM', venues: 'VENUE_BOOKING_VENUES', 'venue-groups': 'VENUE_BOOKING_VENUE_GROUPS',
  origins: 'VENUE_BOOKING_ORIGINS', 'booking-site': 'VENUE_BOOKING_BOOKING_SITE', 'return-page': 'VENUE_BOOKING_RETURN_PAGE',
  'partner-source': 'VENUE_BOOKING_PARTNER_SOURCE', 'public-url': 'VENUE_BOOKING_PUBLIC_URL', 'timeout-ms': 'VENUE_BOOKING_TIMEOUT_MS',
  'cache-ttl-ms': 'VENUE_BOOKING_CACHE_TTL_MS', 'rate-limit': 'VENUE_BOOKING_RATE_LIMIT', 'client-ip-header': 'VENUE_BOOKING_CLIENT_IP_HEADER',
};

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function readEnv(): ProxyEnv {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: { help: { type: 'boolean', short: 'h' }, ...Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }])) },
      strict: true,
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n\n${HELP}`);
  }
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const env: ProxyEnv = { ...process.env };
  for (const [flag, name] of Object.entries(FLAGS)) if (typeof values[flag] === 'string') env[name] = values[flag];
  return env;
}

/**
 * The widget bundle and the chunks it loads on demand (the locale modules), when it has been
 * built: every top-level `.js` file of dist/.
 */
function widgetFiles(): { script?: Uint8Array<ArrayBuffer>; chunks: Record<string, Uint8Array<ArrayBuffer>> } {
  const dist = fileURLToPath(new URL('../dist/', import.meta.url));
  const chunks: Record<string, Uint8Array<ArrayBuffer>> = {};
  let script: Uint8Array<ArrayBuffer> | undefined;
  try {
    for (const name of readdirSync(dist)) {
      if (!/^[\w-]+\.js$/.test(name)) continue;
      const bytes = new Uint8Array(readFileSync(`${dist}${name}`));
      if (name === 'venue-booking.js') script = bytes;
      else chunks[name] = bytes;
    }
  } catch {
    // Not built: the proxy runs without serving the script, and says so.
  }
  return { script, chunks };
}

async function start() {
  const env = readEnv();
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail('PORT must be a port number from 0 to 65535');
  let config;
  try {
    config = configFromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) fail(`${error.message}\n\nRun venue-booking-proxy --help for the settings.`);
    throw error;
  }
  const header = typeof env.VENUE_BOOKING_CLIENT_IP_HEADER === 'string' ? env.VENUE_BOOKING_CLIENT_IP_HEADER.trim().toLowerCase() : '';
  // Per-client rate limits key on the socket address, or on a trusted reverse proxy's header.
  const clientKey = (request: Request, hostEnv: unknown) =>
    (header ? request.headers.get(header)?.split(',')[0]?.trim() : undefined)
    ?? (hostEnv as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;
  const { script, chunks } = widgetFiles();
  const extra: Partial<ProxyConfig> = { clientKey, ...(script ? { widgetScript: script, widgetChunks: chunks } : {}) };
  const origin = config.settings.publicUrl ?? `http://localhost:${port}`;
  const handler = config.embedded
    ? createStack({ origin, proxy: { ...config.settings, ...extra } })
    : createProxy({ ...config.settings, ...extra });
  for (const warning of config.warnings) console.error(JSON.stringify({ level: 'warn', msg: warning }));

  serve({ fetch: handler.fetch, port }, async (info) => {
    const mode = config.embedded
      ? 'on the embedded sandbox (no VENUE_BOOKING_APP_ID / VENUE_BOOKING_API_KEY set): bookings are not real'
      : `upstream ${config.settings.upstream}`;
    console.log(JSON.stringify({ level: 'info', msg: `venue-booking-proxy listening on http://localhost:${info.port}`, mode }));
    if (script) {
      const base = config.settings.publicUrl ?? `http://localhost:${info.port}`;
      console.log(`Add the widget to a venue page with:\n  ${scriptTag(`${base}/venue-booking.js`, await integrityOf(script))}`);
    } else {
      console.log('The widget bundle dist/venue-booking.js is not built, so /venue-booking.js is not served: run `npm run build` first.');
    }
  });
}

void start();
