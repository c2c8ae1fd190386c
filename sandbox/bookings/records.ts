/**
 * The shapes a booking is answered in: the create response's record and venue (§2.4, each
 * dialect's own), the full record of an update (§2.4), and the search result (§2.5, UTC
 * timestamps) with the extra fields a search's `fields=` may ask for.
 */

import type { Store } from '../store.js';
import { londonTimestamp, utcTimestamp } from '../time.js';
import type { Booking, Dialect, Venue } from '../types.js';

/** The booking's type object: spec keys; the full record adds `value`, the live dialect `use_standing_capacity`. */
function typeObject(venue: Venue | undefined, typeId: string, shape: 'created' | 'full' | 'live') {
  const t = venue?.booking_types.find((x) => x.id === typeId);
  return {
    guestlist: !!t?.guestlist,
    id: typeId,
    name: t?.name ?? '',
    private_hire: !!t?.private_hire,
    ...(shape === 'full' ? { value: t?.rules.value_per_person ?? 0 } : {}),
    ...(shape === 'live' ? { use_standing_capacity: false } : {}),
  };
}

/**
 * The booking of a create response (§2.4). The live dialect answers as captured: no status, phone
 * or created_by; `payments: []`; and `notes`, `packages`, `offer` only when the booking has them.
 */
export function createdRecord(store: Store, b: Booking, dialect: Dialect): Record<string, unknown> {
  const venue = store.venues.get(b.venue_id);
  const live = dialect === 'live';
  const optional = (key: 'notes' | 'packages' | 'offer') => (live && b[key] === null ? {} : { [key]: b[key] });
  return {
    _id: b._id,
    created_date: londonTimestamp(b.created_date),
    last_updated: londonTimestamp(b.last_updated),
    ...(live ? {} : { created_by: b.created_by }),
    reference: b.reference,
    venue_id: b.venue_id,
    date: `${b.date}T00:00:00`,
    time: b.time,
    type: typeObject(venue, b.type, live ? 'live' : 'created'),
    num_people: b.num_people,
    first_name: b.first_name,
    last_name: b.last_name,
    email: b.email,
    ...optional('notes'),
    source: b.source,
    ...optional('packages'),
    ...optional('offer'),
    ...(live ? { payments: [] } : {}),
    deposits: b.deposits,
    ...(b.preorders.length ? { preorders: b.preorders } : {}),
  };
}

/** The full record returned by update (§2.4 "full record"). */
export function fullRecord(store: Store, b: Booking): Record<string, unknown> {
  const venue = store.venues.get(b.venue_id);
  const ts = (v: number | null) => (v === null ? null : londonTimestamp(v));
  return {
    ...createdRecord(store, b, 'spec'),
    type: typeObject(venue, b.type, 'full'),
    booking_id: b.booking_id,
    assigned_to: b.assigned_to,
    completed_by: b.completed_by,
    completed_date: ts(b.completed_date),
    status_changed_date: ts(b.status_changed_date),
    managed_by_venue: b.managed_by_venue,
    invoiced: b.invoiced,
    reconciled: b.reconciled,
    walk_in: b.walk_in,
    status: b.status,
    venue_group: b.venue_group,
    region: b.region,
    duration: b.duration,
    value: b.value,
    phone: b.phone,
    labels: b.labels,
    follow_up: ts(b.follow_up),
    assigned_areas: b.assigned_areas,
    preorders: b.preorders,
  };
}

/**
 * The venue object of a create response. Clients read its `_id` (both dialects); the live service
 * sends `type: "venue"`, the spec dialect the venue's own type.
 */
export function venueSummary(venue: Venue, dialect: Dialect) {
  const type = dialect === 'live' ? 'venue' : venue.type;
  return { _id: venue._id, type, title: venue.title, path: venue.path, page_type: venue.page_type };
}

/** Search result shape (§2.5): UTC timestamps, duration in minutes, type with its name. */
export function searchRecord(store: Store, b: Booking): Record<string, unknown> {
  const venue = store.venues.get(b.venue_id);
  const utc = (v: number | null) => (v === null ? null : utcTimestamp(v));
  return {
    _id: b._id,
    admin_notes: b.admin_notes,
    assigned_areas: b.assigned_areas,
    assigned_to: b.assigned_to,
    booking_id: b.booking_id,
    comments: b.comments,
    created_by: b.created_by,
    created_date: utc(b.created_date),
    date: `${b.date}T00:00:00`,
    deposits: b.deposits,
    duration: b.duration,
    email: b.email,
    first_name: b.first_name,
    last_name: b.last_name,
    follow_up: utc(b.follow_up),
    labels: b.labels,
    last_updated: utc(b.last_updated),
    managed_by_venue: b.managed_by_venue,
    num_people: b.num_people,
    partner_source: b.partner_source ?? '',
    phone: b.phone,
    region: b.region,
    source: b.source,
    status: b.status,
    time: b.time,
    type: { id: b.type, name: venue?.booking_types.find((t) => t.id === b.type)?.name ?? '' },
    user_id: b.user_id,
    venue_group: b.venue_group,
    venue_id: b.venue_id,
  };
}

/** Extra fields a search `fields=` may ask for beyond the default record. */
export function searchExtra(b: Booking, field: string): unknown {
  switch (field) {
    case 'estimated_value':
      return b.value;
    case 'reference':
      return b.reference;
    case 'notes':
      return b.notes;
    case 'preorders':
      return b.preorders;
    case 'company':
      return b.company ?? null;
    case 'offer':
      return b.offer;
    case 'packages':
      return b.packages;
    case 'status_changed_date':
      return b.status_changed_date === null ? null : utcTimestamp(b.status_changed_date);
    default:
      return undefined;
  }
}
