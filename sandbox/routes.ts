/**
 * The whole v4 route table of the sandbox, in registration order: the app mounts it and the
 * OpenAPI document is built from it, so the two cannot disagree.
 */

import { BOOKING_ROUTES } from './bookings/index.js';
import type { Route } from './context.js';
import { PEOPLE_ROUTES } from './people.js';
import { RESOURCE_ROUTES } from './resources.js';

/** Every route of `/v4`, paths relative to it. */
export const ROUTES: readonly Route[] = [...BOOKING_ROUTES, ...RESOURCE_ROUTES, ...PEOPLE_ROUTES];
