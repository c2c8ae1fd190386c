/**
 * CORS for the configured origins only, with the same headers as `hono/cors` but set after the
 * route has answered. `hono/cors` writes its headers before `next()`, which makes Hono create a
 * placeholder response and then rebuild the route's response around it (`new Response(res.body,
 * res)`): the body becomes a stream, and Node's adapter loses its fast path for string bodies —
 * a cached availability answer cost three times a `/healthz`. Setting them afterwards keeps the
 * route's response as it was built.
 */
import type { MiddlewareHandler } from 'hono';
import { addLayer, applyLayer, type Layer } from '../core/headers.js';

/** Options of `cors`; all lists are sent comma-joined, as `hono/cors` sends them. */
export interface CorsOptions {
  /** The `Access-Control-Allow-Origin` value for a request's `Origin` (`''` when absent), or null. */
  origin: (origin: string) => string | null;
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  /** Seconds a browser may cache a preflight answer. */
  maxAge: number;
}

/** CORS headers on every answer; preflight (`OPTIONS`) answered here with 204. */
export function cors(options: CorsOptions): MiddlewareHandler {
  const expose = options.exposeHeaders.join(',');
  const methods = options.allowMethods.join(',');
  const allowHeaders = options.allowHeaders.join(',');
  const maxAge = String(options.maxAge);
  return async (c, next) => {
    const allowOrigin = options.origin(c.req.header('origin') || '');
    if (c.req.method === 'OPTIONS') {
      const headers = new Headers();
      if (allowOrigin) headers.set('Access-Control-Allow-Origin', allowOrigin);
      if (expose) headers.set('Access-Control-Expose-Headers', expose);
      headers.append('Vary', 'Origin');
      headers.set('Access-Control-Max-Age', maxAge);
      if (methods) headers.set('Access-Control-Allow-Methods', methods);
      if (allowHeaders) {
        headers.set('Access-Control-Allow-Headers', allowHeaders);
        headers.append('Vary', 'Access-Control-Request-Headers');
      }
      return new Response(null, { headers, status: 204, statusText: 'No Content' });
    }
    const headers: Record<string, string> = {};
    if (allowOrigin) headers['Access-Control-Allow-Origin'] = allowOrigin;
    if (expose) headers['Access-Control-Expose-Headers'] = expose;
    const layer: Layer = { mode: 'set', headers, vary: 'Origin' };
    addLayer(c, layer);
    await next();
    applyLayer(c.res, layer);
  };
}
