/**
 * The day plan: what a booking type offers on one business day before capacity (its start times,
 * closing instant, or why it is closed), from the venue's opening times, unavailable ranges and the
 * type's rules. A booking date is a business day: start and closing times earlier than the opening
 * fall on the next calendar morning, and every time is placed on a real Europe/London instant, so
 * the hour skipped when the clocks go forward has no slots.
 */

import { addDays, formatTime, londonInstant, parseTime, weekdayOf, type Weekday } from '../time.js';
import type { BookingType, Venue } from '../types.js';

/** Weekdays as messages name them (plural: "closed on Mondays"). */
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
export interface Slot {
  label: string;
  instant: number;
  offset: number; /* real minutes since the day's midnight */
}

/** What a type offers on one business day, before capacity. */
export interface DayPlan {
  reason: string | null;
  code: string | null;
  slots: Slot[];
  closeInstant: number;
  closeLabel: string;
  midnight: number;
}

// Cached per venue object, so two sandboxes (or seeds reusing ids) never share entries.
const planCaches = new WeakMap<Venue, Map<string, DayPlan>>();

/** London instant of business-day minutes; a wall time in the spring-forward gap maps past it. */
export function instantOf(date: string, minutes: number): number {
  const day = Math.floor(minutes / 1440);
  const cal = day ? addDays(date, day) : date;
  const m = minutes - day * 1440;
  return londonInstant(cal, m) ?? londonInstant(cal, m + 60) ?? londonInstant(cal, 0)!;
}

/** Opening window (open/close minutes, close past midnight normalised) of a venue on a weekday. */
export function openingOf(venue: Venue, day: Weekday) {
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
export function windowOf(t: BookingType) {
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
export function dayPlan(venue: Venue, t: BookingType, date: string): DayPlan {
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

/** Whether a type may start at business minute `m` on some day it runs (type chosen, no date). */
export function startsOnSomeDay(venue: Venue, t: BookingType, m: number): boolean {
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

/** What a type offers on a date, for booking rules (§4.5): the reason it offers none, the start times, the closing time. */
export function slotsFor(
  venue: Venue,
  t: BookingType,
  date: string,
): { reason: string | null; times: string[]; close: string } {
  const p = dayPlan(venue, t, date);
  return { reason: p.reason, times: p.slots.map((s) => s.label), close: p.closeLabel };
}
