/**
 * `GET /healthz`. Health costs no upstream call: it reports what the last one found. Only a
 * misconfiguration (every booking would fail) is unhealthy; a failing upstream still gets cached
 * answers and clear errors from this proxy, so taking it out of rotation would not help. Nor would
 * a shared store that is down: the proxy then works on local state, and says so in `store`.
 */
import type { Context } from 'hono';
import type { ProxyContext } from './context.js';

/** The proxy's health: 200 unless misconfigured (503), with the upstream's and the store's state. */
export function health(ctx: ProxyContext, c: Context): Response {
  const upstream = ctx.upstream.health();
  return c.json(
    { ok: upstream !== 'misconfigured', upstream, store: ctx.state.health() },
    upstream === 'misconfigured' ? 503 : 200,
    { 'cache-control': 'no-store' },
  );
}
