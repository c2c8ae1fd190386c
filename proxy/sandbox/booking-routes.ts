/**
 * The booking routes of the v4 interface: availability (§4.1), create and search (§4.2, §4.6),
 * update (§4.3), assigned areas (§4.4) and pre-orders (§2.6), as a route table.
 */

import { computeAvailability, FIELDS, type Field } from './availability.js';
import {
  createdRecord,
  fullRecord,
  handlingOf,
  parseAreas,
  parseNewBooking,
  parseUpdate,
  storeBooking,
  venueSummary,
} from './bookings.js';
import type { Ctx, Handler, Route } from './context.js';
import { ApiError, bool, list, one } from './http.js';
import { search } from './search.js';
import type { Venue } from './types.js';

/** `fields=` of availability: the booking fields to compute; 400 when it names none of them. */
function wantedFields(ctx: Ctx): Field[] | undefined {
  const raw = ctx.params.fields;
  const fields = list(raw).filter((f): f is Field => (FIELDS as readonly string[]).includes(f));
  if (raw !== undefined && !fields.length) {
    throw new ApiError(400, `fields must name one or more of ${FIELDS.join(', ')}`, [
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
  const nb = parseNewBooking(ctx.store, ctx.params, ctx.now);
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
    venue: venueSummary(nb.venue),
  };
};

/** The booking named by the path: 404 when unknown, 403 when the app may not `perm` at its venue. */
function bookingOf(ctx: Ctx, perm: 'read_bookings' | 'update_bookings' | 'manage_bookings') {
  const b = ctx.store.findBooking(ctx.path('booking_id'));
  if (!b) throw new ApiError(404, `Booking ${ctx.path('booking_id')} not found`);
  ctx.access.require(perm, b.venue_id);
  return b;
}

/** The booking route table. */
export const BOOKING_ROUTES: Route[] = [
  { path: '/venues/{venue_id}/booking-availability', methods: { GET: availability, POST: availability } },
  {
    path: '/bookings',
    methods: { POST: createBooking, GET: (ctx) => search(ctx.store, ctx.access, ctx.params, ctx.now) },
  },
  {
    path: '/bookings/{booking_id}',
    methods: {
      POST: (ctx) => {
        const b = bookingOf(ctx, 'update_bookings');
        ctx.store.update(b, parseUpdate(ctx.store, b, ctx.params, ctx.now, ctx.app.id));
        return { booking: fullRecord(ctx.store, b) };
      },
    },
  },
  {
    path: '/bookings/{booking_id}/areas',
    methods: {
      GET: (ctx) => ({ areas: bookingOf(ctx, 'read_bookings').assigned_areas }),
      POST: (ctx) => {
        const b = bookingOf(ctx, 'manage_bookings');
        const areas = parseAreas(ctx.store, b, ctx.params);
        ctx.store.update(b, { assigned_areas: areas, last_updated: ctx.now });
        return { areas };
      },
    },
  },
  {
    path: '/bookings/{booking_id}/preorders',
    methods: { GET: (ctx) => ({ preorders: bookingOf(ctx, 'read_bookings').preorders }) },
  },
];
