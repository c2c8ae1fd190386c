/**
 * The booking flow as pure functions over availability answers: which step comes next, what a
 * guest's choice does to later choices, when a booking is ready and how it is submitted (through
 * the API, or by handing the guest to the booking site). No DOM, no fetch, no clock: the element
 * orchestrates, this module decides, and the unit tests drive it with plain data.
 */
import type { Availability, Choices, Suggestion } from './api/normalize.js';
import type { AvailabilityAction, BookingField, BookingRequest } from './api/types.js';
import { BOOKING_FIELDS } from './api/types.js';

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

/**
 * Sets one choice. Later choices are kept: the next availability answer says whether they still
 * hold, and `reconcile` clears those that do not.
 */
export function choose(choices: Choices, field: Step, value: string | number): Choices {
  return { ...choices, [field]: value };
}

/** Removes one choice and every choice after it in `order` (used when the guest goes back). */
export function clearFrom(choices: Choices, order: readonly Step[], field: Step): Choices {
  const next: Choices = { ...choices };
  for (const step of order.slice(order.indexOf(field))) delete next[step];
  return next;
}

/** What `reconcile` did: the surviving choices and the fields it cleared. */
export interface Reconciled {
  choices: Choices;
  cleared: Step[];
  /** A field chosen automatically because it had exactly one valid value. */
  autoChosen: Step | null;
}

function stillValid(availability: Availability, field: Step, value: string | number): boolean {
  const state = availability.fields[field];
  if (!state) return true;
  if (state.valid === false) return false;
  const match = state.suggestions.find((item) => item.value === value);
  // A value that is not among the suggestions is judged by the field's own verdict (checked above).
  return match ? match.valid : true;
}

/**
 * Brings the choices in line with a fresh availability answer: clears every chosen field the
 * service now rejects, then, if the next open step has exactly one valid value, chooses it.
 */
export function reconcile(order: readonly Step[], choices: Choices, availability: Availability): Reconciled {
  const kept: Choices = { ...choices };
  const cleared: Step[] = [];
  for (const field of order) {
    const value = kept[field];
    if (value !== undefined && !stillValid(availability, field, value)) {
      delete kept[field];
      cleared.push(field);
    }
  }
  let autoChosen: Step | null = null;
  const step = nextStep(order, kept);
  if (step && cleared.length === 0) {
    const valid = validSuggestions(availability, step);
    if (valid.length === 1) {
      kept[step] = valid[0].value as never;
      autoChosen = step;
    }
  }
  return { choices: kept, cleared, autoChosen };
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
}

/** How a ready booking is submitted. */
export type Submission =
  | { kind: 'api'; body: BookingRequest }
  | { kind: 'web'; url: string };

/**
 * Decides how to submit: through the API when `next` has an API URL and no deposit or pre-orders
 * are needed; otherwise by sending the guest to `next.web` with a `return_url`. The API body is the
 * accepted `bookingDetails` (values sent back unconverted) plus the guest's details.
 */
export function planSubmission(
  availability: Availability,
  choices: Choices,
  venue: string,
  guest: GuestDetails,
  options: { returnUrl: string; offer?: string; partnerSource?: string },
): Submission | null {
  const { next } = availability;
  const mustRedirect = availability.depositRequired || availability.preordersAvailable || !next.api;
  if (mustRedirect) {
    if (!next.web) return null;
    const separator = next.web.includes('?') ? '&' : '?';
    return { kind: 'web', url: `${next.web}${separator}return_url=${encodeURIComponent(options.returnUrl)}` };
  }
  const { venue_group: _group, payments: _payments, ...accepted } = availability.details;
  const body: BookingRequest = {
    ...accepted,
    venue_id: String(accepted.venue_id ?? venue),
    type: String(accepted.type ?? choices.type),
    date: String(accepted.date ?? choices.date),
    time: String(accepted.time ?? choices.time),
    num_people: Number(accepted.num_people ?? choices.num_people),
    ...(accepted.duration ?? choices.duration) !== undefined ? { duration: Number(accepted.duration ?? choices.duration) } : {},
    first_name: guest.first_name.trim(),
    last_name: guest.last_name.trim(),
    email: guest.email.trim(),
    phone: guest.phone.trim(),
  };
  if (guest.dob) body.dob = guest.dob;
  if (guest.notes?.trim()) body.notes = guest.notes.trim();
  if (guest.marketing_preferences?.length) body.marketing_preferences = guest.marketing_preferences;
  if (options.offer) body.offer = options.offer;
  if (options.partnerSource) body.partner_source = options.partnerSource;
  return { kind: 'api', body };
}
