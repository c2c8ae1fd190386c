import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { Task, TaskStatus } from '@lit/task';
import { createApiClient, ApiError, type ApiClient } from './api/client.js';
import { normalizeAvailability, type Availability, type Choices, type Suggestion } from './api/normalize.js';
import type { WireBookingCreated, WireMarketingPreference, WireOffer, WireVenue } from './api/types.js';
import {
  alternatives,
  autoChoice,
  type AvailabilityRead,
  type HeldAvailability,
  checkGuest,
  choose,
  chosenAction,
  forLargerParty,
  isReady,
  needsRedirect,
  nextStep,
  parseSteps,
  partnerOffers,
  planRead,
  planSubmission,
  readKey,
  reasonFor,
  reconcile,
  submitRoute,
  type GuestDetails,
  type GuestError,
  type Problem,
  type Step,
} from './booking-flow.js';
import { addMonths, moveFocus } from './month-grid.js';
import { durationMinutes, endTimeOf, formatDuration } from './format.js';
import { enGB, type Strings } from './i18n/en-GB.js';
import { loadStrings } from './i18n/index.js';
import { renderDatePicker } from './parts/date-picker.js';
import { renderConfirmation } from './parts/confirmation.js';
import { renderDetails } from './parts/details.js';
import { isPartySize } from './api/rules.js';
import { badgeFor, offerApplies } from './offers.js';
import { renderOptions, type Badge } from './parts/options.js';
import { renderTimes, type DayPart } from './parts/times.js';
import {
  clearPendingBookingKey,
  loadBooking,
  pendingBookingKey,
  readReturn,
  returnUrlFor,
  saveBooking,
  withoutReturn,
  type SavedBooking,
} from './session.js';
import { styles } from './styles.js';
import { addPlainDays, formatVenueDate, formatVenueTime, venueToday } from './venue-time.js';

/** The confirmation the widget shows once a booking is stored. */
export interface BookingConfirmation {
  reference: string;
  /** `confirmed` when the venue accepted it at once, `enquiry` when the venue will confirm later. */
  status: 'confirmed' | 'enquiry';
}

/** Booking details without any personal data, as events carry them. */
export interface BookingSummary {
  venue_id: string;
  type?: string;
  date?: string;
  time?: string;
  duration?: number;
  num_people?: number;
  offer?: string;
}

/** Guest details a host page may prefill (by property only, never through attributes or URLs). */
export type GuestPrefill = Partial<Pick<GuestDetails, 'first_name' | 'last_name' | 'email' | 'phone'>>;

/** A step shown to the guest: the venue picker, a booking field, or the end of the flow. */
export type ShownStep = 'venue' | Step | 'details' | 'redirect' | 'unavailable' | 'confirmation';

/** `detail` of each event the widget fires. */
export interface VenueBookingEventDetails {
  'vb-step': { step: ShownStep };
  'vb-change': { field: 'venue' | Step | 'offer'; value: string | number | null };
  'vb-submit': { booking: BookingSummary };
  /**
   * `restored`: false when the booking was just stored (or the guest just came back from the booking
   * site); true when a reload shows a confirmation kept from before, so a host page that renders its
   * own thank-you state can restore it without counting the booking twice.
   */
  'vb-complete': { reference: string; status: 'confirmed' | 'enquiry'; booking: BookingSummary; restored: boolean };
  'vb-redirect': { url: string; booking: BookingSummary };
  /**
   * `kind`: an API error kind (`network`, `timeout`, `rate-limited`, `server`, `invalid`),
   * `unavailable` when a ready booking can be sent neither through the API nor to the booking site,
   * or `locale` (during `locale`) when the `locale` module could not be loaded and English stays.
   */
  'vb-error': { kind: string; status: number | null; during: 'venues' | 'availability' | 'submit' | 'locale' };
}

type FieldErrors = Partial<Record<keyof GuestDetails, GuestError>>;

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
    _venue: { state: true },
    _choices: { state: true },
    _problems: { state: true },
    _editing: { state: true },
    _offer: { state: true },
    _guest: { state: true },
    _guestErrors: { state: true },
    _submitting: { state: true },
    _submitError: { state: true },
    _confirmation: { state: true },
    _strings: { state: true },
    _focusDate: { state: true },
    _dayParts: { state: true },
    _allSizes: { state: true },
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

  declare private _venue: string | null;
  declare private _choices: Choices;
  declare private _problems: Problem[];
  declare private _editing: ShownStep | null;
  declare private _offer: string | null;
  declare private _guest: GuestDetails;
  declare private _guestErrors: FieldErrors;
  declare private _submitting: boolean;
  declare private _submitError: ApiError | null;
  declare private _confirmation: BookingConfirmation | null;
  declare private _strings: Strings;
  declare private _focusDate: string | null;
  /** Time groups the guest opened or closed (the likely one starts open). */
  declare private _dayParts: Partial<Record<DayPart, boolean>>;
  /** Whether party sizes past the compact row are shown. */
  declare private _allSizes: boolean;

  private _client: ApiClient | null = null;
  private _clientBase = '';
  /** The venue's name, from the create response or the venue list (for the summary and calendar). */
  private _venueTitle = '';
  /** Booking type names seen in answers, so the summary keeps them while an answer is missing. */
  private _typeNames = new Map<string, string>();
  /** Set once the guest acts: events and focus moves happen only after that. */
  private _interacted = false;
  /** Set by a guest action: the next settled render moves focus to the step heading. */
  private _focusPending = false;
  private _shownStep: ShownStep | null = null;
  private _lastStep: ShownStep | null = null;
  /** The height of the last step shown, for the placeholder that replaces it. */
  private _stepHeight = 0;
  /** Set when this page load is the guest's return from the booking site. */
  private _returned = false;
  /** Set when this page load shows a confirmation kept from before a reload (not a new booking). */
  private _restored = false;
  /** Guest fields the guest has typed in: a later `guest` prefill (a host's re-render) leaves them alone. */
  private _touched = new Set<keyof GuestDetails>();

  private _venues = new Task(this, {
    task: async ([api, venue, group], { signal }): Promise<WireVenue[]> => {
      const ids = venueIds(venue);
      if (!group && ids.length < 2) return [];
      const client = this._clientFor(api);
      // A group's list holds only ids and paths (spec §4.9), so both forms read each venue's
      // settings for its title, in parallel; a venue that cannot be read keeps what was known.
      const listed: WireVenue[] = group
        ? ((await client.get<{ pages?: WireVenue[] }>('venues', { venue_group: group }, signal)).pages ?? [])
        : ids.map((id) => ({ _id: id }));
      return Promise.all(
        listed.map((known) =>
          client
            .get<{ venue?: WireVenue }>(
              `venues/${encodeURIComponent(String(known._id))}`,
              { fields: 'booking_types' },
              signal,
            )
            .then((payload) => ({ ...known, ...payload.venue, _id: known._id }))
            .catch(() => known),
        ),
      );
    },
    args: () => [this.api, this.venue, this.venueGroup] as const,
    onComplete: (venues) => {
      if (venues.length === 1 && !this._venue) this._venue = venues[0]._id;
    },
    onError: (error) => this._fail(error, 'venues'),
  });

  /**
   * The availability read the choices call for (`planRead`): a choice that the answer in hand
   * already validated, and that cannot change what the next step shows, costs no read.
   */
  private _read(): AvailabilityRead {
    const held = this._held?.venue === this._currentVenue ? this._held : null;
    return planRead(this._order, this._choices, held);
  }

  /** The last availability answer, the read it answered and its venue. */
  private _held: (HeldAvailability & { venue: string }) | null = null;

  private _availability = new Task(this, {
    task: async ([api, venue, key], { signal }) => {
      if (!venue || this._confirmation) return null;
      void key;
      const read = this._read();
      const query = read.fields ? { ...read.choices, fields: read.fields.join(',') } : { ...read.choices };
      // No `getOffers`: badges come from the offers' own rules (`offers.ts`), so the service is spared that work.
      const availability = normalizeAvailability(await this._clientFor(api).availability(venue, query, signal));
      if (!signal.aborted) this._held = { read, availability, venue };
      return availability;
    },
    args: () => [this.api, this._currentVenue, readKey(this._read())] as const,
    onComplete: (availability) => {
      if (!availability) return;
      for (const item of availability.fields.type?.suggestions ?? [])
        if (item.label) this._typeNames.set(String(item.value), item.label);
      this._reconcile(availability);
    },
    onError: (error) => this._fail(error, 'availability'),
  });

  /** Whether the details form has been in sight: the marketing preferences are read from then on. */
  private _wantPreferences = false;

  /**
   * Marketing preferences, read only for the details form (in parallel with the complete check
   * before it), so that a guest who only looks at times costs no such read.
   */
  private _preferences = new Task(this, {
    task: async ([api, venue, wanted], { signal }): Promise<WireMarketingPreference[]> => {
      if (!venue || !wanted) return [];
      const payload = await this._clientFor(api)
        .get<{ marketing_preferences?: WireMarketingPreference[] }>(
          `venues/${encodeURIComponent(venue)}/marketing-preferences`,
          {},
          signal,
        )
        .catch(() => null);
      return payload?.marketing_preferences ?? [];
    },
    args: () => [this.api, this._currentVenue, this._wantPreferences] as const,
  });

  /**
   * Every visible offer of the venue, read once per venue: the badges are filtered from it by each
   * offer's own rules (`offers.ts`), as the service's `getOffers` arrays ignore fields not yet chosen.
   */
  private _venueOffers = new Task(this, {
    task: async ([api, venue, hidden], { signal }): Promise<WireOffer[]> => {
      if (!venue || hidden) return [];
      const payload = await this._clientFor(api)
        .get<WireOffer[] | { offers?: WireOffer[] }>(`venues/${encodeURIComponent(venue)}/offers`, {}, signal)
        .catch(() => []);
      return partnerOffers(Array.isArray(payload) ? payload : (payload.offers ?? []));
    },
    args: () => [this.api, this._currentVenue, this.hideOffers] as const,
  });

  /**
   * A single venue's name, read only when it will be needed and nothing else gives it: before a
   * hand-off to the booking site (a deposit is known once the type is chosen), so that it is saved
   * for the confirmation on return, or for a confirmation that has no name for it.
   */
  private _venueRecord = new Task(this, {
    task: async ([api, venue, needed], { signal }): Promise<string> => {
      if (!needed || !venue || this._multi) return '';
      const payload = await this._clientFor(api)
        .get<{ venue?: WireVenue }>(`venues/${encodeURIComponent(venue)}`, { fields: 'booking_types' }, signal)
        .catch(() => null);
      return venueName(payload?.venue);
    },
    args: () => [this.api, this._currentVenue, this._away || Boolean(this._confirmation && !this._venueTitle)] as const,
  });

  /**
   * Whether the proxy offers its return bridge (`GET /api/return`, no upstream call), asked only
   * when a hand-off to the booking site is in sight: the booking site then POSTs the guest's
   * details to the bridge instead of putting them in the venue page's URL.
   */
  private _bridge = new Task(this, {
    task: async ([api, wanted], { signal }): Promise<boolean> => {
      if (!wanted) return false;
      const payload = await this._clientFor(api)
        .get<{ methods?: unknown }>('return', {}, signal)
        .catch(() => null);
      return Array.isArray(payload?.methods) && payload.methods.includes('post');
    },
    args: () => [this.api, this._away && this.returnMethod !== 'get'] as const,
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
    this._venue = null;
    this._choices = {};
    this._problems = [];
    this._editing = null;
    this._offer = null;
    this._guest = {
      first_name: '',
      last_name: '',
      email: '',
      phone: '',
      dob: '',
      notes: '',
      marketing_preferences: [],
    };
    this._guestErrors = {};
    this._submitting = false;
    this._submitError = null;
    this._confirmation = null;
    this._strings = enGB;
    this._focusDate = null;
    this._dayParts = {};
    this._allSizes = false;
  }

  // --- derived values ---

  /** Whether the guest will finish on the booking site (a deposit is known once the type is chosen). */
  private get _away(): boolean {
    const availability = this._availability?.value;
    return Boolean(
      availability &&
      (availability.depositRequired || (!nextStep(this._order, this._choices) && needsRedirect(availability))),
    );
  }

  private get _order(): Step[] {
    return parseSteps(this.steps);
  }

  private get _multi(): boolean {
    return Boolean(this.venueGroup) || venueIds(this.venue).length > 1;
  }

  private get _currentVenue(): string {
    return this._multi ? (this._venue ?? '') : (venueIds(this.venue)[0] ?? '');
  }

  /** Names this widget on the page (and in the return URL): its id, else its venue (or group). */
  private get _returnKey(): string {
    return this.id || this.venueGroup || this.venue;
  }

  /** The key its state is saved under: per proxy too, as ids mean nothing to another service. */
  private get _storageKey(): string {
    return `${this.api}|${this._returnKey}`;
  }

  private get _intlLocale(): string {
    return this._strings === enGB ? 'en-GB' : this.locale;
  }

  private get _today(): string {
    return venueToday(this.now ?? new Date());
  }

  /** The chosen venue's name for people, or '' while it is unknown (never its id). */
  private get _venueName(): string {
    return (
      this._venueTitle ||
      venueName(this._venues.value?.find((venue) => venue._id === this._currentVenue)) ||
      this._venueRecord.value ||
      ''
    );
  }

  /**
   * The offers of the details step: the venue's offers whose rules admit the full choices — the
   * same rules that put every badge on the way here, so a badge is always honoured.
   */
  private get _eligibleOffers(): WireOffer[] {
    return (this._venueOffers.value ?? []).filter((offer) => offerApplies(offer, this._choices));
  }

  /** The offer badge of a value of a step: only where an offer can still apply with it. */
  private _badge(step: Step, suggestion: Suggestion): Badge | null {
    if (this.hideOffers || !suggestion.valid) return null;
    return badgeFor(this._venueOffers.value ?? [], { ...this._choices, [step]: suggestion.value }, this._strings.offer);
  }

  private get _summary(): BookingSummary {
    const { type, date, time, duration, num_people } = this._choices;
    return {
      venue_id: this._currentVenue,
      type,
      date,
      time,
      duration,
      num_people,
      ...(this._offer ? { offer: this._offer } : {}),
    };
  }

  // --- lifecycle ---

  override connectedCallback(): void {
    super.connectedCallback();
    if (typeof location === 'undefined') return;
    const saved = loadBooking(this._storageKey);
    const back = readReturn(location.href, this._returnKey, Boolean(saved?.redirected));
    if (back) {
      history.replaceState(history.state, '', withoutReturn(location.href));
      this._returned = true;
      this._confirmation = back;
      saveBooking(this._storageKey, {
        ...saved,
        venue: saved?.venue ?? null,
        choices: saved?.choices ?? {},
        offer: saved?.offer ?? null,
        redirected: false,
        confirmation: back,
      });
    }
    if (saved) {
      this._venue = saved.venue;
      this._choices = saved.choices;
      this._offer = saved.offer;
      if (!this._confirmation && saved.confirmation) {
        this._confirmation = saved.confirmation;
        this._restored = true;
      }
      const { type, venue } = saved.names ?? {};
      if (type && saved.choices.type) this._typeNames.set(saved.choices.type, type);
      this._venueTitle ||= venue ?? '';
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('locale')) {
      const locale = this.locale;
      // A locale chunk that cannot be fetched (say, the bundle served without it) leaves English in place.
      loadStrings(locale || 'en-GB').then(
        (strings) => {
          if (this.locale === locale) this._strings = strings;
        },
        () => {
          if (this.locale !== locale) return;
          this._strings = enGB;
          this._emit('vb-error', { kind: 'locale', status: null, during: 'locale' });
        },
      );
    }
    if (changed.has('guest') && this.guest) {
      // A prefill fills only what the guest has not typed: a host page that re-renders and sets
      // `guest` again must not overwrite "Grace" with "Ada".
      const fill = Object.entries(this.guest).filter(
        ([name, value]) => typeof value === 'string' && !this._touched.has(name as keyof GuestDetails),
      );
      if (fill.length) this._guest = { ...this._guest, ...Object.fromEntries(fill) };
    }
    // Prefill attributes set choices the guest has not made (a restored booking wins).
    const prefill: Choices = {};
    if (changed.has('type') && this.type) prefill.type = this.type;
    if (changed.has('date') && this.date) prefill.date = this.date;
    if (changed.has('time') && this.time) prefill.time = this.time;
    if (changed.has('duration') && this.duration !== undefined && !Number.isNaN(this.duration))
      prefill.duration = this.duration;
    // A party size the proxy would refuse (0, 2.5, 5000) is not prefilled: the guest chooses one.
    if (changed.has('numPeople') && this.numPeople !== undefined && isPartySize(this.numPeople))
      prefill.num_people = this.numPeople;
    if (Object.keys(prefill).length)
      this._choices = this.hasUpdated ? { ...this._choices, ...prefill } : { ...prefill, ...this._choices };
    // A choice served by the answer in hand: the next step is chosen for the guest when that answer
    // leaves one value, as a fresh answer would (`reconcile`), and never on an answer that refused one.
    const held = this._held;
    if (
      held &&
      (changed as PropertyValues).has('_choices') &&
      this._problems.length === 0 &&
      readKey(this._read()) === readKey(held.read)
    ) {
      const auto = autoChoice(this._order, this._choices, held.availability);
      if (auto) this._choices = auto;
    }
    this._wantPreferences ||= nextStep(this._order, this._choices) === null;
  }

  protected override updated(changed: PropertyValues): void {
    // A placeholder keeps the height of the step it replaces, so the page below moves once, not twice.
    const busy = this.renderRoot.querySelector<HTMLElement>('.busy');
    if (busy) busy.style.minHeight = `${this._stepHeight}px`;
    else this._stepHeight = this.renderRoot.querySelector<HTMLElement>('[data-step], form')?.offsetHeight ?? 0;
    if (
      this._interacted &&
      (changed.has('_choices') || changed.has('_venue') || changed.has('_offer') || changed.has('_confirmation'))
    ) {
      this._save();
    }
    const step = this._shownStep;
    if (step && step !== this._lastStep) {
      this._lastStep = step;
      if (this._interacted || (this._returned && step === 'confirmation')) {
        this._emit('vb-step', { step });
        this._announce(this._headingText());
      }
      if (step === 'unavailable') this._emit('vb-error', { kind: 'unavailable', status: null, during: 'submit' });
      if ((this._returned || this._restored) && step === 'confirmation') {
        const restored = !this._returned;
        this._returned = this._restored = false;
        const { reference, status } = this._confirmation!;
        this._emit('vb-complete', { reference, status, booking: this._summary, restored });
      }
    }
    if (this._focusPending && step && this._availability.status !== TaskStatus.PENDING) {
      this._focusPending = false;
      this.renderRoot.querySelector<HTMLElement>('#step-title')?.focus();
    }
  }

  // --- internals ---

  private _clientFor(api: string): ApiClient {
    if (!this._client || this._clientBase !== api) {
      this._client = createApiClient({ base: api || '/api' });
      this._clientBase = api;
    }
    return this._client;
  }

  private _save(redirected?: boolean): void {
    const type = this._choices.type;
    const names = { type: (type && this._typeName(type)) || undefined, venue: this._venueName || undefined };
    const value: SavedBooking = {
      venue: this._venue,
      choices: this._choices,
      offer: this._offer,
      confirmation: this._confirmation,
      names,
      redirected,
    };
    saveBooking(this._storageKey, value);
  }

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

  /** Says something through the live region (its text node is not managed by the template). */
  private _announce(text: string): void {
    const region = this.renderRoot.querySelector('#live');
    if (!region) return;
    region.textContent = '';
    // A fresh node after a tick makes screen readers read repeated text again.
    setTimeout(() => (region.textContent = text), 50);
  }

  private _headingText(): string {
    return this.renderRoot.querySelector('#step-title')?.textContent?.trim() ?? '';
  }

  private _fail(error: unknown, during: 'venues' | 'availability' | 'submit'): void {
    const apiError = error instanceof ApiError ? error : new ApiError('server', String(error));
    if (apiError.kind === 'aborted') return;
    this._emit('vb-error', { kind: apiError.kind, status: apiError.status, during });
  }

  private _reconcile(availability: Availability): void {
    const result = reconcile(this._order, this._choices, availability);
    if (result.problems.length > 0) this._problems = result.problems;
    if (result.problems.length > 0 || result.autoChosen) this._choices = result.choices;
  }

  /** A guest action: later renders may move focus and fire events. */
  private _act(): void {
    this._interacted = true;
    this._focusPending = true;
  }

  private _onChoose(step: Step, value: string | number): void {
    this._act();
    this._problems = [];
    this._editing = null;
    if (step !== 'time') this._dayParts = {};
    this._choices = choose(this._choices, step, value);
    this._emit('vb-change', { field: step, value });
  }

  private _onChooseVenue(id: string): void {
    this._act();
    this._editing = null;
    this._problems = [];
    if (id !== this._venue) {
      // Booking types, durations and offers belong to one venue; date, time and party size carry over.
      const { type: _type, duration: _duration, ...rest } = this._choices;
      this._choices = rest;
      this._offer = null;
    }
    this._venue = id;
    this._venueTitle = '';
    this._emit('vb-change', { field: 'venue', value: id });
  }

  private _onEdit(step: ShownStep): void {
    this._act();
    this._editing = step;
    if (step === 'date') this._focusDate = this._choices.date ?? null;
  }

  private _onLargerParty(): void {
    this._act();
    this._problems = [];
    this._choices = forLargerParty(this._choices);
    this._editing = 'num_people';
  }

  private _onRetryAvailability(): void {
    this._act();
    void this._availability.run();
  }

  private _onInput(event: Event): void {
    const input = event.target as HTMLInputElement;
    if (input.name === 'marketing_preferences') {
      const chosen = new Set(this._guest.marketing_preferences);
      if (input.checked) chosen.add(input.value);
      else chosen.delete(input.value);
      this._guest = { ...this._guest, marketing_preferences: [...chosen] };
      return;
    }
    this._guest = { ...this._guest, [input.name]: input.value };
    this._touched.add(input.name as keyof GuestDetails);
    // Once a field was flagged, re-check it as the guest types so the message goes away promptly.
    if (this._guestErrors[input.name as keyof GuestDetails]) this._recheck(input.name as keyof GuestDetails);
  }

  private _onBlur(event: Event): void {
    const input = event.target as HTMLInputElement;
    if (input.value) this._recheck(input.name as keyof GuestDetails);
  }

  private _recheck(name: keyof GuestDetails): void {
    const errors = { ...this._guestErrors };
    const code = checkGuest(this._guest, this.askDob, this._today)[name];
    if (code) errors[name] = code;
    else delete errors[name];
    this._guestErrors = errors;
  }

  private _onOffer(id: string | null): void {
    this._interacted = true;
    this._offer = id;
    this._emit('vb-change', { field: 'offer', value: id });
  }

  private async _onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    const availability = this._availability.value;
    if (this._submitting || !availability) return;
    this._interacted = true;
    const errors = checkGuest(this._guest, this.askDob, this._today);
    this._guestErrors = errors;
    if (Object.keys(errors).length > 0) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const offer =
      this._offer && this._eligibleOffers.some((item) => item._id === this._offer) ? this._offer : undefined;
    const plan = planSubmission(availability, this._choices, this._currentVenue, this._guest, {
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
      const key = await pendingBookingKey(this._storageKey, JSON.stringify(plan.body));
      const created: WireBookingCreated = await this._clientFor(this.api).createBooking(plan.body, key);
      const handled = String(created.bookingStatus ?? '').toLowerCase();
      const confirmed =
        handled === 'confirmed' ||
        handled === 'complete' ||
        (!handled && chosenAction(availability, this._choices) === 'accept');
      this._venueTitle = created.venue?.title ?? this._venueTitle;
      this._confirmation = {
        reference: String(created.booking?.reference ?? ''),
        status: confirmed ? 'confirmed' : 'enquiry',
      };
      clearPendingBookingKey(this._storageKey);
      this._focusPending = true;
      this._emit('vb-complete', { ...this._confirmation, booking: this._summary, restored: false });
    } catch (error) {
      this._submitError = error instanceof ApiError ? error : new ApiError('server', String(error));
      this._fail(error, 'submit');
    } finally {
      this._submitting = false;
    }
  }

  private async _onRedirect(): Promise<void> {
    if (this._bridge.status === TaskStatus.PENDING) await this._bridge.taskComplete.catch(() => false);
    const availability = this._availability.value;
    if (!availability || typeof location === 'undefined') return;
    this._interacted = true;
    const page = returnUrlFor(this.returnUrl, location.href, this._returnKey);
    // The bridge sends guests back only to an origin the proxy serves: a `return-url` on another
    // origin than this page's (which the proxy serves, or this widget could not call it) keeps GET.
    const post = this.returnMethod !== 'get' && this._bridge.value === true && new URL(page).origin === location.origin;
    const plan = planSubmission(availability, this._choices, this._currentVenue, this._guest, {
      returnUrl: post ? bridgeUrl(this.api, this._currentVenue, page) : page,
      returnMethod: post ? 'post' : undefined,
      offer: this._offer ?? undefined,
    });
    if (!plan || plan.kind !== 'web') return;
    // Saved first with the display names, so a host that cancels this and sends the guest itself still
    // gets a named confirmation on return.
    this._save();
    if (!this._emit('vb-redirect', { url: plan.url, booking: this._summary }, true)) return;
    this._save(true);
    location.assign(plan.url);
  }

  private _onAgain(): void {
    this._act();
    this._confirmation = null;
    this._choices = {};
    this._offer = null;
    this._problems = [];
    this._editing = null;
    this._guest = { ...this._guest, notes: '', marketing_preferences: [] };
    saveBooking(this._storageKey, null);
  }

  private _onCalendarKey(event: KeyboardEvent): void {
    const focus = this._focusDate ?? this._defaultFocus(this._availability.value);
    const next = moveFocus(focus, event.key, event.shiftKey, this._today, this._maxDate(this._availability.value));
    if (!next) return;
    event.preventDefault();
    this._focusDate = next;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[data-date="${next}"]`)?.focus());
  }

  private _onMonth(delta: number): void {
    const focus = this._focusDate ?? this._defaultFocus(this._availability.value);
    const next = addMonths(focus, delta);
    const max = this._maxDate(this._availability.value);
    this._focusDate = next < this._today ? this._today : next > max ? max : next;
  }

  private _onPickDate(date: string, valid: boolean): void {
    this._focusDate = date;
    if (valid) this._onChoose('date', date);
  }

  private _maxDate(availability: Availability | null | undefined): string {
    const dates = availability?.fields.date?.suggestions.map((item) => String(item.value)) ?? [];
    return dates.length ? dates[dates.length - 1] : addPlainDays(this._today, 365);
  }

  private _defaultFocus(availability: Availability | null | undefined): string {
    const first = availability?.fields.date?.suggestions.find((item) => item.valid)?.value;
    return this._choices.date ?? (first ? String(first) : this._today);
  }

  // --- public methods ---

  /** Opens the popup (in `mode="popup"`). */
  open(): void {
    const dialog = this.renderRoot.querySelector('dialog');
    if (!dialog || dialog.open) return;
    dialog.showModal();
    this.renderRoot.querySelector<HTMLElement>('#step-title')?.focus();
  }

  /** Closes the popup; focus returns to its button. */
  close(): void {
    this.renderRoot.querySelector('dialog')?.close();
  }

  // --- rendering ---

  /** Formats a value of a field for people. */
  private _format(step: Step | 'venue', value: string | number, label?: string | null): string {
    const locale = this._intlLocale;
    switch (step) {
      case 'date':
        return formatVenueDate(String(value), locale, { weekday: 'short', day: 'numeric', month: 'short' });
      case 'time':
        return formatVenueTime(String(value), locale);
      case 'num_people':
        return this._strings.people(Number(value));
      case 'duration':
        return Number(value) === -1 ? this._strings.untilClose : formatDuration(durationMinutes(Number(value)), locale);
      case 'venue':
        return venueName(this._venues.value?.find((venue) => venue._id === value)) || String(value);
      default:
        return label ?? this._typeName(String(value)) ?? String(value);
    }
  }

  private _typeName(id: string): string | null {
    return this._typeNames.get(id) ?? null;
  }

  private _describe(step: Step, suggestion: Suggestion) {
    const s = this._strings;
    let detail: string | null = null;
    if (!suggestion.valid) detail = suggestion.message ?? s.unavailable;
    else if (step === 'duration') {
      const end =
        suggestion.endTime ??
        (this._choices.time && Number(suggestion.value) > 0
          ? endTimeOf(this._choices.time, durationMinutes(Number(suggestion.value)))
          : null);
      if (end) detail = s.endsAt(formatVenueTime(end, this._intlLocale));
    }
    // Party sizes are a row of numbers under "How many people?".
    const label =
      step === 'num_people' ? String(suggestion.value) : this._format(step, suggestion.value, suggestion.label);
    return { label, detail, badge: this._badge(step, suggestion) };
  }

  private _renderSummary() {
    const s = this._strings;
    const chosen = this._order.filter((step) => this._choices[step] !== undefined);
    const venue = this._multi && this._venue ? this._venue : null;
    if (chosen.length === 0 && !venue) return nothing;
    // Each choice is one button: the field name small above the value; a tap goes back to that step.
    const item = (step: Step | 'venue', value: string | number) =>
      html`<li>
        <button class="choice" type="button" @click=${() => this._onEdit(step)}>
          <span class="visually-hidden">${s.change}:</span><small>${s.fieldNames[step]}</small>
          <strong>${this._format(step, value)}</strong>
        </button>
      </li>`;
    return html`<ul class="summary" part="summary" aria-label=${s.summary}>
      ${venue ? item('venue', venue) : nothing} ${chosen.map((step) => item(step, this._choices[step]!))}
    </ul>`;
  }

  private _renderProblems() {
    if (this._problems.length === 0) return nothing;
    const s = this._strings;
    return html`${this._problems.map(
      (problem) =>
        html`<div class="problem" part="problem" role="status">
          <p>
            ${s.problem(s.fieldNames[problem.field], this._format(problem.field, problem.value))}
            ${problem.reason ?? ''}
          </p>
          ${this._renderAlternatives(problem.field, problem.alternatives)}
        </div>`,
    )}`;
  }

  private _renderAlternatives(field: Step, values: (string | number)[]) {
    if (values.length === 0) return nothing;
    return html`<p class="alternatives">
      ${this._strings.nearest}
      ${values.map((value) => html`<button type="button" class="option small" data-alternative=${field} data-value=${String(value)} @click=${() => this._onChoose(field, value)}>${this._format(field, value)}</button>`)}
    </p>`;
  }

  /** The guest's choices are complete but the service refuses the booking: why, and what else works. */
  private _renderReject(availability: Availability) {
    const s = this._strings;
    const { date, time } = this._choices;
    const reason =
      this._order.map((field) => reasonFor(availability, field, this._choices[field]!)).find(Boolean) ?? s.rejected;
    return html`<div role="group" part="step problem" class="problem" aria-labelledby="step-title" data-step="reject">
      <h2 id="step-title" tabindex="-1">${s.rejected}</h2>
      <p>${reason}</p>
      ${time ? this._renderAlternatives('time', alternatives(availability, 'time', time)) : nothing}
      ${date ? this._renderAlternatives('date', alternatives(availability, 'date', date)) : nothing}
    </div>`;
  }

  private _renderVenues() {
    const s = this._strings;
    const venues = this._venues.value ?? [];
    return html`<div role="group" part="step" aria-labelledby="step-title" data-step="venue">
      <h2 id="step-title" tabindex="-1">${s.stepTitles.venue}</h2>
      <ul class="options" role="list">
        ${venues.map(
          (venue) =>
            html`<li>
              <button
                class="option"
                part=${`option${venue._id === this._venue ? ' selected' : ''}`}
                type="button"
                data-value=${venue._id}
                aria-pressed=${venue._id === this._venue ? 'true' : 'false'}
                @click=${() => this._onChooseVenue(venue._id)}
              >
                <span>${venueName(venue) || venue._id}</span>
              </button>
            </li>`,
        )}
      </ul>
    </div>`;
  }

  private _renderStep(step: Step, availability: Availability) {
    const s = this._strings;
    const field = availability.fields[step];
    const suggestions = field?.suggestions ?? [];
    let body;
    if (step === 'date') {
      body = renderDatePicker({
        focus: this._focusDate ?? this._defaultFocus(availability),
        selected: this._choices.date,
        today: this._today,
        min: this._today,
        max: this._maxDate(availability),
        days: new Map(suggestions.map((item) => [String(item.value), item])),
        locale: this._intlLocale,
        strings: s,
        onPick: (date, valid) => this._onPickDate(date, valid),
        onKey: (event) => this._onCalendarKey(event),
        onMonth: (delta) => this._onMonth(delta),
      });
    } else if (step === 'time') {
      body = renderTimes({
        strings: s,
        suggestions,
        chosen: this._choices.time,
        toggled: this._dayParts,
        deposit: availability.depositRequired,
        format: (time) => this._format('time', time),
        badge: (item) => this._badge('time', item),
        onChoose: (item) => this._onChoose('time', item.value),
        onToggle: (part, open) => (this._dayParts = { ...this._dayParts, [part]: open }),
      });
    } else {
      const max = field?.max ?? null;
      const people = step === 'num_people';
      const fits = people && max !== null ? suggestions.filter((item) => Number(item.value) <= max) : suggestions;
      // Party sizes: a compact row of 1–8, then "More" (the rest, then the larger-party enquiry).
      const row = people && !this._allSizes ? fits.filter((item) => Number(item.value) <= 8) : fits;
      const larger = people && max !== null && this._choices.type;
      const more = people && (row.length < fits.length || larger);
      body = html`${suggestions.every((item) => !item.valid) ? html`<p class="note">${s.noOptions}</p>` : nothing}
      ${renderOptions(
        row,
        this._choices[step],
        (item) => this._describe(step, item),
        (item) => this._onChoose(step, item.value),
        people,
      )}
      ${
        more
          ? html`<p>
              ${
                row.length < fits.length
                  ? html`<button type="button" class="option" data-more @click=${() => (this._allSizes = true)}>
                      ${s.more}
                    </button>`
                  : html`<button type="button" class="link" data-larger-party @click=${this._onLargerParty}>
                      ${s.largerParty(max!)}
                    </button>`
              }
            </p>`
          : nothing
      }`;
    }
    return html`<div role="group" part="step" aria-labelledby="step-title" data-step=${step}>
      <h2 id="step-title" tabindex="-1">${s.stepTitles[step]}</h2>
      ${body}
    </div>`;
  }

  private _renderRedirect(deposit: boolean) {
    const s = this._strings;
    return html`<div role="group" part="step" aria-labelledby="step-title" data-step="redirect">
      <h2 id="step-title" tabindex="-1">${s.redirectTitle}</h2>
      <p>${deposit ? s.depositNote : s.redirectNote}</p>
      <button class="primary" part="submit" type="button" @click=${this._onRedirect}>
        ${deposit ? s.payDeposit : s.continueToSite}
      </button>
    </div>`;
  }

  /** A ready booking that cannot be sent from here: say so, and show the venue's own way to book. */
  private _renderUnavailable() {
    const s = this._strings;
    return html`<div
      role="group"
      part="step problem"
      class="problem"
      aria-labelledby="step-title"
      data-step="unavailable"
    >
      <h2 id="step-title" tabindex="-1">${s.cannotBookTitle}</h2>
      <p>${s.cannotBookNote}</p>
      <slot></slot>
    </div>`;
  }

  private _renderDetailsStep(availability: Availability) {
    const s = this._strings;
    const action = chosenAction(availability, this._choices);
    const label = action === 'accept' ? s.bookNow : action === 'may_enquire' ? s.sendRequest : s.sendEnquiry;
    const error = this._submitError;
    return renderDetails({
      strings: s,
      locale: this._intlLocale,
      guest: this._guest,
      errors: this._guestErrors,
      dob: this.askDob === 'required' || this.askDob === 'optional' ? this.askDob : '',
      today: this._today,
      offers: this._eligibleOffers,
      offer: this._offer,
      preferences: this._preferences.value ?? [],
      submitLabel: error?.retryable ? s.retry : label,
      submitting: this._submitting,
      error: error
        ? error.kind === 'invalid' && error.message
          ? `${s.errors.invalid} ${error.message}`
          : s.errors[error.kind]
        : null,
      onInput: (event) => this._onInput(event),
      onBlur: (event) => this._onBlur(event),
      onOffer: (id) => this._onOffer(id),
      onSubmit: (event) => void this._onSubmit(event),
    });
  }

  private _renderConfirmation(confirmation: BookingConfirmation) {
    const s = this._strings;
    const { date, time, duration, num_people, type } = this._choices;
    const lines: [string, string][] = [];
    const venue = this._venueName;
    if (venue) lines.push([s.fieldNames.venue, venue]);
    if (type) lines.push([s.fieldNames.type, this._format('type', type)]);
    if (date) lines.push([s.fieldNames.date, formatVenueDate(date, this._intlLocale)]);
    if (time) lines.push([s.fieldNames.time, this._format('time', time)]);
    if (duration !== undefined) lines.push([s.fieldNames.duration, this._format('duration', duration)]);
    if (num_people !== undefined) lines.push([s.fieldNames.num_people, this._format('num_people', num_people)]);
    const minutes = duration === undefined ? null : durationMinutes(duration);
    return renderConfirmation({
      strings: s,
      reference: confirmation.reference,
      status: confirmation.status,
      summary: lines,
      event:
        date && time
          ? {
              reference: confirmation.reference,
              title: venue ? s.calendarTitle(venue) : type ? this._format('type', type) : s.fieldNames.type,
              date,
              time,
              minutes,
              location: venue,
              description: `${s.reference}: ${confirmation.reference}`,
            }
          : null,
      now: this.now ?? new Date(),
      onAgain: () => this._onAgain(),
    });
  }

  private _renderError(error: unknown) {
    const s = this._strings;
    const kind = error instanceof ApiError ? error.kind : 'server';
    return html`<div class="problem" part="problem">
      <p class="error" role="alert">${kind === 'invalid' || kind === 'aborted' ? s.errors.server : s.errors[kind]}</p>
      <button class="primary" type="button" data-retry @click=${this._onRetryAvailability}>${s.retry}</button>
      <slot></slot>
    </div>`;
  }

  /**
   * The placeholder while an answer is on its way: grey blocks where a step's title and choices
   * will be, so nothing jumps when it arrives; its words (and shimmer) show only after 300 ms, so a
   * quick answer never flashes a busy indicator.
   */
  private _renderBusy() {
    return html`<div class="busy" role="status" aria-busy="true">
      <div class="bone title"></div>
      <div class="bones">${[1, 2, 3, 4, 5, 6, 7, 8].map(() => html`<div class="bone"></div>`)}</div>
      <p class="note">${this._strings.loading}</p>
    </div>`;
  }

  /** The flow on the latest answer; while a newer answer is on its way, no stale options show. */
  private _renderFlow() {
    if (this._confirmation) {
      this._shownStep = 'confirmation';
      return this._renderConfirmation(this._confirmation);
    }
    if (this._multi && (!this._venue || this._editing === 'venue')) {
      if (this._venues.status === TaskStatus.ERROR) return this._renderError(this._venues.error);
      if (!this._venues.value?.length) return this._renderBusy();
      this._shownStep = 'venue';
      return this._renderVenues();
    }
    return this._availability.render({
      initial: () => this._renderBusy(),
      pending: () => html`${this._renderSummary()}${this._renderBusy()}`,
      error: (error) => html`${this._renderSummary()}${this._renderError(error)}`,
      complete: (availability) => {
        if (!availability) return nothing;
        const editing =
          this._editing && this._editing !== 'venue' && this._editing !== 'details' ? (this._editing as Step) : null;
        const step = editing ?? nextStep(this._order, this._choices);
        let body;
        if (step) {
          this._shownStep = step;
          body = this._renderStep(step, availability);
        } else if (this._venueOffers.status === TaskStatus.PENDING || this._preferences.status === TaskStatus.PENDING) {
          // The form waits for its offers and preferences, so they do not push the fields down once shown.
          this._shownStep = null;
          body = this._renderBusy();
        } else if (isReady(this._order, this._choices, availability)) {
          const route = submitRoute(availability);
          this._shownStep = route === 'api' ? 'details' : route ? 'redirect' : 'unavailable';
          body =
            route === 'api'
              ? this._renderDetailsStep(availability)
              : route
                ? this._renderRedirect(availability.depositRequired)
                : this._renderUnavailable();
        } else {
          this._shownStep = null;
          body = this._renderReject(availability);
        }
        return html`${this._renderSummary()}${this._renderProblems()}${body}`;
      },
    });
  }

  private _renderPopup(flow: unknown) {
    const s = this._strings;
    return html`<button class="primary" part="open" type="button" aria-haspopup="dialog" @click=${this.open}>
        ${s.open}
      </button>
      <dialog
        part="dialog"
        aria-labelledby="step-title"
        @close=${() => this.renderRoot.querySelector<HTMLElement>('[part="open"]')?.focus()}
      >
        <button type="button" class="close link" @click=${this.close} aria-label=${s.close}>×</button>
        ${flow}
      </dialog>`;
  }

  override render() {
    this._shownStep = null;
    const flow = this._renderFlow();
    const live = html`<div id="live" class="visually-hidden" role="status" aria-live="polite"></div>`;
    return html`${this.mode === 'popup' ? this._renderPopup(flow) : flow}${live}`;
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

/**
 * The proxy's return bridge for a venue, told which page to send the guest back to (the proxy
 * accepts it only on an origin it serves).
 */
function bridgeUrl(api: string, venue: string, page: string): string {
  const url = new URL(`${(api || '/api').replace(/\/+$/, '')}/return`, page);
  url.searchParams.set('venue', venue);
  url.searchParams.set('page', page);
  return url.href;
}

/** The ids of a `venue` attribute: one id or a comma-separated list. */
function venueIds(venue: string | null | undefined): string[] {
  return (venue ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

/** A venue's name for people: its title, else its path made readable. */
function venueName(venue: WireVenue | undefined): string {
  if (!venue) return '';
  if (venue.title || venue.name) return String(venue.title ?? venue.name);
  return (venue.path ?? '').replace(/[-_]+/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase());
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
