/**
 * Stages 1 and 2 of availability: each booking field read from the request through its rule table,
 * then the cross-field rules (party size for the type, the date's plan, the type's durations, the
 * start time's check), into an {@link Assessment} that the suggestions and the verdict read.
 */

import { int, type FieldError } from '../http.js';
import type { Kind } from '../schema.js';
import { durationLabel, isDate, londonDate, parseTime } from '../time.js';
import type { BookingType, Offer, Venue } from '../types.js';
import { dayPlan, type DayPlan } from './day-plan.js';
import {
  durationMinutes,
  FIELDS,
  peopleReason,
  typeDurations,
  type AvailabilityContext,
  type AvailabilityRequest,
  type Field,
} from './model.js';
import { checkSlot, type TimeCheck } from './slot-check.js';

/** A field error naming its one field, as the live service sends them. */
export function err(field: Field, code: string, message: string): FieldError {
  return { code, message, fields: [field] };
}

/** The booking fields of a request as parsed: each undefined when absent or malformed. */
export interface Parsed {
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
export interface Assessment extends Parsed {
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

/** Records an error on a field; a field may collect several. */
function addError(a: Assessment, field: Field, code: string, message: string): void {
  (a.errors[field] ??= []).push(err(field, code, message));
}

/** Whether a field has an error: what the suggestions, the verdict and `valid` read. */
export const hasError = (a: Assessment, field: Field) => !!a.errors[field]?.length;

/** The chosen duration when it is valid. */
export const validDuration = (a: Assessment) =>
  a.duration !== undefined && !hasError(a, 'duration') ? a.duration : undefined;

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

/** Stages 1 and 2: reads the booking fields and applies the cross-field rules. */
export function assess(ctx: AvailabilityContext, venue: Venue, req: AvailabilityRequest): Assessment {
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
