/**
 * Offers are promises: a badge on a choice says "an offer can still apply if you pick this", so it
 * must hold for the choices already made and the party size. The service's `getOffers` arrays are
 * computed without the fields not yet sent (a 6+ offer then marks every type, time and duration of
 * a 2-person booking), so the widget reads the venue's offers once and filters them here by their
 * own rules (§2.9): party size min/max, the weekday's availability and start-time range, the start
 * and expiry dates, and the booking types. Pure: no DOM, no clock, no fetch.
 */
import type { Choices } from './api/normalize.js';
import type { WireOffer } from './api/types.js';
import { fromPlainDate } from './venue-time.js';

/** One weekday's rule of an offer: whether it runs that day, and the start times it covers. */
export interface OfferDayRule {
  available?: boolean;
  from?: string | null;
  to?: string | null;
}

/** The rules object of an offer (§2.9), read defensively. */
export interface OfferRules {
  min_people?: number | null;
  max_people?: number | null;
  [day: string]: OfferDayRule | number | null | undefined;
}

/** What a badge shows: its text, the party-size condition when the size is unknown, and the offers' names. */
export interface Badge {
  /** The `word` given (`Offer`). */
  label: string;
  /** Set while the party size is unknown and every offer that may apply has a size rule. */
  condition?: string;
  /** The titles of the offers that may apply, for the badge's accessible name and tooltip. */
  name: string;
  /** Their ids: each is honoured (listed and selectable) on the details step. */
  ids: string[];
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

function minutes(time: string | null | undefined): number | null {
  const match = /^(\d{1,2}):(\d{2})/.exec(time ?? '');
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

function rulesOf(offer: WireOffer): OfferRules {
  const rules = offer.rules;
  return rules && typeof rules === 'object' ? (rules as OfferRules) : {};
}

function bound(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Whether the offer is on for a weekday (and, when known, for a start time that day). */
function runsOn(rules: OfferRules, day: (typeof WEEKDAYS)[number], time: number | null): boolean {
  const rule = rules[day];
  // An offer that does not describe its days at all is not limited by them.
  if (!WEEKDAYS.some((name) => rules[name] && typeof rules[name] === 'object')) return true;
  if (!rule || typeof rule !== 'object' || !rule.available) return false;
  if (time === null) return true;
  return time >= (minutes(rule.from) ?? 0) && time <= (minutes(rule.to) ?? 24 * 60 - 1);
}

/**
 * Whether an offer can still apply to a booking with these choices: every chosen field must fit
 * its rules; fields not chosen yet do not exclude it (some value of theirs may fit).
 */
export function offerApplies(offer: WireOffer, choices: Choices): boolean {
  if (offer.availability && offer.availability !== 'partner') return false;
  const rules = rulesOf(offer);
  const people = choices.num_people;
  const min = bound(rules.min_people);
  const max = bound(rules.max_people);
  if (people !== undefined && ((min !== null && people < min) || (max !== null && people > max))) return false;
  if (choices.type !== undefined && offer.restrict_offer_to_types === true) {
    const types = Array.isArray(offer.booking_types) ? offer.booking_types.map(typeId) : [];
    if (!types.includes(choices.type)) return false;
  }
  const date = choices.date;
  if (date !== undefined) {
    if (offer.start_date && date < String(offer.start_date).slice(0, 10)) return false;
    if (offer.expiry_date && date > String(offer.expiry_date).slice(0, 10)) return false;
  }
  const time = choices.time !== undefined ? minutes(choices.time) : null;
  const days = date !== undefined ? [WEEKDAYS[fromPlainDate(date).getUTCDay()]] : WEEKDAYS;
  return days.some((day) => runsOn(rules, day, time));
}

/**
 * The offers a booking with these choices may carry: the details step lists them, and a picked
 * offer is sent only while it is one of them, so every badge on the way there is honoured.
 */
export function eligibleOffers(offers: readonly WireOffer[], choices: Choices): WireOffer[] {
  return offers.filter((offer) => offerApplies(offer, choices));
}

/** A booking type of `booking_types`: an id, or an object with an id. */
function typeId(entry: unknown): string {
  return entry && typeof entry === 'object' && 'id' in entry ? String(entry.id) : String(entry);
}

/** The party-size condition of an offer (`6+`, `2–8`, `≤4`), or null when it takes any size. */
export function sizeCondition(offer: WireOffer): string | null {
  const rules = rulesOf(offer);
  const min = bound(rules.min_people);
  const max = bound(rules.max_people);
  if (min !== null && max !== null) return min === max ? String(min) : `${min}–${max}`;
  if (min !== null && min > 1) return `${min}+`;
  if (max !== null) return `≤${max}`;
  return null;
}

/**
 * The badge for a choice, given every choice it would make (the choices so far plus this value),
 * or null when no offer can apply. While the party size is unknown and every applicable offer has
 * a size rule, the badge says the condition of the least demanding one instead of a bare "Offer".
 */
export function badgeFor(offers: readonly WireOffer[], choices: Choices, word = 'Offer'): Badge | null {
  const applicable = eligibleOffers(offers, choices);
  if (applicable.length === 0) return null;
  const name = applicable.map((offer) => offer.title || word).join(', ');
  const ids = applicable.map((offer) => offer._id);
  if (choices.num_people !== undefined) return { label: word, name, ids };
  const conditions = applicable.map(sizeCondition);
  if (conditions.includes(null)) return { label: word, name, ids };
  const least = applicable
    .map((offer, index) => ({ min: bound(rulesOf(offer).min_people) ?? 1, condition: conditions[index]! }))
    .sort((a, b) => a.min - b.min)[0]!;
  return { label: word, condition: least.condition, name, ids };
}
