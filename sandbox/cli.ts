/**
 * `venue-booking-sandbox`: serves the sandbox on a port for partner developers and manual testing.
 * The only sandbox module that touches process, files and sockets; everything else is runtime-free.
 *
 *   venue-booking-sandbox [--port 8787] [--host 127.0.0.1] [--now ISO] [--app APPID:KEY]... [--rate-limit N]
 *                         [--seed FILE] [--dialect spec|live] [--public-url URL]
 *                         [--scenario NAME] [--latency MS] [--print-openapi]
 *
 * As a sandbox for partners it serves the controls under /__sandbox (journal, clock, reset), and
 * says where they and the OpenAPI document are. It listens on loopback unless `--host` says
 * otherwise: the journal holds guests' details and the controls need no credentials. `--print-openapi` writes the document to stdout
 * (the package build ships it as dist/server/openapi.json).
 */

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { createSandbox, SANDBOX_APP, type Sandbox, type SandboxOptions } from './app.js';
import { CONTROL_PREFIX } from './control.js';
import { openApiDocument } from './openapi.js';
import { isScenario, MAX_LATENCY_MS, SCENARIOS } from './scenarios.js';
import type { Seed } from './types.js';

const USAGE = `Usage: venue-booking-sandbox [options]
  --port N            port to listen on (default 8787)
  --host ADDRESS      address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for every
                      interface: the controls still answer only a localhost or --public-url Host)
  --now ISO           fix the clock, e.g. 2026-03-20T10:00:00Z (zone-less = London time)
  --app APPID:KEY     add a full-access app (repeatable)
  --rate-limit N      requests per App ID per hour (default 5000)
  --seed FILE         seed JSON file (default: the bundled demo group, see SEED.md)
  --dialect D         spec (default) or live (the live service's observed shapes)
  --public-url URL    URL browsers reach this server at (default http://localhost:PORT)
  --scenario NAME     scenario of every request that names none (Prefer: scenario=NAME):
                      ${Object.keys(SCENARIOS).join(', ')}
  --latency MS        milliseconds added to every answer (default 0)
  --print-openapi     print the OpenAPI 3.1 document of the v4 interface and exit
  --help              show this help`;

function fail(message: string): never {
  console.error(`venue-booking-sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** What the command line asks for. */
interface Cli {
  port: number;
  /** The address to listen on. */
  host: string;
  options: SandboxOptions;
  /** `--public-url` was given (else the URL follows the port actually listened on). */
  publicUrlGiven: boolean;
  printOpenApi: boolean;
}

/** How each option flag is checked and applied; a bad value fails with the usage. */
const FLAGS: Record<string, (value: string, cli: Cli) => void> = {
  now(value, { options }) {
    if (Number.isNaN(Date.parse(value))) fail(`--now must be an ISO 8601 date-time, got ${value}`);
    options.now = value;
  },
  'rate-limit'(value, { options }) {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) fail(`--rate-limit must be a positive whole number, got ${value}`);
    options.rateLimit = n;
  },
  dialect(value, { options }) {
    if (value !== 'spec' && value !== 'live') fail(`--dialect must be spec or live, got ${value}`);
    options.dialect = value;
  },
  seed(value, { options }) {
    try {
      options.seed = JSON.parse(readFileSync(value, 'utf8')) as Seed;
    } catch (e) {
      fail(`cannot read seed ${value}: ${(e as Error).message}`);
    }
  },
  'public-url'(value, cli) {
    cli.options.publicUrl = value;
    cli.publicUrlGiven = true;
  },
  scenario(value, { options }) {
    if (!isScenario(value)) fail(`--scenario must be one of ${Object.keys(SCENARIOS).join(', ')}, got ${value}`);
    options.scenario = value;
  },
  latency(value, { options }) {
    const ms = Number(value);
    if (!/^\d+$/.test(value) || ms > MAX_LATENCY_MS)
      fail(`--latency must be whole milliseconds from 0 to ${MAX_LATENCY_MS}, got ${value}`);
    options.latency = ms;
  },
};

/** Parses argv into sandbox options plus the port; exits with usage on bad flags. */
export function parseCli(argv: string[]): Cli {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        app: { type: 'string', multiple: true },
        'print-openapi': { type: 'boolean' },
        help: { type: 'boolean' },
        ...Object.fromEntries(Object.keys(FLAGS).map((name) => [name, { type: 'string' as const }])),
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
  const host = values.host ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:[\]-]{1,253}$/.test(host)) fail(`--host must be an address or a host name, got ${host}`);
  const cli: Cli = {
    port,
    host,
    // A sandbox run as a sandbox: the partner controls are on.
    options: { publicUrl: `http://localhost:${port}`, control: true },
    publicUrlGiven: false,
    printOpenApi: values['print-openapi'] === true,
  };
  for (const [name, apply] of Object.entries(FLAGS)) {
    const value = (values as Record<string, unknown>)[name];
    if (typeof value === 'string') apply(value, cli);
  }
  if (values.app) {
    cli.options.apps = (values.app as string[]).map((a) => {
      const i = a.indexOf(':');
      if (i <= 0 || i === a.length - 1) fail(`--app must be APPID:KEY, got ${a}`);
      return { id: a.slice(0, i), key: a.slice(i + 1), capabilities: 'all' as const };
    });
  }
  return cli;
}

/** A sandbox from the options, or the usage when they are bad (an unknown scenario in the seed, say). */
function sandboxOf(options: SandboxOptions): Sandbox {
  try {
    return createSandbox(options);
  } catch (e) {
    fail((e as Error).message);
  }
}

/** What the partner needs to start: where everything is, and a request that works. */
function banner(sandbox: Sandbox, options: SandboxOptions, port: number, host: string): void {
  const url = sandbox.publicUrl;
  const where = host === '127.0.0.1' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  console.log(`venue-booking-sandbox (${sandbox.dialect} dialect) listening on http://${where}:${port}`);
  console.log(`  API:  ${url}/v4/...   hosted booking page: ${url}/book`);
  console.log(`  OpenAPI document: ${url}/v4/openapi.json`);
  console.log(`  Request journal:  ${url}${CONTROL_PREFIX}/requests   (clock, reset: ${url}${CONTROL_PREFIX})`);
  // Advertise credentials that work: an --app given, else the default seed's widget app.
  const app = options.apps?.[0] ?? (options.seed ? undefined : SANDBOX_APP);
  if (app)
    console.log(
      `  Try:  curl -H 'Authorization: ${app.id}:${app.key}' '${url}/v4/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability?fields=type'`,
    );
  if (options.now) console.log(`  Clock fixed at ${options.now}`);
  if (options.scenario) console.log(`  Scenario of every request: ${options.scenario}`);
}

const cli = parseCli(process.argv.slice(2));
if (cli.printOpenApi) {
  // Written, not logged then exited: a pipe would lose the end of a large document.
  process.stdout.write(`${JSON.stringify(openApiDocument(cli.options.publicUrl), null, 2)}\n`);
} else {
  let sandbox = sandboxOf(cli.options);
  const server = serve({ fetch: (request) => sandbox.fetch(request), port: cli.port, hostname: cli.host }, (info) => {
    // With --port 0 the address is known only now; no request has arrived yet.
    if (!cli.publicUrlGiven && info.port !== cli.port)
      sandbox = sandboxOf({ ...cli.options, publicUrl: `http://localhost:${info.port}` });
    banner(sandbox, cli.options, info.port, cli.host);
  });
  // One line for a port that cannot be had, as the proxy says it, not Node's stack trace.
  server.once('error', (error: NodeJS.ErrnoException) => {
    console.error(
      error.code === 'EADDRINUSE'
        ? `venue-booking-sandbox: port ${cli.port} is already in use: stop what listens there, or choose another port with --port.`
        : `venue-booking-sandbox: cannot listen on ${cli.host} port ${cli.port}: ${error.message} (check --port and --host).`,
    );
    process.exit(1);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
}
