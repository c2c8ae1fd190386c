/**
 * How the widget words things, as pure functions of the strings, the `Intl` locale and the names
 * known so far: values of each field, the lines of the summary, the offer badges and the offers
 * named with a step, the reason a choice or a booking is refused, and the text of an error.
 * Nothing here reads the element.
 */
import { ApiError } from '../api/client.js';
import type { Availability, Choices, Suggestion } from '../api/normalize.js';
import type { WireOffer, WireVenue } from '../api/types.js';
import { reasonFor, type Problem, type Step } from './booking-flow.js';
import type { BookingSummary } from './element-types.js';
import { durationMinutes, endTimeOf, formatDuration } from '../venue/format.js';
import type { Strings } from '../i18n/en-GB.js';
import {
  badgeFor,
  eligibleOffers,
  offerApplies,
  sizeCondition,
  type Badge as OfferBadge,
  type PartyRange,
} from '../venue/offers.js';
import { listedName } from '../venue/venue-model.js';
import { formatVenueDate, formatVenueTime } from '../venue/venue-time.js';

/** What wording needs: the strings, the `Intl` locale and the names seen so far. */
export interface Wording {
  strings: Strings;
  locale: string;
  /** Booking type names by id, from the answers (and the saved names after a reload). */
  typeNames: ReadonlyMap<string, string>;
  /** The venues of the picker, for their names. */
  venues?: readonly WireVenue[];
}

/**
 * An offer badge (`offers.ts` decides where one applies): its `label` (the offer's title, or
 * "Offer"), the `condition` shown beside it ("6+ people") and the offers' `name` with their sizes,
 * given as the badge's title (hover) and read with the choice (focus).
 */
export type Badge = Pick<OfferBadge, 'label' | 'condition' | 'name'>;

/** How one suggestion is worded. */
export interface OptionText {
  label: string;
  /** A second line: the end of a duration, or the reason it is unavailable. */
  detail: string | null;
  badge: Badge | null;
}

/** A field of the summary, or the venue. */
export type Field = Step | 'venue';

/** The name of a booking type, or null while no answer named it. */
export function typeName(wording: Wording, id: string): string | null {
  return wording.typeNames.get(id) ?? null;
}

/** A value of a field for people (`label`: the service's own label of a type). */
export function format(wording: Wording, field: Field, value: string | number, label?: string | null): string {
  const { strings, locale } = wording;
  switch (field) {
    case 'date':
      return formatVenueDate(String(value), locale, { weekday: 'short', day: 'numeric', month: 'short' });
    case 'time':
      return formatVenueTime(String(value), locale);
    case 'num_people':
      return strings.people(Number(value));
    case 'duration':
      return Number(value) === -1 ? strings.untilClose : formatDuration(durationMinutes(Number(value)), locale);
    case 'venue':
      return listedName(wording.venues, String(value));
    default:
      return label ?? typeName(wording, String(value)) ?? String(value);
  }
}

/** How one suggestion of a step reads: its label, a second line (its end, or why not) and its badge. */
export function describe(
  wording: Wording,
  step: Step,
  suggestion: Suggestion,
  time: string | undefined,
  badge: Badge | null,
): OptionText {
  const s = wording.strings;
  let detail: string | null = null;
  if (!suggestion.valid) detail = suggestion.message ?? s.unavailable;
  else if (step === 'duration') {
    const end =
      suggestion.endTime ??
      (time && Number(suggestion.value) > 0 ? endTimeOf(time, durationMinutes(Number(suggestion.value))) : null);
    if (end) detail = s.endsAt(formatVenueTime(end, wording.locale));
  }
  // Party sizes are a row of numbers under "How many people?".
  const label =
    step === 'num_people' ? String(suggestion.value) : format(wording, step, suggestion.value, suggestion.label);
  return { label, detail, badge };
}

/** One choice of the summary: the field, its name and its value for people. */
export interface SummaryItem {
  field: Field;
  name: string;
  value: string;
}

/** The summary of the choices made so far, the picked venue first (multi-venue only). */
export function summaryItems(
  wording: Wording,
  order: readonly Step[],
  choices: Choices,
  venue: string | null,
): SummaryItem[] {
  const fields: [Field, string | number][] = order
    .filter((step) => choices[step] !== undefined)
    .map((step) => [step, choices[step]!]);
  if (venue) fields.unshift(['venue', venue]);
  return fields.map(([field, value]) => ({
    field,
    name: wording.strings.fieldNames[field],
    value: format(wording, field, value),
  }));
}

/** Why a choice was refused or cleared. */
export function problemText(wording: Wording, problem: Problem): string {
  const s = wording.strings;
  return s.problem(s.fieldNames[problem.field], format(wording, problem.field, problem.value));
}

/** Why the service refuses complete choices: the first field's own reason, else a general one. */
export function rejectReason(strings: Strings, order: readonly Step[], choices: Choices, availability: Availability) {
  return order.map((field) => reasonFor(availability, field, choices[field]!)).find(Boolean) ?? strings.rejected;
}

/** The message of a failed read (a refused site says so; another refusal or a cancelled call reads as a server fault). */
export function readErrorText(strings: Strings, error: unknown): string {
  if (error instanceof ApiError && error.siteRefused) return strings.siteRefused;
  const kind = error instanceof ApiError ? error.kind : 'server';
  return kind === 'invalid' || kind === 'aborted' ? strings.errors.server : strings.errors[kind];
}

/**
 * What the console tells the site's owner when the proxy refuses the site: the guest sees only that
 * online booking is not available here; the owner needs the origin and the setting that lets it in.
 */
export function siteRefusedWarning(origin: string): string {
  return `<venue-booking>: the booking proxy refuses this site (${origin}). Add ${origin} to the proxy's VENUE_BOOKING_ORIGINS setting and restart it.`;
}

/** The message of a failed submit, with the service's own words on refused details; null without one. */
export function submitErrorText(strings: Strings, error: ApiError | null): string | null {
  if (!error) return null;
  return error.kind === 'invalid' && error.message
    ? `${strings.errors.invalid} ${error.message}`
    : strings.errors[error.kind];
}

/** The booking as the widget's events name it: the venue, the choices and the offer, no personal data. */
export function bookingSummary(venue: string, choices: Choices, offer: string | null): BookingSummary {
  const { type, date, time, duration, num_people } = choices;
  return { venue_id: venue, type, date, time, duration, num_people, ...(offer ? { offer } : {}) };
}

/** What the offer badges of a step depend on: the venue's offers, the choices so far, each type's party sizes. */
export interface OfferContext {
  offers: readonly WireOffer[];
  hideOffers: boolean;
  choices: Choices;
  /** The party sizes each booking type takes, by type id, once read (`BookingData.parties`); null while on their way. */
  parties: ReadonlyMap<string, PartyRange> | null;
}

/**
 * The party sizes a booking type takes: read per type, else (the type chosen) the party step's
 * rules in the answer; null while unknown.
 */
export function partyOf(
  context: OfferContext,
  type: string | undefined,
  availability: Availability,
): PartyRange | null {
  if (type === undefined) return null;
  const known = context.parties?.get(type);
  if (known) return known;
  const rules = availability.fields.num_people;
  return type === context.choices.type && rules && (rules.min !== null || rules.max !== null)
    ? { min: rules.min, max: rules.max }
    : null;
}

/** How badges word the offer and a size range. */
const badgeWords = (strings: Strings) => ({
  offer: strings.offer,
  people: (range: PartyRange) => strings.peopleRange(range.min, range.max),
});

/**
 * Whether an offer of the venue limits the party size, so that a type's badge needs the type's
 * party sizes (`BookingData.parties`, one round trip after the types). The types do not wait for
 * them (issue 37): each takes a row with a line kept for its badge, which fills in once they land,
 * so nothing on the step moves. The proxy could have answered them with the offers instead, in the
 * same round trip, but that is a read composed of one booking-rules read per type, made for every
 * first load, for a badge the guest reads after the types.
 */
export function sizedOffers(context: OfferContext): boolean {
  return !context.hideOffers && context.offers.some((offer) => sizeCondition(offer));
}

/**
 * The offer badge of a value of a step: only where an offer can still apply with it, to a party its
 * type takes; on the type step, none while the types' party sizes are on their way (its line is kept).
 */
export function offerBadge(
  wording: Wording,
  context: OfferContext,
  step: Step,
  suggestion: Suggestion,
  availability: Availability,
): Badge | null {
  if (context.hideOffers || !suggestion.valid || (step === 'type' && !context.parties)) return null;
  const choices = { ...context.choices, [step]: suggestion.value };
  const party = partyOf(context, choices.type, availability);
  return badgeFor(context.offers, choices, badgeWords(wording.strings), party);
}

/** Offers named for people, each with the party sizes it is for within `party` ("Big group feast (6–8 people)"). */
export function offerNames(wording: Wording, offers: readonly WireOffer[], party: PartyRange | null): string {
  const words = badgeWords(wording.strings);
  return offers
    .map((offer) => {
      const sizes = sizeCondition(offer, party);
      return `${offer.title || words.offer}${sizes ? ` (${words.people(sizes)})` : ''}`;
    })
    .join(', ');
}

/**
 * The time step's key of the offers its valid times (in the venue's night) can carry, one line an
 * offer ("Offers at 17:00–19:00: Happy hour"), so that each offer is named once for the step rather
 * than in every chip it marks. An offer runs from one start time to another on a day (§2.9), so the
 * times it marks are one range, from the first to the last.
 */
export function timeOffers(
  wording: Wording,
  context: OfferContext,
  suggestions: readonly Suggestion[],
  availability: Availability,
): string[] {
  if (context.hideOffers) return [];
  const party = partyOf(context, context.choices.type, availability);
  return context.offers.flatMap((offer) => {
    const at = suggestions
      .filter((item) => item.valid && offerApplies(offer, { ...context.choices, time: String(item.value) }, party))
      .map((item) => format(wording, 'time', item.value));
    const times = at.length > 1 ? `${at[0]}–${at[at.length - 1]}` : at[0];
    return times ? [`${wording.strings.offersAt} ${times}: ${offerNames(wording, [offer], party)}`] : [];
  });
}

/**
 * The party step's offers: the sizes some offer applies to (`qualifies`) and those offers named
 * with their sizes within the step's own range.
 */
export function partyOffers(wording: Wording, context: OfferContext, availability: Availability) {
  const { choices } = context;
  const field = availability.fields.num_people;
  const offers = context.hideOffers
    ? []
    : eligibleOffers(context.offers, choices, partyOf(context, choices.type, availability));
  return {
    qualifies: (size: number) => offers.some((offer) => offerApplies(offer, { ...choices, num_people: size })),
    names: offerNames(wording, offers, field ? { min: field.min, max: field.max } : null),
  };
}
