/**
 * The proxy as an edge entry (Cloudflare Workers and other `export default { fetch }` runtimes).
 * Settings come from the Worker's `env` (vars and secrets, same names as the Node entry); with no
 * credentials it runs on the embedded sandbox, like the Node entry.
 *
 * One handler is built per isolate and reused. With a `VENUE_BOOKING_STATE` Durable Object binding
 * (class `VenueBookingState`, exported here), every isolate shares the cache, rate limits,
 * idempotency keys and quota back-off through that object; without it they are per isolate. The
 * client key for rate limits is `CF-Connecting-IP`, which Cloudflare sets and clients cannot forge
 * (IPv6 grouped by /64).
 */
import type { ExecutionContext } from 'hono';
import { resolveSettings, sharedStateTimings, type ProxyConfig } from './config.js';
import { errorResponse } from './core/envelope.js';
import { consoleLogger } from './core/log.js';
import { configFromEnv, ConfigError } from './env.js';
import { envName, type ProxyEnv } from './settings/read.js';
import { clientKeyFor } from './guards/client-ip.js';
import { handlerFor, type HostHandler } from './host.js';
import { createDurableObjectState, type StateNamespace } from './state/durable-object.js';
import type { SharedState } from './state/shared.js';

export { VenueBookingState } from './state/durable-object.js';

/** The shared state of the deployment, when the Worker has the Durable Object binding. */
function sharedState(env: ProxyEnv, settings: Partial<ProxyConfig>): { state?: SharedState } {
  const namespace = env[envName('stateBinding')] as StateNamespace | undefined;
  if (!namespace) return {};
  const state = createDurableObjectState({
    namespace,
    timeoutMs: 500,
    ...sharedStateTimings(resolveSettings(settings)),
    logger: consoleLogger,
    now: () => Date.now(),
  });
  return { state };
}

let built: { env: ProxyEnv; handler: HostHandler; state?: SharedState } | null = null;

/** The handler of `env`, built at its first request and reused while the isolate lives. */
function builtFor(env: ProxyEnv, request: Request): NonNullable<typeof built> {
  if (built?.env === env) return built;
  const config = configFromEnv(env);
  const clientKey = clientKeyFor({ header: 'cf-connecting-ip' });
  const { state } = sharedState(env, config.settings);
  // The Workers runtime compresses what it is given (and would gzip a gzipped body again).
  const extra = { clientKey, compress: false, ...(state ? { state } : {}) };
  const handler = handlerFor(config, extra, new URL(request.url).origin);
  if (config.redis)
    console.warn(
      JSON.stringify({
        level: 'warn',
        msg: `${envName('redisUrl')} is for Node; a Worker shares state through ${envName('stateBinding')}`,
      }),
    );
  for (const warning of config.warnings) console.warn(JSON.stringify({ level: 'warn', msg: warning }));
  built = { env, handler, ...(state ? { state } : {}) };
  return built;
}

export default {
  async fetch(request: Request, env: ProxyEnv = {}, ctx?: ExecutionContext): Promise<Response> {
    try {
      const { handler, state } = builtFor(env, request);
      // The context lets background work (a stale read's refresh, limit counts on their way to
      // the shared state) outlive the answer: the runtime cancels a request's unfinished work
      // once its answer is sent. (The env, which holds the API key, is not handed on.)
      const response = await handler.fetch(request, undefined, ctx);
      if (state) ctx?.waitUntil(state.settled());
      return response;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      // The operator sees the problems in the Worker's logs; the guest only that it is misconfigured.
      console.error(error.message);
      return errorResponse(request, 500, 'The booking proxy is misconfigured');
    }
  },
};
