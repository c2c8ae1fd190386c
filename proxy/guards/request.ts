/**
 * Request guards that run before routing: the shape of the address, the method, the Origin and
 * headers that try to change a request's meaning. They refuse early and cheaply, so hostile
 * traffic never reaches a route, a cache or the upstream.
 */
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from '../core/envelope.js';
import { requestSite } from './request-site.js';
import type { Logger } from '../core/log.js';
import { urlOf } from '../core/url.js';
import { isLoopback } from './validate.js';

/** Longest URL (path + query) the widget ever needs; longer ones are refused with 414. */
export const MAX_URL_LENGTH = 2048;

// Path characters the proxy's own routes use. No `%` (no encoded slashes, dots or NULs), no `;`
// (matrix parameters), no backslash, no non-ASCII.
const PATH_RE = /^\/[A-Za-z0-9_\-/.]*$/;

/** Headers that ask a server to treat a request as another method; refused outright. */
export const OVERRIDE_HEADERS = ['x-http-method-override', 'x-http-method', 'x-method-override'];

/** Why a path is refused, or null. Dots are allowed only in the name of the served script. */
export function pathProblem(pathname: string): string | null {
  if (!PATH_RE.test(pathname)) return 'The address contains characters that are not allowed';
  if (pathname.includes('//')) return 'The address contains an empty segment';
  if (pathname.includes('/.') || (pathname.startsWith('/api/') && pathname.includes('.')))
    return 'The address contains a dotted segment';
  return null;
}

/** Refuses oversized URLs, odd paths, unknown methods and method-override headers. */
export function requestGuard(methods: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    if (request.url.length > MAX_URL_LENGTH) return errorResponse(request, 414, 'The address is too long');
    const problem = pathProblem(urlOf(request).pathname);
    if (problem)
      return errorResponse(request, 400, problem, { errors: [{ code: 'invalid_path', message: problem, fields: [] }] });
    if (!methods.includes(request.method)) {
      return errorResponse(request, 405, `Method ${request.method.slice(0, 20)} is not allowed`, {
        headers: { allow: methods.join(', ') },
      });
    }
    for (const name of OVERRIDE_HEADERS) {
      if (request.headers.has(name))
        return errorResponse(request, 400, 'Method override headers are not accepted', {
          errors: [{ code: 'invalid_header', message: 'Method override headers are not accepted', fields: [name] }],
        });
    }
    await next();
  };
}

/**
 * Refuses requests from a site that is neither the proxy's own nor a configured one, reads and
 * writes alike (see request-site.ts), so a misconfigured page fails at its first call. CORS only
 * stops browsers from reading answers; this stops the request from having effects. `onRefused`
 * tells the operator which origin to add.
 */
export function originGuard(
  allowed: (origin: string, request: Request) => boolean,
  onRefused: (origin: string) => void = () => {},
): MiddlewareHandler {
  return async (c, next) => {
    const site = requestSite(c.req.raw);
    if (site !== null && site !== 'same-origin' && (site === 'hidden' || !allowed(site, c.req.raw))) {
      onRefused(site);
      return errorResponse(c.req.raw, 403, 'This site may not use the booking proxy', {
        errors: [
          { code: 'forbidden_origin', message: "This site's origin is not in VENUE_BOOKING_ORIGINS", fields: [] },
        ],
      });
    }
    await next();
  };
}

/**
 * For a proxy without `VENUE_BOOKING_PUBLIC_URL`: answers only requests addressed to a loopback
 * host (local development). Elsewhere its own origin and `next.api` would come from a Host header
 * the client wrote, so the request is refused with 421 and the operator told what to set.
 */
export function loopbackHostGuard(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    if (!isLoopback(urlOf(c.req.raw).hostname)) {
      logger.log({ level: 'error', msg: 'request to a non-loopback host refused: set VENUE_BOOKING_PUBLIC_URL' });
      return errorResponse(c.req.raw, 421, 'The booking proxy is misconfigured', {
        errors: [
          { code: 'unknown_host', message: "Set VENUE_BOOKING_PUBLIC_URL to the proxy's public address", fields: [] },
        ],
      });
    }
    await next();
  };
}
