/**
 * Create (§4.2, also the API-URL submission flow of `next`): a POST /bookings body read through
 * its rule table and stages, every problem reported at once as field errors of one 400 before
 * anything is stored, so a bad request never leaves partial data; then how the booking is handled
 * (confirmed or received) and storing it with its customer user.
 */

import {
  defaultDuration,
  durationMinutes,
  takesPayment,
  verdictOf,
  type AvailabilityContext,
} from '../availability/index.js';
import { bool, EMAIL_RE, int, list, throwIfErrors, type FieldError, type Params } from '../http.js';
import { availableToPartners, isVisible, matches } from '../offers.js';
import type { Kind } from '../schema.js';
import type { Store } from '../store.js';
import { isDate, londonDate, londonTimestamp, parseTime } from '../time.js';
import type { Booking, BookingStatus, BookingType, Venue } from '../types.js';
import { packagesOf, PHONE_RE, plainDate, preferencesOf, text } from './fields.js';

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

/** Records an error on one field of the body being read. */
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
    if (d.viaApiUrl && t && (takesPayment(d.ctx, t) || t.rules.preorders === 'required'))
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
