/**
 * Availability (§2.2, §2.3, §3.2, §4.1), computed from venue settings, type rules and stored
 * bookings — never canned — so the widget is tested against behaviour, not fixtures.
 *
 * Model: a booking date is a *business day*. Start times and closing times later than midnight
 * (a `to`/`close` earlier than `from`/`open`) fall on the next calendar morning. Every comparison
 * is done on real instants in Europe/London, so on the night the clocks go forward the skipped
 * hour has no slots and the venue is open an hour less; on the night they go back, an hour more.
 * Capacity is counted in 5-minute buckets of real time over the day's holding bookings.
 */

import { holdsCapacity, type Store } from './store.js';
import {
  addDays,
  durationLabel,
  formatTime,
  londonDate,
  londonInstant,
  londonMinutes,
  parseTime,
  weekdayOf,
  type Weekday,
} from './time.js';
import { availableToPartners, isVisible, matches, type OfferQuery } from './offers.js';
import { int, num, type FieldError } from './http.js';
import type { ScenarioEffects } from './scenarios.js';
import type { Kind } from './schema.js';
import { isDate } from './time.js';
import type { BookingType, Dialect, Offer, Venue } from './types.js';

export type { Dialect } from './types.js';

/** The five booking fields of §2.3. */
export const FIELDS = ['type', 'num_people', 'date', 'time', 'duration'] as const;
export type Field = (typeof FIELDS)[number];

/** How far ahead date suggestions reach. */
export const DATE_HORIZON_DAYS = 90;

const DAY_LABEL: Record<Weekday, string> = {
  sunday: 'Sundays',
  monday: 'Mondays',
  tuesday: 'Tuesdays',
  wednesday: 'Wednesdays',
  thursday: 'Thursdays',
  friday: 'Fridays',
  saturday: 'Saturdays',
};

/** One start time of a business day. */
interface Slot {
  label: string;
  instant: number;
  offset: number; /* real minutes since the day's midnight */
}

/** What a type offers on one business day, before capacity. */
interface DayPlan {
  reason: string | null;
  code: string | null;
  slots: Slot[];
  closeInstant: number;
  closeLabel: string;
  midnight: number;
}

/**
 * Converts a duration sent by a client into minutes. Values above 12 are minutes (as POST /bookings,
 * booking records and the live service use); values of 12 or less, or with a fraction, are hours
 * (as §2.3 has it for availability). No booking type lasts 12 minutes or less, so this reading is
 * unambiguous; -1 is "until close".
 */
export function durationMinutes(value: unknown): number | undefined {
  const n = num(value);
  if (n === undefined) return undefined;
  if (n === -1) return -1;
  if (n <= 0) return undefined;
  if (n <= 12 || !Number.isInteger(n)) return Math.round(n * 60);
  return n;
}

/** A duration in the dialect's unit: minutes (live) or decimal hours (spec, §2.3). -1 stays -1. */
export function durationOut(minutes: number, dialect: Dialect): number {
  if (dialect === 'live' || minutes === -1) return minutes;
  return Math.round((minutes / 60) * 10000) / 10000;
}

/** The allowed durations of a type in minutes. */
export function typeDurations(t: BookingType): number[] {
  return t.rules.fixed_duration !== undefined && t.rules.fixed_duration !== null
    ? [t.rules.fixed_duration]
    : (t.rules.durations ?? []);
}

/** Parsed availability request. */
export interface AvailabilityRequest {
  type?: unknown;
  num_people?: unknown;
  date?: unknown;
  time?: unknown;
  duration?: unknown;
  getOffers?: boolean;
  /** Restricts computed validation keys (`fields=`; `next` asks for the hand-off alone); all when absent. */
  fields?: (Field | 'next')[];
}

/** Options the computation depends on besides the store. */
export interface AvailabilityContext {
  store: Store;
  now: number;
  dialect: Dialect;
  publicUrl: string;
  /** What the request's scenario changes (fully booked, deposits, enquiries only); none by default. */
  scenario?: ScenarioEffects;
}

/** Whether a type confirms bookings on submission (an `enquiry-only` scenario says none does). */
export function autoconfirms(ctx: Pick<AvailabilityContext, 'scenario'>, t: BookingType): boolean {
  return t.rules.autoconfirm && !ctx.scenario?.enquiryOnly;
}

/** The deposit a head a type takes (a `deposit-required` scenario sets a floor). */
export function depositPerPerson(ctx: Pick<AvailabilityContext, 'scenario'>, t: BookingType): number {
  return Math.max(t.rules.deposit_per_person ?? 0, ctx.scenario?.depositPerPerson ?? 0);
}

/** The duration a booking without one gets: the type's fixed or first duration. */
export function defaultDuration(t: BookingType): number {
  return t.rules.fixed_duration ?? t.rules.durations?.[0] ?? 120;
}

/** How a booking would be handled (§3.2). */
export type Action = 'accept' | 'enquire' | 'may_enquire' | 'reject';
const ACTION_RANK: Record<Action, number> = { accept: 3, enquire: 2, may_enquire: 1, reject: 0 };

interface FieldValidation {
  valid: boolean;
  errors?: FieldError[];
  suggestedValues: unknown[];
  rules?: { min: number | null; max: number | null };
}

// Caches hang off the venue object and the store, so two sandboxes (or seeds reusing ids) never share entries.
const planCaches = new WeakMap<Venue, Map<string, DayPlan>>();
const occupancyCaches = new WeakMap<
  Store,
  Map<string, { revision: number; all: Int32Array; byType: Map<string, Int32Array> }>
>();

const BUCKET = 5;
const BUCKETS = (2 * 1440) / BUCKET + 24;

/** London instant of business-day minutes; a wall time in the spring-forward gap maps past it. */
function instantOf(date: string, minutes: number): number {
  const day = Math.floor(minutes / 1440);
  const cal = day ? addDays(date, day) : date;
  const m = minutes - day * 1440;
  return londonInstant(cal, m) ?? londonInstant(cal, m + 60) ?? londonInstant(cal, 0)!;
}

/** Opening window (open/close minutes, close past midnight normalised) of a venue on a weekday. */
function openingOf(venue: Venue, day: Weekday) {
  const o = venue.opening_times?.[day];
  if (!o || !o.status) return null;
  const open = parseTime(o.open) ?? 0;
  let close = parseTime(o.close) ?? 1440;
  if (close <= open) close += 1440;
  return { open, close, privateHire: o.private_hire };
}

/** The unavailable range covering a date, if any. */
export function unavailableOn(venue: Venue, date: string) {
  return venue.booking_unavailable?.find((u) => u.unavailable_from <= date && date <= u.unavailable_to);
}

/** Start-time window of a type in business minutes. */
function windowOf(t: BookingType) {
  const from = parseTime(t.rules.from) ?? 0;
  let to = parseTime(t.rules.to) ?? from;
  if (to < from) to += 1440;
  return { from, to, interval: Math.max(5, t.rules.interval || 15) };
}

/** Why a type cannot be booked on a date regardless of the clock, or null. */
export function dateClosedReason(venue: Venue, t: BookingType, date: string): { code: string; message: string } | null {
  if (!venue.can_book) return { code: 'bookings_unavailable', message: 'This venue does not take bookings online' };
  const u = unavailableOn(venue, date);
  if (u) return { code: 'date_unavailable', message: u.unavailable_message || 'The venue is unavailable on this date' };
  const day = weekdayOf(date);
  const opening = openingOf(venue, day);
  if (!opening) return { code: 'venue_closed', message: `${venue.title} is closed on ${DAY_LABEL[day]}` };
  if (t.rules.days && !t.rules.days.includes(day)) {
    return {
      code: 'type_not_on_day',
      message: `${t.name} is available on ${t.rules.days.map((d) => DAY_LABEL[d]).join(', ')} only`,
    };
  }
  if (t.private_hire && !opening.privateHire)
    return { code: 'no_private_hire', message: `Private hire is not available on ${DAY_LABEL[day]}` };
  return null;
}

/** The slots a type offers on a business day, with DST handled on real instants. Cached. */
function dayPlan(venue: Venue, t: BookingType, date: string): DayPlan {
  let planCache = planCaches.get(venue);
  if (!planCache) planCaches.set(venue, (planCache = new Map()));
  const key = `${t.id}|${date}`;
  const cached = planCache.get(key);
  if (cached) return cached;
  const midnight = londonInstant(date, 0)!;
  const closed = dateClosedReason(venue, t, date);
  const opening = openingOf(venue, weekdayOf(date));
  let plan: DayPlan;
  if (closed || !opening) {
    plan = {
      reason: closed?.message ?? 'Closed',
      code: closed?.code ?? 'venue_closed',
      slots: [],
      closeInstant: midnight,
      closeLabel: '',
      midnight,
    };
  } else {
    const closeInstant = instantOf(date, opening.close);
    const w = windowOf(t);
    const slots: Slot[] = [];
    const seen = new Set<string>();
    for (let m = w.from; m <= w.to; m += w.interval) {
      if (m < opening.open || m >= opening.close) continue;
      const day = Math.floor(m / 1440);
      const instant = londonInstant(day ? addDays(date, day) : date, m % 1440);
      if (instant === null) continue; // the hour skipped when the clocks go forward
      if (instant >= closeInstant) continue;
      const label = formatTime(m);
      if (seen.has(label)) continue;
      seen.add(label);
      slots.push({ label, instant, offset: Math.round((instant - midnight) / 60_000) });
    }
    plan = {
      reason: slots.length ? null : `${t.name} has no start times on this date`,
      code: slots.length ? null : 'no_times',
      slots,
      closeInstant,
      closeLabel: formatTime(opening.close),
      midnight,
    };
  }
  if (planCache.size > 20_000) planCache.clear();
  planCache.set(key, plan);
  return plan;
}

/** People holding the venue (and each type) per 5-minute bucket of a business day. Cached per store revision. */
function occupancy(store: Store, venue: Venue, date: string, midnight: number) {
  let occupancyCache = occupancyCaches.get(store);
  if (!occupancyCache) occupancyCaches.set(store, (occupancyCache = new Map()));
  const key = `${venue._id}|${date}`;
  const cached = occupancyCache.get(key);
  if (cached && cached.revision === store.revision) return cached;
  const diffAll = new Int32Array(BUCKETS + 1);
  const diffType = new Map<string, Int32Array>();
  const opening = openingOf(venue, weekdayOf(date));
  for (const b of store.bookingsOn(venue._id, date)) {
    if (!holdsCapacity(b)) continue;
    const t = venue.booking_types.find((x) => x.id === b.type);
    const startMin = parseTime(b.time);
    if (startMin === null) continue;
    const business = opening && startMin < opening.open && opening.close > 1440 ? startMin + 1440 : startMin;
    const start = Math.round((instantOf(date, business) - midnight) / 60_000);
    const end =
      b.duration === -1 || (t && typeDurations(t)[0] === -1 && !b.duration)
        ? opening
          ? Math.round((instantOf(date, opening.close) - midnight) / 60_000)
          : start + 120
        : start + Math.max(BUCKET, b.duration || 120);
    const s = Math.max(0, Math.floor(start / BUCKET));
    const e = Math.min(BUCKETS, Math.ceil(end / BUCKET));
    if (e <= s) continue;
    diffAll[s]! += b.num_people;
    diffAll[e]! -= b.num_people;
    let d = diffType.get(b.type);
    if (!d) diffType.set(b.type, (d = new Int32Array(BUCKETS + 1)));
    d[s]! += b.num_people;
    d[e]! -= b.num_people;
  }
  const prefix = (diff: Int32Array) => {
    const out = new Int32Array(BUCKETS);
    let run = 0;
    for (let i = 0; i < BUCKETS; i++) out[i] = run += diff[i]!;
    return out;
  };
  const result = {
    revision: store.revision,
    all: prefix(diffAll),
    byType: new Map([...diffType].map(([k, v]) => [k, prefix(v)])),
  };
  if (occupancyCache.size > 20_000) occupancyCache.clear();
  occupancyCache.set(key, result);
  return result;
}

function peak(arr: Int32Array | undefined, fromMin: number, toMin: number): number {
  if (!arr) return 0;
  let max = 0;
  const e = Math.min(BUCKETS, Math.ceil(toMin / BUCKET));
  for (let i = Math.max(0, Math.floor(fromMin / BUCKET)); i < e; i++) if (arr[i]! > max) max = arr[i]!;
  return max;
}

/** Result of checking one start time for one type. */
interface TimeCheck {
  valid: boolean;
  action: Action;
  code?: string;
  message?: string;
  endInstant?: number;
}

/** The verdict on a start time that has no room left: an enquiry may still be sent. */
const full = (endInstant: number): TimeCheck => ({
  valid: true,
  action: 'may_enquire',
  code: 'full',
  message: 'Fully booked at this time: you may send an enquiry',
  endInstant,
});

/** Whether same-day bookings have closed for today (the venue's `bookings_shut`). */
function shutToday(ctx: AvailabilityContext, venue: Venue, date: string): boolean {
  if (!venue.bookings_shut || date !== londonDate(ctx.now)) return false;
  const shut = parseTime(venue.bookings_shut);
  return shut !== null && londonMinutes(ctx.now) >= shut;
}

/** Whether `people` more would go over the venue's or the type's capacity at some moment of the booking. */
function overCapacity(
  ctx: AvailabilityContext,
  venue: Venue,
  t: BookingType,
  date: string,
  plan: DayPlan,
  slot: Slot,
  people: number,
  endInstant: number,
): boolean {
  const occ = occupancy(ctx.store, venue, date, plan.midnight);
  const endOffset = Math.round((endInstant - plan.midnight) / 60_000);
  const venueFull = peak(occ.all, slot.offset, endOffset) + people > venue.capacity;
  return (
    venueFull ||
    (t.rules.capacity !== undefined && peak(occ.byType.get(t.id), slot.offset, endOffset) + people > t.rules.capacity)
  );
}

/** Checks a slot against the clock, same-day closing, closing time and capacity (a `fully-booked` scenario fills every slot). */
function checkSlot(
  ctx: AvailabilityContext,
  venue: Venue,
  t: BookingType,
  date: string,
  plan: DayPlan,
  slot: Slot,
  people: number | undefined,
  duration: number | undefined,
): TimeCheck {
  if (slot.instant <= ctx.now)
    return { valid: false, action: 'reject', code: 'time_passed', message: 'This time has already passed' };
  if (shutToday(ctx, venue, date))
    return {
      valid: false,
      action: 'reject',
      code: 'bookings_shut',
      message: `Bookings for today closed at ${venue.bookings_shut}`,
    };
  const durs = typeDurations(t);
  const dur = duration ?? (durs.length ? Math.min(...durs.map((d) => (d === -1 ? Infinity : d))) : 120);
  const until = dur === -1 || dur === Infinity;
  const endInstant = until ? plan.closeInstant : slot.instant + dur * 60_000;
  if (endInstant > plan.closeInstant) {
    const message = `Would finish after closing time (${plan.closeLabel})`;
    return { valid: false, action: 'reject', code: 'past_closing', message, endInstant };
  }
  if (ctx.scenario?.fullyBooked) return full(endInstant);
  if (people !== undefined && overCapacity(ctx, venue, t, date, plan, slot, people, endInstant))
    return full(endInstant);
  return { valid: true, action: handlingFor(ctx, t), endInstant };
}

/** Why a party size does not fit a type, or null. */
function peopleReason(t: BookingType, n: number): string | null {
  const { min_people: min, max_people: max } = t.rules;
  if ((min != null && n < min) || (max != null && n > max)) {
    if (min != null && max != null) return `${t.name} is for ${min} to ${max} people`;
    return min != null ? `${t.name} is for at least ${min} people` : `${t.name} is for at most ${max} people`;
  }
  return null;
}

function err(field: Field, code: string, message: string): FieldError {
  return { code, message, fields: [field] };
}

/** The booking fields of a request as parsed: each undefined when absent or malformed. */
interface Parsed {
  type?: BookingType;
  num_people?: number;
  date?: string;
  time?: string;
  duration?: number;
}

/** How one booking field is read from a request: its value, or why it is unusable. */
interface FieldReading<T> {
  /** Its form on the wire, and one line on it, for the interface document. */
  kind: Kind;
  doc: string;
  /** Message when the field is absent (code `missing_<field>`); none for a field with a default. */
  missing?: string;
  /** Error when the field is present but unusable. */
  invalid: { code: string; message: string };
  read(raw: unknown, venue: Venue): T | undefined;
}

/**
 * The rule table of the five booking fields (§2.3): how each is read and what is wrong when it is
 * absent or malformed. A present but malformed value is an error on that field, never a crash.
 */
export const FIELD_READINGS: { [F in Field]-?: FieldReading<NonNullable<Parsed[F]>> } = {
  type: {
    kind: 'text',
    doc: 'Booking type id (send the id of a suggested type, never its name)',
    missing: 'Type is required',
    invalid: { code: 'invalid_type', message: 'Unknown booking type: send the id of one of the suggested types' },
    read: (raw, venue) => (typeof raw === 'string' ? venue.booking_types.find((t) => t.id === raw) : undefined),
  },
  num_people: {
    kind: 'int',
    doc: 'Number of guests, from 1',
    missing: 'Number of people is required',
    invalid: { code: 'invalid_num_people', message: 'Number of people must be a whole number from 1' },
    read: (raw) => {
      const n = int(raw);
      return n !== undefined && n >= 1 && n <= 1000 ? n : undefined;
    },
  },
  date: {
    kind: 'date',
    doc: 'YYYY-MM-DD (YYYY-MM-DDT00:00:00 as the live service echoes it is accepted)',
    missing: 'Date is required',
    invalid: { code: 'invalid_date', message: 'Date must be a real date in the form YYYY-MM-DD' },
    read: (raw) => {
      const date = typeof raw === 'string' ? raw.replace(/T00:00(:00)?$/, '') : '';
      return isDate(date) ? date : undefined;
    },
  },
  time: {
    kind: 'time',
    doc: '24-hour HH:mm',
    missing: 'Time is required',
    invalid: { code: 'invalid_time', message: 'Time must be a 24-hour time in the form HH:mm' },
    read: (raw) => (parseTime(raw) !== null ? (raw as string) : undefined),
  },
  duration: {
    kind: 'duration',
    doc: 'Send back a value a suggestion gave: decimal hours (spec dialect) or minutes (live); -1 until close',
    invalid: { code: 'invalid_duration', message: 'Duration must be a positive number' },
    read: (raw) => durationMinutes(raw),
  },
};

/** One availability computation in progress: the parsed request, its field errors and what they imply. */
interface Assessment extends Parsed {
  ctx: AvailabilityContext;
  venue: Venue;
  today: string;
  live: boolean;
  errors: Partial<Record<Field, FieldError[]>>;
  /** The chosen type's plan of the chosen date (a date from today on). */
  plan?: DayPlan;
  /** The chosen start time, checked against clock, closing time and capacity. */
  timeCheck?: TimeCheck;
  /** Offers this (partner) client may use, when getOffers asked for them. */
  offers?: Offer[];
  /** The types suggestions consider: the chosen one, else every type of the venue. */
  types: BookingType[];
}

function addError(a: Assessment, field: Field, code: string, message: string): void {
  (a.errors[field] ??= []).push(err(field, code, message));
}

const hasError = (a: Assessment, field: Field) => !!a.errors[field]?.length;

/** Suggestion messages: the spec dialect explains, the live service sends null. */
const message = (a: Assessment, text: string | null | undefined) => (a.live ? null : (text ?? null));

/** Stage 1: reads every booking field through {@link FIELD_READINGS}. */
function readFields(a: Assessment, req: AvailabilityRequest): void {
  for (const field of FIELDS) {
    const rule = FIELD_READINGS[field] as FieldReading<unknown>;
    const raw = req[field];
    if (raw === undefined || raw === '') {
      if (rule.missing) addError(a, field, `missing_${field}`, rule.missing);
      continue;
    }
    const value = rule.read(raw, a.venue);
    if (value === undefined) addError(a, field, rule.invalid.code, rule.invalid.message);
    else (a as unknown as Record<Field, unknown>)[field] = value;
  }
}

/** Stage 2, the cross-field rules: each reads the parsed values and adds field errors. In order. */
const CROSS_FIELD_RULES: ((a: Assessment) => void)[] = [
  function partySizeFitsType(a) {
    const reason = a.type && a.num_people !== undefined ? peopleReason(a.type, a.num_people) : null;
    if (reason) addError(a, 'num_people', 'num_people_out_of_range', reason);
  },
  function dateOpenForType(a) {
    if (a.date === undefined) return;
    if (a.date < a.today) return addError(a, 'date', 'date_passed', 'This date is in the past');
    if (!a.type) return;
    a.plan = dayPlan(a.venue, a.type, a.date);
    if (a.plan.reason) addError(a, 'date', a.plan.code ?? 'date_unavailable', a.plan.reason);
  },
  function durationOfType(a) {
    if (!a.type) return;
    const durations = typeDurations(a.type);
    if (a.duration !== undefined && !durations.includes(a.duration)) {
      addError(a, 'duration', 'invalid_duration', `${a.type.name} lasts ${durations.map(durationLabel).join(' or ')}`);
    }
    if (a.duration === undefined && !hasError(a, 'duration')) {
      if (durations.length === 1) a.duration = durations[0];
      else if (durations.length > 1) addError(a, 'duration', 'missing_duration', 'Duration is required');
    }
  },
  function timeBookable(a) {
    const { type, plan, time } = a;
    if (!type || !plan || plan.reason || time === undefined) return;
    const slot = plan.slots.find((s) => s.label === time);
    if (!slot) return addError(a, 'time', 'time_unavailable', `${type.name} does not start at ${time} on this date`);
    const duration = validDuration(a);
    a.timeCheck = checkSlot(a.ctx, a.venue, type, a.date!, plan, slot, a.num_people, duration);
    if (!a.timeCheck.valid) {
      const field: Field = a.timeCheck.code === 'past_closing' && duration !== undefined ? 'duration' : 'time';
      addError(a, field, a.timeCheck.code ?? 'time_unavailable', a.timeCheck.message ?? 'Not available');
    }
  },
];

/** The chosen duration when it is valid. */
const validDuration = (a: Assessment) =>
  a.duration !== undefined && !hasError(a, 'duration') ? a.duration : undefined;

/** Ids of the usable offers that match some booking details. */
function offerIds(a: Assessment, q: OfferQuery): string[] {
  return a.offers!.filter((o) => matches(o, q)).map((o) => o._id);
}

/** The offers block of a suggestion, when getOffers asked for one. */
const offersOf = (a: Assessment, q: () => OfferQuery) => (a.offers ? { offers: offerIds(a, q()) } : {});

/** A field's validation object (§2.2): errors when invalid (live: always an `errors` array). */
function fieldResult(
  a: Assessment,
  field: Field,
  suggestedValues: unknown[],
  extra?: Partial<FieldValidation>,
): FieldValidation {
  const errors = a.errors[field] ?? [];
  return {
    valid: errors.length === 0,
    ...(errors.length ? { errors } : a.live ? { errors: [] } : {}),
    suggestedValues,
    ...extra,
  };
}

/** Why a type cannot take the chosen party, date and time, or null. */
function typeReason(a: Assessment, t: BookingType): string | null {
  const { num_people: people, date, time, today } = a;
  if (people !== undefined) {
    const reason = peopleReason(t, people);
    if (reason) return reason;
  }
  if (date === undefined || date < today) return null;
  const plan = dayPlan(a.venue, t, date);
  if (plan.reason) return plan.reason;
  if (time !== undefined && !plan.slots.some((s) => s.label === time))
    return `${t.name} does not start at ${time} on this date`;
  return null;
}

/** A type as suggested: the live service names more of its traits, in camelCase. */
function typeValue(ctx: AvailabilityContext, t: BookingType, live: boolean) {
  return live
    ? {
        id: t.id,
        name: t.name,
        guestlist: !!t.guestlist,
        privateHire: !!t.private_hire,
        autoconfirmable: autoconfirms(ctx, t),
        availableLinkedTypes: t.linked_types ?? [],
      }
    : { id: t.id, name: t.name, guestlist: !!t.guestlist, private_hire: !!t.private_hire };
}

function suggestTypes(a: Assessment): FieldValidation {
  const items = a.venue.booking_types.map((t) => {
    const reason = typeReason(a, t);
    return {
      value: typeValue(a.ctx, t, a.live),
      valid: reason === null,
      message: message(a, reason),
      ...(a.live ? { errors: reason ? [err('type', 'type_unavailable', reason)] : [] } : {}),
      ...offersOf(a, () => ({ type: t.id, num_people: a.num_people, date: a.date, time: a.time })),
    };
  });
  return fieldResult(a, 'type', items);
}

function suggestPartySizes(a: Assessment): FieldValidation {
  const { type, venue, types } = a;
  const min = type ? (type.rules.min_people ?? null) : (venue.min_people ?? null);
  const max = type ? (type.rules.max_people ?? null) : (venue.max_people ?? null);
  const top = Math.min(60, max ?? Math.max(20, ...types.map((t) => t.rules.max_people ?? 0)));
  const items = [];
  for (let n = 1; n <= top; n++) {
    const reasons = types.map((t) => peopleReason(t, n));
    const ok = reasons.some((r) => r === null);
    items.push({
      value: n,
      valid: ok,
      message: message(a, ok ? null : type ? reasons[0] : `No booking type takes ${n} people`),
    });
  }
  return fieldResult(a, 'num_people', items, { rules: { min, max } });
}

/** Why no type that takes the party can be booked on a date, or null. */
function dateReason(a: Assessment, date: string): string | null {
  const { ctx, venue, type, num_people: people, today } = a;
  const candidates = a.types.filter((t) => people === undefined || peopleReason(t, people) === null);
  if (!candidates.length)
    return type && people !== undefined ? peopleReason(type, people) : 'No booking type takes this party size';
  const reasons = candidates.map((t) => {
    const plan = dayPlan(venue, t, date);
    if (plan.reason) return plan.reason;
    if (
      date === today &&
      !plan.slots.some((s) => checkSlot(ctx, venue, t, date, plan, s, undefined, undefined).valid)
    ) {
      return venue.bookings_shut && londonMinutes(ctx.now) >= (parseTime(venue.bookings_shut) ?? 1440)
        ? `Bookings for today closed at ${venue.bookings_shut}`
        : 'No start times left today';
    }
    return null;
  });
  return reasons.some((r) => r === null) ? null : reasons[0]!;
}

function suggestDates(a: Assessment): FieldValidation {
  const items = [];
  for (let i = 0; i < DATE_HORIZON_DAYS; i++) {
    const date = addDays(a.today, i);
    const reason = dateReason(a, date);
    items.push(
      a.live
        ? { date, valid: reason === null, message: null }
        : { value: date, valid: reason === null, message: reason },
    );
  }
  return fieldResult(a, 'date', items);
}

/** The best answer so far for one start time, over the types that offer it. */
interface TimeOption {
  valid: boolean;
  action: Action;
  message: string | null;
  offset: number;
  offers?: string[];
}

/** Whether a type may start at business minute `m` on some day it runs (type chosen, no date). */
function startsOnSomeDay(venue: Venue, t: BookingType, m: number): boolean {
  return (Object.keys(DAY_LABEL) as Weekday[]).some((d) => {
    const o = openingOf(venue, d);
    return (
      o &&
      (!t.rules.days || t.rules.days.includes(d)) &&
      (!t.private_hire || o.privateHire) &&
      m >= o.open &&
      m < o.close
    );
  });
}

function suggestTimes(a: Assessment): FieldValidation {
  const { ctx, venue, date, today } = a;
  const byLabel = new Map<string, TimeOption>();
  const consider = (label: string, offset: number, check: TimeCheck, t: BookingType) => {
    const prev = byLabel.get(label);
    if (prev && ((prev.valid && !check.valid) || ACTION_RANK[prev.action] >= ACTION_RANK[check.action])) return;
    byLabel.set(label, {
      valid: check.valid,
      action: check.action,
      message: check.message ?? null,
      offset,
      ...offersOf(a, () => ({ type: t.id, num_people: a.num_people, date, time: label })),
    });
  };
  for (const t of a.types) {
    if (a.num_people !== undefined && peopleReason(t, a.num_people)) continue;
    if (date !== undefined && date >= today) {
      const plan = dayPlan(venue, t, date);
      const duration = t === a.type ? validDuration(a) : undefined;
      for (const s of plan.slots)
        consider(s.label, s.offset, checkSlot(ctx, venue, t, date, plan, s, a.num_people, duration), t);
    } else if (date === undefined) {
      // Type alone: the type's start times on any date (open on at least one of its days).
      const w = windowOf(t);
      for (let m = w.from; m <= w.to; m += w.interval) {
        if (startsOnSomeDay(venue, t, m)) consider(formatTime(m), m, { valid: true, action: handlingFor(a.ctx, t) }, t);
      }
    }
  }
  const items = [...byLabel.entries()]
    .sort((x, y) => x[1].offset - y[1].offset)
    .map(([label, v]) =>
      a.live
        ? { time: label, valid: v.valid, action: v.action, message: null, ...(v.offers ? { offers: v.offers } : {}) }
        : {
            value: label,
            valid: v.valid,
            message: v.message,
            action: v.action,
            ...(v.offers ? { offers: v.offers } : {}),
          },
    );
  return fieldResult(a, 'time', items);
}

function suggestDurations(a: Assessment): FieldValidation {
  const { type, plan, time } = a;
  const options = [...new Set(a.types.flatMap(typeDurations))].sort((x, y) => (x === -1 ? 1 : y === -1 ? -1 : x - y));
  const slot =
    type && plan && !plan.reason && time !== undefined ? plan.slots.find((s) => s.label === time) : undefined;
  const items = options.map((d) => {
    let reason: string | null = null;
    let endTime: string | undefined;
    if (slot && plan) {
      const end = d === -1 ? plan.closeInstant : slot.instant + d * 60_000;
      endTime = formatTime(londonMinutes(end));
      if (end > plan.closeInstant) reason = `Would finish after closing time (${plan.closeLabel})`;
    }
    return {
      value: durationOut(d, a.ctx.dialect),
      label: durationLabel(d),
      ...(endTime ? { endTime } : {}),
      valid: reason === null,
      message: message(a, reason),
      ...offersOf(a, () => ({ type: type?.id, num_people: a.num_people, date: a.date, time })),
    };
  });
  return fieldResult(a, 'duration', items);
}

/** Stage 3, the suggestion table: the validation object of each field (only wanted fields are computed). */
const SUGGESTIONS: Record<Field, (a: Assessment) => FieldValidation> = {
  type: suggestTypes,
  num_people: suggestPartySizes,
  date: suggestDates,
  time: suggestTimes,
  duration: suggestDurations,
};

/** How a type handles a booking that fits: confirmed (accept) or taken as an enquiry. */
const handlingFor = (ctx: AvailabilityContext, t: BookingType): Action => (autoconfirms(ctx, t) ? 'accept' : 'enquire');

/**
 * Stage 4: the top-level action. A complete request takes its start time's verdict. An incomplete
 * one is `reject` live (observed); the spec dialect tells how the type would be handled.
 */
function decideAction(a: Assessment, complete: boolean): Action {
  if (complete && a.timeCheck) return a.timeCheck.action;
  if (a.live) return 'reject';
  const invalidGiven = FIELDS.some((f) => a.errors[f]?.some((e) => !e.code.startsWith('missing_')));
  return invalidGiven || !a.type ? 'reject' : handlingFor(a.ctx, a.type);
}

/** The booking fields accepted so far (§2.2 bookingDetails); the live dialect's own forms. */
function bookingDetailsOf(a: Assessment): Record<string, unknown> {
  const details: Record<string, unknown> = { venue_id: a.venue._id, venue_group: a.venue.venue_group };
  if (a.type && !hasError(a, 'type')) details.type = a.type.id;
  if (a.num_people !== undefined && !hasError(a, 'num_people')) details.num_people = a.num_people;
  if (a.date !== undefined && !hasError(a, 'date')) details.date = a.live ? `${a.date}T00:00:00` : a.date;
  if (a.time !== undefined && !hasError(a, 'time')) details.time = a.time;
  if (validDuration(a) !== undefined) details.duration = durationOut(a.duration!, a.ctx.dialect);
  if (a.live) details.payments = [];
  return details;
}

/** Stages 1 and 2: reads the booking fields and applies the cross-field rules. */
function assess(ctx: AvailabilityContext, venue: Venue, req: AvailabilityRequest): Assessment {
  const a: Assessment = {
    ctx,
    venue,
    today: londonDate(ctx.now),
    live: ctx.dialect === 'live',
    errors: {},
    types: venue.booking_types,
  };
  readFields(a, req);
  for (const rule of CROSS_FIELD_RULES) rule(a);
  if (a.type) a.types = [a.type];
  return a;
}

/**
 * How a booking with every field would be handled, decided from its own fields: the action of its
 * start time (`accept`, `enquire`, `may_enquire`), or `reject` when a field does not fit. A booking
 * without a duration is judged on the type's default duration, in both dialects.
 */
export function verdictOf(
  ctx: AvailabilityContext,
  venue: Venue,
  b: { type: string; num_people: number; date: string; time: string; duration?: number },
): Action {
  const type = venue.booking_types.find((t) => t.id === b.type);
  const duration = b.duration ?? (type ? defaultDuration(type) : undefined);
  const a = assess(ctx, venue, { ...b, duration });
  return FIELDS.every((f) => !hasError(a, f)) && a.timeCheck ? a.timeCheck.action : 'reject';
}

/** The hand-off (§2.2 `next`): the web URL, and the API URL unless a deposit or pre-orders need the web page. */
function nextOf(a: Assessment): Record<string, string> {
  const type = a.type && !hasError(a, 'type') ? a.type : undefined;
  const web = webUrl(a.ctx, a.venue, {
    type: type?.id,
    num_people: hasError(a, 'num_people') ? undefined : a.num_people,
    date: hasError(a, 'date') ? undefined : a.date,
    time: hasError(a, 'time') ? undefined : a.time,
    duration: validDuration(a),
  });
  return needsWeb(a) ? { web } : { web, api: `${a.ctx.publicUrl}/v4/bookings` };
}

const depositRequiredOf = (a: Assessment) => !!a.type && depositPerPerson(a.ctx, a.type) > 0;
const needsWeb = (a: Assessment) => depositRequiredOf(a) || a.type?.rules.preorders === 'required';

/**
 * Computes the availability result (§2.2) for one venue. Never throws on bad values: they become
 * field errors. `fields=next` (observed live) computes no field: `validation` holds only
 * `next: {valid: true}`, and `next` is there with the fields sent so far.
 */
export function computeAvailability(
  ctx: AvailabilityContext,
  venue: Venue,
  req: AvailabilityRequest,
): Record<string, unknown> {
  const a = assess(ctx, venue, req);
  if (req.getOffers)
    a.offers = ctx.store.offers.filter(
      (o) => o.page_id === venue._id && availableToPartners(o) && isVisible(o, ctx.now),
    );
  const asked: readonly (Field | 'next')[] = req.fields?.length ? req.fields : FIELDS;
  const wanted = FIELDS.filter((f) => asked.includes(f));
  const asksNext = asked.includes('next');
  const validation: Record<string, unknown> = {};
  for (const field of wanted) validation[field] = SUGGESTIONS[field](a);
  if (asksNext) validation.next = { valid: true };

  const complete = FIELDS.every((f) => !hasError(a, f));
  const action = decideAction(a, complete);
  const result: Record<string, unknown> = {
    valid: wanted.every((f) => !hasError(a, f)),
    validation,
    action,
    depositRequired: depositRequiredOf(a),
    preordersAvailable: (a.type?.rules.preorders ?? 'none') !== 'none',
    bookingDetails: bookingDetailsOf(a),
  };
  if (asksNext || (complete && action !== 'reject')) result.next = nextOf(a);
  return result;
}

/** The hosted booking page URL for the details given (durations in minutes, as the booking site uses). */
export function webUrl(
  ctx: { publicUrl: string; dialect: Dialect },
  venue: Venue,
  d: { type?: string; num_people?: number; date?: string; time?: string; duration?: number },
): string {
  const q = new URLSearchParams({ venue_group: venue.venue_group, venue_id: venue._id });
  for (const key of ['type', 'num_people', 'date', 'time', 'duration'] as const)
    if (d[key] !== undefined) q.set(key, String(d[key]));
  // The live booking site's URL ends in a bare `&source`; the spec dialect names the source.
  return `${ctx.publicUrl}/book?${q.toString()}${ctx.dialect === 'live' ? '&source' : '&source=partner'}`;
}

/** Exposed for booking-rules and the web page: what a type offers on a date. */
export function slotsFor(
  venue: Venue,
  t: BookingType,
  date: string,
): { reason: string | null; times: string[]; close: string } {
  const p = dayPlan(venue, t, date);
  return { reason: p.reason, times: p.slots.map((s) => s.label), close: p.closeLabel };
}
