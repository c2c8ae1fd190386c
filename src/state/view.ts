/**
 * Which view the widget shows, as one pure decision: `viewFor(state, availability)` is computed in
 * the element's `willUpdate` from the state and the reads as they stand for this update (a read
 * about to start counts as pending, so no stale options show), and `render()` only renders it. The
 * step a view shows is the one `vb-step` names (null where no step is shown: a placeholder, an
 * error, a refusal).
 */
import type { Availability, Choices } from '../api/normalize.js';
import { isPartySize } from '../api/rules.js';
import { isReady, nextStep, submitRoute, type Step } from './booking-flow.js';

/** A step shown to the guest: the venue picker, a booking field, or the end of the flow. */
export type ShownStep = 'venue' | Step | 'details' | 'redirect' | 'unavailable' | 'confirmation';

/** A read as the view sees it. */
export interface ReadState<T> {
  status: 'initial' | 'pending' | 'complete' | 'error';
  value: T | undefined;
  error?: unknown;
}

/** What the view is decided on. */
export interface ViewState {
  /** A booking is stored (or the guest came back from the booking site). */
  confirmed: boolean;
  /** The later steps' code is on its way (`BookingData.laterSteps`): the party step, the details form and the confirmation wait for it. */
  laterPending?: boolean;
  /** The later steps' code could not be loaded: the details form cannot show. */
  laterFailed?: boolean;
  /** Whether the guest picks the venue first. */
  multi: boolean;
  /** The picked venue (multi-venue), or null. */
  venue: string | null;
  /** The step the guest went back to, if any. */
  editing: ShownStep | null;
  order: readonly Step[];
  choices: Choices;
  /** The picker's venue list. */
  venues: ReadState<readonly unknown[]>;
  /** Whether the venue's offers (every step waits for them) or the details form's preferences are on their way. */
  extrasPending: boolean;
  /** What a dead end offers is on its way (`BookingData.help`): the step waits for it. */
  helpPending?: boolean;
  /** The type a larger party replaced (`BookingState.replaced`). */
  replaced?: { type?: string } | null;
}

/** What is rendered around a view: nothing, the summary, or the summary and the problems. */
export type Frame = 'none' | 'summary' | 'flow';

/** The view to render. */
export type View =
  | { kind: 'confirmation'; step: 'confirmation'; frame: 'none' }
  | { kind: 'venues'; step: 'venue'; frame: 'none' }
  | { kind: 'busy'; step: null; frame: Frame }
  | { kind: 'error'; step: null; frame: Frame; during: 'venues' | 'availability'; error: unknown }
  | { kind: 'empty'; step: null; frame: 'none' }
  /** `moved`: the service gave a larger party another type, which the type step says and the guest confirms. */
  | { kind: 'step'; step: Step; frame: 'flow'; availability: Availability; moved?: boolean }
  | { kind: 'details'; step: 'details'; frame: 'flow'; availability: Availability }
  | { kind: 'redirect'; step: 'redirect'; frame: 'flow'; availability: Availability }
  | { kind: 'unavailable'; step: 'unavailable'; frame: 'flow' }
  | { kind: 'reject'; step: null; frame: 'flow'; availability: Availability };

/** The view for the state and the availability answer (null: no venue to read for, or booked). */
export function viewFor(state: ViewState, availability: ReadState<Availability | null>): View {
  if (state.confirmed)
    return state.laterPending
      ? { kind: 'busy', step: null, frame: 'none' }
      : { kind: 'confirmation', step: 'confirmation', frame: 'none' };
  if (state.multi && (!state.venue || state.editing === 'venue')) {
    const { venues } = state;
    if (venues.status === 'error')
      return { kind: 'error', step: null, frame: 'none', during: 'venues', error: venues.error };
    if (!venues.value?.length) return { kind: 'busy', step: null, frame: 'none' };
    return { kind: 'venues', step: 'venue', frame: 'none' };
  }
  switch (availability.status) {
    case 'initial':
      return { kind: 'busy', step: null, frame: 'none' };
    case 'pending':
      return { kind: 'busy', step: null, frame: 'summary' };
    case 'error':
      return { kind: 'error', step: null, frame: 'summary', during: 'availability', error: availability.error };
  }
  const answer = availability.value;
  if (!answer) return { kind: 'empty', step: null, frame: 'none' };
  // Every screen waits for the venue's offers, read beside the first answer (the same round trip),
  // and the form for its preferences too, so that their badges and fields push nothing once shown.
  if (state.extrasPending) return { kind: 'busy', step: null, frame: 'flow' };
  const editing =
    state.editing && state.editing !== 'venue' && state.editing !== 'details' ? (state.editing as Step) : null;
  // The service gave a larger party another type: the type step says so until the guest confirms it.
  const { replaced, choices } = state;
  const moved = !editing && !!replaced?.type && !!choices.type && choices.type !== replaced.type;
  const step = editing ?? (moved ? 'type' : nextStep(state.order, choices));
  if (step) {
    if (state.helpPending) return { kind: 'busy', step: null, frame: 'flow' };
    // The party step's larger-party field and select come with the later steps: it waits for them.
    if (step === 'num_people' && state.laterPending) return { kind: 'busy', step: null, frame: 'flow' };
    return { kind: 'step', step, frame: 'flow', availability: answer, moved };
  }
  if (state.laterPending) return { kind: 'busy', step: null, frame: 'flow' };
  if (!isReady(state.order, state.choices, answer))
    return { kind: 'reject', step: null, frame: 'flow', availability: answer };
  const route = submitRoute(answer);
  if (route === 'api' && !state.laterFailed)
    return { kind: 'details', step: 'details', frame: 'flow', availability: answer };
  if (route && route !== 'api') return { kind: 'redirect', step: 'redirect', frame: 'flow', availability: answer };
  return { kind: 'unavailable', step: 'unavailable', frame: 'flow' };
}

/** The element's prefill attributes. */
export interface Prefill {
  type: string;
  date: string;
  time: string;
  duration: number | undefined;
  numPeople: number | undefined;
}

/**
 * The choices the prefill attributes that `changed` set: empty ones are not choices, nor is a party
 * size the proxy would refuse (0, 2.5, 5000): the guest chooses one.
 */
export function prefillChoices(prefill: Prefill, changed: (name: keyof Prefill) => boolean): Choices {
  const { type, date, time, duration, numPeople } = prefill;
  const choices: Choices = {};
  if (changed('type') && type) choices.type = type;
  if (changed('date') && date) choices.date = date;
  if (changed('time') && time) choices.time = time;
  if (changed('duration') && duration !== undefined && !Number.isNaN(duration)) choices.duration = duration;
  if (changed('numPeople') && numPeople !== undefined && isPartySize(numPeople)) choices.num_people = numPeople;
  return choices;
}
