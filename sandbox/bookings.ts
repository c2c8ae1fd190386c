/**
 * Bookings: create (§4.2, also the API-URL submission flow), update (§4.3), assigned areas (§4.4)
 * and the record shapes of §2.4 (create/update) and §2.5 (search).
 *
 * Input is validated completely before anything is stored, and every problem is reported at once as
 * field errors of a 400, so a bad request never leaves partial data.
 */

import {
  defaultDuration,
  depositPerPerson,
  durationMinutes,
  verdictOf,
  type AvailabilityContext,
  type Dialect,
} from './availability.js';
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
import type { Kind } from './schema.js';
import type { Store } from './store.js';
import { isDate, londonDate, londonTimestamp, parseInstant, parseTime, utcTimestamp } from './time.js';
import type { Booking, BookingStatus, BookingType, Venue } from './types.js';

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

/** How one field of POST /bookings (§4.2) is read; also what the interface document says of it. */
export interface BookingFieldRule {
  kind: Kind;
  /** Always required, or only for one of the two submission flows (through next's API URL or not). */
  required?: 'always' | 'api-url' | 'not-api-url';
  /** Text: the longest value accepted. */
  max?: number;
  /** One line for the interface document. */
  doc: string;
}

/**
 * The rule table of POST /bookings: every field it accepts, in the order errors are reported. The
 * text fields are read straight from it; the others by the stages of {@link parseNewBooking}.
 */
export const NEW_BOOKING_FIELDS: Record<string, BookingFieldRule> = {
  venue_id: { kind: 'text', required: 'always', max: 200, doc: 'Venue id' },
  source: { kind: 'text', required: 'not-api-url', max: 50, doc: 'Origin of the booking; normally partner' },
  first_name: { kind: 'text', required: 'always', max: 100, doc: 'Guest first name' },
  last_name: { kind: 'text', required: 'always', max: 100, doc: 'Guest last name' },
  email: { kind: 'text', required: 'api-url', max: 254, doc: 'Guest email address' },
  phone: { kind: 'text', required: 'api-url', max: 30, doc: 'Guest phone number' },
  num_people: { kind: 'int', required: 'always', doc: 'Number of guests, 1 to 1000' },
  type: { kind: 'text', required: 'always', max: 100, doc: 'Booking type id (never its name)' },
  date: { kind: 'date', required: 'always', doc: 'YYYY-MM-DD (YYYY-MM-DDT00:00:00 as availability echoes it)' },
  time: { kind: 'time', required: 'always', doc: '24-hour HH:mm' },
  duration: { kind: 'duration', doc: 'Minutes (decimal hours of 12 or less are read as hours); -1 until close' },
  dob: { kind: 'date', doc: 'Date of birth, YYYY-MM-DD, not in the future' },
  offer: { kind: 'text', max: 100, doc: 'Offer id (from the offers of this venue)' },
  package: { kind: 'text', max: 100, doc: 'Package id' },
  newsletter_signup: { kind: 'bool', doc: 'Being retired; marketing_preferences records consent' },
  marketing_preferences: { kind: 'ids', doc: 'Preference ids of GET /venues/{id}/marketing-preferences' },
  notes: { kind: 'text', max: 2000, doc: 'Guest requests' },
  custom_field_value: { kind: 'text', max: 500, doc: 'Value of the venue custom field' },
  partner_source: { kind: 'text', max: 100, doc: 'Free-text label for reporting' },
  venue_group: { kind: 'text', doc: 'API URL flow: bookingDetails.venue_group, sent back; must match the venue' },
  payments: { kind: 'objects', doc: 'API URL flow: bookingDetails.payments (live), sent back' },
};

/** A POST /bookings body being read: its parameters, the errors so far and what was read. */
interface BookingDraft {
  store: Store;
  params: Params;
  nowMs: number;
  /** The request's scenario (a `deposit-required` one makes every type web-only). */
  ctx: Pick<AvailabilityContext, 'scenario'>;
  errors: FieldError[];
  /** Sent through the API URL of `next` (the body carries bookingDetails' venue_group or payments). */
  viaApiUrl: boolean;
  venue?: Venue;
  type?: BookingType;
  people?: number;
  date?: string;
  time?: string;
  out: Partial<NewBooking>;
}

const fieldError = (d: BookingDraft, field: string, code: string, message: string) =>
  d.errors.push({ code, message, fields: [field] });

/** A text field of {@link NEW_BOOKING_FIELDS}, required as its rule says for this flow. */
function textField(d: BookingDraft, name: string): string | null {
  const rule = NEW_BOOKING_FIELDS[name]!;
  const required =
    rule.required === 'always' ||
    (rule.required === 'api-url' ? d.viaApiUrl : rule.required === 'not-api-url' && !d.viaApiUrl);
  return text(d.params, name, d.errors, { required, max: rule.max });
}

/** A field that is present: not absent and not an empty string. */
const given = (v: unknown) => v !== undefined && v !== '';

/** The stages of {@link parseNewBooking}, in the order their errors are reported. */
const NEW_BOOKING_STAGES: ((d: BookingDraft) => void)[] = [
  function venueAndGroup(d) {
    const venueId = textField(d, 'venue_id');
    d.venue = venueId ? d.store.venues.get(venueId) : undefined;
    if (venueId && !d.venue) fieldError(d, 'venue_id', 'invalid_venue_id', 'Unknown venue');
    if (d.venue && d.viaApiUrl && d.params.venue_group !== d.venue.venue_group)
      fieldError(d, 'venue_group', 'invalid_venue_group', 'venue_group does not match the venue');
  },
  function guest(d) {
    d.out.source = textField(d, 'source') ?? 'partner';
    d.out.first_name = textField(d, 'first_name')!;
    d.out.last_name = textField(d, 'last_name')!;
    const email = (d.out.email = textField(d, 'email'));
    if (email && !EMAIL_RE.test(email)) fieldError(d, 'email', 'invalid_email', 'Email is not a valid address');
    const phone = (d.out.phone = textField(d, 'phone'));
    if (phone && !PHONE_RE.test(phone)) fieldError(d, 'phone', 'invalid_phone', 'Phone is not a valid number');
  },
  function partySize(d) {
    d.people = int(d.params.num_people);
    if (!given(d.params.num_people)) fieldError(d, 'num_people', 'missing_num_people', 'Number of people is required');
    else if (d.people === undefined || d.people < 1 || d.people > 1000)
      fieldError(d, 'num_people', 'invalid_num_people', 'Number of people must be a whole number from 1 to 1000');
  },
  function bookingType(d) {
    const typeId = textField(d, 'type');
    d.type = d.venue && typeId ? d.venue.booking_types.find((t) => t.id === typeId) : undefined;
    if (d.venue && typeId && !d.type) {
      const byName = d.venue.booking_types.some((t) => t.name.toLowerCase() === typeId.toLowerCase());
      fieldError(
        d,
        'type',
        'invalid_type',
        byName ? 'Send the booking type id, not its name' : 'Unknown booking type for this venue',
      );
    }
  },
  function bookingDate(d) {
    d.date = plainDate(d.params.date);
    if (!given(d.params.date)) fieldError(d, 'date', 'missing_date', 'Date is required');
    else if (!d.date) fieldError(d, 'date', 'invalid_date', 'Date must be a real date in the form YYYY-MM-DD');
    else if (d.date < londonDate(d.nowMs)) fieldError(d, 'date', 'date_passed', 'This date is in the past');
  },
  function bookingTime(d) {
    const raw = d.params.time;
    d.time = typeof raw === 'string' && parseTime(raw) !== null ? raw : undefined;
    if (!given(raw)) fieldError(d, 'time', 'missing_time', 'Time is required');
    else if (!d.time) fieldError(d, 'time', 'invalid_time', 'Time must be a 24-hour time in the form HH:mm');
  },
  function duration(d) {
    if (!given(d.params.duration) || d.params.duration === null) return;
    const minutes = durationMinutes(d.params.duration);
    if (minutes === undefined || minutes > 24 * 60)
      fieldError(
        d,
        'duration',
        'invalid_duration',
        'Duration must be a whole number of minutes (or -1 for until close)',
      );
    else d.out.duration = minutes;
  },
  function dateOfBirth(d) {
    const raw = d.params.dob;
    d.out.dob = null;
    if (!given(raw) || raw === null) return;
    if (isDate(raw) && raw <= londonDate(d.nowMs)) d.out.dob = raw;
    else fieldError(d, 'dob', 'invalid_dob', 'Date of birth must be a past date in the form YYYY-MM-DD');
  },
  function offer(d) {
    const offerId = (d.out.offer = textField(d, 'offer'));
    if (offerId && d.venue) {
      const problem = offerProblem(d, offerId);
      if (problem) fieldError(d, 'offer', problem.code, problem.message);
    }
  },
  function bookingPackage(d) {
    const pkg = (d.out.package = textField(d, 'package'));
    if (pkg && d.venue && !packagesOf(d.store, d.venue).some((p) => p.id === pkg))
      fieldError(d, 'package', 'invalid_package', 'Unknown package');
  },
  function newsletter(d) {
    d.out.newsletter_signup = false;
    if (!given(d.params.newsletter_signup)) return;
    const b = bool(d.params.newsletter_signup);
    if (b === undefined)
      fieldError(d, 'newsletter_signup', 'invalid_newsletter_signup', 'newsletter_signup must be true or false');
    else d.out.newsletter_signup = b;
  },
  function marketingPreferences(d) {
    const raw = d.params.marketing_preferences;
    d.out.marketing_preferences = raw === undefined ? [] : list(raw);
    if (raw !== undefined && !Array.isArray(raw) && typeof raw !== 'string') {
      fieldError(
        d,
        'marketing_preferences',
        'invalid_marketing_preferences',
        'marketing_preferences must be an array of preference ids',
      );
    } else if (d.venue) {
      const known = new Set(preferencesOf(d.store, d.venue).map((p) => p.id));
      const unknown = d.out.marketing_preferences.filter((p) => !known.has(p));
      if (unknown.length)
        fieldError(
          d,
          'marketing_preferences',
          'invalid_marketing_preferences',
          `Unknown marketing preference: ${unknown.join(', ')}`,
        );
    }
  },
  function freeText(d) {
    d.out.notes = textField(d, 'notes');
    d.out.custom_field_value = textField(d, 'custom_field_value');
    d.out.partner_source = textField(d, 'partner_source');
  },
  function webOnlyThroughApiUrl(d) {
    const t = d.type;
    if (d.viaApiUrl && t && (depositPerPerson(d.ctx, t) > 0 || t.rules.preorders === 'required'))
      fieldError(
        d,
        'type',
        'web_required',
        `${t.name} needs a deposit or pre-orders: send the guest to the web URL instead`,
      );
  },
];

/** Why an offer cannot go with this booking, or null. */
function offerProblem(d: BookingDraft, offerId: string): { code: string; message: string } | null {
  const offer = d.store.offers.find((o) => o._id === offerId && o.page_id === d.venue!._id);
  if (!offer) return { code: 'invalid_offer', message: 'Unknown offer for this venue' };
  if (!availableToPartners(offer))
    return { code: 'offer_not_available', message: 'This offer is only available through the marketplace' };
  const { type, date, time, people } = d;
  if (
    !isVisible(offer, d.nowMs) ||
    (type && date && time && people && !matches(offer, { type: type.id, num_people: people, date, time }))
  )
    return { code: 'offer_not_applicable', message: 'This offer does not apply to this booking' };
  return null;
}

/** Validates a POST /bookings body through {@link NEW_BOOKING_STAGES}; throws one 400 with every field error. */
export function parseNewBooking(
  store: Store,
  params: Params,
  nowMs: number,
  ctx: Pick<AvailabilityContext, 'scenario'> = {},
): NewBooking {
  const d: BookingDraft = {
    store,
    params,
    nowMs,
    ctx,
    errors: [],
    viaApiUrl: params.venue_group !== undefined || params.payments !== undefined,
    out: {},
  };
  for (const stage of NEW_BOOKING_STAGES) stage(d);
  throwIfErrors(d.errors);
  const out = d.out as Omit<NewBooking, 'venue' | 'type' | 'num_people' | 'date' | 'time' | 'viaApiUrl'>;
  return {
    ...out,
    venue: d.venue!,
    type: d.type!.id,
    num_people: d.people!,
    date: d.date!,
    time: d.time!,
    viaApiUrl: d.viaApiUrl,
  };
}

/**
 * How a new booking is handled, from its own fields (the type's default duration when it has none):
 * confirmed when the type auto-confirms and the slot is open and has room, else received.
 */
export function handlingOf(ctx: AvailabilityContext, nb: NewBooking): 'confirmed' | 'received' {
  return verdictOf(ctx, nb.venue, nb) === 'accept' ? 'confirmed' : 'received';
}

/**
 * The customer user a booking with an email belongs to: found by email or created, linked to the
 * venue, with the consent the booking gave recorded. Null without an email.
 */
function linkCustomer(store: Store, nb: NewBooking, now: number): string | null {
  if (!nb.email) return null;
  const lower = nb.email.toLowerCase();
  let user = [...store.users.values()].find((u) => u.email.toLowerCase() === lower);
  const stamp = londonTimestamp(now);
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
  return user._id;
}

/** Stores a validated booking (and links or creates its customer user). */
export function storeBooking(
  store: Store,
  nb: NewBooking,
  opts: { now: number; createdBy: string; status: BookingStatus; extra?: Partial<Booking> },
): Booking {
  const type = nb.venue.booking_types.find((t) => t.id === nb.type)!;
  const duration = nb.duration ?? defaultDuration(type);
  const userId = linkCustomer(store, nb, opts.now);
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

/** Status moves the sandbox allows (the spec shows only "any → in_progress"; the rest is documented in SEED.md). */
export const TRANSITIONS: Record<BookingStatus, BookingStatus[]> = {
  new: ['in_progress', 'complete', 'rejected', 'deleted'],
  in_progress: ['new', 'complete', 'rejected', 'deleted'],
  complete: ['in_progress', 'rejected', 'deleted', 'lost'],
  rejected: ['new', 'in_progress', 'deleted'],
  lost: ['in_progress', 'complete', 'deleted'],
  deleted: ['in_progress'],
};

/** A booking update being read: the booking, the errors so far and the patch built. */
interface UpdateDraft {
  store: Store;
  booking: Booking;
  nowMs: number;
  actor: string;
  params: Params;
  errors: FieldError[];
  patch: Partial<Booking>;
}

/** Reads one present field of an update into the patch, or records why it cannot be applied. */
type UpdateRule = (d: UpdateDraft, raw: unknown) => void;

const updateError = (d: UpdateDraft, field: string, code: string, message: string) =>
  d.errors.push({ code, message, fields: [field] });

/** A status move: allowed by {@link TRANSITIONS}, `lost` only once the date has passed. */
const statusRule: UpdateRule = (d, raw) => {
  const s = raw as BookingStatus;
  const b = d.booking;
  if (typeof s !== 'string' || !(s in TRANSITIONS))
    return updateError(d, 'status', 'invalid_status', `Status must be one of ${Object.keys(TRANSITIONS).join(', ')}`);
  if (s === b.status) return;
  if (!TRANSITIONS[b.status].includes(s))
    return updateError(d, 'status', 'invalid_transition', `A ${b.status} booking cannot become ${s}`);
  if (s === 'lost' && b.date >= londonDate(d.nowMs))
    return updateError(d, 'status', 'invalid_transition', 'Only a booking whose date has passed can be lost');
  d.patch.status = s;
  d.patch.status_changed_date = d.nowMs;
  if (s === 'complete') {
    d.patch.completed_by = d.actor;
    d.patch.completed_date = d.nowMs;
  }
};

const namesRule =
  (key: 'first_name' | 'last_name'): UpdateRule =>
  (d) => {
    const v = text(d.params, key, d.errors, { required: true, max: 100 });
    if (v) d.patch[key] = v;
  };

/** Contact and free-text fields: null clears them; email and phone must look right. */
const contactRule =
  (key: 'email' | 'phone' | 'notes' | 'partner_source'): UpdateRule =>
  (d, raw) => {
    const v = raw === null ? null : text(d.params, key, d.errors, { max: key === 'notes' ? 2000 : 254 });
    if (key === 'email' && v && !EMAIL_RE.test(v))
      updateError(d, 'email', 'invalid_email', 'Email is not a valid address');
    else if (key === 'phone' && v && !PHONE_RE.test(v))
      updateError(d, 'phone', 'invalid_phone', 'Phone is not a valid number');
    else d.patch[key] = v;
  };

const flagRule =
  (key: 'managed_by_venue' | 'invoiced' | 'reconciled' | 'walk_in'): UpdateRule =>
  (d, raw) => {
    const v = bool(raw);
    if (v === undefined) updateError(d, key, `invalid_${key}`, `${key} must be true or false`);
    else d.patch[key] = v;
  };

/**
 * The rule table of a booking update (§4.3; fields beyond `status` are not shown by the spec, see
 * SEED.md): every updatable field and how it is read, in the order errors are reported.
 */
export const UPDATE_RULES: Record<string, { kind: Kind; doc: string; choices?: readonly string[]; apply: UpdateRule }> =
  {
    status: {
      kind: 'choice',
      choices: Object.keys(TRANSITIONS),
      doc: 'New status; the moves SEED.md lists (lost only once the date has passed)',
      apply: statusRule,
    },
    num_people: {
      kind: 'int',
      doc: 'Number of guests, 1 to 1000',
      apply: (d, raw) => {
        const n = int(raw);
        if (n === undefined || n < 1 || n > 1000)
          updateError(d, 'num_people', 'invalid_num_people', 'Number of people must be a whole number from 1 to 1000');
        else d.patch.num_people = n;
      },
    },
    date: {
      kind: 'date',
      doc: 'YYYY-MM-DD',
      apply: (d, raw) => {
        const date = plainDate(raw);
        if (!date) updateError(d, 'date', 'invalid_date', 'Date must be a real date in the form YYYY-MM-DD');
        else d.patch.date = date;
      },
    },
    time: {
      kind: 'time',
      doc: '24-hour HH:mm',
      apply: (d, raw) => {
        if (parseTime(raw) === null) updateError(d, 'time', 'invalid_time', 'Time must be HH:mm');
        else d.patch.time = raw as string;
      },
    },
    duration: {
      kind: 'duration',
      doc: 'Minutes; -1 until close',
      apply: (d, raw) => {
        const minutes = durationMinutes(raw);
        if (minutes === undefined || minutes > 1440)
          updateError(d, 'duration', 'invalid_duration', 'Duration must be minutes (or -1 for until close)');
        else d.patch.duration = minutes;
      },
    },
    first_name: { kind: 'text', doc: 'Guest first name', apply: namesRule('first_name') },
    last_name: { kind: 'text', doc: 'Guest last name', apply: namesRule('last_name') },
    email: { kind: 'text', doc: 'Guest email (null clears it)', apply: contactRule('email') },
    phone: { kind: 'text', doc: 'Guest phone (null clears it)', apply: contactRule('phone') },
    notes: { kind: 'text', doc: 'Guest requests (null clears them)', apply: contactRule('notes') },
    partner_source: { kind: 'text', doc: 'Free-text label for reporting', apply: contactRule('partner_source') },
    labels: {
      kind: 'ids',
      doc: 'Booking label ids of the venue or its group (replaces the labels)',
      apply: (d, raw) => {
        const ids = list(raw);
        const venue = d.store.venues.get(d.booking.venue_id);
        const known = new Set(
          [...(d.store.groups.get(d.booking.venue_group)?.booking_labels ?? []), ...(venue?.booking_labels ?? [])].map(
            (l) => l.id,
          ),
        );
        const bad = ids.filter((i) => !known.has(i));
        if (bad.length || (!Array.isArray(raw) && typeof raw !== 'string'))
          updateError(d, 'labels', 'invalid_labels', `Unknown labels: ${bad.join(', ')}`);
        else d.patch.labels = [...new Set(ids)];
      },
    },
    follow_up: {
      kind: 'datetime',
      doc: 'Follow-up date or date-time (null clears it)',
      apply: (d, raw) => {
        const v = raw === null ? null : typeof raw === 'string' ? parseInstant(raw) : null;
        if (raw !== null && v === null)
          updateError(d, 'follow_up', 'invalid_follow_up', 'follow_up must be a date or date-time');
        else d.patch.follow_up = v;
      },
    },
    assigned_to: {
      kind: 'hexId',
      doc: 'Id of a user of the venue group (null unassigns)',
      apply: (d, raw) => {
        if (raw !== null && !(isHexId(raw) && d.store.groupUsers.get(raw)?.venue_group === d.booking.venue_group))
          updateError(
            d,
            'assigned_to',
            'invalid_assigned_to',
            'assigned_to must be the id of a user of this venue group',
          );
        else d.patch.assigned_to = raw as string | null;
      },
    },
    managed_by_venue: { kind: 'bool', doc: 'Managed by the venue', apply: flagRule('managed_by_venue') },
    invoiced: { kind: 'bool', doc: 'Invoiced', apply: flagRule('invoiced') },
    reconciled: { kind: 'bool', doc: 'Reconciled', apply: flagRule('reconciled') },
    walk_in: { kind: 'bool', doc: 'A walk-in', apply: flagRule('walk_in') },
    value: {
      kind: 'number',
      doc: 'Value of the booking, 0 or more',
      apply: (d, raw) => {
        const v = typeof raw === 'number' ? raw : Number(str(d.params, 'value'));
        if (!Number.isFinite(v) || v < 0)
          updateError(d, 'value', 'invalid_value', 'value must be a number of 0 or more');
        else d.patch.value = v;
      },
    },
  };

/** The fields an update accepts. */
const UPDATABLE = Object.keys(UPDATE_RULES);

/** Validates an update body into a patch through {@link UPDATE_RULES}; throws one 400 with every field error. */
export function parseUpdate(store: Store, b: Booking, params: Params, nowMs: number, actor: string): Partial<Booking> {
  const d: UpdateDraft = { store, booking: b, nowMs, actor, params, errors: [], patch: {} };
  const unknown = Object.keys(params).filter((k) => !UPDATABLE.includes(k));
  if (unknown.length) {
    d.errors.push({
      code: 'unknown_field',
      message: `These fields cannot be updated: ${unknown.join(', ')}. Updatable: ${UPDATABLE.join(', ')}`,
      fields: unknown,
    });
  }
  for (const [key, rule] of Object.entries(UPDATE_RULES)) if (params[key] !== undefined) rule.apply(d, params[key]);
  throwIfErrors(d.errors);
  if (Object.keys(d.patch).length) d.patch.last_updated = nowMs;
  return d.patch;
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
