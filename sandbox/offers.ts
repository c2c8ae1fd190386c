/**
 * Offer visibility and rule matching (§2.9, §4.8), shared by GET /venues/{id}/offers, the
 * `getOffers=true` arrays of availability and the `offer` check of POST /bookings.
 */

import { parseInstant, parseTime, weekdayOf, WEEKDAYS } from './time.js';
import type { Offer } from './types.js';

/** The four visibility rules of §4.8, with "now" as an instant compared in London time. */
export function isVisible(offer: Offer, nowMs: number): boolean {
  const from = offer.visible_from ? parseInstant(offer.visible_from) : null;
  const to = offer.visible_to ? parseInstant(offer.visible_to) : null;
  if (from !== null && to !== null) return from <= nowMs && nowMs <= to;
  if (from === null && to === null) return true;
  if (from !== null) return from <= nowMs;
  return nowMs <= to!;
}

/** Booking details an offer is matched against; absent keys do not restrict. */
export interface OfferQuery {
  type?: string;
  num_people?: number;
  date?: string;
  time?: string;
}

/**
 * True when the offer's rules admit the details: party size within min/max, the date within
 * start/expiry and on an available weekday, and the start time within that day's from–to (the `to`
 * bounds the start; a booking running past it still matches). Type-restricted offers match only
 * their types, but stay in the list when no type is given (§4.8 rule 3).
 */
export function matches(offer: Offer, q: OfferQuery): boolean {
  const r = offer.rules;
  if (q.num_people !== undefined) {
    if (r.min_people != null && q.num_people < r.min_people) return false;
    if (r.max_people != null && q.num_people > r.max_people) return false;
  }
  if (q.type !== undefined && offer.restrict_offer_to_types && !(offer.booking_types ?? []).includes(q.type))
    return false;
  if (q.date !== undefined) {
    if (offer.start_date && q.date < offer.start_date.slice(0, 10)) return false;
    if (offer.expiry_date && q.date > offer.expiry_date.slice(0, 10)) return false;
  }
  const days = q.date !== undefined ? [weekdayOf(q.date)] : WEEKDAYS;
  const t = q.time !== undefined ? parseTime(q.time) : null;
  return days.some((d) => {
    const rule = r[d];
    if (!rule || !rule.available) return false;
    if (t === null) return true;
    const from = parseTime(rule.from) ?? 0;
    const to = parseTime(rule.to) ?? 1439;
    return t >= from && t <= to;
  });
}

/**
 * Whether an offer may be attached to a booking made by an API client. `''` applies to every
 * booking and `partner` to bookings from the client's own site; any other value is the
 * marketplace's brand (platform-only) and never applies to API bookings.
 */
export function availableToPartners(offer: Offer): boolean {
  return offer.availability === '' || offer.availability === 'partner';
}
