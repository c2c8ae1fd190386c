/**
 * `venue-booking/proxy`: the proxy as a library, for operators who mount it in their own server
 * (an Express or Hono app, a serverless function) instead of running `venue-booking-proxy`.
 * Every export here is built into `dist/server/proxy.js` with its server libraries bundled in,
 * so importing it needs nothing but this package.
 */
import { createProxy as createAppProxy } from './app.js';
import type { ProxyConfig } from './config.js';
import { createStack as createAppStack, type StackOptions } from './stack.js';

export type { OperatorPages, ProxyConfig } from './config.js';
export type { Logger } from './core/log.js';
// The metrics (`config.metrics`): a server of the operator's own reads them with `snapshot()`, or
// keeps them in its own registry through a `MetricsBackend`.
export {
  Metrics,
  memoryBackend,
  METRICS,
  METRIC_PREFIX,
  type MetricsBackend,
  type MetricsSnapshot,
  type Sample,
} from './core/metrics.js';
export type { StackOptions } from './stack.js';
export { configFromEnv, ConfigError, type EnvConfig, type ProxyEnv } from './env.js';

/** A Fetch handler: `Request → Response`, as Node adapters, Workers and Deno serve. */
export interface FetchHandler {
  /** `env` is the host's per-request context (Node's incoming message, a Worker's env). */
  fetch(request: Request, env?: unknown): Promise<Response>;
}

/** The proxy in front of a real (or any) v4 upstream. */
export const createProxy: (config: ProxyConfig) => FetchHandler = createAppProxy;

/**
 * The proxy on the embedded sandbox, with the sandbox's booking page under `/sandbox`: the whole
 * offline stack in one handler, as `venue-booking-proxy` runs without credentials.
 */
export const createStack: (options: StackOptions) => FetchHandler = createAppStack;
