/**
 * The booking routes of the v4 interface: availability (§4.1), create and search (§4.2, §4.6),
 * update (§4.3), assigned areas (§4.4) and pre-orders (§2.6), as a route table.
 */

import { computeAvailability, FIELD_READINGS, FIELDS } from '../availability/index.js';
import type { Ctx, Handler, Route } from '../context.js';
import { ApiError, bool, list, one } from '../http.js';
import type { ParamTable } from '../schema.js';
import type { Venue } from '../types.js';
import { handlingOf, NEW_BOOKING_FIELDS, parseNewBooking, storeBooking } from './create.js';
import { createdRecord, fullRecord, venueSummary } from './records.js';
import { search, SEARCH_PARAMS } from './search.js';
import { parseAreas, parseUpdate, statusPermission, UPDATE_RULES } from './update.js';

/** What `fields=` of availability may name: the booking fields, and `next` (the hand-off alone, observed live). */
export const AVAILABILITY_FIELDS = [...FIELDS, 'next'] as const;
type AvailabilityField = (typeof AVAILABILITY_FIELDS)[number];

/** `fields=` of availability: what to compute; 400 when it names none of them. */
function wantedFields(ctx: Ctx): AvailabilityField[] | undefined {
  const raw = ctx.params.fields;
  const fields = list(raw).filter((f): f is AvailabilityField =>
    (AVAILABILITY_FIELDS as readonly string[]).includes(f),
  );
  if (raw !== undefined && !fields.length) {
    throw new ApiError(400, `fields must name one or more of ${AVAILABILITY_FIELDS.join(', ')}`, [
      { code: 'invalid_fields', message: 'Unknown field', fields: ['fields'] },
    ]);
  }
  return fields.length ? fields : undefined;
}

/** The live service refuses a type sent by its name (observed): clients must send the id. */
function refuseTypeByName(ctx: Ctx, venue: Venue): void {
  const t = one(ctx.params, 'type');
  if (ctx.dialect !== 'live' || typeof t !== 'string' || !t) return;
  const lower = t.toLowerCase();
  if (!venue.booking_types.some((x) => x.id === t) && venue.booking_types.some((x) => x.name.toLowerCase() === lower)) {
    throw new ApiError(400, 'Send the booking type id, not its name', [
      { code: 'invalid_type', message: 'Send the booking type id, not its name', fields: ['type'] },
    ]);
  }
}

/** §4.1: the availability result for the booking fields sent so far. */
const availability: Handler = (ctx) => {
  const venue = ctx.venue(ctx.path('venue_id'));
  const fields = wantedFields(ctx);
  refuseTypeByName(ctx, venue);
  const p = ctx.params;
  return computeAvailability(ctx.availability, venue, {
    type: one(p, 'type'),
    num_people: one(p, 'num_people'),
    date: one(p, 'date'),
    time: one(p, 'time'),
    duration: one(p, 'duration'),
    getOffers: bool(one(p, 'getOffers')) === true,
    fields,
  });
};

/** §4.2: validates, decides confirmed or enquiry, stores. */
const createBooking: Handler = (ctx) => {
  const nb = parseNewBooking(ctx.store, ctx.params, ctx.now, ctx.availability);
  ctx.venue(nb.venue._id, 'create_bookings');
  const handling = handlingOf(ctx.availability, nb);
  const booking = storeBooking(ctx.store, nb, {
    now: ctx.now,
    createdBy: ctx.app.id,
    status: handling === 'confirmed' ? 'complete' : 'new',
  });
  return {
    booking: createdRecord(ctx.store, booking, ctx.dialect),
    bookingStatus: handling,
    venue: venueSummary(nb.venue, ctx.dialect),
  };
};

/** What a request may need of the key at a booking's venue. */
type BookingPermission = 'read_bookings' | 'update_bookings' | 'manage_bookings';

/** 403 unless the key may `perm` at the venue (managing, also unless the scenario `cannot-manage` says not). */
function allow(ctx: Ctx, perm: BookingPermission, venueId: string): void {
  ctx.access.require(perm, venueId);
  if (perm === 'manage_bookings' && ctx.availability.scenario?.cannotManage)
    throw new ApiError(
      403,
      `These credentials do not allow manage bookings for venue ${venueId} (scenario cannot-manage)`,
    );
}

/**
 * The booking named by the path's `_id` (the only key the service takes there: its numeric
 * `booking_id` or reference is as unknown as any other text): 404 when unknown, 403 when the app
 * may not `perm` at its venue.
 */
function bookingOf(ctx: Ctx, perm: BookingPermission) {
  const id = ctx.path('booking_id');
  const b = ctx.store.findBooking(id);
  if (!b)
    throw new ApiError(
      404,
      `Booking ${id.slice(0, 40)} not found: the path takes the booking's _id (24 hex digits), not its booking_id or reference`,
    );
  allow(ctx, perm, b.venue_id);
  return b;
}

/** The parameters of availability (§4.1), from the booking fields' rule table. */
const AVAILABILITY_PARAMS: ParamTable = {
  ...Object.fromEntries(FIELDS.map((f) => [f, { kind: FIELD_READINGS[f].kind, doc: FIELD_READINGS[f].doc }])),
  getOffers: {
    kind: 'bool',
    doc: 'When true, suggestions of type, time and duration carry the ids of eligible offers',
  },
  fields: {
    kind: 'ids',
    doc: `Computes only these (comma list) of ${AVAILABILITY_FIELDS.join(', ')}; next alone answers the hand-off cheaply`,
  },
};

/** The parameters of POST /bookings (§4.2), from its rule table. */
const NEW_BOOKING_PARAMS: ParamTable = Object.fromEntries(
  Object.entries(NEW_BOOKING_FIELDS).map(([name, rule]) => [
    name,
    { kind: rule.kind, doc: rule.doc, max: rule.max, required: rule.required === 'always' },
  ]),
);

/** The parameters of a booking update (§4.3), from its rule table. */
const UPDATE_PARAMS: ParamTable = Object.fromEntries(
  Object.entries(UPDATE_RULES).map(([name, rule]) => [name, { kind: rule.kind, doc: rule.doc, choices: rule.choices }]),
);

const availabilityOperation = (method: string) => ({
  run: availability,
  summary: `§4.1 Booking availability (${method}): validation, suggestions, action and the hand-off for the fields sent so far`,
  params: AVAILABILITY_PARAMS,
  payload: 'Availability',
});

/** The booking route table. */
export const BOOKING_ROUTES: Route[] = [
  {
    path: '/venues/{venue_id}/booking-availability',
    methods: { GET: availabilityOperation('query'), POST: availabilityOperation('JSON or form body') },
  },
  {
    path: '/bookings',
    methods: {
      POST: {
        run: createBooking,
        summary: '§4.2 Submit a booking or enquiry (also the API URL of next)',
        params: NEW_BOOKING_PARAMS,
        payload: 'CreatedBooking',
      },
      GET: {
        run: (ctx) => search(ctx.store, ctx.access, ctx.params, ctx.now),
        summary: '§4.6 Search bookings (deprecated)',
        params: SEARCH_PARAMS,
        payload: 'BookingSearch',
      },
    },
  },
  {
    path: '/bookings/{booking_id}',
    methods: {
      POST: {
        run: (ctx) => {
          const b = bookingOf(ctx, 'update_bookings');
          allow(ctx, statusPermission(b.status, ctx.params.status), b.venue_id);
          ctx.store.update(b, parseUpdate(ctx.store, b, ctx.params, ctx.now, ctx.app.id));
          return { booking: fullRecord(ctx.store, b) };
        },
        summary: '§4.3 Update a booking (a cancel: status rejected), named by its _id',
        errors: {
          '403':
            'The key may not update bookings at the venue, or the status move takes the booking out of the venue’s list or back (to or from rejected, deleted, lost: a cancel) and the key may not manage the venue’s bookings (manage_venue[_group]_bookings; scenario cannot-manage)',
          '404': 'No booking has this _id: the numeric booking_id and the reference are not taken here',
        },
        params: UPDATE_PARAMS,
        payload: 'UpdatedBooking',
      },
    },
  },
  {
    path: '/bookings/{booking_id}/areas',
    methods: {
      GET: {
        run: (ctx) => ({ areas: bookingOf(ctx, 'read_bookings').assigned_areas }),
        summary: '§4.4 Assigned areas of a booking',
        payload: 'Areas',
      },
      POST: {
        run: (ctx) => {
          const b = bookingOf(ctx, 'manage_bookings');
          const areas = parseAreas(ctx.store, b, ctx.params);
          ctx.store.update(b, { assigned_areas: areas, last_updated: ctx.now });
          return { areas };
        },
        summary: '§4.4 Replace the assigned areas of a booking',
        params: { areas: { kind: 'ids', doc: 'Area ids of the venue (replaces every assigned area)', required: true } },
        payload: 'Areas',
      },
    },
  },
  {
    path: '/bookings/{booking_id}/preorders',
    methods: {
      GET: {
        run: (ctx) => ({ preorders: bookingOf(ctx, 'read_bookings').preorders }),
        summary: '§2.6 Pre-orders of a booking',
        payload: 'Preorders',
      },
    },
  },
];
