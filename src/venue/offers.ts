/**
 * Offers are promises: a badge on a choice says "an offer can still apply if you pick this", so it
 * must hold for the choices already made and the party size. The service's `getOffers` arrays are
 * computed without the fields not yet sent (a 6+ offer then marks every type, time and duration of
 * a 2-person booking), so the widget reads the venue's offers once and filters them here by their
 * own rules (§2.9): party size min/max, the weekday's availability and start-time range, the start
 * and expiry dates, and the booking types. Pure: no DOM, no clock, no fetch.
 */
import type { Choices } from '../api/normalize.js';
import type { WireOffer } from '../api/types.js';
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

/**
 * A range of party sizes, each bound open when null: the sizes a booking type takes (its rules'
 * `min`/`max`, read per type: `BookingData.parties`) or those an offer's rules admit.
 */
export interface PartyRange {
  min: number | null;
  max: number | null;
}

/** How a badge is worded: the generic word (`Offer`) and a size range for people (`6–8 people`). */
export interface BadgeWords {
  offer: string;
  people: (range: PartyRange) => string;
}

/** What a badge shows: its text, the party-size condition when the size is unknown, and the offers' names. */
export interface Badge {
  /** The one offer's title, or the `offer` word when several may apply. */
  label: string;
  /** Set while the party size is unknown and every offer that may apply limits it: the least demanding range. */
  condition?: string;
  /** Every offer that may apply, each with its size range, for the badge's accessible name and tooltip. */
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
export function offerApplies(offer: WireOffer, choices: Choices, party: PartyRange | null = null): boolean {
  if (offer.availability && offer.availability !== 'partner') return false;
  const rules = rulesOf(offer);
  const people = choices.num_people;
  const { min, max } = sizesOf(offer);
  if (people !== undefined && ((min !== null && people < min) || (max !== null && people > max))) return false;
  // Before the size is chosen, the offer must admit some party that the chosen type takes.
  if (people === undefined && party && !overlap(party, { min, max })) return false;
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
export function eligibleOffers(
  offers: readonly WireOffer[],
  choices: Choices,
  party: PartyRange | null = null,
): WireOffer[] {
  return offers.filter((offer) => offerApplies(offer, choices, party));
}

/** A booking type of `booking_types`: an id, or an object with an id. */
function typeId(entry: unknown): string {
  return entry && typeof entry === 'object' && 'id' in entry ? String(entry.id) : String(entry);
}

/** The party sizes an offer's rules admit. */
function sizesOf(offer: WireOffer): PartyRange {
  const rules = rulesOf(offer);
  return { min: bound(rules.min_people), max: bound(rules.max_people) };
}

/** The sizes both ranges admit, or null when none. */
export function overlap(a: PartyRange, b: PartyRange): PartyRange | null {
  const min = a.min === null ? b.min : b.min === null ? a.min : Math.max(a.min, b.min);
  const max = a.max === null ? b.max : b.max === null ? a.max : Math.min(a.max, b.max);
  return min !== null && max !== null && min > max ? null : { min, max };
}

/**
 * The party sizes an offer limits a booking to, within `party` (the type's sizes, when known), or
 * null when it admits every size there: Two-for-one 2–8 on a type for 2 to 8 needs no condition.
 */
export function sizeCondition(offer: WireOffer, party: PartyRange | null = null): PartyRange | null {
  const within = party ?? { min: null, max: null };
  const sizes = overlap(within, sizesOf(offer));
  if (!sizes) return null;
  const limitsMin = (sizes.min ?? 1) > Math.max(within.min ?? 1, 1);
  const limitsMax = sizes.max !== null && sizes.max !== within.max;
  return limitsMin || limitsMax ? sizes : null;
}

/**
 * The badge for a choice, given every choice it would make (the choices so far plus this value)
 * and the party sizes the chosen type takes (when known), or null when no offer can apply to a
 * party it takes. One offer is named by its title; several by the word, every one of them (with
 * its sizes) in the accessible name. While the party size is unknown and every applicable offer
 * limits it, the badge says the least demanding range, in people.
 */
export function badgeFor(
  offers: readonly WireOffer[],
  choices: Choices,
  words: BadgeWords,
  party: PartyRange | null = null,
): Badge | null {
  const applicable = eligibleOffers(offers, choices, party);
  if (applicable.length === 0) return null;
  const open = choices.num_people === undefined;
  const sizes = applicable.map((offer) => (open ? sizeCondition(offer, party) : null));
  const name = applicable
    .map((offer, index) => {
      const title = offer.title || words.offer;
      return sizes[index] ? `${title} (${words.people(sizes[index])})` : title;
    })
    .join(', ');
  const ids = applicable.map((offer) => offer._id);
  const label = applicable.length === 1 ? applicable[0]!.title || words.offer : words.offer;
  if (sizes.includes(null)) return { label, name, ids };
  const least = sizes.sort((a, b) => (a!.min ?? 1) - (b!.min ?? 1))[0]!;
  return { label, condition: words.people(least), name, ids };
}
