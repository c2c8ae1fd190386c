/**
 * Health for load balancers and orchestrators, at no upstream call: each reports what the last
 * call found.
 *
 * - `GET /livez`: the process serves requests (Kubernetes' liveness probe: restart it when not).
 * - `GET /readyz`: send it traffic. Only a misconfiguration (the upstream refuses the App ID, so
 *   every booking would fail) makes it unready; a failing upstream still gets cached answers and
 *   clear errors from this proxy, and a shared store that is down leaves it working on local state
 *   (it fails open), so pulling every instance out of rotation would only make things worse.
 * - `GET /healthz`: the older probe, kept as it was (`ok`, the upstream's and the store's state).
 *
 * An unready answer is a 503 with `Retry-After`, as every 429 and 503 of the proxy is.
 */
import type { Context } from 'hono';
import type { ProxyContext } from '../context.js';

/** Seconds a balancer should wait before asking an unready proxy again. */
const UNREADY_RETRY_S = 30;

/** Whether the proxy can serve at all, and what it knows of its upstream and store. */
function readiness(ctx: ProxyContext) {
  const upstream = ctx.upstream.health();
  return { ready: upstream !== 'misconfigured', upstream, store: ctx.state.health() };
}

const probeHeaders = (ready: boolean) => ({
  'cache-control': 'no-store',
  ...(ready ? {} : { 'retry-after': String(UNREADY_RETRY_S) }),
});

/** `GET /healthz`: 200 unless misconfigured (503), with the upstream's and the store's state. */
export function health(ctx: ProxyContext, c: Context): Response {
  const { ready, upstream, store } = readiness(ctx);
  return c.json({ ok: ready, upstream, store }, ready ? 200 : 503, probeHeaders(ready));
}

/** `GET /livez`: always 200 while the process answers. */
export function live(_ctx: ProxyContext, c: Context): Response {
  return c.json({ live: true }, 200, { 'cache-control': 'no-store' });
}

/** `GET /readyz`: 200 unless the proxy cannot serve at all (503 with `Retry-After`). */
export function ready(ctx: ProxyContext, c: Context): Response {
  const state = readiness(ctx);
  return c.json(state, state.ready ? 200 : 503, probeHeaders(state.ready));
}
