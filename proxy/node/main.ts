/**
 * `venue-booking-proxy`: the proxy as a Node server. Settings come from the environment and flags
 * (flags win; see env.ts), validated at start. With no credentials it runs on the embedded
 * sandbox, and says so. It also serves the widget bundle (`dist/venue-booking.js`) at
 * `/venue-booking.js` and prints the script tag with its integrity hash.
 *
 * This is the only proxy module that touches process, ports and files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { resolveSettings, sharedStateTimings, type ProxyConfig } from '../config.js';
import { consoleLogger } from '../core/log.js';
import { Metrics, offBackend } from '../core/metrics.js';
import { configFromEnv, ConfigError, type RedisSettings } from '../env.js';
import { clientKeyFor } from '../guards/client-ip.js';
import { handlerFor } from '../host.js';
import { integrityOf } from '../core/encoding.js';
import { widgetSnippet } from '../pages/snippet.js';
import { nodeListener, routedPath } from './listener.js';
import { batchedLogger } from './log.js';
import { prometheusBackend } from './prometheus.js';
import { envName, type ProxyEnv } from '../settings/read.js';
import { helpText } from '../settings/render.js';
import { envWithFlags, nodeSettingsFromEnv } from './settings.js';
import { nodeTransport } from './transport.js';
import { fileRecords } from './records-file.js';
import { checkProfile } from '../state/venue-profiles.js';

/** `--help`, from the settings registry (proxy/settings/registry.ts). */
const HELP = helpText();

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The environment with the command line's flags over it; `--help` prints the help and exits. */
function readEnv(): ProxyEnv {
  let read: ReturnType<typeof envWithFlags>;
  try {
    read = envWithFlags(process.argv.slice(2), process.env);
  } catch (error) {
    fail(`${(error as Error).message}\n\n${HELP}`);
  }
  if (read.help) {
    console.log(HELP);
    process.exit(0);
  }
  return read.env;
}

/**
 * The widget bundle and the chunks it loads on demand (the locale modules), when it has been
 * built: every top-level `.js` file of dist/.
 */
/** Where the widget bundle sits relative to this module: set by the server build, else a checkout's dist/. */
declare const __WIDGET_DIR__: string | undefined;

function widgetFiles(): { script?: Uint8Array<ArrayBuffer>; chunks: Record<string, Uint8Array<ArrayBuffer>> } {
  const dist = fileURLToPath(
    new URL(typeof __WIDGET_DIR__ === 'string' ? __WIDGET_DIR__ : '../../dist/', import.meta.url),
  );
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

/** The package's version (package.json two levels up, from dist/server/ as from proxy/node/). */
function packageVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The Redis-backed state. Imported only when a Redis URL is set, so a proxy without one never
 * loads the client. Its timings follow the proxy's: a booking holds its key past the upstream timeout.
 */
async function redisState(redis: RedisSettings, settings: Partial<ProxyConfig>) {
  const { createRedisState } = await import('../state/redis.js');
  return createRedisState({
    url: redis.url,
    prefix: redis.prefix,
    timeoutMs: redis.timeoutMs,
    ...sharedStateTimings(resolveSettings(settings)),
    logger: consoleLogger,
    now: () => Date.now(),
  });
}

/** How the proxy's own address is written in its messages: `localhost` when it listens everywhere. */
function shownHost(host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::') return 'localhost';
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** One line for a failed listen, naming the setting to change. */
function listenProblem(error: NodeJS.ErrnoException, port: number, host: string | undefined): string {
  const where = host ? `${host} port ${port}` : `port ${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `Port ${port} is already in use${host ? ` on ${host}` : ''}: stop what listens there, or choose another port with PORT or --port.`;
    case 'EACCES':
      return `Not allowed to listen on ${where}: choose a port above 1023 with PORT or --port.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot listen on ${host}: this machine has no such address; change HOST or --host.`;
    default:
      return `Cannot listen on ${where}: ${error.message} (check PORT/--port and HOST/--host).`;
  }
}

/** The venue's records in `path` (VENUE_BOOKING_DATA_FILE); a file that is not theirs stops the start. */
function recordsIn(path: string) {
  try {
    return fileRecords(path);
  } catch (error) {
    fail((error as Error).message);
  }
}

/** The venue profiles of `path` (VENUE_BOOKING_PROFILES_FILE), each checked; a wrong file stops the start. */
function profilesOf(path: string): Record<string, unknown> {
  let seed: unknown;
  try {
    seed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(`Cannot read ${envName('profilesFile')} ${path}: ${(error as Error).message}`);
  }
  if (!seed || typeof seed !== 'object' || Array.isArray(seed))
    fail(`${envName('profilesFile')} ${path} must hold an object of venue ids and their profiles`);
  for (const [venue, profile] of Object.entries(seed)) {
    const checked = checkProfile(profile);
    if ('problems' in checked)
      fail(`${envName('profilesFile')}: venue ${venue}: ${Object.values(checked.problems).join(' ')}`);
  }
  return seed as Record<string, unknown>;
}

async function start() {
  const env = readEnv();
  let config;
  let server;
  try {
    config = configFromEnv(env);
    server = nodeSettingsFromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) fail(`${error.message}\n\nRun venue-booking-proxy --help for the settings.`);
    throw error;
  }
  // Per-client rate limits key on the socket address, or on a trusted reverse proxy's header.
  const clientKey = clientKeyFor(
    server.clientIp,
    (hostEnv) => (hostEnv as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress,
  );
  const { script, chunks } = widgetFiles();
  // One write per event-loop turn, not one per line; what is pending is written at exit.
  const logger = batchedLogger();
  process.on('exit', logger.flush);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.flush();
      process.kill(process.pid, signal);
    });
  }
  // The public listener's origin, once it listens (`--port 0` learns its port then).
  let publicOrigin: string | undefined;
  const metrics = new Metrics(config.settings.operatorPages?.metrics === false ? offBackend() : prometheusBackend());
  const extra: Partial<ProxyConfig> = {
    clientKey,
    version: packageVersion(),
    logger,
    // The counters in prom-client's registry, which /metrics renders (with the process's own);
    // with the metrics off, nothing is counted at all.
    metrics,
    // With an operator port, only requests that came in on it may be "this machine" (operatorListener).
    peerAddress: (hostEnv) => {
      const socket = (hostEnv as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
      return server.operatorPort === undefined || socket?.localPort === server.operatorPort
        ? socket?.remoteAddress
        : undefined;
    },
    // The pages opened on the operator port give guests the public listener's address (set once it listens).
    publicListener: (hostEnv) =>
      server.operatorPort !== undefined &&
      (hostEnv as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.localPort === server.operatorPort
        ? publicOrigin
        : undefined,
    // Behind a declared reverse proxy every request comes from it: only the token opens the pages.
    operatorPages: { ...config.settings.operatorPages, loopback: !server.clientIp.header },
    // The embedded sandbox is reached in-process; a real upstream over kept-alive node:http(s).
    ...(config.embedded ? {} : { transport: nodeTransport() }),
    ...(script ? { widgetScript: script, widgetChunks: chunks } : {}),
    ...(config.redis ? { state: await redisState(config.redis, config.settings) } : {}),
    // Without Redis, the venue's records are kept in the data file, when one is set (else in memory).
    ...(!config.redis && server.dataFile ? { records: recordsIn(server.dataFile) } : {}),
    ...(server.profilesFile ? { profileSeed: profilesOf(server.profilesFile) } : {}),
  };
  for (const warning of config.warnings) console.error(JSON.stringify({ level: 'warn', msg: warning }));
  if (!config.embedded && !config.redis && !server.dataFile)
    console.error(
      JSON.stringify({
        level: 'warn',
        msg: `what the venue saves in the studio (its profile, the sites it allows) and the bookings /status counts end with this process: set ${envName('dataFile')} (one process) or ${envName('redisUrl')}`,
      }),
    );
  // Without a configured key or a shared store, the key sealing the guests' manage links is this
  // process's own: every link sent so far stops working at the next restart.
  if (!config.embedded && !config.settings.manageSecret && !config.redis)
    console.error(
      JSON.stringify({
        level: 'warn',
        msg: `neither ${envName('manageSecret')} nor ${envName('redisUrl')} is set: the links guests manage or cancel their bookings with stop working when this process restarts, and work only on the instance that made them; set one of them`,
      }),
    );
  // A configured return key keeps ids valid across instances and restarts, but which of them have
  // been counted is remembered only in a shared store: without one, each instance counts an id once.
  if (config.settings.returnSecret && !config.redis)
    console.error(
      JSON.stringify({
        level: 'warn',
        msg: `${envName('returnSecret')} without ${envName('redisUrl')}: every instance accepts the others' hand-off ids, but remembers only its own which returns it counted, so one return may count once per instance and again after a restart; set ${envName('redisUrl')} to count each once`,
      }),
    );

  // The handler is built once the port is known, so that with `--port 0` the embedded sandbox's
  // next.web and the proxy's own origin name the port actually listened on.
  let listener: RequestListener | undefined;
  const listening = createServer(
    {
      // Slow clients are cut off; Node checks these every `connectionsCheckingInterval`.
      headersTimeout: server.headersTimeoutMs,
      requestTimeout: server.requestTimeoutMs,
      keepAliveTimeout: server.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(server.headersTimeoutMs / 4)),
    },
    (req, res) => listener!(req, res),
  );
  // A port taken (or an address this machine does not have) ends the start with one line saying
  // which setting to change, not a stack trace.
  listening.once('error', (error: NodeJS.ErrnoException) => fail(listenProblem(error, server.port, server.host)));
  listening.listen({ port: server.port, host: server.host }, async () => {
    const info = listening.address() as AddressInfo;
    const origin = config.settings.publicUrl ?? `http://${shownHost(server.host)}:${info.port}`;
    publicOrigin = new URL(origin).origin;
    listener = nodeListener(handlerFor(config, extra, origin));
    if (server.operatorPort !== undefined) operatorListener(server.operatorPort, listener);
    const mode = config.embedded
      ? `on the embedded sandbox (no ${envName('appId')} / ${envName('apiKey')} set): bookings are not real`
      : `upstream ${config.settings.upstream}`;
    console.log(
      JSON.stringify({
        level: 'info',
        msg: `venue-booking-proxy listening on http://${shownHost(server.host)}:${info.port}`,
        mode,
      }),
    );
    const pages = config.settings.operatorPages;
    const open = [pages?.metrics === false ? '' : 'status', pages?.studio === false ? '' : 'embed'].filter(Boolean);
    // With an operator port, that listener says where the pages are.
    if (open.length && server.operatorPort === undefined)
      console.log(
        `Operator pages (from this machine${pages?.token ? `, or with ${envName('operatorToken')}` : ''}): ${open.map((page) => `http://${shownHost(server.host)}:${info.port}/${page}`).join(' ')}`,
      );
    if (script) {
      const snippet = widgetSnippet(`${origin}/venue-booking.js`, await integrityOf(script));
      console.log(
        `Add the widget to a venue page with (the links in its <head>):\n  ${snippet.replace(/\n/g, '\n  ')}`,
      );
    } else {
      console.log(
        'The widget bundle dist/venue-booking.js is not built, so /venue-booking.js is not served: run `npm run build` first.',
      );
    }
  });
  listening.maxConnections = server.maxConnections;
  // Connections past the cap are dropped at accept; counted, so the operator sees the cap reached.
  listening.on('drop', () => metrics.count('connections_refused_total', {}));
}

/** The operator's pages' own paths (of a normalised path: `routedPath`). */
const OPERATOR_PATH_RE = /^\/(?:metrics|status|embed)(?:\/|$)/;

/**
 * The operator's own listener (`VENUE_BOOKING_OPERATOR_PORT`), as Envoy's admin and Kong's status
 * listeners: on 127.0.0.1 only, it serves the operator's pages and nothing else (404). Only a
 * request that came in on it counts as "this machine" (`peerAddress` above); the guards' other
 * checks (a loopback Host, no forwarding header) still apply.
 */
function operatorListener(port: number, handle: RequestListener): void {
  const operator = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
    // Decided on the path the app will route, not on the raw target: `/embed/../api/…` is the API.
    const path = routedPath(req.url ?? '');
    if (path === null) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('An encoded slash in the address is ambiguous: write it as /\n');
    }
    if (OPERATOR_PATH_RE.test(path)) return handle(req, res);
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Only the operator pages are served on this port: /metrics, /status, /embed\n');
  });
  operator.on('error', (error) => fail(`${envName('operatorPort')} ${port}: ${error.message}`));
  operator.listen(port, '127.0.0.1', () =>
    console.log(
      `Operator port (this machine only): http://127.0.0.1:${port}/status http://127.0.0.1:${port}/embed http://127.0.0.1:${port}/metrics`,
    ),
  );
}

void start();
