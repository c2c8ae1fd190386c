import { LitElement, html, type PropertyValues } from 'lit';
import { TaskStatus } from '@lit/task';
import { ApiError } from './api/client.js';
import type { Choices } from './api/normalize.js';
import * as booking from './booking-flow.js';
import type { Problem, Step } from './booking-flow.js';
import { BookingData, type BookingInputs } from './controllers/booking-data.js';
import { GuestForm } from './controllers/guest-form.js';
import type { BookingConfirmation, BookingSummary, GuestPrefill, VenueBookingEventDetails } from './element-types.js';
import { Locale } from './controllers/locale.js';
import { Session, type Restored } from './controllers/session.js';
import { offerApplies } from './offers.js';
import { renderFlow, type Flow, type StepUi } from './parts/flow.js';
import { renderPopup } from './parts/popup.js';
import * as present from './presenter.js';
import type { SavedBooking } from './session.js';
import { styles } from './styles.js';
import { prefillChoices, viewFor, type ShownStep, type View } from './view.js';
import { venueModel, type VenueModel, type VenuePick } from './venue-model.js';
import { venueToday } from './venue-time.js';

export type { ShownStep } from './view.js';

export type { BookingConfirmation, BookingSummary, GuestPrefill, VenueBookingEventDetails };

/**
 * `<venue-booking>`: steps a guest through a booking at a venue, on the availability answers of
 * the v4 booking service reached through the credential-holding proxy, and confirms it in place
 * (or hands the guest to the venue's booking site when a deposit is needed, and reads the return).
 *
 * @summary An accessible, themeable booking flow for restaurants and bars.
 *
 * @attr venue - The venue id, or a comma-separated list of ids (a venue picker comes first).
 * @attr venue-group - A venue group id: its venues (`GET /venues?venue_group=`) are offered in a picker.
 * @attr api - Base URL of the proxy's `/api` (default `/api`, same origin).
 * @attr steps - The order of the steps, a comma list of type, date, time, duration, num_people.
 * @attr locale - `en-GB` (built in), `fr`, `de`, `es` or `nl` (loaded on demand; if that fails, English stays and `vb-error` fires); dates, times and durations follow it.
 * @attr theme - `light` (default), `dark`, or `auto` (follows `prefers-color-scheme`).
 * @attr mode - `inline` (default) or `popup`: a button that opens the flow in a modal `<dialog>`.
 * @attr return-url - Where the booking site sends the guest back (default: the current page).
 * @attr return-method - `post` (default): when the proxy offers its return bridge, the booking site POSTs the guest's details to it and only the reference and status reach the page's URL; `get`: the booking site puts them in the return URL.
 * @attr hide-offers - Hides offers and offer badges.
 * @attr partner-source - A free-text label stored with the booking for reporting (`partner_source`).
 * @attr ask-dob - `required` or `optional`: asks for the guest's date of birth (for venues with age rules).
 * @attr analytics - Pushes GA4-style events (`vb_step`, `vb_change`, …) without personal data to `window.dataLayer`.
 * @attr type - Prefills the booking type id.
 * @attr date - Prefills the date (`yyyy-MM-dd`, venue time).
 * @attr time - Prefills the time (`HH:mm`, venue time).
 * @attr duration - Prefills the duration, in the unit the service suggests.
 * @attr num-people - Prefills the party size.
 *
 * @prop {Date | null} now - The clock (default real time): "today" is London's date at this instant.
 * @prop {GuestPrefill | null} guest - Prefills the guest's name, email and phone (property only).
 *
 * @fires {CustomEvent<{step}>} vb-step - A new step is shown after a guest action.
 * @fires {CustomEvent<{field, value}>} vb-change - The guest chose a value.
 * @fires {CustomEvent<{booking}>} vb-submit - The booking was sent (no personal data).
 * @fires {CustomEvent<{reference, status, booking, restored}>} vb-complete - The booking is stored (no personal data); after a reload that shows a kept confirmation it fires again with `restored: true`.
 * @fires {CustomEvent<{url, booking}>} vb-redirect - Cancelable; the guest is about to leave for the booking site.
 * @fires {CustomEvent<{kind, status, during}>} vb-error - A call failed (the guest sees a message and can retry), a ready booking cannot be sent from here (`kind: 'unavailable'`), or the locale module failed to load and English stays (`kind: 'locale'`).
 *
 * @slot - The venue's own way to book (a link, a phone number): the no-script fallback, shown again under an error and when a booking cannot be made here.
 *
 * @csspart step - The section of the current step.
 * @csspart summary - The list of choices made so far.
 * @csspart option - A choice button; with `selected` and `unavailable` tokens.
 * @csspart badge - The offer badge on a choice (its title names the offer).
 * @csspart time-group - The disclosure button of one part of the day (lunch, afternoon, evening) in the time step.
 * @csspart calendar - The month calendar of the date step.
 * @csspart calendar-nav - The previous and next month buttons.
 * @csspart day - A day button; with `available`, `unavailable`, `selected` and `today` tokens.
 * @csspart problem - The note explaining a refused or cleared choice, with alternatives.
 * @csspart offers - The offers list of the details step.
 * @csspart offer - One offer.
 * @csspart form - The guest details form.
 * @csspart consent - The marketing preferences.
 * @csspart submit - The submit (or continue to the booking site) button.
 * @csspart confirmation - The confirmation shown once the booking is stored.
 * @csspart ics - The .ics download link.
 * @csspart google-calendar - The Google Calendar link.
 * @csspart open - The button that opens the popup.
 * @csspart dialog - The popup's `<dialog>`.
 *
 * @cssproperty --vb-accent - Accent colour of chosen values and the main button.
 * @cssproperty --vb-accent-text - Text colour on the accent colour.
 * @cssproperty --vb-background - Background of the widget (default transparent; the dialog's is opaque).
 * @cssproperty --vb-text - Text colour (default inherited from the page).
 * @cssproperty --vb-muted - Colour of secondary text.
 * @cssproperty --vb-border - Colour of borders.
 * @cssproperty --vb-error - Colour of error messages.
 * @cssproperty --vb-radius - Corner radius of buttons.
 * @cssproperty --vb-font - Font family (default the system font stack; a page rule `venue-booking { font-family: inherit }` gives it the page's).
 */
export class VenueBooking extends LitElement {
  static override styles = styles;

  static override properties = {
    venue: { type: String },
    venueGroup: { type: String, attribute: 'venue-group' },
    api: { type: String },
    steps: { type: String },
    locale: { type: String },
    theme: { type: String, reflect: true },
    mode: { type: String, reflect: true },
    returnUrl: { type: String, attribute: 'return-url' },
    returnMethod: { type: String, attribute: 'return-method' },
    hideOffers: { type: Boolean, attribute: 'hide-offers' },
    partnerSource: { type: String, attribute: 'partner-source' },
    askDob: { type: String, attribute: 'ask-dob' },
    analytics: { type: Boolean },
    type: { type: String },
    date: { type: String },
    time: { type: String },
    duration: { type: Number },
    numPeople: { type: Number, attribute: 'num-people' },
    now: { attribute: false },
    guest: { attribute: false },
    _pick: { state: true },
    _choices: { state: true },
    _problems: { state: true },
    _editing: { state: true },
    _offer: { state: true },
    _submitting: { state: true },
    _submitError: { state: true },
    _confirmation: { state: true },
    _ui: { state: true },
  };

  /** The venue id, or a comma-separated list of venue ids. */
  declare venue: string;
  /** A venue group id whose venues are offered in a picker. */
  declare venueGroup: string;
  /** Base URL of the proxy's `/api`. */
  declare api: string;
  /** The order of the steps, as a comma list of booking fields. */
  declare steps: string;
  /** The language of the widget (BCP 47); if its module cannot be loaded, English stays and `vb-error` fires. */
  declare locale: string;
  /** `light`, `dark` or `auto`. */
  declare theme: 'light' | 'dark' | 'auto';
  /** `inline` or `popup`. */
  declare mode: 'inline' | 'popup';
  /** Where the booking site sends the guest back; default the current page. */
  declare returnUrl: string;
  /** How the booking site returns the guest's details: `post` (through the proxy's bridge, when it offers one) or `get`. */
  declare returnMethod: 'post' | 'get';
  /** Hides offers and offer badges. */
  declare hideOffers: boolean;
  /** Label stored with the booking as `partner_source`. */
  declare partnerSource: string;
  /** Whether to ask for a date of birth: `required`, `optional` or empty. */
  declare askDob: 'required' | 'optional' | '';
  /** Whether to push events to `window.dataLayer`. */
  declare analytics: boolean;
  /** Prefilled booking type id. */
  declare type: string;
  /** Prefilled date, `yyyy-MM-dd`. */
  declare date: string;
  /** Prefilled time, `HH:mm`. */
  declare time: string;
  /** Prefilled duration, in the service's unit. */
  declare duration: number | undefined;
  /** Prefilled party size. */
  declare numPeople: number | undefined;
  /** The clock; null means real time. "Today" is always London's date at this instant. */
  declare now: Date | null;
  /** Guest details to prefill. */
  declare guest: GuestPrefill | null;

  declare private _pick: VenuePick;
  declare private _choices: Choices;
  declare private _problems: Problem[];
  declare private _editing: ShownStep | null;
  declare private _offer: string | null;
  declare private _submitting: boolean;
  declare private _submitError: ApiError | null;
  declare private _confirmation: BookingConfirmation | null;
  declare private _ui: StepUi;

  /** Booking type names seen in answers, so the summary keeps them while an answer is missing. */
  private _typeNames = new Map<string, string>();
  /** Set once the guest acts: events and focus moves happen only after that. */
  private _interacted = false;
  /** Set by a guest action: the next settled render moves focus to the step heading. */
  private _focusPending = false;
  /** The view of this update (`willUpdate`), and the last step shown. */
  private _view: View = { kind: 'empty', step: null, frame: 'none' };
  private _lastStep: ShownStep | null = null;
  /** The height of the last step shown, for the placeholder that replaces it. */
  private _stepHeight = 0;
  /** Whether the details form has been in sight: the marketing preferences are read from then on. */
  private _wantPreferences = false;

  private _locale = new Locale(this, () => this._emit('vb-error', { kind: 'locale', status: null, during: 'locale' }));
  private _session = new Session(this, (restored) => this._restore(restored));
  private _form = new GuestForm(
    this,
    () => this._today,
    () => this._view.kind === 'details',
  );
  private _data = new BookingData(this, () => this._inputs(), {
    venues: (venues) => {
      if (venues.length === 1 && !this._pick.id) this._pick = { ...this._pick, id: venues[0]._id };
    },
    answer: (availability) => {
      for (const item of availability.fields.type?.suggestions ?? [])
        if (item.label) this._typeNames.set(String(item.value), item.label);
      const result = booking.reconcile(this._order, this._choices, availability);
      if (result.problems.length > 0) this._problems = result.problems;
      if (result.problems.length > 0 || result.autoChosen) this._choices = result.choices;
    },
    error: (error, during) => this._fail(error, during),
  });

  constructor() {
    super();
    this.venue = '';
    this.venueGroup = '';
    this.api = '/api';
    this.steps = '';
    this.locale = 'en-GB';
    this.theme = 'light';
    this.mode = 'inline';
    this.returnUrl = '';
    this.returnMethod = 'post';
    this.hideOffers = false;
    this.partnerSource = '';
    this.askDob = '';
    this.analytics = false;
    this.type = '';
    this.date = '';
    this.time = '';
    this.duration = undefined;
    this.numPeople = undefined;
    this.now = null;
    this.guest = null;
    this._pick = { id: null, title: '' };
    this._choices = {};
    this._problems = [];
    this._editing = null;
    this._offer = null;
    this._submitting = false;
    this._submitError = null;
    this._confirmation = null;
    this._ui = { focusDate: null, dayParts: {}, allSizes: false };
  }

  // --- derived values ---

  private get _order(): Step[] {
    return booking.parseSteps(this.steps);
  }

  private get _today(): string {
    return venueToday(this.now ?? new Date());
  }

  /** The venue in use: its id, whether the guest picks it, and its name for people. */
  private get _venue(): VenueModel {
    const { venues, record } = this._data;
    return venueModel(this.venue, this.venueGroup, this._pick, venues.task.value, record.task.value);
  }

  /** What the reads depend on. */
  private _inputs(): BookingInputs {
    return {
      api: this.api,
      attribute: this.venue,
      group: this.venueGroup,
      venue: this._venue,
      order: this._order,
      choices: this._choices,
      confirmed: Boolean(this._confirmation),
      hideOffers: this.hideOffers,
      wantPreferences: this._wantPreferences,
      titled: Boolean(this._pick.title),
      returnMethod: this.returnMethod,
    };
  }

  private get _wording(): present.Wording {
    const { strings, tag: locale } = this._locale;
    return { strings, locale, typeNames: this._typeNames, venues: this._data.venues.task.value };
  }

  private get _summary(): BookingSummary {
    return present.bookingSummary(this._venue.current, this._choices, this._offer);
  }

  /** The booking as saved across a reload: choices and display names, never personal data. */
  private _saved(): SavedBooking {
    const { _pick: pick, _choices: choices, _offer: offer, _confirmation: confirmation } = this;
    const type = (choices.type && present.typeName(this._wording, choices.type)) || undefined;
    return { venue: pick.id, choices, offer, confirmation, names: { type, venue: this._venue.name || undefined } };
  }

  // --- lifecycle ---

  /** What the page load brought back (`Session`): the return's confirmation, the saved booking. */
  private _restore({ back, saved }: Restored): void {
    if (back) this._confirmation = back;
    if (!saved) return;
    this._pick = { id: saved.venue, title: this._pick.title || saved.names?.venue || '' };
    this._choices = saved.choices;
    this._offer = saved.offer;
    if (!this._confirmation && saved.confirmation) {
      this._confirmation = saved.confirmation;
      this._session.restored = true;
    }
    const type = saved.names?.type;
    if (type && saved.choices.type) this._typeNames.set(saved.choices.type, type);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Prefill attributes set choices the guest has not made (a restored booking wins).
    const prefill = prefillChoices(this, (name) => changed.has(name));
    if (Object.keys(prefill).length)
      this._choices = this.hasUpdated ? { ...this._choices, ...prefill } : { ...prefill, ...this._choices };
    // A choice served by the answer in hand: the next step is chosen for the guest when that answer
    // leaves one value, as a fresh answer would (`reconcile`), and never on an answer that refused one.
    if ((changed as PropertyValues).has('_choices') && this._problems.length === 0) {
      const answer = this._data.current(this._inputs());
      const auto = answer && booking.autoChoice(this._order, this._choices, answer);
      if (auto) this._choices = auto;
    }
    this._wantPreferences ||= booking.nextStep(this._order, this._choices) === null;
    const data = this._data;
    this._view = viewFor(
      {
        confirmed: Boolean(this._confirmation),
        multi: this._venue.multi,
        venue: this._pick.id,
        editing: this._editing,
        order: this._order,
        choices: this._choices,
        venues: data.venues.state,
        extrasPending: data.offers.pending || data.preferences.pending,
      },
      data.availability.state,
    );
  }

  protected override updated(changed: PropertyValues): void {
    // A placeholder keeps the height of the step it replaces, so the page below moves once, not twice.
    const busy = this.renderRoot.querySelector<HTMLElement>('.busy');
    if (busy) busy.style.minHeight = `${this._stepHeight}px`;
    else this._stepHeight = this.renderRoot.querySelector<HTMLElement>('[data-step], form')?.offsetHeight ?? 0;
    if (this._interacted && ['_choices', '_pick', '_offer', '_confirmation'].some((key) => changed.has(key)))
      this._session.save(this._saved());
    const step = this._view.step;
    if (step && step !== this._lastStep) {
      this._lastStep = step;
      if (this._interacted || (this._session.returned && step === 'confirmation')) {
        this._emit('vb-step', { step });
        // Said through the live region (its text node is not managed by the template); a fresh node
        // after a tick makes screen readers read repeated text again.
        const region = this.renderRoot.querySelector('#live');
        const text = this.renderRoot.querySelector('#step-title')?.textContent?.trim() ?? '';
        if (region) region.textContent = '';
        setTimeout(() => region && (region.textContent = text), 50);
      }
      if (step === 'unavailable') this._emit('vb-error', { kind: 'unavailable', status: null, during: 'submit' });
      const restored = step === 'confirmation' ? this._session.arrival() : null;
      if (restored !== null) {
        const { reference, status } = this._confirmation!;
        this._emit('vb-complete', { reference, status, booking: this._summary, restored });
      }
    }
    if (this._focusPending && step && this._data.availability.task.status !== TaskStatus.PENDING) {
      this._focusPending = false;
      this._focus('#step-title');
    }
  }

  // --- internals ---

  private _emit<K extends keyof VenueBookingEventDetails>(
    name: K,
    detail: VenueBookingEventDetails[K],
    cancelable = false,
  ): boolean {
    if (this.analytics) {
      const layer = ((globalThis as { dataLayer?: unknown[] }).dataLayer ??= []);
      layer.push({ event: name.replace('-', '_'), ...detail });
    }
    return this.dispatchEvent(vbEvent(name, detail, cancelable));
  }

  /** A failed call as an `ApiError`, reported in `vb-error` unless it was cancelled. */
  private _fail(error: unknown, during: 'venues' | 'availability' | 'submit'): ApiError {
    const apiError = error instanceof ApiError ? error : new ApiError('server', String(error));
    if (apiError.kind !== 'aborted') this._emit('vb-error', { kind: apiError.kind, status: apiError.status, during });
    return apiError;
  }

  /**
   * Moves the focus to the element `selector` finds in the shadow root. `focusVisible` (not yet in
   * TypeScript's DOM types; ignored where unsupported) forces or hides the focus ring.
   */
  private _focus(selector: string, options?: FocusOptions & { focusVisible?: boolean }): void {
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus(options);
  }

  /** A guest action: later renders may move focus and fire events. */
  private _act(): void {
    this._interacted = true;
    this._focusPending = true;
  }

  // --- public methods ---

  /** Opens the popup (in `mode="popup"`). */
  open(): void {
    const dialog = this.renderRoot.querySelector('dialog');
    if (!dialog || dialog.open) return;
    dialog.showModal();
    this._focus('#step-title');
  }

  /** Closes the popup; focus returns to its button. */
  close(): void {
    this.renderRoot.querySelector('dialog')?.close();
  }

  // --- rendering: the view of this update, through `parts/flow.ts` ---

  /** What the templates need of this update (`parts/flow.ts`). */
  private _flow(): Flow {
    const venue = this._venue;
    const flow: Flow = {
      wording: this._wording,
      now: this.now ?? new Date(),
      order: this._order,
      choices: this._choices,
      problems: this._problems,
      picked: venue.multi ? this._pick.id : null,
      venues: this._data.venues.task.value ?? [],
      venueName: venue.name,
      confirmation: this._confirmation,
      ui: this._ui,
      dob: this.askDob === 'required' || this.askDob === 'optional' ? this.askDob : '',
      form: this._form,
      offers: this._data.offers.task.value ?? [],
      hideOffers: this.hideOffers,
      offer: this._offer,
      preferences: this._data.preferences.task.value ?? [],
      submitting: this._submitting,
      submitError: this._submitError,
      onChoose: (step, value) => {
        this._act();
        this._problems = [];
        this._editing = null;
        if (step !== 'time') this._ui = { ...this._ui, dayParts: {} };
        this._choices = booking.choose(this._choices, step, value);
        this._emit('vb-change', { field: step, value });
      },
      onChooseVenue: (id) => {
        this._act();
        this._editing = null;
        this._problems = [];
        if (id !== this._pick.id) {
          // Booking types, durations and offers belong to one venue; date, time and party size carry over.
          const { type: _type, duration: _duration, ...rest } = this._choices;
          this._choices = rest;
          this._offer = null;
        }
        this._pick = { id, title: '' };
        this._emit('vb-change', { field: 'venue', value: id });
      },
      onEdit: (field) => {
        this._act();
        this._editing = field;
        if (field === 'date') this._ui = { ...this._ui, focusDate: this._choices.date ?? null };
      },
      onLargerParty: () => {
        this._act();
        this._problems = [];
        this._choices = booking.forLargerParty(this._choices);
        this._editing = 'num_people';
      },
      onRetry: (during) => {
        this._act();
        void (during === 'venues' ? this._data.venues : this._data.availability).task.run();
      },
      onRedirect: async () => {
        // Not awaited without need: the redirect (and `vb-redirect`) then happens in the click itself.
        const bridging = this._data.bridging;
        if (bridging) await bridging;
        const availability = this._data.availability.task.value;
        if (!availability || typeof location === 'undefined') return;
        this._interacted = true;
        const venue = this._venue.current;
        const plan = booking.planSubmission(availability, this._choices, venue, this._form.details, {
          ...this._session.returnTo(venue, this._data.bridged),
          offer: this._offer ?? undefined,
        });
        if (!plan || plan.kind !== 'web') return;
        // Saved first with the display names, so a host that cancels this and sends the guest itself still
        // gets a named confirmation on return.
        this._session.save(this._saved());
        if (!this._emit('vb-redirect', { url: plan.url, booking: this._summary }, true)) return;
        this._session.leave(plan.url, this._saved());
      },
      onSubmit: async (event) => {
        event.preventDefault();
        const availability = this._data.availability.task.value;
        if (this._submitting || !availability) return;
        this._interacted = true;
        if (!this._form.check()) {
          await this.updateComplete;
          this._focus('[aria-invalid="true"]');
          return;
        }
        const offer =
          this._offer && flow.offers.some((item) => item._id === this._offer && offerApplies(item, this._choices))
            ? this._offer
            : undefined;
        const plan = booking.planSubmission(availability, this._choices, this._venue.current, this._form.details, {
          returnUrl: '',
          offer,
          partnerSource: this.partnerSource || undefined,
        });
        if (!plan || plan.kind !== 'api') return;
        this._submitting = true;
        this._submitError = null;
        this._emit('vb-submit', { booking: this._summary });
        try {
          // One key per booking, kept in sessionStorage: a retry, even after a reload, cannot book twice.
          const key = await this._session.pendingKey(JSON.stringify(plan.body));
          const instant = booking.chosenAction(availability, this._choices) === 'accept';
          const { confirmation, title } = await this._data.book(this.api, plan.body, key, instant);
          // The venue's name for the confirmation comes with the create response.
          this._pick = { ...this._pick, title: title ?? this._pick.title };
          this._confirmation = confirmation;
          this._session.sent();
          this._focusPending = true;
          this._emit('vb-complete', { ...this._confirmation, booking: this._summary, restored: false });
        } catch (error) {
          this._submitError = this._fail(error, 'submit');
        } finally {
          this._submitting = false;
        }
      },
      onOffer: (id) => {
        this._interacted = true;
        this._offer = id;
        this._emit('vb-change', { field: 'offer', value: id });
      },
      onAgain: () => {
        this._act();
        this._confirmation = null;
        this._choices = {};
        this._offer = null;
        this._problems = [];
        this._editing = null;
        this._form.reset();
        this._session.save(null);
      },
      onUi: (ui, focus) => {
        this._ui = { ...this._ui, ...ui };
        // Keyboard moves in the calendar: the ring shows even when a click came before (WebKit
        // would keep the click's no-ring state for a scripted focus).
        if (focus) void this.updateComplete.then(() => this._focus(focus, { focusVisible: true }));
      },
    };
    return flow;
  }

  override render() {
    const flow = renderFlow(this._flow(), this._view);
    const live = html`<div id="live" class="visually-hidden" role="status" aria-live="polite"></div>`;
    const popup = {
      strings: this._locale.strings,
      onOpen: () => this.open(),
      onClose: () => this.close(),
      onClosed: () => this._focus('[part="open"]'),
    };
    return html`${this.mode === 'popup' ? renderPopup(popup, flow) : flow}${live}`;
  }
}

/** A widget event: bubbling and composed, so a host page hears it through the shadow root. */
function vbEvent<K extends keyof VenueBookingEventDetails>(
  name: K,
  detail: VenueBookingEventDetails[K],
  cancelable: boolean,
): CustomEvent {
  return new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable });
}

declare global {
  interface HTMLElementTagNameMap {
    'venue-booking': VenueBooking;
  }
  interface HTMLElementEventMap {
    'vb-step': CustomEvent<VenueBookingEventDetails['vb-step']>;
    'vb-change': CustomEvent<VenueBookingEventDetails['vb-change']>;
    'vb-submit': CustomEvent<VenueBookingEventDetails['vb-submit']>;
    'vb-complete': CustomEvent<VenueBookingEventDetails['vb-complete']>;
    'vb-redirect': CustomEvent<VenueBookingEventDetails['vb-redirect']>;
    'vb-error': CustomEvent<VenueBookingEventDetails['vb-error']>;
  }
}
