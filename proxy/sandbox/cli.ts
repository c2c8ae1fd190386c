/**
 * `venue-booking-sandbox`: serves the sandbox on a port for partner developers and manual testing.
 * The only sandbox module that touches process, files and sockets; everything else is runtime-free.
 *
 *   venue-booking-sandbox [--port 8787] [--now ISO] [--app APPID:KEY]... [--rate-limit N]
 *                         [--seed FILE] [--dialect spec|live] [--public-url URL]
 */

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { createSandbox, SANDBOX_APP, type SandboxOptions } from './app.js';
import type { Seed } from './types.js';

const USAGE = `Usage: venue-booking-sandbox [options]
  --port N            port to listen on (default 8787)
  --now ISO           fix the clock, e.g. 2026-03-20T10:00:00Z (zone-less = London time)
  --app APPID:KEY     add a full-access app (repeatable)
  --rate-limit N      requests per App ID per hour (default 5000)
  --seed FILE         seed JSON file (default: the bundled demo group, see SEED.md)
  --dialect D         spec (default) or live (the live service's observed shapes)
  --public-url URL    URL browsers reach this server at (default http://localhost:PORT)
  --help              show this help`;

function fail(message: string): never {
  console.error(`venue-booking-sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** Parses argv into sandbox options plus the port; exits with usage on bad flags. */
export function parseCli(argv: string[]): { port: number; options: SandboxOptions } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        now: { type: 'string' },
        app: { type: 'string', multiple: true },
        'rate-limit': { type: 'string' },
        seed: { type: 'string' },
        dialect: { type: 'string' },
        'public-url': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = values.port === undefined ? 8787 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, got ${values.port}`);
  const options: SandboxOptions = { publicUrl: values['public-url'] ?? `http://localhost:${port}` };
  if (values.now !== undefined) {
    if (Number.isNaN(Date.parse(values.now))) fail(`--now must be an ISO 8601 date-time, got ${values.now}`);
    options.now = values.now;
  }
  if (values.app) {
    options.apps = values.app.map((a) => {
      const i = a.indexOf(':');
      if (i <= 0 || i === a.length - 1) fail(`--app must be APPID:KEY, got ${a}`);
      return { id: a.slice(0, i), key: a.slice(i + 1), capabilities: 'all' as const };
    });
  }
  if (values['rate-limit'] !== undefined) {
    const n = Number(values['rate-limit']);
    if (!Number.isInteger(n) || n < 1)
      fail(`--rate-limit must be a positive whole number, got ${values['rate-limit']}`);
    options.rateLimit = n;
  }
  if (values.dialect !== undefined) {
    if (values.dialect !== 'spec' && values.dialect !== 'live')
      fail(`--dialect must be spec or live, got ${values.dialect}`);
    options.dialect = values.dialect;
  }
  if (values.seed !== undefined) {
    try {
      options.seed = JSON.parse(readFileSync(values.seed, 'utf8')) as Seed;
    } catch (e) {
      fail(`cannot read seed ${values.seed}: ${(e as Error).message}`);
    }
  }
  return { port, options };
}

const { port, options } = parseCli(process.argv.slice(2));
let sandbox;
try {
  sandbox = createSandbox(options);
} catch (e) {
  fail((e as Error).message);
}
const server = serve({ fetch: sandbox.fetch, port }, (info) => {
  console.log(`venue-booking-sandbox (${sandbox.dialect} dialect) listening on http://localhost:${info.port}`);
  console.log(`  API:  ${sandbox.publicUrl}/v4/...   hosted booking page: ${sandbox.publicUrl}/book`);
  // Advertise credentials that work: an --app given, else the default seed's widget app.
  const app = options.apps?.[0] ?? (options.seed ? undefined : SANDBOX_APP);
  if (app)
    console.log(
      `  Try:  curl -H 'Authorization: ${app.id}:${app.key}' '${sandbox.publicUrl}/v4/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability?fields=type'`,
    );
  if (options.now) console.log(`  Clock fixed at ${options.now}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
