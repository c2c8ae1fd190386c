/**
 * The booking flow as pure functions over availability answers: which step comes next, what a
 * guest's choice does to later choices, when a booking is ready and how it is submitted (through
 * the API, or by handing the guest to the booking site). No DOM, no fetch, no clock: the element
 * orchestrates, this module decides, and the unit tests drive it with plain data.
 */
import type { Availability, Choices, Suggestion } from '../api/normalize.js';
import type { AvailabilityAction, BookingField } from '../api/types.js';
import { BOOKING_FIELDS } from '../api/types.js';
import { isBirthDate, isEmail, isPhone, LIMITS, textProblem } from '../api/rules.js';
import { durationMinutes } from '../venue/format.js';
import { nightMinutes } from '../venue/venue-time.js';

/** A step of the flow: one booking field. */
export type Step = BookingField;

/** Actions that a guest can submit (reject cannot). */
const SUBMITTABLE: readonly AvailabilityAction[] = ['accept', 'enquire', 'may_enquire'];

/**
 * Reads the `steps` attribute (`num_people,date,type,time,duration`): known fields in the given
 * order, then any missing field in the default order, so a partial list can never lose a step.
 */
export function parseSteps(attribute: string | null | undefined): Step[] {
  const asked = (attribute ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part): part is Step => (BOOKING_FIELDS as readonly string[]).includes(part));
  const unique = [...new Set(asked)];
  return [...unique, ...BOOKING_FIELDS.filter((field) => !unique.includes(field))];
}

/** The first step in `order` whose field the guest has not chosen, or null when all are chosen. */
export function nextStep(order: readonly Step[], choices: Choices): Step | null {
  return order.find((field) => choices[field] === undefined) ?? null;
}

/** The suggestions the guest can pick for a field. */
export function validSuggestions(availability: Availability | null, field: Step): Suggestion[] {
  return availability?.fields[field]?.suggestions.filter((item) => item.valid) ?? [];
}

/** Removes one choice and every choice after it in `order` (used when the guest goes back). */
export function clearFrom(choices: Choices, order: readonly Step[], field: Step): Choices {
  const next: Choices = { ...choices };
  for (const step of order.slice(order.indexOf(field))) delete next[step];
  return next;
}

/**
 * A choice the service no longer accepts: what was chosen, why it was refused (the service's own
 * words when it gave any) and the nearest values it does accept, so the guest can recover in one
 * click instead of starting over.
 */
export interface Problem {
  field: Step;
  value: string | number;
  reason: string | null;
  alternatives: (string | number)[];
}

/** What `reconcile` did: the surviving choices, the refused ones and any automatic choice. */
export interface Reconciled {
  choices: Choices;
  problems: Problem[];
  /** A field chosen automatically because it had exactly one valid value. */
  autoChosen: Step | null;
}

function stillValid(availability: Availability, field: Step, value: string | number): boolean {
  const state = availability.fields[field];
  if (!state) return true;
  // The field's own verdict wins: a type suggestion may be marked invalid only because of the date.
  if (typeof state.valid === 'boolean') return state.valid;
  const match = state.suggestions.find((item) => item.value === value);
  return match ? match.valid : true;
}

/**
 * The valid values nearest to a refused one: for a time, the four closest start times that day
 * (in time order); for a date, the next three bookable dates (or the closest earlier ones).
 */
export function alternatives(availability: Availability, field: Step, value: string | number): (string | number)[] {
  const valid = validSuggestions(availability, field)
    .map((item) => item.value)
    .filter((item) => item !== value);
  if (field === 'time') {
    // In the venue's night: 00:00 is next to 23:30, not to 00:30 of the morning.
    const wanted = nightMinutes(String(value));
    return valid
      .map(String)
      .sort((a, b) => Math.abs(nightMinutes(a) - wanted) - Math.abs(nightMinutes(b) - wanted))
      .slice(0, 4)
      .sort((a, b) => nightMinutes(a) - nightMinutes(b));
  }
  if (field === 'date') {
    const dates = valid.map(String);
    const after = dates.filter((date) => date > String(value));
    return (after.length ? after : dates.reverse()).slice(0, 3);
  }
  return [];
}

/** Why the service refuses a value: the suggestion's message, else the field's first error. */
export function reasonFor(availability: Availability, field: Step, value: string | number): string | null {
  const state = availability.fields[field];
  const suggestion = state?.suggestions.find((item) => item.value === value);
  return suggestion?.message ?? state?.errors.find((error) => error.message)?.message ?? null;
}

/**
 * Brings the choices in line with a fresh availability answer: clears every chosen field the
 * service now rejects (reporting why, with alternatives), then, if the next open step has exactly
 * one valid value, chooses it. Nothing is auto-chosen on an answer that refused a choice: its
 * suggestions were computed with the refused value.
 */
export function reconcile(order: readonly Step[], choices: Choices, availability: Availability): Reconciled {
  const kept: Choices = { ...choices };
  const problems: Problem[] = [];
  for (const field of order) {
    const value = kept[field];
    if (value !== undefined && !stillValid(availability, field, value)) {
      delete kept[field];
      problems.push({
        field,
        value,
        reason: reasonFor(availability, field, value),
        alternatives: alternatives(availability, field, value),
      });
    }
  }
  const auto = problems.length === 0 ? autoChoice(order, kept, availability) : null;
  return { choices: auto ?? kept, problems, autoChosen: auto && nextStep(order, kept) };
}

/**
 * The offers a booking from the venue's own site may carry: `availability` empty (all bookings) or
 * `partner`; any other value names the marketplace, whose offers this client may not attach.
 */
export function partnerOffers<T extends { availability?: unknown }>(offers: T[]): T[] {
  return offers.filter((offer) => !offer.availability || offer.availability === 'partner');
}

/** A stable key of the choices, so equal choices never cause a second availability call. */
export function choicesKey(choices: Choices): string {
  return BOOKING_FIELDS.map((field) => `${field}=${choices[field] ?? ''}`).join('&');
}

/**
 * One availability read: the choices sent and the `fields=` asked for (none: every field, as the
 * complete check before submit needs).
 */
export interface AvailabilityRead {
  choices: Choices;
  fields?: Step[];
}

/** An availability answer in hand, with the read that produced it. */
export interface HeldAvailability {
  read: AvailabilityRead;
  availability: Availability;
}

/** The steps the times answer also serves: those after the time (a duration or party size it listed needs no read). */
const LATE: readonly Step[] = ['duration', 'num_people'];

/** The steps a value picked from the held answer may change without a read: the time and those after it. */
const PICKED: readonly Step[] = ['time', ...LATE];

const listed = (availability: Availability, field: Step, value: string | number) =>
  availability.fields[field]?.suggestions.some((item) => item.valid && item.value === value) ?? false;

/**
 * Whether a listed duration may end past closing from `time` (closing ≥ latest start + shortest): read
 * them anew. In the venue's night, so a start after midnight is the latest, never the earliest.
 */
function mayPassClosing(availability: Availability, time: string): boolean {
  const starts = validSuggestions(availability, 'time').map((item) => nightMinutes(String(item.value)));
  const lengths = validSuggestions(availability, 'duration')
    .map((item) => durationMinutes(Number(item.value)))
    .filter((minutes) => minutes > 0);
  if (!starts.length || !lengths.length) return false;
  return nightMinutes(time) + Math.max(...lengths) > Math.max(...starts) + Math.min(...lengths);
}

/**
 * The availability read the choices call for. Every read spends the App ID's shared hourly quota,
 * so each step is read only when its answer can change what the guest sees next:
 *
 * - the type and the date steps each read only their own field (small answers, shared by every
 *   guest of the venue, which the proxy keeps longest);
 * - the times read also asks for the steps after the time (duration, party size), so a time picked
 *   from it, and a duration or party size it listed as valid, cost no read of their own (unless the
 *   time is late enough for closing time to cut its durations short: `mayPassClosing`);
 * - once every field is chosen: the complete check, always a read of its own and always fresh at
 *   the proxy. It is the word on the exact booking: a duration or party size that the time does not
 *   fit after all (closing time, capacity) is refused there, with the alternatives it lists.
 *
 * A value taken back (as after a complete check that refused it) keeps the answer in hand too:
 * it is the freshest word on the day.
 */
export function planRead(order: readonly Step[], choices: Choices, held: HeldAvailability | null): AvailabilityRead {
  const step = nextStep(order, choices);
  if (!step) return { choices };
  if (held?.availability.fields[step]?.suggestions.length) {
    const reusable = BOOKING_FIELDS.every((field) => {
      const value = choices[field];
      if (value === held.read.choices[field]) return true;
      if (!PICKED.includes(field)) return false;
      if (value === undefined) return true;
      if (field === 'time' && held.read.choices.time === undefined && mayPassClosing(held.availability, String(value)))
        return false;
      return listed(held.availability, field, value);
    });
    if (reusable) return held.read;
  }
  // Asked for: what is chosen (so that it is checked, and shown again if the guest goes back), the
  // next step and, from the time step on, the later steps that the same answer will serve.
  const wanted = BOOKING_FIELDS.filter(
    (field) => choices[field] !== undefined || field === step || (PICKED.includes(step) && LATE.includes(field)),
  );
  return wanted.length === BOOKING_FIELDS.length ? { choices } : { choices, fields: wanted };
}

/** A stable key of an availability read, so that equal reads are made once. */
export function readKey(read: AvailabilityRead): string {
  return `${choicesKey(read.choices)}&fields=${read.fields?.join(',') ?? ''}`;
}

/**
 * The next step chosen automatically when the held answer offers exactly one valid value for it
 * (as `reconcile` does on a fresh answer); null when there is nothing to choose.
 */
export function autoChoice(order: readonly Step[], choices: Choices, availability: Availability): Choices | null {
  const step = nextStep(order, choices);
  if (!step) return null;
  const valid = validSuggestions(availability, step);
  return valid.length === 1 ? { ...choices, [step]: valid[0].value } : null;
}

/**
 * A booking is ready only when every field is chosen and valid and the action is one a guest can
 * submit: the live service keeps `action: reject` until then (real-api-notes).
 */
export function isReady(order: readonly Step[], choices: Choices, availability: Availability | null): boolean {
  if (!availability || nextStep(order, choices) !== null) return false;
  if (!SUBMITTABLE.includes(availability.action)) return false;
  return order.every((field) => availability.fields[field]?.valid !== false);
}

/** The action the chosen time leads to (accept, enquire, may_enquire), for wording. */
export function chosenAction(availability: Availability | null, choices: Choices): AvailabilityAction | null {
  if (!availability) return null;
  const time = availability.fields.time?.suggestions.find((item) => item.value === choices.time);
  return time?.action ?? availability.action;
}

/** The guest's own details, entered in the final step. */
export interface GuestDetails {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  dob?: string;
  notes?: string;
  marketing_preferences?: string[];
  /** The honeypot (parts/details.ts): no person fills it; a form-filling script does. */
  website?: string;
}

/** How a ready booking is submitted. */
export type Submission = { kind: 'api' } | { kind: 'web'; url: string };

/** Whether the booking must be finished on the booking site (deposit, or no API URL in `next`). */
export function needsRedirect(availability: Availability): boolean {
  return availability.depositRequired || !availability.next.api;
}

/**
 * How a ready booking can be sent: `api` (through the proxy), `web` (the guest finishes on the
 * booking site) or null when neither is possible (a deposit or no API URL, and no `next.web`, for
 * instance withheld by the proxy): the widget then says so instead of offering a dead button.
 */
export function submitRoute(availability: Availability): 'api' | 'web' | null {
  return !needsRedirect(availability) ? 'api' : availability.next.web ? 'web' : null;
}

/**
 * Why a guest detail is refused: the widget words each code in the guest's language. `text`: too
 * long or holding characters that are not allowed (control or invisible formatting characters).
 */
export type GuestError = 'required' | 'email' | 'phone' | 'dob' | 'text';

/**
 * Checks the guest's details before anything is sent, with the proxy's own rules (`api/rules.ts`),
 * so every value the proxy would refuse is explained next to its field rather than by a 400 from
 * the proxy. `dob` says whether the venue asks for a date of birth.
 */
export function checkGuest(
  guest: GuestDetails,
  dob: 'required' | 'optional' | '',
  today: string,
): Partial<Record<keyof GuestDetails, GuestError>> {
  const errors: Partial<Record<keyof GuestDetails, GuestError>> = {};
  for (const name of ['first_name', 'last_name', 'email', 'phone'] as const)
    if (!guest[name].trim()) errors[name] = 'required';
  for (const name of ['first_name', 'last_name'] as const)
    if (!errors[name] && textProblem(guest[name].trim(), LIMITS.name)) errors[name] = 'text';
  if (!errors.email && !isEmail(guest.email.trim())) errors.email = 'email';
  if (!errors.phone && !isPhone(guest.phone.trim())) errors.phone = 'phone';
  if (textProblem(guest.notes?.trim() ?? '', LIMITS.notes, true)) errors.notes = 'text';
  const birth = guest.dob ?? '';
  if (dob === 'required' && !birth) errors.dob = 'required';
  else if (birth && !isBirthDate(birth, today)) errors.dob = 'dob';
  return errors;
}

/**
 * Decides how to submit: through the API when `next` has an API URL and no deposit is needed
 * (optional pre-orders can be added later); otherwise by sending the guest to `next.web` with a `return_url`. The API body
 * is `bookingRequest`'s (`booking-request.ts`, in the later steps chunk).
 */
export function planSubmission(
  availability: Availability,
  choices: Choices,
  venue: string,
  guest: GuestDetails | null,
  options: { returnUrl: string; returnMethod?: 'post'; offer?: string; partnerSource?: string },
): Submission | null {
  const { next } = availability;
  if (needsRedirect(availability)) {
    if (!next.web) return null;
    const separator = next.web.includes('?') ? '&' : '?';
    const offer = options.offer ? `&offer=${encodeURIComponent(options.offer)}` : '';
    const method = options.returnMethod ? `&return_method=${options.returnMethod}` : '';
    return {
      kind: 'web',
      url: `${next.web}${separator}return_url=${encodeURIComponent(options.returnUrl)}${method}${offer}`,
    };
  }
  // An API booking is the guest's: none without their details (null: the details form never showed).
  if (!guest) return null;
  return { kind: 'api' };
}
