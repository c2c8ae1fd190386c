/**
 * The proxy as an edge entry (Cloudflare Workers and other `export default { fetch }` runtimes).
 * Settings come from the Worker's `env` (vars and secrets, same names as the Node entry); with no
 * credentials it runs on the embedded sandbox, like the Node entry.
 *
 * One handler is built per isolate and reused, so the cache, rate limits and idempotency keys are
 * per isolate: they cut upstream calls by what each isolate sees. The client key for rate limits
 * is `CF-Connecting-IP`, which Cloudflare sets and clients cannot forge.
 */
import { createProxy } from './app.js';
import { configFromEnv, ConfigError, type ProxyEnv } from './config.js';
import { errorResponse } from './envelope.js';
import { createStack } from './stack.js';

type Handler = { fetch(request: Request, env?: unknown): Promise<Response> };

let built: { env: ProxyEnv; handler: Handler } | null = null;

function handlerFor(env: ProxyEnv, request: Request): Handler {
  if (built?.env === env) return built.handler;
  const config = configFromEnv(env);
  const clientKey = (req: Request) => req.headers.get('cf-connecting-ip') ?? undefined;
  const handler = config.embedded
    ? createStack({ origin: config.settings.publicUrl ?? new URL(request.url).origin, proxy: { ...config.settings, clientKey } })
    : createProxy({ ...config.settings, clientKey });
  for (const warning of config.warnings) console.warn(JSON.stringify({ level: 'warn', msg: warning }));
  built = { env, handler };
  return handler;
}

export default {
  async fetch(request: Request, env: ProxyEnv = {}): Promise<Response> {
    try {
      return await handlerFor(env, request).fetch(request);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      // The operator sees the problems in the Worker's logs; the guest only that it is misconfigured.
      console.error(error.message);
      return errorResponse(request, 500, 'The booking proxy is misconfigured');
    }
  },
};
