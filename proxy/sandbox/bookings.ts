/**
 * Bookings: create (§4.2, also the API-URL submission flow), update (§4.3), assigned areas (§4.4)
 * and the record shapes of §2.4 (create/update) and §2.5 (search).
 *
 * Input is validated completely before anything is stored, and every problem is reported at once as
 * field errors of a 400, so a bad request never leaves partial data.
 */

import { computeAvailability, durationMinutes, type AvailabilityContext, type Dialect } from './availability.js';
import {
  ApiError,
  bool,
  EMAIL_RE,
  int,
  isHexId,
  list,
  str,
  throwIfErrors,
  type FieldError,
  type Params,
} from './http.js';
import { availableToPartners, isVisible, matches } from './offers.js';
import type { Store } from './store.js';
import { isDate, londonDate, londonTimestamp, parseInstant, parseTime, utcTimestamp } from './time.js';
import type { Booking, BookingStatus, Venue } from './types.js';

const PHONE_RE = /^\+?[0-9 ()-]{6,20}$/;

/** Reads a date that may come back from availability as `YYYY-MM-DDT00:00:00` (live dialect). */
export function plainDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const d = value.trim().replace(/T00:00(:00)?$/, '');
  return isDate(d) ? d : undefined;
}

/** Marketing preference ids defined for a venue (its own and its group's). */
export function preferencesOf(store: Store, venue: Venue) {
  return [
    ...(store.groups.get(venue.venue_group)?.marketing_preferences ?? []),
    ...(venue.marketing_preferences ?? []),
  ];
}

/** Packages a venue offers (its own and its group's). */
export function packagesOf(store: Store, venue: Venue) {
  return [...(store.groups.get(venue.venue_group)?.packages ?? []), ...(venue.packages ?? [])];
}

/** Validated input of a new booking. */
export interface NewBooking {
  venue: Venue;
  type: string;
  num_people: number;
  date: string;
  time: string;
  duration?: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  dob: string | null;
  source: string;
  partner_source: string | null;
  notes: string | null;
  offer: string | null;
  package: string | null;
  newsletter_signup: boolean;
  marketing_preferences: string[];
  custom_field_value: string | null;
  /** Sent through the API URL of `next` (the body carries bookingDetails' venue_group). */
  viaApiUrl: boolean;
}

function text(
  params: Params,
  key: string,
  errors: FieldError[],
  opts: { required?: boolean; max?: number } = {},
): string | null {
  const raw = params[key];
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    if (opts.required) errors.push({ code: `missing_${key}`, message: `${label(key)} is required`, fields: [key] });
    return null;
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    errors.push({ code: `invalid_${key}`, message: `${label(key)} must be text`, fields: [key] });
    return null;
  }
  const s = String(raw).trim();
  if (s.length > (opts.max ?? 200)) {
    errors.push({
      code: `invalid_${key}`,
      message: `${label(key)} is too long (at most ${opts.max ?? 200} characters)`,
      fields: [key],
    });
    return null;
  }
  return s;
}

function label(key: string): string {
  const s = key.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Validates a POST /bookings body; throws one 400 with every field error. */
export function parseNewBooking(store: Store, params: Params, nowMs: number): NewBooking {
  const errors: FieldError[] = [];
  const viaApiUrl = params.venue_group !== undefined || params.payments !== undefined;
  const venueId = text(params, 'venue_id', errors, { required: true });
  const venue = venueId ? store.venues.get(venueId) : undefined;
  if (venueId && !venue) errors.push({ code: 'invalid_venue_id', message: 'Unknown venue', fields: ['venue_id'] });
  if (venue && viaApiUrl && params.venue_group !== venue.venue_group) {
    errors.push({
      code: 'invalid_venue_group',
      message: 'venue_group does not match the venue',
      fields: ['venue_group'],
    });
  }
  const source = text(params, 'source', errors, { required: !viaApiUrl, max: 50 }) ?? 'partner';
  const first = text(params, 'first_name', errors, { required: true, max: 100 });
  const last = text(params, 'last_name', errors, { required: true, max: 100 });
  const email = text(params, 'email', errors, { required: viaApiUrl, max: 254 });
  if (email && !EMAIL_RE.test(email))
    errors.push({ code: 'invalid_email', message: 'Email is not a valid address', fields: ['email'] });
  const phone = text(params, 'phone', errors, { required: viaApiUrl, max: 30 });
  if (phone && !PHONE_RE.test(phone))
    errors.push({ code: 'invalid_phone', message: 'Phone is not a valid number', fields: ['phone'] });

  const people = int(params.num_people);
  if (params.num_people === undefined || params.num_people === '')
    errors.push({ code: 'missing_num_people', message: 'Number of people is required', fields: ['num_people'] });
  else if (people === undefined || people < 1 || people > 1000)
    errors.push({
      code: 'invalid_num_people',
      message: 'Number of people must be a whole number from 1 to 1000',
      fields: ['num_people'],
    });

  const typeId = text(params, 'type', errors, { required: true, max: 100 });
  const type = venue && typeId ? venue.booking_types.find((t) => t.id === typeId) : undefined;
  if (venue && typeId && !type) {
    const byName = venue.booking_types.some((t) => t.name.toLowerCase() === typeId.toLowerCase());
    errors.push({
      code: 'invalid_type',
      message: byName ? 'Send the booking type id, not its name' : 'Unknown booking type for this venue',
      fields: ['type'],
    });
  }

  const date = plainDate(params.date);
  if (params.date === undefined || params.date === '')
    errors.push({ code: 'missing_date', message: 'Date is required', fields: ['date'] });
  else if (!date)
    errors.push({ code: 'invalid_date', message: 'Date must be a real date in the form YYYY-MM-DD', fields: ['date'] });
  else if (date < londonDate(nowMs))
    errors.push({ code: 'date_passed', message: 'This date is in the past', fields: ['date'] });

  const time = typeof params.time === 'string' && parseTime(params.time) !== null ? params.time : undefined;
  if (params.time === undefined || params.time === '')
    errors.push({ code: 'missing_time', message: 'Time is required', fields: ['time'] });
  else if (!time)
    errors.push({ code: 'invalid_time', message: 'Time must be a 24-hour time in the form HH:mm', fields: ['time'] });

  let duration: number | undefined;
  if (params.duration !== undefined && params.duration !== '' && params.duration !== null) {
    duration = durationMinutes(params.duration);
    if (duration === undefined || duration > 24 * 60) {
      errors.push({
        code: 'invalid_duration',
        message: 'Duration must be a whole number of minutes (or -1 for until close)',
        fields: ['duration'],
      });
      duration = undefined;
    }
  }

  let dob: string | null = null;
  if (params.dob !== undefined && params.dob !== '' && params.dob !== null) {
    dob = isDate(params.dob) && (params.dob as string) <= londonDate(nowMs) ? (params.dob as string) : null;
    if (!dob)
      errors.push({
        code: 'invalid_dob',
        message: 'Date of birth must be a past date in the form YYYY-MM-DD',
        fields: ['dob'],
      });
  }

  const offerId = text(params, 'offer', errors, { max: 100 });
  if (offerId && venue) {
    const offer = store.offers.find((o) => o._id === offerId && o.page_id === venue._id);
    if (!offer) errors.push({ code: 'invalid_offer', message: 'Unknown offer for this venue', fields: ['offer'] });
    else if (!availableToPartners(offer))
      errors.push({
        code: 'offer_not_available',
        message: 'This offer is only available through the marketplace',
        fields: ['offer'],
      });
    else if (
      !isVisible(offer, nowMs) ||
      (type && date && time && people && !matches(offer, { type: type.id, num_people: people, date, time }))
    ) {
      errors.push({
        code: 'offer_not_applicable',
        message: 'This offer does not apply to this booking',
        fields: ['offer'],
      });
    }
  }
  const pkg = text(params, 'package', errors, { max: 100 });
  if (pkg && venue && !packagesOf(store, venue).some((p) => p.id === pkg))
    errors.push({ code: 'invalid_package', message: 'Unknown package', fields: ['package'] });

  let newsletter = false;
  if (params.newsletter_signup !== undefined && params.newsletter_signup !== '') {
    const b = bool(params.newsletter_signup);
    if (b === undefined)
      errors.push({
        code: 'invalid_newsletter_signup',
        message: 'newsletter_signup must be true or false',
        fields: ['newsletter_signup'],
      });
    else newsletter = b;
  }
  const prefs = params.marketing_preferences === undefined ? [] : list(params.marketing_preferences);
  if (
    params.marketing_preferences !== undefined &&
    !Array.isArray(params.marketing_preferences) &&
    typeof params.marketing_preferences !== 'string'
  ) {
    errors.push({
      code: 'invalid_marketing_preferences',
      message: 'marketing_preferences must be an array of preference ids',
      fields: ['marketing_preferences'],
    });
  } else if (venue) {
    const known = new Set(preferencesOf(store, venue).map((p) => p.id));
    const unknown = prefs.filter((p) => !known.has(p));
    if (unknown.length)
      errors.push({
        code: 'invalid_marketing_preferences',
        message: `Unknown marketing preference: ${unknown.join(', ')}`,
        fields: ['marketing_preferences'],
      });
  }
  const notes = text(params, 'notes', errors, { max: 2000 });
  const custom = text(params, 'custom_field_value', errors, { max: 500 });
  const partnerSource = text(params, 'partner_source', errors, { max: 100 });

  if (viaApiUrl && type && ((type.rules.deposit_per_person ?? 0) > 0 || type.rules.preorders === 'required')) {
    errors.push({
      code: 'web_required',
      message: `${type.name} needs a deposit or pre-orders: send the guest to the web URL instead`,
      fields: ['type'],
    });
  }
  throwIfErrors(errors);
  return {
    venue: venue!,
    type: type!.id,
    num_people: people!,
    date: date!,
    time: time!,
    duration,
    first_name: first!,
    last_name: last!,
    email,
    phone,
    dob,
    source,
    partner_source: partnerSource,
    notes,
    offer: offerId,
    package: pkg,
    newsletter_signup: newsletter,
    marketing_preferences: prefs,
    custom_field_value: custom,
    viaApiUrl,
  };
}

/** How a new booking is handled: confirmed when the type auto-confirms and the slot is open and has room. */
export function handlingOf(ctx: AvailabilityContext, nb: NewBooking): 'confirmed' | 'received' {
  const result = computeAvailability(ctx, nb.venue, {
    type: nb.type,
    num_people: nb.num_people,
    date: nb.date,
    time: nb.time,
    duration: nb.duration,
    fields: ['time'],
  });
  return result.action === 'accept' ? 'confirmed' : 'received';
}

/** Stores a validated booking (and links or creates its customer user). */
export function storeBooking(
  store: Store,
  nb: NewBooking,
  opts: { now: number; createdBy: string; status: BookingStatus; extra?: Partial<Booking> },
): Booking {
  const type = nb.venue.booking_types.find((t) => t.id === nb.type)!;
  const duration = nb.duration ?? type.rules.fixed_duration ?? type.rules.durations?.[0] ?? 120;
  let userId: string | null = null;
  if (nb.email) {
    const lower = nb.email.toLowerCase();
    let user = [...store.users.values()].find((u) => u.email.toLowerCase() === lower);
    const stamp = londonTimestamp(opts.now);
    if (!user) {
      user = {
        _id: store.newId(),
        created_date: stamp,
        last_updated: stamp,
        first_name: nb.first_name,
        last_name: nb.last_name,
        email: nb.email,
        phone: nb.phone ?? '',
        ...(nb.dob ? { dob: nb.dob } : {}),
        status: 'active',
        wishlist: {},
        associated_venues: [],
        marketing_preferences: [],
      };
      store.users.set(user._id, user);
    }
    if (!user.associated_venues.includes(nb.venue._id)) user.associated_venues.push(nb.venue._id);
    for (const id of nb.marketing_preferences) {
      const existing = user.marketing_preferences.find((p) => p.id === id);
      if (existing) {
        existing.opt_in_date = stamp;
        existing.opt_out_date = null;
      } else user.marketing_preferences.push({ id, opt_in_date: stamp, opt_out_date: null });
    }
    if (nb.newsletter_signup) user.marketing_permission = true;
    user.last_updated = stamp;
    userId = user._id;
  }
  const booking = store.fromSeed({
    venue_id: nb.venue._id,
    date: nb.date,
    time: nb.time,
    duration,
    type: nb.type,
    num_people: nb.num_people,
    first_name: nb.first_name,
    last_name: nb.last_name,
    email: nb.email,
    phone: nb.phone,
    dob: nb.dob,
    notes: nb.notes,
    source: nb.source,
    partner_source: nb.partner_source,
    status: opts.status,
    created_by: opts.createdBy,
    created_date: opts.now,
    last_updated: opts.now,
    status_changed_date: opts.now,
    offer: nb.offer,
    packages: nb.package ? [nb.package] : null,
    user_id: userId,
    marketing_preferences: nb.marketing_preferences,
    newsletter_signup: nb.newsletter_signup,
    custom_field_value: nb.custom_field_value,
    flags: {
      ...(nb.notes && opts.status === 'complete' ? { customer_notes_unread: true } : {}),
      ...(nb.package ? { packages_requested: true } : {}),
    },
    ...opts.extra,
  });
  return store.insert(booking);
}

function typeObject(venue: Venue | undefined, typeId: string, full: boolean) {
  const t = venue?.booking_types.find((x) => x.id === typeId);
  return {
    guestlist: !!t?.guestlist,
    id: typeId,
    name: t?.name ?? '',
    private_hire: !!t?.private_hire,
    ...(full ? { value: t?.rules.value_per_person ?? 0 } : {}),
  };
}

/** The booking of a create response (§2.4); the live dialect drops status, phone and created_by. */
export function createdRecord(store: Store, b: Booking, dialect: Dialect): Record<string, unknown> {
  const venue = store.venues.get(b.venue_id);
  return {
    _id: b._id,
    created_date: londonTimestamp(b.created_date),
    last_updated: londonTimestamp(b.last_updated),
    ...(dialect === 'spec' ? { created_by: b.created_by } : {}),
    reference: b.reference,
    venue_id: b.venue_id,
    date: `${b.date}T00:00:00`,
    time: b.time,
    type: typeObject(venue, b.type, false),
    num_people: b.num_people,
    first_name: b.first_name,
    last_name: b.last_name,
    email: b.email,
    notes: b.notes,
    source: b.source,
    packages: b.packages,
    offer: b.offer,
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
    type: typeObject(venue, b.type, true),
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

/** The venue object of a create response. */
export function venueSummary(venue: Venue) {
  return { type: venue.type, title: venue.title, path: venue.path, page_type: venue.page_type };
}

/** Status moves the sandbox allows (the spec shows only "any → in_progress"; the rest is documented in SEED.md). */
export const TRANSITIONS: Record<BookingStatus, BookingStatus[]> = {
  new: ['in_progress', 'complete', 'rejected', 'deleted'],
  in_progress: ['new', 'complete', 'rejected', 'deleted'],
  complete: ['in_progress', 'rejected', 'deleted', 'lost'],
  rejected: ['new', 'in_progress', 'deleted'],
  lost: ['in_progress', 'complete', 'deleted'],
  deleted: ['in_progress'],
};

const UPDATABLE = [
  'status',
  'num_people',
  'date',
  'time',
  'duration',
  'first_name',
  'last_name',
  'email',
  'phone',
  'notes',
  'labels',
  'follow_up',
  'assigned_to',
  'managed_by_venue',
  'invoiced',
  'reconciled',
  'walk_in',
  'value',
  'partner_source',
] as const;

/** Validates an update body into a patch; throws one 400 with every field error. */
export function parseUpdate(store: Store, b: Booking, params: Params, nowMs: number, actor: string): Partial<Booking> {
  const errors: FieldError[] = [];
  const patch: Partial<Booking> = {};
  const venue = store.venues.get(b.venue_id);
  const unknown = Object.keys(params).filter((k) => !(UPDATABLE as readonly string[]).includes(k));
  if (unknown.length) {
    errors.push({
      code: 'unknown_field',
      message: `These fields cannot be updated: ${unknown.join(', ')}. Updatable: ${UPDATABLE.join(', ')}`,
      fields: unknown,
    });
  }
  if (params.status !== undefined) {
    const s = params.status as BookingStatus;
    if (typeof s !== 'string' || !(s in TRANSITIONS)) {
      errors.push({
        code: 'invalid_status',
        message: `Status must be one of ${Object.keys(TRANSITIONS).join(', ')}`,
        fields: ['status'],
      });
    } else if (s !== b.status) {
      if (!TRANSITIONS[b.status].includes(s)) {
        errors.push({
          code: 'invalid_transition',
          message: `A ${b.status} booking cannot become ${s}`,
          fields: ['status'],
        });
      } else if (s === 'lost' && b.date >= londonDate(nowMs)) {
        errors.push({
          code: 'invalid_transition',
          message: 'Only a booking whose date has passed can be lost',
          fields: ['status'],
        });
      } else {
        patch.status = s;
        patch.status_changed_date = nowMs;
        if (s === 'complete') {
          patch.completed_by = actor;
          patch.completed_date = nowMs;
        }
      }
    }
  }
  if (params.num_people !== undefined) {
    const n = int(params.num_people);
    if (n === undefined || n < 1 || n > 1000)
      errors.push({
        code: 'invalid_num_people',
        message: 'Number of people must be a whole number from 1 to 1000',
        fields: ['num_people'],
      });
    else patch.num_people = n;
  }
  if (params.date !== undefined) {
    const d = plainDate(params.date);
    if (!d)
      errors.push({
        code: 'invalid_date',
        message: 'Date must be a real date in the form YYYY-MM-DD',
        fields: ['date'],
      });
    else patch.date = d;
  }
  if (params.time !== undefined) {
    if (parseTime(params.time) === null)
      errors.push({ code: 'invalid_time', message: 'Time must be HH:mm', fields: ['time'] });
    else patch.time = params.time as string;
  }
  if (params.duration !== undefined) {
    const d = durationMinutes(params.duration);
    if (d === undefined || d > 1440)
      errors.push({
        code: 'invalid_duration',
        message: 'Duration must be minutes (or -1 for until close)',
        fields: ['duration'],
      });
    else patch.duration = d;
  }
  for (const key of ['first_name', 'last_name'] as const) {
    if (params[key] !== undefined) {
      const v = text(params, key, errors, { required: true, max: 100 });
      if (v) patch[key] = v;
    }
  }
  for (const key of ['email', 'phone', 'notes', 'partner_source'] as const) {
    if (params[key] !== undefined) {
      const v = params[key] === null ? null : text(params, key, errors, { max: key === 'notes' ? 2000 : 254 });
      if (key === 'email' && v && !EMAIL_RE.test(v))
        errors.push({ code: 'invalid_email', message: 'Email is not a valid address', fields: ['email'] });
      else if (key === 'phone' && v && !PHONE_RE.test(v))
        errors.push({ code: 'invalid_phone', message: 'Phone is not a valid number', fields: ['phone'] });
      else patch[key] = v;
    }
  }
  if (params.labels !== undefined) {
    const ids = list(params.labels);
    const known = new Set(
      [...(store.groups.get(b.venue_group)?.booking_labels ?? []), ...(venue?.booking_labels ?? [])].map((l) => l.id),
    );
    const bad = ids.filter((i) => !known.has(i));
    if (bad.length || (!Array.isArray(params.labels) && typeof params.labels !== 'string'))
      errors.push({ code: 'invalid_labels', message: `Unknown labels: ${bad.join(', ')}`, fields: ['labels'] });
    else patch.labels = [...new Set(ids)];
  }
  if (params.follow_up !== undefined) {
    const v =
      params.follow_up === null ? null : typeof params.follow_up === 'string' ? parseInstant(params.follow_up) : null;
    if (params.follow_up !== null && v === null)
      errors.push({
        code: 'invalid_follow_up',
        message: 'follow_up must be a date or date-time',
        fields: ['follow_up'],
      });
    else patch.follow_up = v;
  }
  if (params.assigned_to !== undefined) {
    const v = params.assigned_to;
    if (v !== null && !(isHexId(v) && store.groupUsers.get(v)?.venue_group === b.venue_group)) {
      errors.push({
        code: 'invalid_assigned_to',
        message: 'assigned_to must be the id of a user of this venue group',
        fields: ['assigned_to'],
      });
    } else patch.assigned_to = v as string | null;
  }
  for (const key of ['managed_by_venue', 'invoiced', 'reconciled', 'walk_in'] as const) {
    if (params[key] !== undefined) {
      const v = bool(params[key]);
      if (v === undefined)
        errors.push({ code: `invalid_${key}`, message: `${key} must be true or false`, fields: [key] });
      else patch[key] = v;
    }
  }
  if (params.value !== undefined) {
    const v = typeof params.value === 'number' ? params.value : Number(str(params, 'value'));
    if (!Number.isFinite(v) || v < 0)
      errors.push({ code: 'invalid_value', message: 'value must be a number of 0 or more', fields: ['value'] });
    else patch.value = v;
  }
  throwIfErrors(errors);
  if (Object.keys(patch).length) patch.last_updated = nowMs;
  return patch;
}

/** Replaces assigned areas (§4.4) after checking every id belongs to the venue. */
export function parseAreas(store: Store, b: Booking, params: Params) {
  const venue = store.venues.get(b.venue_id);
  if (!Array.isArray(params.areas))
    throw new ApiError(400, 'areas must be an array of area ids', [
      { code: 'invalid_areas', message: 'areas must be an array of area ids', fields: ['areas'] },
    ]);
  const ids = [...new Set(params.areas.map((a) => (typeof a === 'string' ? a : '')))];
  const found = ids.map((id) => venue?.bookable_areas.find((a) => a.id === id));
  const bad = ids.filter((_, i) => !found[i]);
  if (bad.length)
    throw new ApiError(400, `Unknown areas for this venue: ${bad.join(', ') || '(empty)'}`, [
      { code: 'invalid_areas', message: 'Unknown area ids', fields: ['areas'] },
    ]);
  return found.map((a) => ({ id: a!.id, name: a!.name, zone: a!.zone }));
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
