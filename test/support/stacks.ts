/**
 * Isolated offline stacks for browser tests, served by the test runner's own dev server.
 *
 * A test asks for a fresh stack (`POST /__stacks` with sandbox options) and gets a base path; the
 * widget's `api` attribute points at `<base>/api`, so every test books through the real proxy and
 * the real sandbox without sharing their state with any other test. Two test-only doors sit beside
 * the stack, never inside it:
 *
 * - `<base>/__upstream/…` reads the sandbox's API with a full-access app (to check what was stored);
 * - `<base>/__faults` scripts the next upstream answers (`status`, `network`, `delay`), so fault
 *   paths are driven by a misbehaving upstream, not by mocking our own code; GET lists those not
 *   yet met;
 * - `<base>/__requests` lists the requests the stack received and what became of each, so a test
 *   can see the browser really cancel one (its connection closes before the answer);
 * - `<base>/__log` lists every line the stack's proxy logged, so a test can read what an operator
 *   would (and check that no guest's details are in it).
 * - `<base>/__pages` (POST, an HTML text) serves a plain page on another origin (a second server on
 *   127.0.0.1), as a venue's own site would be: what a venue pastes, tried where it will live.
 *
 * With `proxy.shared` (a name), stacks of that name are instances of one deployment: their proxies
 * share their state through one real redis-server (started on first use, per test run) under one
 * prefix, and the upstream of the first stack of the name (its sandbox, so a booking made through
 * either is found by either's `__upstream`), as a fleet of proxies behind one name would.
 *
 * With `proxy.widget`, the stack's proxy serves the widget bundle (built once per run with esbuild
 * from src/index.ts) at `<base>/venue-booking.js`, as `venue-booking-proxy` serves dist/'s, so the
 * embed studio's preview and snippets load the real script from the real proxy.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { build } from 'esbuild';
import { createStack, SANDBOX_PREFIX } from '../../proxy/stack.js';
import { UNLIMITED } from '../bench/unlimited.js';
import type { Sandbox, SandboxOptions } from '../../sandbox/app.js';
import type { LogEntry, Logger } from '../../proxy/core/log.js';
import { createRedisState } from '../../proxy/state/redis.js';
import type { SharedState } from '../../proxy/state/shared.js';
import { startRedis, until, type RedisServer } from './redis.js';

/**
 * A stand-in of Cloudflare Turnstile's script (`render=explicit`): renders a note into the element
 * and calls back with a token that names the action, as the real one's siteverify reports it.
 */
const TURNSTILE_STAND_IN = `let count = 0;
window.turnstile = {
  render(element, options) {
    element.textContent = 'Turnstile stand-in';
    const id = 'w' + ++count;
    setTimeout(() => options.callback('stand-in.' + options.action + '.' + id + '.' + Math.random().toString(36).slice(2)));
    this.options = options;
    return id;
  },
  reset(id) {
    setTimeout(() => this.options.callback('stand-in.' + this.options.action + '.' + id + '.' + Math.random().toString(36).slice(2)));
  },
};`;

/** The full-access app every test stack's sandbox knows, for `__upstream` reads. */
const INSPECTOR = { id: 'test-inspector', key: 'test-inspector-key', capabilities: 'all' as const };

/** One scripted upstream fault: the next `times` upstream calls whose path contains `path`. */
export interface Fault {
  path: string;
  /** An HTTP status to answer with, or `network` to fail the connection. */
  status: number | 'network';
  times?: number;
  /** Milliseconds to wait before answering (before the fault, or before the real answer). */
  delay?: number;
}

/** A request the stack received: still open, answered, or left by its client before the answer. */
export interface ClientRequest {
  /** Path under the stack's base, with the query. */
  url: string;
  outcome: 'open' | 'answered' | 'departed';
}

/** What a test posts to `/__stacks`. */
export interface StackRequest {
  sandbox?: Omit<SandboxOptions, 'publicUrl' | 'apps'>;
  /**
   * Proxy settings a test may vary: where `next.web` may point (the real proxy drops others); the
   * widget bundle served; the plain pages' origin (`__pages`) allowed in `VENUE_BOOKING_ORIGINS`.
   */
  proxy?: {
    bookingSite?: string;
    returnBridge?: boolean;
    widget?: boolean;
    allowPages?: boolean;
    unlimited?: boolean;
    /**
     * The stack's address names this machine by its other name (`127.0.0.1` for `localhost`, or
     * the reverse), as `npm start` names one while a guest opens the other: the test page, at its
     * own name, then opens the stack's pages under a second name, and can still reach into them.
     */
    otherName?: boolean;
    /** Venue profiles to start with (venue id → profile), as `VENUE_BOOKING_PROFILES_FILE` gives them. */
    profiles?: Record<string, unknown>;
    /** A name: stacks of one name share their state on Redis and the first one's sandbox. */
    shared?: string;
    /**
     * Cloudflare Turnstile set, against stand-ins beside the stack (`__turnstile`): Cloudflare's
     * script (a `window.turnstile` whose token names the action it was rendered with) and its
     * siteverify (answering as Cloudflare documents; GET lists the forms it was sent).
     */
    turnstile?: boolean;
  };
}

/** The redis-server of the shared stacks, started on first use and killed with the test server. */
let redis: Promise<RedisServer> | null = null;
/** The upstream of each shared name: its first stack's sandbox, and that sandbox's booking page. */
const sharedUpstreams = new Map<string, { sandbox: Sandbox; bookingSite: string }>();

/** A state on Redis under the prefix of `name`, once it is connected. */
async function sharedState(name: string, logger: Logger): Promise<SharedState> {
  redis ??= startRedis().then((server) => {
    process.once('exit', () => void server.kill());
    return server;
  });
  const state = createRedisState({
    url: (await redis).url,
    prefix: `stacks-${process.pid}-${name}:`,
    timeoutMs: 500,
    ttlMs: 15_000,
    staleMs: 60_000,
    holdMs: 15_000,
    logger,
    now: Date.now,
  });
  await until(() => state.health() === 'ok', `the stacks of ${name} on Redis`);
  return state;
}

/** A loopback `host` (and port) by this machine's other name. */
const otherName = (host: string) =>
  host.startsWith('localhost') ? host.replace('localhost', '127.0.0.1') : host.replace('127.0.0.1', 'localhost');

/** The widget bundle as one module (its locale modules inlined), built once per run. */
let widgetBundle: Promise<Uint8Array<ArrayBuffer>> | null = null;
function widgetScript(): Promise<Uint8Array<ArrayBuffer>> {
  widgetBundle ??= build({
    entryPoints: [fileURLToPath(new URL('../../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  }).then((result) => new Uint8Array(result.outputFiles[0]!.contents) as Uint8Array<ArrayBuffer>);
  return widgetBundle;
}

/** The plain pages tests post, served by a second server on 127.0.0.1 (another origin than the test page's). */
const pages = new Map<string, string>();
let pagesServer: Promise<{ origin: string; server: Server }> | null = null;
function pagesOrigin(): Promise<string> {
  pagesServer ??= new Promise((resolve) => {
    const server = createServer((request, response) => {
      const page = pages.get(request.url ?? '');
      response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page ?? 'no such page');
    });
    server.listen(0, '127.0.0.1', () =>
      resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    );
    server.unref();
  });
  return pagesServer.then(({ origin }) => origin);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** Creates the `/__stacks` middleware (Koa style, as @web/dev-server expects). */
export function stacksMiddleware() {
  const stacks = new Map<string, ReturnType<typeof getRequestListener>>();
  let counter = 0;

  async function create(request: IncomingMessage, response: ServerResponse) {
    const options = JSON.parse((await readBody(request)) || '{}') as StackRequest;
    const id = `s${++counter}`;
    const basePath = `/__stacks/${id}`;
    const faults: Fault[] = [];
    const received: ClientRequest[] = [];
    const logged: LogEntry[] = [];
    // One line per request would bury the test report (warnings and errors still show); every
    // line is kept for `__log`.
    const logger: Logger = {
      log(entry) {
        logged.push(entry);
        if (entry.level === 'warn' || entry.level === 'error') console.error(JSON.stringify(entry));
      },
    };
    const shared = options.proxy?.shared;
    const state = shared ? await sharedState(shared, logger) : undefined;
    const first = shared ? sharedUpstreams.get(shared) : undefined;
    /** The sandbox behind this stack's proxy: its own, or the first of its shared name's. */
    const upstreamOf = (own: Sandbox) => first?.sandbox ?? own;
    const host = `http://${request.headers.host}`;
    const verified: Record<string, string>[] = [];
    const stack = createStack({
      origin: `http://${options.proxy?.otherName ? otherName(request.headers.host ?? '') : request.headers.host}`,
      basePath,
      sandbox: { ...options.sandbox, apps: [INSPECTOR] },
      proxy: {
        logger,
        ...(state ? { state } : {}),
        ...(options.proxy?.bookingSite || first
          ? { bookingSite: options.proxy?.bookingSite ?? first!.bookingSite }
          : {}),
        ...(options.proxy?.returnBridge === false ? { returnBridge: false } : {}),
        ...(options.proxy?.widget ? { widgetScript: await widgetScript() } : {}),
        ...(options.proxy?.allowPages ? { origins: [await pagesOrigin()] } : {}),
        ...(options.proxy?.profiles ? { profileSeed: options.proxy.profiles } : {}),
        ...(options.proxy?.turnstile
          ? {
              turnstileSiteKey: '1x00000000000000000000AA',
              turnstileSecret: 'stand-in-turnstile-secret',
              turnstileVerifyUrl: `${host}${basePath}/__turnstile/siteverify`,
              turnstileScriptUrl: `${host}${basePath}/__turnstile/api.js`,
            }
          : {}),
        // A walk through every path is one client making hundreds of reads: no per-client or budget limit.
        ...(options.proxy?.unlimited ? UNLIMITED : {}),
        // The browser's own address, as the Node entry passes it: the operator pages open on loopback.
        peerAddress: (env) => (env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress,
      },
      // Faults wrap the upstream as the proxy sees it: the proxy under test stays untouched.
      upstream: (sandbox) => async (upstreamRequest) => {
        const index = faults.findIndex((fault) => upstreamRequest.url.includes(fault.path));
        if (index >= 0) {
          const fault = faults[index];
          if (fault.times !== undefined && --fault.times <= 0) faults.splice(index, 1);
          if (fault.delay) await sleep(fault.delay);
          if (fault.status === 'network') throw new TypeError('fetch failed');
          if (fault.status !== 200)
            return new Response('<html>upstream fault</html>', {
              status: fault.status,
              headers: { 'content-type': 'text/html' },
            });
        }
        return upstreamOf(sandbox).fetch(upstreamRequest);
      },
    });
    if (shared && !first)
      sharedUpstreams.set(shared, {
        sandbox: stack.sandbox,
        bookingSite: `http://${request.headers.host}${basePath}${SANDBOX_PREFIX}/book`,
      });
    const listener = getRequestListener(async (incoming, env) => {
      const url = new URL(incoming.url);
      const local = url.pathname.slice(basePath.length);
      if (local === '/__faults' && incoming.method === 'POST') {
        faults.push(...((await incoming.json()) as Fault[]));
        return Response.json({ ok: true });
      }
      // The faults not yet met: a test can tell that a request has reached the upstream.
      if (local === '/__faults' && incoming.method === 'GET') return Response.json(faults);
      if (local.startsWith('/__upstream/')) {
        url.pathname = local.slice('/__upstream'.length);
        const headers = new Headers(incoming.headers);
        headers.set('Authorization', `${INSPECTOR.id}:${INSPECTOR.key}`);
        return upstreamOf(stack.sandbox).fetch(
          new Request(url, { method: incoming.method, headers, body: incoming.body, duplex: 'half' } as RequestInit),
        );
      }
      if (local === '/__requests' && incoming.method === 'GET') return Response.json(received);
      if (local === '/__log' && incoming.method === 'GET') return Response.json(logged);
      if (local === '/__turnstile' && incoming.method === 'GET') return Response.json(verified);
      if (local === '/__turnstile/api.js')
        return new Response(TURNSTILE_STAND_IN, { headers: { 'content-type': 'text/javascript' } });
      if (local === '/__turnstile/siteverify' && incoming.method === 'POST') {
        const form = Object.fromEntries(new URLSearchParams(await incoming.text()));
        const first = !verified.some((sent) => sent.response === form.response);
        verified.push(form);
        const action = /^stand-in\.(\w+)\./.exec(form.response ?? '')?.[1];
        return Response.json(
          first && action
            ? {
                success: true,
                'error-codes': [],
                challenge_ts: new Date().toISOString(),
                hostname: new URL(host).hostname,
                action,
                cdata: '',
              }
            : { success: false, 'error-codes': [first ? 'invalid-input-response' : 'timeout-or-duplicate'] },
        );
      }
      if (local === '/__pages' && incoming.method === 'POST') {
        const path = `/${id}-${pages.size + 1}.html`;
        pages.set(path, await incoming.text());
        return Response.json({ url: `${await pagesOrigin()}${path}`, origin: await pagesOrigin() });
      }
      const seen: ClientRequest = { url: local + url.search, outcome: 'open' };
      received.push(seen);
      // The Node adapter aborts the request's signal when the client closes the connection unanswered.
      incoming.signal.addEventListener('abort', () => {
        if (seen.outcome === 'open') seen.outcome = 'departed';
      });
      const response = await stack.fetch(incoming, env);
      if (seen.outcome === 'open') seen.outcome = 'answered';
      return response;
    });
    stacks.set(id, listener);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ base: basePath, api: `${basePath}/api` }));
  }

  return async (
    context: { req: IncomingMessage; res: ServerResponse; respond: boolean; url: string; status?: number },
    next: () => Promise<void>,
  ) => {
    const path = context.url.split('?')[0];
    if (path === '/__stacks' && context.req.method === 'POST') {
      context.status = 200; // Koa's default 404 would otherwise be logged as a missing file
      context.respond = false;
      return create(context.req, context.res);
    }
    const match = /^\/__stacks\/(s\d+)(\/|$)/.exec(path);
    const listener = match && stacks.get(match[1]);
    if (!listener) return next();
    context.status = 200;
    context.respond = false;
    return listener(context.req, context.res);
  };
}
