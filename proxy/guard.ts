/**
 * Request guards that run before routing: the shape of the address, the method, the Origin and
 * headers that try to change a request's meaning. They refuse early and cheaply, so hostile
 * traffic never reaches a route, a cache or the upstream.
 */
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './envelope.js';
import { urlOf } from './url.js';

/** Longest URL (path + query) the widget ever needs; longer ones are refused with 414. */
export const MAX_URL_LENGTH = 2048;

// Path characters the proxy's own routes use. No `%` (no encoded slashes, dots or NULs), no `;`
// (matrix parameters), no backslash, no non-ASCII.
const PATH_RE = /^\/[A-Za-z0-9_\-/.]*$/;

/** Headers that ask a server to treat a request as another method; refused outright. */
const OVERRIDE_HEADERS = ['x-http-method-override', 'x-http-method', 'x-method-override'];

/** Why a path is refused, or null. Dots are allowed only in the name of the served script. */
export function pathProblem(pathname: string): string | null {
  if (!PATH_RE.test(pathname)) return 'The address contains characters that are not allowed';
  if (pathname.includes('//')) return 'The address contains an empty segment';
  if (pathname.includes('/.') || (pathname.startsWith('/api/') && pathname.includes('.'))) return 'The address contains a dotted segment';
  return null;
}

/** Refuses oversized URLs, odd paths, unknown methods and method-override headers. */
export function requestGuard(methods: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    if (request.url.length > MAX_URL_LENGTH) return errorResponse(request, 414, 'The address is too long');
    const problem = pathProblem(urlOf(request).pathname);
    if (problem) return errorResponse(request, 400, problem, { errors: [{ code: 'invalid_path', message: problem, fields: [] }] });
    if (!methods.includes(request.method)) {
      return errorResponse(request, 405, `Method ${request.method.slice(0, 20)} is not allowed`, { headers: { allow: methods.join(', ') } });
    }
    for (const name of OVERRIDE_HEADERS) {
      if (request.headers.has(name)) return errorResponse(request, 400, 'Method override headers are not accepted', { errors: [{ code: 'invalid_header', message: 'Method override headers are not accepted', fields: [name] }] });
    }
    await next();
  };
}

/**
 * Refuses requests whose `Origin` is present and neither the proxy's own origin nor a configured
 * one (CORS only stops browsers from reading answers; this stops the request from having effects).
 */
export function originGuard(allowed: (origin: string, request: Request) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !allowed(origin, c.req.raw)) {
      return errorResponse(c.req.raw, 403, 'This site may not use the booking proxy', { errors: [{ code: 'forbidden_origin', message: 'Origin not allowed', fields: [] }] });
    }
    await next();
  };
}
