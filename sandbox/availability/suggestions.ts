/**
 * Stage 3 of availability: the suggestion table. For each booking field, its validation object
 * (§2.2): whether the value sent is valid and every value worth suggesting, each with its own
 * verdict, over the types that take the party (and their offers when getOffers asked).
 */

import type { FieldError } from '../http.js';
import { matches, type OfferQuery } from '../offers.js';
import { addDays, durationLabel, formatTime, londonMinutes, parseTime } from '../time.js';
import type { BookingType } from '../types.js';
import { dayPlan, startsOnSomeDay, windowOf } from './day-plan.js';
import { err, validDuration, type Assessment } from './fields.js';
import {
  autoconfirms,
  durationOut,
  handlingFor,
  peopleReason,
  typeDurations,
  type Action,
  type AvailabilityContext,
  type Field,
} from './model.js';
import { checkSlot, type TimeCheck } from './slot-check.js';

/** How far ahead date suggestions reach. */
export const DATE_HORIZON_DAYS = 90;

/** Which action wins when several types offer one start time: the most favourable. */
const ACTION_RANK: Record<Action, number> = { accept: 3, enquire: 2, may_enquire: 1, reject: 0 };

/** The validation object of one field (§2.2). */
export interface FieldValidation {
  valid: boolean;
  errors?: FieldError[];
  suggestedValues: unknown[];
  rules?: { min: number | null; max: number | null };
}

/** Suggestion messages: the spec dialect explains, the live service sends null. */
const message = (a: Assessment, text: string | null | undefined) => (a.live ? null : (text ?? null));

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

/** Every type of the venue, valid when it takes the party, date and time chosen. */
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

/** Party sizes from 1 (up to 60), valid when some considered type takes them; with the limits as `rules`. */
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

/** The dates from today over {@link DATE_HORIZON_DAYS}, valid when some type that takes the party can be booked. */
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

/**
 * The start times of the considered types on the chosen date (or, with no date, on any day they
 * run), each with the best verdict any type gives it, in order of the day.
 */
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

/** The durations of the considered types, shortest first (until close last), checked against closing time. */
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
export const SUGGESTIONS: Record<Field, (a: Assessment) => FieldValidation> = {
  type: suggestTypes,
  num_people: suggestPartySizes,
  date: suggestDates,
  time: suggestTimes,
  duration: suggestDurations,
};
