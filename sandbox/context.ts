/**
 * The route layer's types: what a handler receives ({@link Ctx}), what it is ({@link Handler}) and
 * how a route table row declares one ({@link Route}).
 *
 * Why a module of its own: the app builds the context and the route modules (`bookings/routes.ts`
 * for availability and bookings, `resources.ts`, `people.ts`) consume it. With the types here, at the bottom, the route modules
 * import no module above them and the sandbox has no import cycle.
 */

import type { Access, Permission } from './auth.js';
import type { AvailabilityContext } from './availability/index.js';
import type { Params, RequestInfo } from './http.js';
import type { JsonSchema, ParamTable } from './schema.js';
import type { Store } from './store.js';
import type { App, Dialect, Venue } from './types.js';

/** Per-request context handed to route handlers. */
export interface Ctx {
  info: RequestInfo;
  params: Params;
  app: App;
  access: Access;
  store: Store;
  now: number;
  dialect: Dialect;
  publicUrl: string;
  /** The availability computation's context, with the request's scenario effects. */
  availability: AvailabilityContext;
  /** A path parameter. */
  path(name: string): string;
  /** The venue named by a path parameter: 404 when unknown, 403 when the app may not `perm` there. */
  venue(id: string, perm?: Permission): Venue;
}

/** A route handler: returns the payload of a 200 envelope, or a ready Response. */
export type Handler = (ctx: Ctx) => unknown;

/** The methods the v4 interface uses. */
export type Method = 'GET' | 'POST' | 'DELETE';

/**
 * One operation of a route: its handler, and what the interface document says of it. The document
 * is built from these rows, so it lists exactly the operations the sandbox answers.
 */
export interface Operation {
  run: Handler;
  /** One line: what the operation does (and its section of the spec). */
  summary: string;
  /** The parameters the handler reads (query, or body for a POST), from its rule table. */
  params?: ParamTable;
  /** The schema of the 200 answer's payload: a component name of the document, or a schema. */
  payload: string | JsonSchema;
  /** Other content types the 200 answer may have (users CSV). */
  alsoAnswers?: Record<string, JsonSchema>;
  /** What particular error statuses mean for this operation (each still the error envelope). */
  errors?: Record<string, string>;
}

/** One row of a route table: a path (OpenAPI style, `{venue_id}`) and its operations; other methods get 405. */
export interface Route {
  path: string;
  methods: Partial<Record<Method, Operation>>;
}
