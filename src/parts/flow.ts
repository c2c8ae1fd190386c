/**
 * The flow as rendered: the view of this update (`view.ts`) with the summary and problems above
 * it, through the templates of `parts/`. The element hands over its state and its handlers as one
 * `Flow`; what is built here is props, never state, and a guest's action goes back as an event
 * (`booking-state.ts`).
 */
import { html, nothing } from 'lit';
import { ApiError } from '../api/client.js';
import { PARTY_SIZE } from '../api/rules.js';
import type { Availability } from '../api/normalize.js';
import { BOOKING_FIELDS, type WireMarketingPreference, type WireVenue } from '../api/types.js';
import { alternatives, chosenAction, type Step } from '../state/booking-flow.js';
import type { BookingState, GuestEvent, StepUi } from '../state/booking-state.js';
import type { LaterSteps } from '../controllers/booking-data.js';
import { durationMinutes } from '../venue/format.js';
import type { GuestForm } from '../controllers/guest-form.js';
import type { LocaleStrings, Strings } from '../i18n/en-GB.js';
import type { PartyHelp } from '../state/party-help.js';
import { eligibleOffers } from '../venue/offers.js';
import * as present from '../state/presenter.js';
import type { View } from '../state/view.js';
import { formatVenueDate, nightMinutes, venueToday } from '../venue/venue-time.js';
import { renderBusy } from './busy.js';
import { renderDatePicker } from './date-picker.js';
import { renderError } from './error.js';
import { renderProblems, type AlternativesProps } from './problems.js';
import { renderRedirect } from './redirect.js';
import { renderReject } from './reject.js';
import { renderChoices, renderStep } from './step.js';
import { renderOption, renderOptions } from './options.js';
import { renderSummary } from './summary.js';
import { renderTimes } from './times.js';
import { renderUnavailable } from './unavailable.js';
import { renderVenues } from './venues.js';

/** The element's state, what it read and its handlers, as the templates need them. */
export interface Flow extends BookingState, present.OfferContext {
  wording: present.Wording;
  /** The clock: "today" is London's date at this instant. */
  now: Date;
  order: readonly Step[];
  /** The venue picked (multi-venue only: it heads the summary), the picker's venues, the venue's name. */
  picked: string | null;
  venues: WireVenue[];
  venueName: string;
  dob: 'required' | 'optional' | '';
  /** The details form's values and errors, once the later steps chunk, its home, is here. */
  form: GuestForm | null;
  /** The later steps' code (details form, confirmation, calendar links), once loaded (`BookingData.laterSteps`). */
  later: LaterSteps | null;
  preferences: WireMarketingPreference[];
  /** What a dead end offers (`BookingData.help`), once read. */
  help: PartyHelp | null;
  /** The venue's policy text for a hand-off (`BookingData.policy`), once read. */
  policy: string | null;
  /** A guest's action. */
  send: (event: GuestEvent) => void;
  /** Says a text in the live region (a closed day's reason when it is activated). */
  say: (text: string) => void;
  onRetry: (during: 'venues' | 'availability') => void;
  onRedirect: () => void;
  onSubmit: (event: Event) => void;
  /**
   * Updates the steps' own state; `focus`: a selector whose element takes the focus once rendered,
   * with a visible focus ring (it is asked for by keyboard moves only).
   */
  onUi: (ui: Partial<StepUi>, focus?: string) => void;
}

/** A guest's choice of a value of a step. */
const choose = (flow: Flow) => (field: Step, value: string | number) => flow.send({ type: 'choose', field, value });

/**
 * The party step: its sizes, why no others, the sizes offers apply to, a larger party's way on
 * (`renderParty`, in the later steps chunk, which the step waits for). Without that chunk, the
 * sizes it takes as chips, and the venue's own way to book (the fallback content) for a larger party.
 */
function renderPartyView(flow: Flow, availability: Availability) {
  const { wording, choices, later } = flow;
  const field = availability.fields.num_people;
  const suggestions = field?.suggestions ?? [];
  if (!later)
    return html`${renderOptions(
        suggestions.filter((item) => item.valid),
        choices.num_people,
        (item) => present.describe(wording, 'num_people', item, choices.time, null),
        (item) => choose(flow)('num_people', item.value),
        'chips',
      )}<slot></slot>`;
  const offers = present.partyOffers(wording, flow, availability);
  return later.renderParty(
    { html, nothing },
    {
      strings: wording.strings,
      suggestions,
      chosen: choices.num_people,
      min: field?.min ?? null,
      max: field?.max ?? null,
      typeName: choices.type ? present.typeName(wording, choices.type) : null,
      asking: flow.ui.larger,
      qualifies: offers.qualifies,
      offerNames: offers.names,
      onChoose: (size) => choose(flow)('num_people', size),
      onAsk: () => flow.onUi({ larger: true }, '#larger-size'),
      onLarger: (people) => flow.send({ type: 'larger-party', people }),
      option: renderOption,
      largest: PARTY_SIZE.max,
    },
  );
}

function alternativesOf(flow: Flow): AlternativesProps {
  return {
    nearest: flow.wording.strings.nearest,
    format: (field, value) => present.format(flow.wording, field, value),
    onChoose: choose(flow),
  };
}

/** What a larger party's way on needs (`WayOn`: `party-more.ts`, in the later steps chunk). */
const wayOn = (flow: Flow, answer: Availability) => ({
  ...flow,
  answer,
  format: (field: Step, value: string | number) => present.format(flow.wording, field, value),
});

function renderStepView(flow: Flow, step: Step, availability: Availability) {
  const { wording, choices, ui, later } = flow;
  const s = wording.strings;
  const field = availability.fields[step];
  const suggestions = field?.suggestions ?? [];
  // Times in the order of the venue's night, whatever order the answer lists them in: 23:30, then 00:00.
  const times = [...suggestions].sort((a, b) => nightMinutes(String(a.value)) - nightMinutes(String(b.value)));
  const body =
    step === 'date'
      ? renderDatePicker({
          focus: ui.focusDate,
          selected: choices.date,
          today: venueToday(flow.now),
          suggestions,
          locale: wording.locale,
          strings: s,
          onPick: (date, reason) => {
            flow.onUi({ focusDate: date });
            // A closed day says why when activated (a click, a tap, a screen reader's activation).
            if (reason) flow.say(reason);
            else choose(flow)('date', date);
          },
          onFocus: (date, key) => flow.onUi({ focusDate: date }, key ? `[data-date="${date}"]` : undefined),
        })
      : step === 'time'
        ? renderTimes({
            strings: s,
            suggestions: times,
            chosen: choices.time,
            toggled: ui.dayParts,
            deposit: availability.depositRequired,
            format: (time) => present.format(wording, 'time', time),
            // A time chip is small: the word alone; the key above the chips names each offer once, with its times.
            offered: (item) => Boolean(present.offerBadge(wording, flow, 'time', item, availability)),
            offers: present.timeOffers(wording, flow, times, availability),
            onChoose: (item) => choose(flow)('time', item.value),
            onToggle: (part, open) => flow.onUi({ dayParts: { ...ui.dayParts, [part]: open } }),
          })
        : step === 'num_people'
          ? renderPartyView(flow, availability)
          : renderChoices({
              step,
              suggestions,
              chosen: choices[step],
              describe: (item) =>
                present.describe(
                  wording,
                  step,
                  item,
                  choices.time,
                  present.offerBadge(wording, flow, step, item, availability),
                ),
              onChoose: (item) => choose(flow)(step, item.value),
              rows: step === 'type' && present.sizedOffers(flow),
            });
  // Nothing to choose here: say so, with what the venue offers instead (`renderPartyHelp`: the types
  // that take the party and their days, the venue's phone and email), then the venue's own way to
  // book (the fallback content); the summary above goes back to any earlier choice.
  const none =
    step !== 'date' && !suggestions.some((item) => item.valid)
      ? html`<p class="note" data-none>${s.noOptions}</p>
          ${later?.renderPartyHelp({ html, nothing }, wayOn(flow, availability))}<slot></slot>`
      : nothing;
  return renderStep(step, s.stepTitles[step], html`${body}${none}`);
}

/**
 * The strings of the later steps' templates: the locale's own (a locale module has them all), with
 * en-GB's later words, which travel in the later steps chunk, under them.
 */
const laterStrings = (later: LaterSteps, strings: Strings): LocaleStrings => ({ ...later.enGBLater, ...strings });

function renderDetailsView(flow: Flow, availability: Availability) {
  const { wording, form, submitError, later } = flow;
  const s = wording.strings;
  // The view shows the form only once its code is here (`laterPending` in view.ts).
  if (!later || !form) return renderBusy(s.loading);
  return later.renderDetails(
    { html, nothing },
    {
      strings: laterStrings(later, s),
      date: (day) => formatVenueDate(day, wording.locale, { dateStyle: 'medium' }),
      form,
      dob: flow.dob,
      today: venueToday(flow.now),
      // The offers whose rules admit the full choices: the same rules that put every badge on the way
      // here, so a badge is always honoured.
      offers: eligibleOffers(flow.offers, flow.choices),
      offer: flow.offer,
      preferences: flow.preferences,
      action: chosenAction(availability, flow.choices),
      retry: Boolean(submitError?.retryable),
      submitting: flow.submitting,
      error: present.submitErrorText(s, submitError),
      onOffer: (id) => flow.send({ type: 'choose', field: 'offer', value: id }),
      onSubmit: flow.onSubmit,
    },
  );
}

/** The view's own content. */
function renderBody(flow: Flow, view: View) {
  const { wording, choices } = flow;
  const s = wording.strings;
  switch (view.kind) {
    case 'confirmation': {
      const { reference, status } = flow.confirmation!;
      const onAgain = () => flow.send({ type: 'again' });
      // The confirmation's template comes with the later steps (`laterPending` in view.ts); if that
      // chunk cannot be loaded, the booking is still made: one line says so, with its reference.
      if (!flow.later)
        return html`<div role="group" part="confirmation" aria-labelledby="step-title" data-status=${status}>
          <h2 id="step-title" tabindex="-1">${status === 'confirmed' ? s.confirmedTitle : s.enquiryTitle}</h2>
          <p data-announce>${s.reference}: <strong class="reference">${reference}</strong></p>
          <button type="button" class="link" @click=${onAgain}>${s.bookAgain}</button>
        </div>`;
      return flow.later.renderConfirmation(
        { html, nothing },
        {
          strings: laterStrings(flow.later, s),
          // The reference, status, manage link and a change's old reference.
          ...flow.confirmation!,
          choices,
          venue: flow.venueName,
          fields: BOOKING_FIELDS,
          format: (field, value) =>
            field === 'date' ? formatVenueDate(String(value), wording.locale) : present.format(wording, field, value),
          minutes: durationMinutes,
          form: flow.form,
          links: flow.later,
          now: flow.now,
          onAgain,
        },
      );
    }
    case 'venues':
      return renderVenues({
        strings: s,
        venues: flow.venues,
        chosen: flow.picked,
        onChoose: (id) => flow.send({ type: 'choose', field: 'venue', value: id }),
      });
    case 'busy':
      return renderBusy(s.loading);
    case 'error':
      // A refused site: no retry (only the site's owner can change that), the venue's own way to book.
      return renderError(
        present.readErrorText(s, view.error),
        view.error instanceof ApiError && view.error.siteRefused ? null : s.retry,
        () => flow.onRetry(view.during),
      );
    case 'empty':
      return nothing;
    case 'step':
      // The service gave a larger party another type: said, and confirmed or undone by the guest.
      return view.moved && flow.later
        ? flow.later.renderMoved({ html, nothing }, wayOn(flow, view.availability))
        : renderStepView(flow, view.step, view.availability);
    case 'details':
      return renderDetailsView(flow, view.availability);
    case 'redirect': {
      // The money terms come with the later steps (`handoff.ts`); without them, one line and the button.
      const { later } = flow;
      const { availability } = view;
      return later
        ? later.renderHandoff(
            { html, nothing },
            laterStrings(later, s),
            availability,
            /enquire$/.test(chosenAction(availability, choices) ?? ''),
            flow,
          )
        : renderRedirect(s, flow.onRedirect);
    }
    case 'unavailable':
      return renderUnavailable(s);
    case 'reject': {
      const { date, time } = choices;
      const { availability } = view;
      return renderReject(
        s,
        present.rejectReason(s, flow.order, choices, availability),
        alternativesOf(flow),
        time ? alternatives(availability, 'time', time) : null,
        date ? alternatives(availability, 'date', date) : null,
      );
    }
  }
}

/** The view, with the summary of the choices (and the problems with them) above it in the flow. */
export function renderFlow(flow: Flow, view: View) {
  const body = renderBody(flow, view);
  if (view.frame === 'none') return body;
  const w = flow.wording;
  const items = present.summaryItems(w, flow.order, flow.choices, flow.picked);
  const summary = renderSummary(w.strings, items, (field) => flow.send({ type: 'edit', field }));
  if (view.frame === 'summary') return html`${summary}${body}`;
  const problems = flow.problems.map((problem) => ({ ...problem, text: present.problemText(w, problem) }));
  return html`${summary}${renderProblems(alternativesOf(flow), problems)}${body}`;
}
