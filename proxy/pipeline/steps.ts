/**
 * What both adapters of the pipeline build alike from the route table and the config: the guards'
 * settings, and the layers of headers every API answer carries (security, `Vary`, CORS, the
 * client's limit), which core/headers.ts combines with a route's own.
 */
import type { ResolvedConfig } from '../config.js';
import { SECURITY_LAYER, type Layer } from '../core/headers.js';
import { TokenThrottle } from '../guards/operator.js';
import type { GuardSettings } from '../guards/request.js';
import type { Route } from '../routes.js';
import { templateMatcher } from '../paths.js';

/** What the guards need to know of the proxy, from its route table and config. */
export function guardSettings(
  routes: readonly Route[],
  config: ResolvedConfig,
  siteAllowed: GuardSettings['siteAllowed'],
): GuardSettings {
  const { token, loopback } = config.operatorPages;
  const operator = routes.filter((route) => route.operator);
  const pages = routes.filter((route) => route.page).map((route) => templateMatcher(route.path));
  return {
    files: new Set(routes.filter((route) => route.methods.includes('HEAD')).map((route) => route.path)),
    publicUrl: config.publicOrigin !== null,
    isPage: (pathname) => pages.some((matches) => matches(pathname) !== null),
    siteAllowed,
    anySite: new Set(routes.filter((route) => route.anySite).map((route) => route.path)),
    operator: {
      paths: new Set(operator.map((route) => route.path)),
      scrape: new Set(operator.filter((route) => route.operator?.scrape).map((route) => route.path)),
      token,
      loopback,
      throttle: new TokenThrottle(config.now),
    },
  };
}

/** The CORS the widget needs: what it may send, and which of the answer's headers it may read. */
export const API_CORS = {
  allowMethods: 'GET,POST,OPTIONS',
  allowHeaders: 'Content-Type,Idempotency-Key',
  exposeHeaders: [
    'Retry-After',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'RateLimit',
    'RateLimit-Policy',
    'Idempotent-Replayed',
    'X-Cache',
  ].join(','),
  /** Seconds a browser may cache a preflight answer. */
  maxAge: '600',
} as const;

/** `Vary: Accept-Encoding` on every answer the proxy may compress. */
export const VARY_ENCODING: Layer = Object.freeze({
  mode: 'fill',
  headers: Object.freeze({}),
  vary: 'Accept-Encoding',
});

/** The CORS headers of an API answer for a request whose `Origin` gets `allowOrigin` (null: none). */
export function corsLayer(allowOrigin: string | null): Layer {
  const headers: Record<string, string> = {};
  if (allowOrigin) headers['Access-Control-Allow-Origin'] = allowOrigin;
  headers['Access-Control-Expose-Headers'] = API_CORS.exposeHeaders;
  return { mode: 'set', headers, vary: 'Origin' };
}

/**
 * Every layer an API answer carries, outermost first, as the app's middleware add them: security,
 * `Vary: Accept-Encoding` (with compression on), CORS and, when the request was counted, its limit.
 */
export function apiLayers(compress: boolean, allowOrigin: string | null, limit?: Layer): Layer[] {
  const layers = [SECURITY_LAYER];
  if (compress) layers.push(VARY_ENCODING);
  layers.push(corsLayer(allowOrigin));
  if (limit) layers.push(limit);
  return layers;
}
