/**
 * The check of one start time for one type: the clock, same-day closing (`bookings_shut`), the
 * closing time and capacity. Capacity is counted in 5-minute buckets of real time over the day's
 * bookings that hold it, per venue and per type, and cached per store revision.
 */

import { holdsCapacity, type Store } from '../store.js';
import { londonDate, londonMinutes, parseTime, weekdayOf } from '../time.js';
import type { BookingType, Venue } from '../types.js';
import { instantOf, openingOf, type DayPlan, type Slot } from './day-plan.js';
import { handlingFor, typeDurations, type Action, type AvailabilityContext } from './model.js';

// Cached per store, so two sandboxes (or seeds reusing ids) never share entries.
const occupancyCaches = new WeakMap<
  Store,
  Map<string, { revision: number; all: Int32Array; byType: Map<string, Int32Array> }>
>();

/** Capacity is counted in buckets of this many minutes, over two days (a business day runs past midnight) and a margin. */
const BUCKET = 5;
const BUCKETS = (2 * 1440) / BUCKET + 24;

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

/** The most people held in any bucket of `[fromMin, toMin)` (minutes since the midnight of the plan). */
function peak(arr: Int32Array | undefined, fromMin: number, toMin: number): number {
  if (!arr) return 0;
  let max = 0;
  const e = Math.min(BUCKETS, Math.ceil(toMin / BUCKET));
  for (let i = Math.max(0, Math.floor(fromMin / BUCKET)); i < e; i++) if (arr[i]! > max) max = arr[i]!;
  return max;
}

/** Result of checking one start time for one type. */
export interface TimeCheck {
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
export function checkSlot(
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
