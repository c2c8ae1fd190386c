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
import { availableToPartners, isVisible, matches } from './offers.js';
import { int, num, type FieldError } from './http.js';
import { isDate } from './time.js';
import type { BookingType, Offer, Venue } from './types.js';

/** 'spec' answers as api-spec.md; 'live' as real-api-notes.md. */
export type Dialect = 'spec' | 'live';

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
  /** Restricts computed validation keys (`fields=`); all when absent. */
  fields?: Field[];
}

/** Options the computation depends on besides the store. */
export interface AvailabilityContext {
  store: Store;
  now: number;
  dialect: Dialect;
  publicUrl: string;
}

type Action = 'accept' | 'enquire' | 'may_enquire' | 'reject';
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

/** Checks a slot against the clock, closing time and capacity. */
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
  const handling: Action = t.rules.autoconfirm ? 'accept' : 'enquire';
  if (slot.instant <= ctx.now)
    return { valid: false, action: 'reject', code: 'time_passed', message: 'This time has already passed' };
  if (venue.bookings_shut && date === londonDate(ctx.now)) {
    const shut = parseTime(venue.bookings_shut);
    if (shut !== null && londonMinutes(ctx.now) >= shut) {
      return {
        valid: false,
        action: 'reject',
        code: 'bookings_shut',
        message: `Bookings for today closed at ${venue.bookings_shut}`,
      };
    }
  }
  const durs = typeDurations(t);
  const dur = duration ?? (durs.length ? Math.min(...durs.map((d) => (d === -1 ? Infinity : d))) : 120);
  const until = dur === -1 || dur === Infinity;
  const endInstant = until ? plan.closeInstant : slot.instant + dur * 60_000;
  if (endInstant > plan.closeInstant) {
    return {
      valid: false,
      action: 'reject',
      code: 'past_closing',
      message: `Would finish after closing time (${plan.closeLabel})`,
      endInstant,
    };
  }
  if (people !== undefined) {
    const occ = occupancy(ctx.store, venue, date, plan.midnight);
    const endOffset = Math.round((endInstant - plan.midnight) / 60_000);
    const venueFull = peak(occ.all, slot.offset, endOffset) + people > venue.capacity;
    const typeFull =
      t.rules.capacity !== undefined && peak(occ.byType.get(t.id), slot.offset, endOffset) + people > t.rules.capacity;
    if (venueFull || typeFull) {
      return {
        valid: true,
        action: 'may_enquire',
        code: 'full',
        message: 'Fully booked at this time: you may send an enquiry',
        endInstant,
      };
    }
  }
  return { valid: true, action: handling, endInstant };
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

/** Computes the availability result (§2.2) for one venue. Never throws on bad values: they become field errors. */
export function computeAvailability(
  ctx: AvailabilityContext,
  venue: Venue,
  req: AvailabilityRequest,
): Record<string, unknown> {
  const { dialect } = ctx;
  const live = dialect === 'live';
  const today = londonDate(ctx.now);
  const wanted = new Set<Field>(req.fields?.length ? req.fields : FIELDS);
  const errors: Partial<Record<Field, FieldError[]>> = {};
  const addErr = (f: Field, code: string, message: string) => (errors[f] ??= []).push(err(f, code, message));
  const msg = (m: string | null | undefined) => (live ? null : (m ?? null));

  // --- parse each field; a present but malformed value is an error on that field ---
  let type: BookingType | undefined;
  if (req.type !== undefined && req.type !== '') {
    type = typeof req.type === 'string' ? venue.booking_types.find((t) => t.id === req.type) : undefined;
    if (!type) addErr('type', 'invalid_type', 'Unknown booking type: send the id of one of the suggested types');
  } else addErr('type', 'missing_type', 'Type is required');

  let people: number | undefined;
  if (req.num_people !== undefined && req.num_people !== '') {
    people = int(req.num_people);
    if (people === undefined || people < 1 || people > 1000) {
      addErr('num_people', 'invalid_num_people', 'Number of people must be a whole number from 1');
      people = undefined;
    }
  } else addErr('num_people', 'missing_num_people', 'Number of people is required');

  let date: string | undefined;
  if (req.date !== undefined && req.date !== '') {
    const raw = typeof req.date === 'string' ? req.date.replace(/T00:00(:00)?$/, '') : '';
    if (isDate(raw)) date = raw;
    else addErr('date', 'invalid_date', 'Date must be a real date in the form YYYY-MM-DD');
  } else addErr('date', 'missing_date', 'Date is required');

  let time: string | undefined;
  if (req.time !== undefined && req.time !== '') {
    if (parseTime(req.time) !== null) time = req.time as string;
    else addErr('time', 'invalid_time', 'Time must be a 24-hour time in the form HH:mm');
  } else addErr('time', 'missing_time', 'Time is required');

  let duration: number | undefined;
  if (req.duration !== undefined && req.duration !== '') {
    duration = durationMinutes(req.duration);
    if (duration === undefined) addErr('duration', 'invalid_duration', 'Duration must be a positive number');
  }

  // --- cross-field rules on the parsed values ---
  if (type && people !== undefined) {
    const r = peopleReason(type, people);
    if (r) addErr('num_people', 'num_people_out_of_range', r);
  }
  if (date !== undefined && date < today) addErr('date', 'date_passed', 'This date is in the past');
  let plan: DayPlan | undefined;
  if (type && date !== undefined && date >= today) {
    plan = dayPlan(venue, type, date);
    if (plan.reason) addErr('date', plan.code ?? 'date_unavailable', plan.reason);
  }
  const durs = type ? typeDurations(type) : [];
  if (type && duration !== undefined && !durs.includes(duration)) {
    addErr('duration', 'invalid_duration', `${type.name} lasts ${durs.map(durationLabel).join(' or ')}`);
  }
  if (type && duration === undefined && !errors.duration?.length) {
    if (durs.length === 1) duration = durs[0];
    else if (durs.length > 1) addErr('duration', 'missing_duration', 'Duration is required');
  }
  let timeCheck: TimeCheck | undefined;
  if (type && plan && !plan.reason && time !== undefined) {
    const slot = plan.slots.find((s) => s.label === time);
    if (!slot) addErr('time', 'time_unavailable', `${type.name} does not start at ${time} on this date`);
    else {
      const durOk = duration !== undefined && !errors.duration?.length ? duration : undefined;
      timeCheck = checkSlot(ctx, venue, type, date!, plan, slot, people, durOk);
      if (!timeCheck.valid) {
        const field: Field = timeCheck.code === 'past_closing' && durOk !== undefined ? 'duration' : 'time';
        addErr(field, timeCheck.code ?? 'time_unavailable', timeCheck.message ?? 'Not available');
      }
    }
  }

  // --- offers usable by this (partner) client, visible now, on the right venue ---
  const offers: Offer[] | undefined = req.getOffers
    ? ctx.store.offers.filter((o) => o.page_id === venue._id && availableToPartners(o) && isVisible(o, ctx.now))
    : undefined;
  const offerIds = (q: { type?: string; num_people?: number; date?: string; time?: string }) =>
    offers!.filter((o) => matches(o, q)).map((o) => o._id);

  // --- suggestions, only for wanted fields ---
  const validation: Partial<Record<Field, FieldValidation>> = {};
  const types = type ? [type] : venue.booking_types;
  const fieldResult = (f: Field, suggestedValues: unknown[], extra?: Partial<FieldValidation>): FieldValidation => {
    const e = errors[f] ?? [];
    return {
      valid: e.length === 0,
      ...(e.length ? { errors: e } : live ? { errors: [] } : {}),
      suggestedValues,
      ...extra,
    };
  };

  if (wanted.has('type')) {
    const items = venue.booking_types.map((t) => {
      let reason: string | null = null;
      if (people !== undefined) reason = peopleReason(t, people);
      if (!reason && date !== undefined && date >= today) reason = dayPlan(venue, t, date).reason;
      if (
        !reason &&
        date !== undefined &&
        time !== undefined &&
        date >= today &&
        !dayPlan(venue, t, date).slots.some((s) => s.label === time)
      ) {
        reason = `${t.name} does not start at ${time} on this date`;
      }
      const value = live
        ? {
            id: t.id,
            name: t.name,
            guestlist: !!t.guestlist,
            privateHire: !!t.private_hire,
            autoconfirmable: t.rules.autoconfirm,
            availableLinkedTypes: t.linked_types ?? [],
          }
        : { id: t.id, name: t.name, guestlist: !!t.guestlist, private_hire: !!t.private_hire };
      return {
        value,
        valid: reason === null,
        message: msg(reason),
        ...(live ? { errors: reason ? [err('type', 'type_unavailable', reason)] : [] } : {}),
        ...(offers ? { offers: offerIds({ type: t.id, num_people: people, date, time }) } : {}),
      };
    });
    validation.type = fieldResult('type', items);
  }

  if (wanted.has('num_people')) {
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
        message: msg(ok ? null : type ? reasons[0] : `No booking type takes ${n} people`),
      });
    }
    validation.num_people = fieldResult('num_people', items, { rules: { min, max } });
  }

  if (wanted.has('date')) {
    const items = [];
    for (let i = 0; i < DATE_HORIZON_DAYS; i++) {
      const d = addDays(today, i);
      let reason: string | null;
      const candidates = types.filter((t) => people === undefined || peopleReason(t, people) === null);
      if (!candidates.length)
        reason = type && people !== undefined ? peopleReason(type, people) : 'No booking type takes this party size';
      else {
        const reasons = candidates.map((t) => {
          const p = dayPlan(venue, t, d);
          if (p.reason) return p.reason;
          if (d === today && !p.slots.some((s) => checkSlot(ctx, venue, t, d, p, s, undefined, undefined).valid)) {
            return venue.bookings_shut && londonMinutes(ctx.now) >= (parseTime(venue.bookings_shut) ?? 1440)
              ? `Bookings for today closed at ${venue.bookings_shut}`
              : 'No start times left today';
          }
          return null;
        });
        reason = reasons.some((r) => r === null) ? null : reasons[0]!;
      }
      items.push(
        live
          ? { date: d, valid: reason === null, message: null }
          : { value: d, valid: reason === null, message: reason },
      );
    }
    validation.date = fieldResult('date', items);
  }

  if (wanted.has('time')) {
    const byLabel = new Map<
      string,
      { valid: boolean; action: Action; message: string | null; offset: number; offers?: string[] }
    >();
    const consider = (label: string, offset: number, check: TimeCheck, t: BookingType) => {
      const prev = byLabel.get(label);
      if (prev && ((prev.valid && !check.valid) || ACTION_RANK[prev.action] >= ACTION_RANK[check.action])) return;
      byLabel.set(label, {
        valid: check.valid,
        action: check.action,
        message: check.message ?? null,
        offset,
        ...(offers ? { offers: offerIds({ type: t.id, num_people: people, date, time: label }) } : {}),
      });
    };
    for (const t of types) {
      if (people !== undefined && peopleReason(t, people)) continue;
      if (date !== undefined && date >= today) {
        const p = dayPlan(venue, t, date);
        const dur = t === type && duration !== undefined && !errors.duration?.length ? duration : undefined;
        for (const s of p.slots) consider(s.label, s.offset, checkSlot(ctx, venue, t, date, p, s, people, dur), t);
      } else if (date === undefined) {
        // Type alone: the type's start times on any date (open on at least one of its days).
        const w = windowOf(t);
        for (let m = w.from; m <= w.to; m += w.interval) {
          const open = (Object.keys(DAY_LABEL) as Weekday[]).some((d) => {
            const o = openingOf(venue, d);
            return (
              o &&
              (!t.rules.days || t.rules.days.includes(d)) &&
              (!t.private_hire || o.privateHire) &&
              m >= o.open &&
              m < o.close
            );
          });
          if (open) {
            const action: Action = t.rules.autoconfirm ? 'accept' : 'enquire';
            consider(formatTime(m), m, { valid: true, action }, t);
          }
        }
      }
    }
    const items = [...byLabel.entries()]
      .sort((a, b) => a[1].offset - b[1].offset)
      .map(([label, v]) =>
        live
          ? { time: label, valid: v.valid, action: v.action, message: null, ...(v.offers ? { offers: v.offers } : {}) }
          : {
              value: label,
              valid: v.valid,
              message: v.message,
              action: v.action,
              ...(v.offers ? { offers: v.offers } : {}),
            },
      );
    validation.time = fieldResult('time', items);
  }

  if (wanted.has('duration')) {
    const options = [...new Set(types.flatMap(typeDurations))].sort((a, b) => (a === -1 ? 1 : b === -1 ? -1 : a - b));
    let slot: Slot | undefined;
    if (type && plan && !plan.reason && time !== undefined) slot = plan.slots.find((s) => s.label === time);
    const items = options.map((d) => {
      let reason: string | null = null;
      let endTime: string | undefined;
      if (slot && plan) {
        const end = d === -1 ? plan.closeInstant : slot.instant + d * 60_000;
        endTime = formatTime(londonMinutes(end));
        if (end > plan.closeInstant) reason = `Would finish after closing time (${plan.closeLabel})`;
      }
      return {
        value: durationOut(d, dialect),
        label: durationLabel(d),
        ...(endTime ? { endTime } : {}),
        valid: reason === null,
        message: msg(reason),
        ...(offers ? { offers: offerIds({ type: type?.id, num_people: people, date, time }) } : {}),
      };
    });
    validation.duration = fieldResult('duration', items);
  }

  // --- top level ---
  const computed = [...wanted];
  const valid = computed.every((f) => !errors[f]?.length);
  const complete = FIELDS.every((f) => !errors[f]?.length);
  const depositRequired = !!type && (type.rules.deposit_per_person ?? 0) > 0;
  const preorders = type?.rules.preorders ?? 'none';
  let action: Action;
  if (complete && timeCheck) action = timeCheck.action;
  else if (live) action = 'reject';
  else {
    const invalidGiven = FIELDS.some((f) => errors[f]?.some((e) => !e.code.startsWith('missing_')));
    action = invalidGiven || !type ? 'reject' : type.rules.autoconfirm ? 'accept' : 'enquire';
  }

  const bookingDetails: Record<string, unknown> = { venue_id: venue._id, venue_group: venue.venue_group };
  if (type && !errors.type?.length) bookingDetails.type = type.id;
  if (people !== undefined && !errors.num_people?.length) bookingDetails.num_people = people;
  if (date !== undefined && !errors.date?.length) bookingDetails.date = live ? `${date}T00:00:00` : date;
  if (time !== undefined && !errors.time?.length) bookingDetails.time = time;
  if (duration !== undefined && !errors.duration?.length) bookingDetails.duration = durationOut(duration, dialect);
  if (live) bookingDetails.payments = [];

  const result: Record<string, unknown> = {
    valid,
    validation,
    action,
    depositRequired,
    preordersAvailable: preorders !== 'none',
    bookingDetails,
  };
  if (complete && action !== 'reject' && type && date && time && people !== undefined) {
    const web = webUrl(ctx, venue, { type: type.id, num_people: people, date, time, duration });
    const needsWeb = depositRequired || preorders === 'required';
    result.next = needsWeb ? { web } : { web, api: `${ctx.publicUrl}/v4/bookings` };
  }
  return result;
}

/** The hosted booking page URL for accepted details (durations in minutes, as the booking site uses). */
export function webUrl(
  ctx: { publicUrl: string; dialect: Dialect },
  venue: Venue,
  d: { type: string; num_people: number; date: string; time: string; duration?: number },
): string {
  const q = new URLSearchParams({
    venue_group: venue.venue_group,
    venue_id: venue._id,
    type: d.type,
    num_people: String(d.num_people),
    date: d.date,
    time: d.time,
  });
  if (d.duration !== undefined) q.set('duration', String(d.duration));
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
