import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { TaskStatus } from '@lit/task';
import { ApiError } from './api/client.js';
import { checkGuest, nextStep, parseSteps, planSubmission, type Step } from './state/booking-flow.js';
import type { BookingEvent, BookingState, GuestEvent } from './state/booking-state.js';
import { Journey } from './state/journey.js';
import { BookingData } from './controllers/booking-data.js';
import type { GuestForm } from './controllers/guest-form.js';
import { fire, type BookingConfirmation, type BookingSummary, type GuestPrefill } from './state/element-types.js';
import type { VenueBookingEventDetails } from './state/element-types.js';
import { Locale } from './controllers/locale.js';
import { StepFocus } from './controllers/step-focus.js';
import { renderFlow, type Flow } from './parts/flow.js';
import { renderPopup } from './parts/popup.js';
import * as present from './state/presenter.js';
import { styles } from './element/styles.js';
import { prefillChoices, viewFor, type ShownStep, type View } from './state/view.js';
import { VenueBookingApi } from './element/venue-booking-api.js';
import { venueToday } from './venue/venue-time.js';
// Last: the bundle then places the state's transitions beside the element and templates that share their names.
import * as state from './state/booking-state.js';

export type { ShownStep } from './state/view.js';

/** The view before the first render. */
const EMPTY: View = { kind: 'empty', step: null, frame: 'none' };

export type { BookingConfirmation, BookingSummary, GuestPrefill, VenueBookingEventDetails };
export type {
  VenueBookingCancelledDetail,
  VenueBookingChangeDetail,
  VenueBookingChangedDetail,
  VenueBookingCompleteDetail,
  VenueBookingErrorDetail,
  VenueBookingRedirectDetail,
  VenueBookingStepDetail,
  VenueBookingSubmitDetail,
} from './state/element-types.js';

/**
 * `<venue-booking>`: steps a guest through a booking at a venue, on the availability answers of
 * the v4 booking service reached through the credential-holding proxy, and confirms it in place
 * (or hands the guest to the venue's booking site when a deposit is needed, and reads the return).
 *
 * @summary An accessible, themeable booking flow for restaurants and bars.
 */
export class VenueBooking extends VenueBookingApi {
  static override styles = styles;

  static override properties: PropertyDeclarations = {
    _state: { state: true },
  };

  /** What the guest chose and the service answered (`booking-state.ts`: every change is a `transition`). */
  declare private _state: BookingState;
  /** Set once the guest acts: events and focus moves happen only after that. */
  private _interacted = false;
  /** The view of this update (`willUpdate`). */
  private _view: View = EMPTY;
  /** Whether the details form has been in sight: the marketing preferences are read from then on. */
  private _wantPreferences = false;
  /** Whether the console has been told that the proxy refuses this site (`_fail`). */
  private _refusalTold = false;
  /** The first render's request, in the task after the first update (`scheduleUpdate`). */
  private _firstRender: Promise<void> | null = null;
  /** Whether that task has come: until then every update renders nothing (a read's start updates too). */
  private _rendering = false;

  private _locale = new Locale(this, () => fire(this, 'vb-error', { kind: 'locale', status: null, during: 'locale' }));
  private _journey = new Journey(this, (restored) => this._apply({ type: 'restore', ...restored }));
  /** The details form's values and errors: created once the later steps chunk, its home, is here (`willUpdate`). */
  private _form: GuestForm | null = null;
  private _data = new BookingData(this, () => ({ state: this._state, wantPreferences: this._wantPreferences }), {
    venues: (venues) => this._apply({ type: 'venues', venues }),
    answer: (availability) => this._apply({ type: 'answer', order: this._order, availability }),
    error: (error, during) => this._fail(error, during),
  });
  private _steps = new StepFocus(
    this,
    () => this._view,
    () => this._data.availability.task.status !== TaskStatus.PENDING,
    (step) => this._stepShown(step),
  );

  constructor() {
    super();
    this._state = state.initialState();
  }

  // --- derived values ---

  private get _order(): Step[] {
    return parseSteps(this.steps);
  }

  private get _wording(): present.Wording {
    const { strings, tag: locale } = this._locale;
    return { strings, locale, typeNames: this._state.typeNames, venues: this._data.venues.task.value };
  }

  private get _summary(): BookingSummary {
    return present.bookingSummary(this._data.venue.current, this._state.choices, this._state.offer);
  }

  // --- lifecycle ---

  /**
   * The first update waits for a task of its own, and only asks: it starts the first reads and
   * renders nothing; the placeholder renders in the task after (`firstUpdated`). So the module's
   * evaluation with the element's upgrade, the first reads' start and the first render are three
   * tasks: a phone's main thread is never held long by them together (Lighthouse counts each task
   * of 50 ms or more at its 4× CPU slowdown as blocking), and the reads leave before the render.
   */
  protected override async scheduleUpdate(): Promise<unknown> {
    if (!this.hasUpdated) await new Promise((resolve) => setTimeout(resolve));
    return super.scheduleUpdate();
  }

  protected override firstUpdated(): void {
    this._firstRender = new Promise((rendered) =>
      setTimeout(() => {
        this._rendering = true;
        rendered(this.requestUpdate());
      }),
    );
  }

  /** Complete once the first render is: the first update renders nothing (`scheduleUpdate`). */
  protected override async getUpdateComplete(): Promise<boolean> {
    await super.getUpdateComplete();
    await this._firstRender;
    return super.getUpdateComplete();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The journey follows the venue as the host sets it; a new venue is a new journey, on the host's prefill.
    const restart = this._journey.follow() === 'new';
    if (restart) this._restart();
    const prefill = prefillChoices(this, (name) => restart || changed.has(name));
    this._apply({ type: 'prefill', choices: prefill, over: this.hasUpdated });
    // Choices served by the answer in hand: it may leave the next step one value (`held`).
    const before = (changed as PropertyValues).get('_state') as BookingState | undefined;
    if ((changed as PropertyValues).has('_state') && before?.choices !== this._state.choices) {
      const answer = this._data.current();
      if (answer) this._apply({ type: 'held', order: this._order, availability: answer });
    }
    this._wantPreferences ||= nextStep(this._order, this._state.choices) === null;
    // Before the controllers' `hostUpdate` of this update, so the form shows the `guest` prefill at once.
    const later = this._data.laterSteps.task.value;
    if (later && !this._form)
      this._form = new later.GuestForm(
        this,
        checkGuest,
        () => venueToday(this.now ?? new Date()),
        () => this._view.kind === 'details' && this._data.venue.current,
        fire,
      );
    const { confirmation, pick } = this._state;
    const view = { ...this._state, ...this._data.viewReads, confirmed: Boolean(confirmation), venue: pick.id };
    // The first update renders nothing, so it shows no step (`scheduleUpdate`).
    this._view = this._rendering ? viewFor({ ...view, order: this._order }, this._data.availability.state) : EMPTY;
  }

  protected override updated(changed: PropertyValues): void {
    if (this._interacted && changed.has('_state') && state.savedChanged(changed.get('_state'), this._state))
      this._save();
  }

  // --- internals ---

  /** A new step's events; announced once the guest acted or came back, a confirmation brought back completes. */
  private _stepShown(step: ShownStep): boolean {
    const arrival = step === 'confirmation' ? this._state.arrival : null;
    const told = this._interacted || arrival === 'returned';
    if (told) fire(this, 'vb-step', { step });
    if (step === 'unavailable') fire(this, 'vb-error', { kind: 'unavailable', status: null, during: 'submit' });
    if (arrival)
      fire(this, 'vb-complete', {
        ...this._state.confirmation!,
        booking: this._summary,
        restored: arrival === 'restored',
      });
    return told;
  }

  /** A new journey (a new proxy, venue or group): no choice carries over, no event fires until the guest acts. */
  private _restart(): void {
    this._interacted = this._steps.pending = this._wantPreferences = false;
    this._state = state.initialState();
    this._data.forget();
    this._form?.reset();
  }

  private _apply(event: BookingEvent): void {
    this._state = state.transition(this._state, event);
  }

  /** A guest's action: its transition, `vb-change` for a value chosen, the focus on what follows. */
  private _act(event: GuestEvent): void {
    this._interacted = true;
    // Picking an offer keeps the focus where it is.
    if (event.type !== 'choose' || event.field !== 'offer') this._steps.pending = true;
    this._apply(event);
    if (event.type === 'choose') fire(this, 'vb-change', { field: event.field, value: event.value });
    // Booking again: the guest keeps their name and contact details, not the notes or consent (the
    // saved booking follows the new state in \`updated\`).
    if (event.type === 'again') this._form?.reset();
  }

  /** A failed call as an `ApiError`, in `vb-error` unless cancelled; a refused site is told to the console once. */
  private _fail(error: unknown, during: 'venues' | 'availability' | 'submit'): ApiError {
    const apiError = error instanceof ApiError ? error : new ApiError('server', String(error));
    if (apiError.kind !== 'aborted') fire(this, 'vb-error', { kind: apiError.kind, status: apiError.status, during });
    if (apiError.siteRefused && !this._refusalTold) {
      this._refusalTold = true;
      console.warn(present.siteRefusedWarning(location.origin));
    }
    return apiError;
  }

  /** Saves the booking across a reload, with the names of its type and venue. */
  private _save(): void {
    this._journey.save(state.savedBooking(this._state, this._data.venue.name));
  }

  /** Sends the booking; one Idempotency-Key per booking (`Journey`): a retry, even after a reload, cannot book twice. */
  private async _submit(event: Event): Promise<void> {
    event.preventDefault();
    const availability = this._data.availability.task.value;
    // The form is the later steps chunk's, so the chunk is here whenever the guest can submit it.
    const form = this._form;
    const later = this._data.laterSteps.task.value;
    if (this._state.submitting || !availability || !form || !later) return;
    this._interacted = true;
    if (!form.check()) {
      await this.updateComplete;
      return this._steps.focus('[aria-invalid="true"]');
    }
    const extras = {
      offers: this._data.offers.task.value ?? [],
      partnerSource: this.partnerSource,
      replaces: this.replaces,
      request: later.bookingRequest,
    };
    const booking = state.apiBooking(this._state, availability, this._data.venue.current, form.details, extras);
    if (!booking) return;
    this._apply({ type: 'submit' });
    fire(this, 'vb-submit', { booking: this._summary });
    try {
      const key = await this._journey.pendingKey(later, JSON.stringify(booking.body));
      const body = { ...booking.body, ...(await form.proof(booking.body.venue_id)) };
      const created = await this._data.clientFor(this.api).createBooking(body, key);
      this._apply({ type: 'booked', created, instant: booking.instant });
      this._journey.sent(later);
      this._steps.pending = true;
      // With the manage link; for a change, the old reference too, which `vb-changed` follows (`replacing.ts`).
      fire(this, 'vb-complete', { ...this._state.confirmation!, booking: this._summary, restored: false });
    } catch (error) {
      this._apply({ type: 'failed', error: this._fail(error, 'submit') });
    }
  }

  /** Hands the guest to the booking site; awaits only a bridge answer on its way, so the redirect stays in the click. */
  private async _redirect(): Promise<void> {
    const bridging = this._data.bridging;
    if (bridging) await bridging;
    const availability = this._data.availability.task.value;
    if (!availability || typeof location === 'undefined') return;
    this._interacted = true;
    const venue = this._data.venue.current;
    const plan = planSubmission(availability, this._state.choices, venue, this._form?.details ?? null, {
      ...this._journey.returnTo(venue, this._data.bridged),
      offer: this._state.offer ?? undefined,
    });
    if (plan?.kind !== 'web') return;
    // Saved first, with the names: a host that cancels this and sends the guest itself still gets a named confirmation.
    this._save();
    if (fire(this, 'vb-redirect', { url: plan.url, booking: this._summary }, true)) this._journey.leave(plan.url);
  }

  // --- rendering: the view of this update, through `parts/flow.ts` ---

  /** What the templates need of this update (`parts/flow.ts`). */
  private _flow(): Flow {
    const venue = this._data.venue;
    return {
      ...this._state,
      ...this._data.answers,
      wording: this._wording,
      now: this.now ?? new Date(),
      order: this._order,
      picked: venue.multi ? this._state.pick.id : null,
      venueName: venue.name,
      dob: this.askDob === 'required' || this.askDob === 'optional' ? this.askDob : '',
      form: this._form,
      hideOffers: this.hideOffers,
      send: (event) => this._act(event),
      say: (text) => this._steps.say(text),
      onRetry: (during) => {
        this._interacted = this._steps.pending = true;
        this._data.retry(during);
      },
      onRedirect: () => void this._redirect(),
      onSubmit: (event) => void this._submit(event),
      onUi: (ui, focus) => {
        this._apply({ type: 'ui', ui });
        // Keyboard moves in the calendar: the ring shows even after a click (WebKit keeps a click's no-ring state).
        if (focus) void this.updateComplete.then(() => this._steps.focus(focus, { focusVisible: true }));
      },
    };
  }

  override render() {
    if (!this._rendering) return nothing;
    const flow = renderFlow(this._flow(), this._view);
    const live = html`<div id="live" class="visually-hidden" role="status" aria-live="polite"></div>`;
    const popup = {
      strings: this._locale.strings,
      onOpen: () => this.open(),
      onClose: () => this.close(),
      onClosed: () => this._steps.focus('[part="open"]'),
    };
    return html`${this.mode === 'popup' ? renderPopup(popup, flow) : flow}${live}`;
  }
}
