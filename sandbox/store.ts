/**
 * The sandbox's in-memory data: a deep copy of the seed plus stored bookings, with the indexes that
 * keep availability and search fast (bookings by id, booking_id, reference and venue+date).
 *
 * Every write goes through a method here, after the caller has validated its input, so a bad request
 * can never leave half-written data behind.
 */

import { parseInstant } from './time.js';
import type {
  App,
  Booking,
  GroupUser,
  Offer,
  SandboxEvent,
  Seed,
  SeedBooking,
  User,
  Venue,
  VenueGroup,
} from './types.js';

/** Monotonic id generator for 24-hex ids, deterministic per store so tests can predict nothing but uniqueness. */
function idFactory(prefix: string) {
  let n = 0;
  return () => prefix + (++n).toString(16).padStart(24 - prefix.length, '0');
}

/** The in-memory database of one sandbox instance. */
export class Store {
  readonly groups = new Map<string, VenueGroup>();
  readonly venues = new Map<string, Venue>();
  readonly offers: Offer[];
  readonly users = new Map<string, User>();
  readonly groupUsers = new Map<string, GroupUser>();
  readonly events = new Map<string, SandboxEvent>();
  readonly apps = new Map<string, App>();

  /** All bookings in insertion order (search scans this). */
  readonly bookings: Booking[] = [];
  private readonly byId = new Map<string, Booking>();
  /** References issued, so that a new one is never a repeat. */
  private readonly references = new Set<string>();
  private readonly byVenueDate = new Map<string, Booking[]>();
  /** Bumped on every booking write; lets availability cache per-day occupancy safely. */
  revision = 0;

  private nextBookingNumber = 100_000;
  private referenceCounter = 0;
  readonly newId: () => string;

  constructor(seed: Seed, extraApps: App[] = []) {
    const copy: Seed = structuredClone(seed);
    for (const g of copy.venue_groups ?? []) this.groups.set(g._id, g);
    for (const v of copy.venues ?? []) this.venues.set(v._id, v);
    this.offers = copy.offers ?? [];
    for (const u of copy.users ?? []) this.users.set(u._id, u);
    for (const u of copy.group_users ?? []) this.groupUsers.set(u._id, u);
    for (const e of copy.events ?? []) this.events.set(e._id, e);
    for (const a of [...(copy.apps ?? []), ...extraApps]) this.apps.set(a.id, a);
    this.newId = idFactory('5b');
    for (const b of copy.bookings ?? []) this.insert(this.fromSeed(b));
  }

  /** A fresh booking number (search `booking_id`). */
  nextNumber(): number {
    return ++this.nextBookingNumber;
  }

  /** A fresh customer reference: `DMN-` and 11 digits, as the live service issues. */
  nextReference(): string {
    let ref: string;
    do {
      this.referenceCounter++;
      // Spread references over the 11-digit space so they look real but stay unique.
      ref = `DMN-${String((this.referenceCounter * 7_368_787 + 31_415_926_535) % 100_000_000_000).padStart(11, '0')}`;
    } while (this.references.has(ref));
    return ref;
  }

  /** Adds a fully built booking and indexes it. */
  insert(booking: Booking): Booking {
    this.bookings.push(booking);
    this.byId.set(booking._id, booking);
    this.references.add(booking.reference);
    this.dayList(booking.venue_id, booking.date).push(booking);
    if (booking.booking_id > this.nextBookingNumber) this.nextBookingNumber = booking.booking_id;
    this.revision++;
    return booking;
  }

  /** Applies a validated patch to a booking, keeping the venue+date index right. */
  update(booking: Booking, patch: Partial<Booking>): Booking {
    const moved =
      (patch.date !== undefined && patch.date !== booking.date) ||
      (patch.venue_id !== undefined && patch.venue_id !== booking.venue_id);
    if (moved) {
      const list = this.dayList(booking.venue_id, booking.date);
      list.splice(list.indexOf(booking), 1);
    }
    Object.assign(booking, patch);
    if (moved) this.dayList(booking.venue_id, booking.date).push(booking);
    this.revision++;
    return booking;
  }

  /**
   * Finds a booking by its `_id`, the only key the service's `/bookings/{id}` paths take (not the
   * numeric `booking_id` nor the reference: real-api-notes, "Updating a booking").
   */
  findBooking(id: string): Booking | undefined {
    return this.byId.get(id);
  }

  /** Bookings of one venue on one business day (unfiltered by status). */
  bookingsOn(venueId: string, date: string): readonly Booking[] {
    return this.byVenueDate.get(`${venueId}|${date}`) ?? [];
  }

  private dayList(venueId: string, date: string): Booking[] {
    const key = `${venueId}|${date}`;
    let list = this.byVenueDate.get(key);
    if (!list) this.byVenueDate.set(key, (list = []));
    return list;
  }

  /** Builds a stored booking from a seed entry, filling every field the spec lists. */
  fromSeed(b: SeedBooking): Booking {
    const venue = this.venues.get(b.venue_id);
    const instant = (v: string | number | null | undefined, fallback: number | null) =>
      v === undefined || v === null ? fallback : typeof v === 'number' ? v : (parseInstant(v) ?? fallback);
    const created = instant(b.created_date, Date.UTC(2026, 0, 1))!;
    const type = venue?.booking_types.find((t) => t.id === b.type);
    return {
      _id: b._id ?? this.newId(),
      booking_id: b.booking_id ?? this.nextNumber(),
      reference: b.reference ?? this.nextReference(),
      venue_id: b.venue_id,
      venue_group: b.venue_group ?? venue?.venue_group ?? '',
      region: b.region ?? venue?.region ?? '',
      date: b.date,
      time: b.time,
      duration: b.duration ?? type?.rules.fixed_duration ?? 120,
      type: b.type,
      num_people: b.num_people,
      first_name: b.first_name,
      last_name: b.last_name,
      email: b.email ?? null,
      phone: b.phone ?? null,
      company: b.company ?? null,
      notes: b.notes ?? null,
      dob: b.dob ?? null,
      source: b.source ?? 'partner',
      partner_source: b.partner_source ?? null,
      status: b.status ?? 'complete',
      created_date: created,
      last_updated: instant(b.last_updated, created)!,
      status_changed_date: instant(b.status_changed_date, null),
      created_by: b.created_by ?? 'sandbox',
      assigned_to: b.assigned_to ?? null,
      completed_by: b.completed_by ?? null,
      completed_date: instant(b.completed_date, null),
      follow_up: instant(b.follow_up, null),
      labels: b.labels ?? [],
      admin_notes: b.admin_notes ?? [],
      comments: b.comments ?? [],
      assigned_areas: b.assigned_areas ?? [],
      deposits: b.deposits ?? [],
      preorders: b.preorders ?? [],
      packages: b.packages ?? null,
      offer: b.offer ?? null,
      user_id: b.user_id ?? null,
      managed_by_venue: b.managed_by_venue ?? false,
      invoiced: b.invoiced ?? false,
      reconciled: b.reconciled ?? false,
      walk_in: b.walk_in ?? false,
      value: b.value ?? (type?.rules.value_per_person ?? 0) * b.num_people,
      marketing_preferences: b.marketing_preferences ?? [],
      newsletter_signup: b.newsletter_signup ?? false,
      custom_field_value: b.custom_field_value ?? null,
      flags: b.flags ?? {},
    };
  }
}

/**
 * Statuses that hold capacity: confirmed (complete) and enquiries being handled (in_progress).
 * A `new` enquiry does not, so an overbooked slot keeps taking enquiries (may_enquire) without
 * blocking itself further; rejected, deleted and lost bookings never do.
 */
export function holdsCapacity(b: Booking): boolean {
  return b.status === 'in_progress' || b.status === 'complete';
}
