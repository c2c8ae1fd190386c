/**
 * Venue-level resources: booking rules (§4.5), offers (§4.8), venues and settings (§4.9, §2.10),
 * marketing preferences (§4.7). Read-only views over the seed, gated by the app's capabilities.
 */

import type { Ctx, Handler, Route } from './context.js';
import { moneyNotes, slotsFor, typeDurations } from './availability/index.js';
import { preferencesOf } from './bookings/index.js';
import { ApiError, badField, int, isHexId, list, str } from './http.js';
import { isVisible, matches } from './offers.js';
import { isDate, parseTime } from './time.js';
import type { Venue, VenueGroup } from './types.js';

/** The settings of §2.10 a `fields=` may ask for, and which a venue group may set for all venues. */
export const VENUE_SETTINGS = [
  'booking_labels',
  'booking_stages',
  'customer_labels',
  'booking_types',
  'bookable_areas',
  'bookable_area_zones',
  'packages',
  'preorder_menus',
  'opening_times',
  'booking_unavailable',
] as const;
export const GROUP_SETTINGS = [
  'booking_labels',
  'booking_stages',
  'customer_labels',
  'packages',
  'preorder_menus',
] as const;

/** A venue setting, merging group-level values (group first) for the group-settable ones. */
function setting(ctx: Ctx, venue: Venue, name: (typeof VENUE_SETTINGS)[number]): unknown {
  if (name === 'booking_types') return venue.booking_types.map((t) => ({ id: t.id, name: t.name }));
  if ((GROUP_SETTINGS as readonly string[]).includes(name)) {
    const group = ctx.store.groups.get(venue.venue_group) as Record<string, unknown> | undefined;
    const own = (venue as unknown as Record<string, unknown[] | undefined>)[name] ?? [];
    const inherited = (group?.[name] as unknown[] | undefined) ?? [];
    const seen = new Set(own.map((x) => (x as { id: string }).id));
    return [...inherited.filter((x) => !seen.has((x as { id: string }).id)), ...own];
  }
  return (venue as unknown as Record<string, unknown>)[name];
}

function requestedFields(ctx: Ctx, allowed: readonly string[]): string[] {
  const fields = list(ctx.params.fields);
  const unknown = fields.filter((f) => !allowed.includes(f));
  if (unknown.length)
    throw badField('fields', 'invalid_fields', `Unknown fields: ${unknown.join(', ')}; use ${allowed.join(', ')}`);
  return fields;
}

/** 403 unless the app may see the group itself or one of its venues. */
function requireGroupRead(ctx: Ctx, groupId: string): void {
  if (
    !ctx.access.canGroup('see', groupId) &&
    ![...ctx.store.venues.values()].some((v) => v.venue_group === groupId && ctx.access.can('see', v._id))
  ) {
    throw new ApiError(403, `These credentials cannot read venue group ${groupId}`);
  }
}

/** §4.5 booking rules for a type on a date. */
const bookingRules: Handler = (ctx) => {
  const venue = ctx.venue(ctx.path('venue_id'));
  const typeId = str(ctx.params, 'type');
  const date = str(ctx.params, 'date');
  const errors = [];
  if (!typeId) errors.push({ code: 'missing_type', message: 'type is required', fields: ['type'] });
  const type = typeId ? venue.booking_types.find((t) => t.id === typeId) : undefined;
  if (typeId && !type)
    errors.push({ code: 'invalid_type', message: 'Unknown booking type for this venue', fields: ['type'] });
  if (!date) errors.push({ code: 'missing_date', message: 'date is required', fields: ['date'] });
  else if (!isDate(date)) errors.push({ code: 'invalid_date', message: 'date must be YYYY-MM-DD', fields: ['date'] });
  if (errors.length) throw new ApiError(400, errors[0]!.message, errors);
  const day = slotsFor(venue, type!, date!);
  const durations = typeDurations(type!).filter((d) => d > 0);
  const maxDuration = venue.max_duration ?? (durations.length ? Math.max(...durations) : undefined);
  const min = type!.rules.min_people ?? venue.min_people;
  const max = type!.rules.max_people ?? venue.max_people;
  return {
    bookings_from: day.times[0] ?? type!.rules.from,
    bookings_to: day.times[day.times.length - 1] ?? type!.rules.to,
    booking_available: venue.can_book && day.reason === null,
    // The type's money terms join the venue's policy: the service has no fields for them (`moneyNotes`).
    booking_notes: [
      venue.booking_notes,
      ...moneyNotes(ctx.availability, type!),
      ...(day.reason && venue.can_book ? [`${day.reason}.`] : []),
    ]
      .filter(Boolean)
      .join(' '),
    ...(maxDuration !== undefined ? { max_duration: maxDuration } : {}),
    ...(min != null ? { min_people: min } : {}),
    ...(max != null ? { max_people: max } : {}),
    ...(venue.bookings_shut ? { bookings_shut: venue.bookings_shut } : {}),
  };
};

/** §4.8 the visible offers of a venue that match the given booking details. */
const offers: Handler = (ctx) => {
  const venue = ctx.venue(ctx.path('venue_id'));
  const p = ctx.params;
  const q: { type?: string; num_people?: number; date?: string; time?: string } = {};
  const type = str(p, 'type');
  if (type !== undefined) {
    if (!venue.booking_types.some((t) => t.id === type))
      throw badField('type', 'invalid_type', 'Unknown booking type for this venue');
    q.type = type;
  }
  if (p.num_people !== undefined) {
    const n = int(str(p, 'num_people'));
    if (n === undefined || n < 1)
      throw badField('num_people', 'invalid_num_people', 'num_people must be a whole number from 1');
    q.num_people = n;
  }
  const date = str(p, 'date');
  if (date !== undefined) {
    if (!isDate(date)) throw badField('date', 'invalid_date', 'date must be YYYY-MM-DD');
    q.date = date;
  }
  const time = str(p, 'time');
  if (time !== undefined) {
    if (parseTime(time) === null) throw badField('time', 'invalid_time', 'time must be HH:mm');
    q.time = time;
  }
  const duration = str(p, 'duration');
  if (duration !== undefined && !(Number(duration) > 0 || duration === '-1'))
    throw badField('duration', 'invalid_duration', 'duration must be a positive number of hours');
  return ctx.store.offers.filter((o) => o.page_id === venue._id && isVisible(o, ctx.now) && matches(o, q));
};

/** §4.7 marketing preferences (the venue's own and its group's; a group id reads the group's). */
const marketingPreferences: Handler = (ctx) => {
  const id = ctx.path('venue_id');
  const group = ctx.store.groups.get(id);
  if (group) {
    requireGroupRead(ctx, id);
    return { marketing_preferences: group.marketing_preferences ?? [] };
  }
  return { marketing_preferences: preferencesOf(ctx.store, ctx.venue(id)) };
};

/** §4.9 the venues the app may see, optionally of one group. */
const venueList: Handler = (ctx) => {
  const groupId = str(ctx.params, 'venue_group');
  if (groupId !== undefined && !isHexId(groupId))
    throw badField('venue_group', 'invalid_venue_group', 'venue_group must be a hex id');
  if (groupId !== undefined && !ctx.store.groups.has(groupId))
    throw new ApiError(404, `Venue group ${groupId} not found`);
  const pages = [...ctx.store.venues.values()]
    .filter((v) => (groupId === undefined || v.venue_group === groupId) && ctx.access.can('see', v._id))
    .map((v) => ({ _id: v._id, path: v.path }));
  if (groupId !== undefined && !pages.length && !ctx.access.canGroup('see', groupId))
    throw new ApiError(403, `These credentials cannot read venue group ${groupId}`);
  return { pages };
};

/** §4.9, §2.10 a venue's settings; a group id in place of a venue id reads group-level settings. */
const venueSettings: Handler = (ctx) => {
  const id = ctx.path('venue_id');
  const group: VenueGroup | undefined = ctx.store.groups.get(id);
  if (group) {
    requireGroupRead(ctx, id);
    const fields = requestedFields(ctx, GROUP_SETTINGS);
    const out: Record<string, unknown> = { _id: group._id, path: group.path, title: group.name };
    for (const f of fields.length ? fields : GROUP_SETTINGS) out[f] = group[f as (typeof GROUP_SETTINGS)[number]] ?? [];
    return { venue_group: out, venue: out };
  }
  const venue = ctx.venue(id);
  const fields = requestedFields(ctx, VENUE_SETTINGS);
  const out: Record<string, unknown> = {
    _id: venue._id,
    path: venue.path,
    title: venue.title,
    venue_group: venue.venue_group,
  };
  for (const f of fields.length ? fields : VENUE_SETTINGS)
    out[f] = setting(ctx, venue, f as (typeof VENUE_SETTINGS)[number]);
  return { venue: out };
};

/** The venue-level route table. */
export const RESOURCE_ROUTES: Route[] = [
  {
    path: '/venues/{venue_id}/booking-rules',
    methods: Object.fromEntries(
      (['POST', 'GET'] as const).map((method) => [
        method,
        {
          run: bookingRules,
          summary: '§4.5 Booking rules of a type on a date',
          params: {
            type: { kind: 'text', doc: 'Booking type id', required: true },
            date: { kind: 'date', doc: 'YYYY-MM-DD', required: true },
          },
          payload: 'BookingRules',
        },
      ]),
    ),
  },
  {
    path: '/venues/{venue_id}/offers',
    methods: {
      GET: {
        run: offers,
        summary: '§4.8 Visible offers of a venue, matching the booking details given',
        params: {
          type: { kind: 'text', doc: 'Booking type id' },
          num_people: { kind: 'int', doc: 'Number of guests' },
          date: { kind: 'date', doc: 'YYYY-MM-DD' },
          time: { kind: 'time', doc: 'HH:mm' },
          duration: { kind: 'duration', doc: 'Hours (decimal), or -1' },
        },
        payload: 'Offers',
      },
    },
  },
  {
    path: '/venues/{venue_id}/marketing-preferences',
    methods: {
      GET: {
        run: marketingPreferences,
        summary: '§4.7 Marketing preferences of a venue (and its group), or of a group by its id',
        payload: 'MarketingPreferences',
      },
    },
  },
  {
    path: '/venues',
    methods: {
      GET: {
        run: venueList,
        summary: '§4.9 Venues the app may see',
        params: { venue_group: { kind: 'hexId', doc: 'Only the venues of this group' } },
        payload: 'VenueList',
      },
    },
  },
  {
    path: '/venues/{venue_id}',
    methods: {
      GET: {
        run: venueSettings,
        summary: '§4.9, §2.10 Settings of a venue; a group id reads the group-level settings',
        params: {
          fields: { kind: 'ids', doc: `Settings to return, comma separated: ${VENUE_SETTINGS.join(', ')}` },
        },
        payload: 'VenueSettings',
      },
    },
  },
];
