import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { Task } from '@lit/task';
import { createApiClient, ApiError, type ApiClient } from './api/client.js';
import { normalizeAvailability, type Availability, type Choices, type Suggestion } from './api/normalize.js';
import type { WireBookingCreated } from './api/types.js';
import {
  choose,
  chosenAction,
  isReady,
  nextStep,
  parseSteps,
  planSubmission,
  reconcile,
  type GuestDetails,
  type Step,
} from './booking-flow.js';
import { enGB, type Strings } from './i18n/en-GB.js';
import { styles } from './styles.js';
import { formatVenueDate, formatVenueTime } from './venue-time.js';

/** The confirmation the widget shows once a booking is stored. */
export interface BookingConfirmation {
  reference: string;
  /** `confirmed` when the venue accepted it at once, `enquiry` when the venue will confirm later. */
  status: 'confirmed' | 'enquiry';
}

/**
 * `<venue-booking>`: steps a guest through a booking at a venue, on the availability answers of
 * the v4 booking service reached through the credential-holding proxy.
 *
 * @attr venue - The venue id.
 * @attr api - Base URL of the proxy's `/api` (default `/api`, same origin).
 * @attr steps - The order of the steps, a comma list of type, date, time, duration, num_people.
 *
 * @csspart step - The section of the current step.
 * @csspart option - A choice button.
 * @csspart form - The guest details form.
 * @csspart submit - The submit button.
 * @csspart confirmation - The confirmation shown once the booking is stored.
 *
 * @cssproperty --vb-accent - Accent colour of chosen values and the main button.
 * @cssproperty --vb-accent-text - Text colour on the accent colour.
 * @cssproperty --vb-background - Background of the widget (default transparent).
 * @cssproperty --vb-text - Text colour (default inherited from the page).
 * @cssproperty --vb-radius - Corner radius of buttons.
 * @cssproperty --vb-font - Font family (default inherited from the page).
 */
export class VenueBooking extends LitElement {
  static override styles = styles;

  static override properties = {
    venue: { type: String },
    api: { type: String },
    steps: { type: String },
    _choices: { state: true },
    _editing: { state: true },
    _cleared: { state: true },
    _guest: { state: true },
    _guestErrors: { state: true },
    _submitting: { state: true },
    _submitError: { state: true },
    _confirmation: { state: true },
  };

  /** The venue id. */
  declare venue: string;
  /** Base URL of the proxy's `/api`. */
  declare api: string;
  /** The order of the steps, as a comma list of booking fields. */
  declare steps: string;

  declare private _choices: Choices;
  declare private _editing: Step | null;
  declare private _cleared: Step[];
  declare private _guest: GuestDetails;
  declare private _guestErrors: Partial<Record<keyof GuestDetails, string>>;
  declare private _submitting: boolean;
  declare private _submitError: ApiError | null;
  declare private _confirmation: BookingConfirmation | null;

  private _strings: Strings = enGB;
  private _client: ApiClient | null = null;
  private _clientBase = '';
  /** One key per booking attempt, reused by a retry so the proxy never books twice. */
  private _idempotencyKey = crypto.randomUUID();

  private _availability = new Task(this, {
    task: async ([api, venue, choices], { signal }) => {
      if (!venue) return null;
      const wire = await this._clientFor(api).availability(venue, choices, signal);
      return normalizeAvailability(wire);
    },
    args: () => [this.api, this.venue, this._choices] as const,
    onComplete: (availability) => {
      if (availability) this._reconcile(availability);
    },
  });

  constructor() {
    super();
    this.venue = '';
    this.api = '/api';
    this.steps = '';
    this._choices = {};
    this._editing = null;
    this._cleared = [];
    this._guest = { first_name: '', last_name: '', email: '', phone: '' };
    this._guestErrors = {};
    this._submitting = false;
    this._submitError = null;
    this._confirmation = null;
  }

  private get _order(): Step[] {
    return parseSteps(this.steps);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('venue') && changed.get('venue') !== undefined) {
      this._choices = {};
      this._confirmation = null;
    }
  }

  private _clientFor(api: string): ApiClient {
    if (!this._client || this._clientBase !== api) {
      this._client = createApiClient({ base: api || '/api' });
      this._clientBase = api;
    }
    return this._client;
  }

  private _reconcile(availability: Availability): void {
    const result = reconcile(this._order, this._choices, availability);
    if (result.cleared.length > 0) this._cleared = result.cleared;
    if (result.cleared.length > 0 || result.autoChosen) this._choices = result.choices;
  }

  private _onChoose(step: Step, suggestion: Suggestion): void {
    this._cleared = [];
    this._editing = null;
    this._choices = choose(this._choices, step, suggestion.value);
  }

  private _onInput(event: Event): void {
    const input = event.target as HTMLInputElement;
    this._guest = { ...this._guest, [input.name]: input.value };
  }

  private _validateGuest(): boolean {
    const s = this._strings;
    const errors: Partial<Record<keyof GuestDetails, string>> = {};
    const { first_name, last_name, email, phone } = this._guest;
    if (!first_name.trim()) errors.first_name = s.required(s.firstName);
    if (!last_name.trim()) errors.last_name = s.required(s.lastName);
    if (!email.trim()) errors.email = s.required(s.email);
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) errors.email = s.invalidEmail;
    if (!phone.trim()) errors.phone = s.required(s.phone);
    else if (!/^[+\d][\d\s()-]{5,}$/.test(phone.trim())) errors.phone = s.invalidPhone;
    this._guestErrors = errors;
    return Object.keys(errors).length === 0;
  }

  private async _onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    const availability = this._availability.value;
    if (this._submitting || !availability || !this._validateGuest()) return;
    const plan = planSubmission(availability, this._choices, this.venue, this._guest, { returnUrl: location.href });
    if (!plan) return;
    if (plan.kind === 'web') {
      location.assign(plan.url);
      return;
    }
    this._submitting = true;
    this._submitError = null;
    try {
      const created: WireBookingCreated = await this._clientFor(this.api).createBooking(plan.body, this._idempotencyKey);
      const status = created.bookingStatus === 'received' ? 'enquiry' : 'confirmed';
      this._confirmation = { reference: String(created.booking?.reference ?? ''), status };
      this._idempotencyKey = crypto.randomUUID();
    } catch (error) {
      this._submitError = error instanceof ApiError ? error : new ApiError('server', String(error));
    } finally {
      this._submitting = false;
    }
  }

  private _label(step: Step, suggestion: Suggestion): string {
    const value = suggestion.value;
    const locale = 'en-GB';
    switch (step) {
      case 'date':
        return formatVenueDate(String(value), locale, { weekday: 'short', day: 'numeric', month: 'short' });
      case 'time':
        return formatVenueTime(this._choices.date ?? '2026-01-01', String(value), locale);
      case 'num_people':
        return this._strings.people(Number(value));
      default:
        return suggestion.label ?? String(value);
    }
  }

  private _renderSummary(availability: Availability | null) {
    const chosen = this._order.filter((step) => this._choices[step] !== undefined);
    if (chosen.length === 0) return nothing;
    return html`<ul class="summary" aria-label="Your choices">
      ${chosen.map((step) => {
        const value = this._choices[step]!;
        const suggestion = availability?.fields[step]?.suggestions.find((item) => item.value === value);
        const text = this._label(step, suggestion ?? { value, label: null, valid: true, message: null, action: null, offers: [], endTime: null });
        return html`<li>
          ${this._strings.fieldNames[step]}: <strong>${text}</strong>
          <button class="link" type="button" @click=${() => (this._editing = step)} aria-label="${this._strings.change} ${this._strings.fieldNames[step]}">${this._strings.change}</button>
        </li>`;
      })}
    </ul>`;
  }

  private _renderStep(step: Step, availability: Availability) {
    const suggestions = availability.fields[step]?.suggestions ?? [];
    return html`<section part="step" aria-labelledby="step-title" data-step=${step}>
      <h2 id="step-title" tabindex="-1">${this._strings.stepTitles[step]}</h2>
      ${suggestions.length === 0
        ? html`<p class="note">${this._strings.noOptions}</p>`
        : html`<ul class="options">
            ${suggestions.map(
              (suggestion) => html`<li>
                <button
                  class="option"
                  part="option"
                  type="button"
                  data-value=${String(suggestion.value)}
                  aria-pressed=${this._choices[step] === suggestion.value ? 'true' : 'false'}
                  ?disabled=${!suggestion.valid}
                  @click=${() => this._onChoose(step, suggestion)}
                >
                  ${this._label(step, suggestion)}
                  ${suggestion.valid ? nothing : html`<small>${suggestion.message ?? this._strings.unavailable}</small>`}
                </button>
              </li>`,
            )}
          </ul>`}
    </section>`;
  }

  private _renderField(name: keyof GuestDetails, label: string, type: string, autocomplete: string) {
    const error = this._guestErrors[name];
    return html`<label>
      ${label}
      <input
        name=${name}
        type=${type}
        autocomplete=${autocomplete}
        .value=${String(this._guest[name] ?? '')}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${error ? `${name}-error` : nothing}
        @input=${this._onInput}
      />
      ${error ? html`<span class="field-error" id="${name}-error">${error}</span>` : nothing}
    </label>`;
  }

  private _renderDetails(availability: Availability) {
    const s = this._strings;
    const action = chosenAction(availability, this._choices);
    const label = this._submitting ? s.submitting : action === 'accept' ? s.bookNow : s.sendEnquiry;
    return html`<form part="form" novalidate @submit=${this._onSubmit}>
      <h2 tabindex="-1">${s.detailsTitle}</h2>
      ${this._renderField('first_name', s.firstName, 'text', 'given-name')}
      ${this._renderField('last_name', s.lastName, 'text', 'family-name')}
      ${this._renderField('email', s.email, 'email', 'email')}
      ${this._renderField('phone', s.phone, 'tel', 'tel')}
      ${this._submitError ? html`<p class="error" role="alert">${s.errors[this._submitError.kind] || this._submitError.message}</p>` : nothing}
      <div><button class="primary" part="submit" type="submit" ?disabled=${this._submitting}>${this._submitError ? s.retry : label}</button></div>
    </form>`;
  }

  private _renderConfirmation(confirmation: BookingConfirmation) {
    const s = this._strings;
    return html`<section part="confirmation" role="status">
      <h2 tabindex="-1">${confirmation.status === 'confirmed' ? s.confirmedTitle : s.enquiryTitle}</h2>
      ${confirmation.status === 'enquiry' ? html`<p>${s.enquiryBody}</p>` : nothing}
      <p>${s.reference}: <strong class="reference">${confirmation.reference}</strong></p>
    </section>`;
  }

  /** The flow on the latest answer; while a newer answer is on its way, no stale options show. */
  private _renderFlow(availability: Availability, busy = false) {
    const step = this._editing ?? nextStep(this._order, this._choices);
    if (busy) return html`${this._renderSummary(availability)}<p class="note" aria-busy="true">${this._strings.loading}</p>`;
    return html`
      ${this._renderSummary(availability)}
      ${this._cleared.length
        ? html`<p class="note" role="status">${this._strings.cleared(this._cleared.map((field) => this._strings.fieldNames[field]).join(', '))}</p>`
        : nothing}
      ${step
        ? this._renderStep(step, availability)
        : isReady(this._order, this._choices, availability)
          ? this._renderDetails(availability)
          : html`<p class="note">${this._strings.noOptions}</p>`}
    `;
  }

  override render() {
    if (this._confirmation) return this._renderConfirmation(this._confirmation);
    const s = this._strings;
    return this._availability.render({
      initial: () => html`<p class="note">${s.loading}</p>`,
      pending: () => (this._availability.value ? this._renderFlow(this._availability.value, true) : html`<p class="note">${s.loading}</p>`),
      complete: (availability) => (availability ? this._renderFlow(availability) : nothing),
      error: (error) => {
        const kind = error instanceof ApiError ? error.kind : 'server';
        return html`<p class="error" role="alert">${s.errors[kind]}</p>
          <button class="primary" type="button" @click=${() => this._availability.run()}>${s.retry}</button>`;
      },
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'venue-booking': VenueBooking;
  }
}
