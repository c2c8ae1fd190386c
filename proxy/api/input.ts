/**
 * A route's input, read the same way by every route: the query (each parameter once), a JSON
 * object body, and the venue of the path against the allow-list. Anything else is refused with a
 * clear error in the service's envelope before a cache or the upstream sees the request.
 */
import type { Context } from 'hono';
import { ProxyError, throwIfInvalid } from '../core/envelope.js';
import { urlOf } from '../core/url.js';
import { ID_RE, queryParams } from '../guards/validate.js';
import type { ProxyContext } from '../context.js';

/**
 * Reads the request's parameters: the query, plus on POST a JSON object body. The spec posts
 * booking rules with URL parameters, and the live service takes `fields=` in the query beside a
 * JSON body, so a POST may use both, but each parameter only once.
 */
export async function inputOf(c: Context): Promise<Record<string, unknown>> {
  const url = urlOf(c.req.raw);
  const query = queryParams(url.search);
  throwIfInvalid(query.errors);
  if (c.req.method !== 'POST' || (await c.req.text()) === '') return query.raw;
  const body = await jsonBody(c);
  const twice = Object.keys(body).filter((key) => key in query.raw);
  if (twice.length) {
    throw new ProxyError(400, 'Send each parameter once, in the query or in the body', {
      errors: twice.map((field) => ({
        code: 'duplicate_parameter',
        message: `${field} is both in the query and in the body`,
        fields: [field],
      })),
    });
  }
  return { ...query.raw, ...body };
}

/** Parses a JSON object body; anything else is a 415 or a 400. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    throw new ProxyError(415, 'Send the details as JSON (Content-Type: application/json)');
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new ProxyError(400, 'The request body is not valid JSON', {
      errors: [{ code: 'invalid_json', message: 'The request body is not valid JSON', fields: [] }],
    });
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ProxyError(400, 'The request body must be a JSON object', {
      errors: [{ code: 'invalid_body', message: 'The request body must be a JSON object', fields: [] }],
    });
  }
  return body as Record<string, unknown>;
}

/** The venue id of the path, refused unless the widget may use it. */
export async function allowedVenue(ctx: ProxyContext, c: Context): Promise<string> {
  const venue = c.req.param('venue') ?? '';
  if (!ID_RE.test(venue))
    throw new ProxyError(400, 'The venue id is not valid', {
      errors: [{ code: 'invalid_venue_id', message: 'The venue id is not valid', fields: ['venue_id'] }],
    });
  if (!(await ctx.venueAllowed(venue)))
    throw new ProxyError(404, 'Unknown venue', {
      errors: [{ code: 'unknown_venue', message: 'This venue is not available here', fields: ['venue_id'] }],
    });
  return venue;
}
