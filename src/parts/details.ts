/**
 * The last step: the eligible offers (pickable), the guest's details with inline validation, the
 * venue's marketing preferences as unticked boxes, and the submit button worded by what happens
 * on submit (instant booking, enquiry, request).
 */
import type { html as litHtml, nothing as litNothing } from 'lit';
import type { ApiClient } from '../api/client.js';
import type { AvailabilityAction, WireMarketingPreference, WireOffer } from '../api/types.js';
import type { GuestForm } from '../controllers/guest-form.js';
import type { LocaleStrings } from '../i18n/en-GB.js';
import { NOTES_MAX } from '../state/requests.js';
import { renderCancel } from './cancel.js';

/**
 * Lit's `html` and `nothing`, handed over by the bundle: this template travels in an on-demand
 * chunk (`later-steps.ts`), which imports nothing, so that no import can fetch code around its pin.
 */
export interface LitTags {
  html: typeof litHtml;
  nothing: typeof litNothing;
}

/** What the details form renders. */
export interface DetailsProps {
  /** The locale's strings, en-GB's later words filled in from the chunk (`enGBLater`). */
  strings: LocaleStrings;
  /** A date (`yyyy-MM-dd`) in the guest's words, as an offer's validity says it. */
  date: (day: string) => string;
  /** The guest's details and their errors, and where the fields' input goes (`GuestForm`, the chunk's own). */
  form: GuestForm;
  dob: 'required' | 'optional' | '';
  today: string;
  offers: WireOffer[];
  offer: string | null;
  preferences: WireMarketingPreference[];
  /** What submitting does (`chosenAction`): it words the button and, where the venue confirms, a note. */
  action: AvailabilityAction | null;
  /** The last submit failed and may be tried again: the button says so. */
  retry: boolean;
  submitting: boolean;
  error: string | null;
  onOffer: (id: string | null) => void;
  onSubmit: (event: Event) => void;
}

type TextField = 'first_name' | 'last_name' | 'email' | 'phone' | 'dob';

/** An offer's validity window in words, from its `start_date` / `expiry_date` (ISO strings). */
function offerValidity(offer: WireOffer, date: (day: string) => string) {
  const day = (value: string | null | undefined) =>
    value && /^\d{4}-\d{2}-\d{2}/.test(value) ? date(value.slice(0, 10)) : null;
  return { from: day(offer.start_date), to: day(offer.expiry_date) };
}

function field(
  { html, nothing }: LitTags,
  props: DetailsProps,
  name: TextField,
  label: string,
  type: string,
  autocomplete: string,
  required = true,
) {
  const code = props.form.errors[name];
  const message = code
    ? code === 'required'
      ? props.strings.guestErrors.required(label)
      : props.strings.guestErrors[code]
    : null;
  return html`<div class="field">
    <label for="vb-${name}">${label}</label>
    <input
      id="vb-${name}"
      name=${name}
      type=${type}
      autocomplete=${autocomplete}
      max=${type === 'date' ? props.today : nothing}
      ?required=${required}
      .value=${String(props.form.details[name] ?? '')}
      aria-invalid=${message ? 'true' : 'false'}
      aria-describedby=${message ? `vb-${name}-error` : nothing}
      @input=${(event: Event) => props.form.input(event)}
      @blur=${(event: Event) => props.form.blur(event)}
    />
    ${message ? html`<span class="field-error" id="vb-${name}-error">${message}</span>` : nothing}
  </div>`;
}

function offers(lit: LitTags, props: DetailsProps) {
  const { html, nothing } = lit;
  const s = props.strings;
  if (props.offers.length === 0) return nothing;
  return html`<fieldset part="offers">
    <legend>${s.offersTitle}</legend>
    <label class="check"
      ><input
        type="radio"
        name="offer"
        value=""
        .checked=${props.offer === null}
        @change=${() => props.onOffer(null)}
      />
      ${s.noOffer}</label
    >
    ${props.offers.map((offer) => {
      const validity = offerValidity(offer, props.date);
      return html`<label class="check offer" part="offer">
        <input
          type="radio"
          name="offer"
          value=${offer._id}
          .checked=${props.offer === offer._id}
          @change=${() => props.onOffer(offer._id)}
        />
        <span
          ><strong>${offer.title ?? s.offer}</strong>
          ${offer.description ? html`<br /><span>${offer.description}</span>` : nothing}
          ${validity.from || validity.to ? html`<br /><small class="note">${s.offerValid(validity.from, validity.to)}</small>` : nothing}</span
        >
      </label>`;
    })}
  </fieldset>`;
}

/**
 * The notes box with its quick picks (`state/requests.ts`): toggle buttons in a labelled group, each
 * pressed while its phrase is in the notes. No `maxlength`: it would cut a paste silently; notes
 * past the limit are said at once, with their length, and the form keeps them until shortened.
 */
function notes({ html, nothing }: LitTags, props: DetailsProps) {
  const s = props.strings;
  const text = props.form.details.notes ?? '';
  const length = text.trim().length;
  const error = props.form.errors.notes
    ? length > NOTES_MAX
      ? s.notesLong(NOTES_MAX, length)
      : s.guestErrors.text
    : null;
  return html`<div class="field">
    <label for="vb-notes">${s.notes}</label>
    <div role="group" part="requests" class="requests" aria-labelledby="vb-requests-title">
      <span id="vb-requests-title" class="note">${s.requestsTitle}</span>
      ${s.requests.map(
        ([label, phrase]) =>
          html`<button
            type="button"
            class="option small"
            part="request"
            aria-pressed=${text.includes(phrase) ? 'true' : 'false'}
            @click=${() => props.form.request(phrase)}
          >
            ${label}
          </button>`,
      )}
    </div>
    <textarea
      id="vb-notes"
      name="notes"
      rows="3"
      .value=${text}
      aria-invalid=${error ? 'true' : 'false'}
      aria-describedby=${error ? 'vb-notes-error' : nothing}
      @input=${(event: Event) => props.form.input(event)}
    ></textarea>
    ${error ? html`<span class="field-error" id="vb-notes-error">${error}</span>` : nothing}
  </div>`;
}

/** Renders the details form. */
export function renderDetails(lit: LitTags, props: DetailsProps) {
  const { html, nothing } = lit;
  const { strings: s, action } = props;
  const { details } = props.form;
  const onInput = (event: Event) => props.form.input(event);
  const chosen = new Set(details.marketing_preferences ?? []);
  // A change (`replaces`): the guest may cancel the booking instead, below the submit button; once
  // it is cancelled, there is nothing left to book in its place.
  const { replacing } = props.form;
  const cancel = replacing.active ? renderCancel(lit, s, replacing) : nothing;
  if (replacing.stage === 'cancelled') return cancel;
  return html`<form part="form" novalidate @submit=${props.onSubmit} aria-labelledby="step-title">
    <h2 id="step-title" tabindex="-1">${s.detailsTitle}</h2>
    ${offers(lit, props)}
    <div class="fields">
      ${field(lit, props, 'first_name', s.firstName, 'text', 'given-name')}
      ${field(lit, props, 'last_name', s.lastName, 'text', 'family-name')}
      ${field(lit, props, 'email', s.email, 'email', 'email')} ${field(lit, props, 'phone', s.phone, 'tel', 'tel')}
      ${props.dob ? field(lit, props, 'dob', s.dob, 'date', 'bday', props.dob === 'required') : nothing}
    </div>
    ${notes(lit, props)}
    ${
      props.preferences.length
        ? html`<fieldset part="consent">
            <legend>${s.marketingTitle}</legend>
            ${props.preferences.map(
              (preference) =>
                html`<label class="check">
                  <input
                    type="checkbox"
                    name="marketing_preferences"
                    value=${preference.id}
                    .checked=${chosen.has(preference.id)}
                    @change=${onInput}
                  />
                  <span
                    >${preference.name ?? preference.id}${preference.description ? html`<br /><small class="note">${preference.description}</small>` : nothing}</span
                  >
                </label>`,
            )}
          </fieldset>`
        : nothing
    }
    ${
      // The bot check's honeypot (proxy/api/bot-check.ts): out of sight, out of the accessibility
      // tree, the tab order and autofill, so only a script that fills every field fills it.
      html`<div class="visually-hidden" aria-hidden="true">
        <label for="vb-website">Website</label>
        <input
          id="vb-website"
          name="website"
          tabindex="-1"
          autocomplete="off"
          .value=${details.website ?? ''}
          @input=${onInput}
        />
      </div>`
    }
    ${
      // Cloudflare Turnstile's place, where the proxy offers it (pow/turnstile.ts renders into it).
      props.form.turnstile ? html`<div class="turnstile" data-turnstile></div>` : nothing
    }
    ${props.error ? html`<p class="error" role="alert">${props.error}</p>` : nothing}
    ${action === 'enquire' || action === 'may_enquire' ? html`<p class="note" data-confirm-note>${s.actions[action]}</p>` : nothing}
    <div>
      <button
        class="primary"
        part="submit"
        type="submit"
        ?disabled=${props.submitting}
        aria-disabled=${props.submitting ? 'true' : 'false'}
      >
        ${props.submitting ? s.submitting : props.retry ? s.retry : action === 'accept' ? s.bookNow : action === 'may_enquire' ? s.sendRequest : s.sendEnquiry}
      </button>
    </div>
    ${cancel}
  </form>`;
}

/**
 * The venue's marketing preferences, offered as unticked boxes; none when they cannot be read (the
 * form goes on without them). Here, in the chunk, because only the details form asks for them.
 */
export const readPreferences = (client: ApiClient, venue: string, signal?: AbortSignal) =>
  client
    .read<{ marketing_preferences?: WireMarketingPreference[] }>(
      `venues/${encodeURIComponent(venue)}/marketing-preferences`,
      signal,
    )
    .then((payload) => payload?.marketing_preferences ?? [])
    .catch(() => []);
