/**
 * The booking's state as one value, and every change to it as one pure `transition(state, event)`:
 * what a guest's action does (a value chosen, a venue switch, going back, a larger party, booking
 * again), what the service's answers do (a refused choice, a single valid value, a stored booking
 * and its status) and what a page load brings back (a return from the booking site, a saved
 * booking). The element sends the events and wires controllers, focus and announcements around
 * them; the decisions are made here, where the transition-table unit test drives them with plain
 * data (`booking-flow.ts` holds the rules over availability answers that they apply).
 */
import type { ApiError } from '../api/client.js';
import type { Availability, Choices } from '../api/normalize.js';
import { isConfirmed } from '../api/rules.js';
import type { BookingRequest, WireBookingCreated, WireOffer, WireVenue } from '../api/types.js';
import {
  autoChoice,
  chosenAction,
  planSubmission,
  reconcile,
  type GuestDetails,
  type Problem,
  type Step,
} from './booking-flow.js';
import type { bookingRequest } from './booking-request.js';
import type { Replaced } from './party-help.js';
import type { BookingConfirmation } from './element-types.js';
import type { Strings } from '../i18n/en-GB.js';
import { eligibleOffers } from '../venue/offers.js';
import type { Restored, SavedBooking } from './session.js';
import type { VenuePick } from '../venue/venue-model.js';
import type { ShownStep } from './view.js';

/** The steps' own state, kept across renders. */
export interface StepUi {
  /** The day of the date step the guest moved the focus to. */
  focusDate: string | null;
  /** Time groups the guest opened or closed (the likely one starts open). */
  dayParts: Partial<Record<keyof Strings['dayParts'], boolean>>;
  /** Whether the party step asks how many people a party larger than its list holds. */
  larger: boolean;
}

/** Everything the guest's actions and the service's answers change. */
export interface BookingState {
  /** The venue picked (multi-venue), with its name when known without a read (create response, saved names). */
  pick: VenuePick;
  choices: Choices;
  /** Choices the last answer refused, with why and the nearest values it accepts. */
  problems: Problem[];
  /** The step the guest went back to, if any. */
  editing: ShownStep | null;
  /** The offer the guest picked. */
  offer: string | null;
  submitting: boolean;
  submitError: ApiError | null;
  /** The stored booking: its reference, and whether the venue confirmed it or will answer an enquiry. */
  confirmation: BookingConfirmation | null;
  /**
   * How a confirmation the guest did not just book here reached this page: `returned` from the
   * booking site the guest was handed off to, or `restored` from before a reload. The element
   * announces it (`vb-complete`, with `restored`) when it shows.
   */
  arrival: 'returned' | 'restored' | null;
  /** Booking type names by id, from the answers and the saved names, so that no summary shows an id. */
  typeNames: ReadonlyMap<string, string>;
  /**
   * The type and duration a larger party replaced, until the guest settles the type for it: when
   * the service gives the party another type, the guest is told and confirms it (`view.ts`).
   */
  replaced: Replaced | null;
  ui: StepUi;
}

/** The guest's actions. */
export type GuestEvent =
  /** A value chosen: a step's, the venue or the offer (what `vb-change` reports). */
  | { type: 'choose'; field: Step; value: string | number }
  | { type: 'choose'; field: 'venue'; value: string }
  | { type: 'choose'; field: 'offer'; value: string | null }
  /** Back to a step of the summary. */
  | { type: 'edit'; field: Step | 'venue' }
  /** A party larger than the party step lists: how many people. */
  | { type: 'larger-party'; people: number }
  /**
   * The guest settles the type of a larger party (`party-help.ts` builds the choices): moves to a
   * type that takes it, continues as the type the service gave it, or goes back to change the party.
   */
  | { type: 'retype'; choices: Choices }
  /** Book again, after a confirmation. */
  | { type: 'again' };

/** Every change to the state: the guest's actions, the service's answers, the page load. */
export type BookingEvent =
  | GuestEvent
  | { type: 'ui'; ui: Partial<StepUi> }
  /** The prefill attributes' choices; `over`: they win over the choices made (set after the first render). */
  | { type: 'prefill'; choices: Choices; over: boolean }
  /** What a page load brought back (`Journey`). */
  | ({ type: 'restore' } & Restored)
  /** The picker's venues. */
  | { type: 'venues'; venues: WireVenue[] }
  /** A fresh availability answer. */
  | { type: 'answer'; order: readonly Step[]; availability: Availability }
  /** The choices changed, and the answer in hand serves them. */
  | { type: 'held'; order: readonly Step[]; availability: Availability }
  | { type: 'submit' }
  /** The create response; `instant`: the chosen time books at once. */
  | { type: 'booked'; created: WireBookingCreated; instant: boolean }
  | { type: 'failed'; error: ApiError };

/** The state before anything is chosen or read. */
export function initialState(): BookingState {
  return {
    pick: { id: null, title: '' },
    choices: {},
    problems: [],
    editing: null,
    offer: null,
    submitting: false,
    submitError: null,
    confirmation: null,
    arrival: null,
    typeNames: new Map(),
    replaced: null,
    ui: { focusDate: null, dayParts: {}, larger: false },
  };
}

/** What each event changes, as a patch over the state (null: nothing). */
const CHANGES: {
  [T in BookingEvent['type']]: (
    state: BookingState,
    event: Extract<BookingEvent, { type: T }>,
  ) => Partial<BookingState> | null;
} = {
  choose: (state, event) => {
    const chosen = { problems: [], editing: null };
    if (event.field === 'offer') return { offer: event.value };
    if (event.field === 'venue') {
      const pick = { id: event.value, title: '' };
      if (event.value === state.pick.id) return { ...chosen, pick };
      // Booking types, durations and offers belong to one venue; date, time and party size carry over.
      const { type: _type, duration: _duration, ...kept } = state.choices;
      return { ...chosen, pick, choices: kept, offer: null, replaced: null };
    }
    const { field, value } = event;
    // Later choices are kept: the next answer says whether they still hold (`reconcile`).
    const choices = { ...state.choices, [field]: value };
    const ui = { ...state.ui, larger: false, ...(field === 'time' ? {} : { dayParts: {} }) };
    // A type or a party size the guest chose settles a larger party's type.
    const replaced = field === 'type' || field === 'num_people' ? null : state.replaced;
    return { ...chosen, choices, ui, replaced };
  },
  edit: (state, { field }) => ({
    editing: field,
    ui: field === 'date' ? { ...state.ui, focusDate: state.choices.date ?? null } : state.ui,
  }),
  // A party larger than the type takes: the size is chosen and the type (with its durations) is
  // asked again, so the service says which type takes that many people (typically an enquiry-only
  // one, such as private hire). The date and time stay while the next answer accepts them; the
  // type and duration are kept aside, so a change of type is said and confirmed, and undone.
  'larger-party': (state, { people }) => {
    const { type, duration, ...kept } = state.choices;
    return {
      problems: [],
      choices: { ...kept, num_people: people },
      editing: null,
      offer: null,
      replaced: state.replaced ?? { type, duration },
      ui: { ...state.ui, larger: false },
    };
  },
  retype: (_state, { choices }) => ({ choices, replaced: null, problems: [], editing: null, offer: null }),
  // The venue and the names seen stay (and the guest's details, in the form: `GuestForm.reset`).
  again: () => ({
    confirmation: null,
    arrival: null,
    choices: {},
    offer: null,
    problems: [],
    editing: null,
    replaced: null,
  }),
  ui: (state, { ui }) => ({ ui: { ...state.ui, ...ui } }),
  // Before the first render a restored booking wins; after it, a changed attribute does.
  prefill: (state, { choices, over }) =>
    Object.keys(choices).length
      ? { choices: over ? { ...state.choices, ...choices } : { ...choices, ...state.choices } }
      : null,
  restore,
  // A list of one venue is no choice: it is picked for the guest.
  venues: (state, { venues }) =>
    venues.length === 1 && !state.pick.id ? { pick: { ...state.pick, id: venues[0]._id } } : null,
  answer: (state, { order, availability }) => {
    const named = availability.fields.type?.suggestions.filter((item) => item.label) ?? [];
    const result = reconcile(order, state.choices, availability);
    const refused = result.problems.length > 0;
    return {
      typeNames: withNames(
        state,
        named.map((item) => [String(item.value), item.label!]),
      ),
      problems: refused ? result.problems : state.problems,
      choices: refused || result.autoChosen ? result.choices : state.choices,
    };
  },
  // As a fresh answer would (`reconcile`), and never on an answer that refused a choice.
  held: (state, { order, availability }) => {
    const auto = state.problems.length === 0 && autoChoice(order, state.choices, availability);
    return auto ? { choices: auto } : null;
  },
  submit: () => ({ submitting: true, submitError: null }),
  booked: (state, { created, instant }) => {
    // The service's word when it gives one; when it says nothing, a time that books at once.
    const confirmed = isConfirmed(created, instant);
    const reference = String(created.booking?.reference ?? '');
    const kept = created.replace_refused;
    return {
      submitting: false,
      // The venue's name for the confirmation comes with the create response.
      pick: { ...state.pick, title: created.venue?.title ?? state.pick.title },
      // The proxy's manage link and, for a change, the reference it cancelled (`replaced`) or the
      // one that still stands (`replace_refused`).
      confirmation: {
        reference,
        status: confirmed ? 'confirmed' : 'enquiry',
        manage_url: created.manage_url,
        previous: created.replaced?.reference,
        ...(kept?.reference && { kept: { reference: kept.reference, phone: kept.phone ?? undefined } }),
      },
      arrival: null,
    };
  },
  failed: (_state, { error }) => ({ submitting: false, submitError: error }),
};

/** The state after `event`: a new state, or the same one when the event changes nothing. */
export function transition(state: BookingState, event: BookingEvent): BookingState {
  const changes = CHANGES[event.type](state, event as never);
  return changes ? { ...state, ...changes } : state;
}

/** The type names known, with `names` added (the same map when there are none). */
function withNames(state: BookingState, names: [string, string][]): ReadonlyMap<string, string> {
  return names.length ? new Map([...state.typeNames, ...names]) : state.typeNames;
}

/**
 * What a page load brought back: the booking site's confirmation (a return wins), the saved
 * booking and its names, and a confirmation kept from before a reload when none is shown yet.
 */
function restore(state: BookingState, { back, saved }: Restored): Partial<BookingState> {
  const changes: Partial<BookingState> = back ? { confirmation: back, arrival: 'returned' } : {};
  if (!saved) return changes;
  changes.pick = { id: saved.venue, title: state.pick.title || saved.names?.venue || '' };
  changes.choices = saved.choices;
  changes.offer = saved.offer;
  if (!back && !state.confirmation && saved.confirmation) {
    changes.confirmation = saved.confirmation;
    changes.arrival = 'restored';
  }
  const type = saved.names?.type;
  if (type && saved.choices.type) changes.typeNames = withNames(state, [[saved.choices.type, type]]);
  return changes;
}

/** Whether what is saved across a reload (`savedBooking`) changed between two states. */
export function savedChanged(before: BookingState | undefined, after: BookingState): boolean {
  return (['choices', 'pick', 'offer', 'confirmation'] as const).some((key) => before?.[key] !== after[key]);
}

/** The booking as saved across a reload (`venue`: the venue's name): choices and display names, never personal data. */
export function savedBooking(state: BookingState, venue: string): SavedBooking {
  const { pick, choices, offer, confirmation } = state;
  const type = (choices.type && state.typeNames.get(choices.type)) || undefined;
  return { venue: pick.id, choices, offer, confirmation, names: { type, venue: venue || undefined } };
}

/**
 * The booking a ready state sends through the API (null when it must be finished on the booking
 * site): the offer picked goes with it only while its rules admit the choices (it is one of the
 * offers the details step lists), and `instant` says whether the chosen time books at once. The
 * body is built by `extras.request` (`bookingRequest`, from the later steps chunk, which is here
 * whenever the guest can submit).
 */
export function apiBooking(
  state: BookingState,
  availability: Availability,
  venue: string,
  guest: GuestDetails,
  extras: { offers: readonly WireOffer[]; partnerSource: string; replaces?: string; request: typeof bookingRequest },
): { body: BookingRequest; instant: boolean } | null {
  const { choices, offer } = state;
  if (planSubmission(availability, choices, venue, guest, { returnUrl: '' })?.kind !== 'api') return null;
  const admitted = eligibleOffers(extras.offers, choices).some((item) => item._id === offer);
  // The partner source and a change's `replaces` as the element has them ('' when unset).
  const body = extras.request(availability, choices, venue, guest, { ...extras, offer: admitted ? offer! : undefined });
  return { body, instant: chosenAction(availability, choices) === 'accept' };
}
