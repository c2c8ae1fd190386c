/**
 * The whole offline stack in one Fetch handler: the proxy under `/api` (and `/healthz`), backed by
 * the embedded sandbox, whose hosted booking page is served under `/sandbox` so that a browser can
 * follow `next.web` and come back. `npm start`, the browser tests and `venue-booking-proxy` without
 * credentials all use this, so they exercise the very same composition.
 */
import type { ExecutionContext } from 'hono';
import { createProxy, type ProxyApp, type ProxyConfig } from './app.js';
import { createSandbox, SANDBOX_APP, type Sandbox, type SandboxOptions } from '../sandbox/app.js';
import { urlOf } from './core/url.js';

/** Where the sandbox is mounted inside the stack. */
export const SANDBOX_PREFIX = '/sandbox';
/** The one sandbox path a browser needs: the hosted booking page that `next.web` names. */
const BOOKING_PAGE = `${SANDBOX_PREFIX}/book`;

/** Venues of the default seed that the embedded proxy lets the widget book. */
export const DEMO_VENUES = ['64a1f0c2e4b0a1b2c3d4e501', '64a1f0c2e4b0a1b2c3d4e502', '64a1f0c2e4b0a1b2c3d4e503'];

/** The venue group of the default seed's demo venues. */
export const DEMO_GROUP = '64a1f0c2e4b0a1b2c3d4e500';

/** Options of the offline stack. */
export interface StackOptions {
  /** Absolute URL of the stack's root as the browser sees it, e.g. `http://localhost:5173`. */
  origin: string;
  /** Mount path of the stack under that origin (no trailing slash), e.g. `/__stacks/a1`. */
  basePath?: string;
  sandbox?: Omit<SandboxOptions, 'publicUrl'>;
  proxy?: Partial<ProxyConfig>;
  /** How the proxy reaches the sandbox (default: its handler directly); tests put faults here. */
  upstream?: (sandbox: Sandbox) => (request: Request) => Promise<Response>;
}

/** A running offline stack. */
export interface Stack {
  /** `env` is passed to the proxy (the host's per-request context, e.g. Node's incoming message). */
  fetch(request: Request, env?: unknown, executionCtx?: ExecutionContext): Promise<Response>;
  sandbox: Sandbox;
  proxy: ProxyApp;
}

/** Strips `prefix` from a request's path, so a handler built for `/` can be mounted anywhere. */
export function unprefixed(request: Request, prefix: string): Request {
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(prefix.length) || '/';
  return new Request(url, request);
}

/** Builds the proxy + embedded sandbox stack. */
export function createStack(options: StackOptions): Stack {
  const basePath = options.basePath ?? '';
  const sandboxUrl = `${options.origin}${basePath}${SANDBOX_PREFIX}`;
  const sandbox = createSandbox({ ...options.sandbox, publicUrl: sandboxUrl });
  const proxy = createProxy({
    upstream: 'http://sandbox.internal/v4',
    appId: SANDBOX_APP.id,
    apiKey: SANDBOX_APP.key,
    fetch: options.upstream?.(sandbox) ?? ((request) => sandbox.fetch(request)),
    venues: DEMO_VENUES,
    // The demo group, so the widget's venue picker (`venue-group`) can list its venues.
    venueGroups: [DEMO_GROUP],
    // next.web may only point at the embedded sandbox's hosted booking page.
    bookingSite: `${sandboxUrl}/book`,
    // next.api must name the proxy as the browser sees it, mount path included.
    publicUrl: `${options.origin}${basePath}`,
    // The embedded sandbox stands in for the live service: nothing booked here is real.
    practice: true,
    ...options.proxy,
  });
  return {
    sandbox,
    proxy,
    fetch(request, env, executionCtx) {
      const { pathname } = urlOf(request);
      const local = pathname.slice(basePath.length);
      // Only the sandbox's booking page: never its API beside the proxy, nor its partner controls.
      if (local === BOOKING_PAGE) {
        return sandbox.fetch(unprefixed(request, basePath + SANDBOX_PREFIX));
      }
      return proxy.fetch(basePath ? unprefixed(request, basePath) : request, env, executionCtx);
    },
  };
}
