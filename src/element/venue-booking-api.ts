import { LitElement, type PropertyDeclarations } from 'lit';
import type { GuestPrefill } from '../state/element-types.js';

/**
 * The public API of `<venue-booking>` in one place: its attributes and properties with their
 * defaults, its methods, events, slot, parts and custom properties, documented here for
 * `custom-elements.json` (and from it the element's reference tables (docs/reference/element.md) and the React typings). The element
 * (`VenueBooking`) adds its behaviour. Each `@fires` names the type of its event's `detail` (a
 * `CustomEvent` of it), as manifest-driven generators expect, exported from the package entry.
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
 * @attr analytics - Pushes events without personal data to `window.dataLayer` (docs/events.md, versioned by `vb_version`): the funnel's `vb_step`, `vb_change`, …, and once per booking GA4's `purchase` (a confirmed booking, its reference as `transaction_id`) or `generate_lead` (an enquiry).
 * @attr meta-pixel - With Meta's pixel on the page (`window.fbq`, which the widget never loads), tracks `Purchase` or `Lead` once per booking, its reference as `eventID`.
 * @attr type - Prefills the booking type id.
 * @attr date - Prefills the date (`yyyy-MM-dd`, venue time).
 * @attr time - Prefills the time (`HH:mm`, venue time).
 * @attr duration - Prefills the duration, in the unit the service suggests.
 * @attr num-people - Prefills the party size.
 * @attr replaces - A manage token (`/manage/<token>`): the booking made here replaces that one (a change; the proxy cancels the old one once the new one is confirmed), and the details step offers to cancel it instead.
 *
 * @prop {Date | null} now - The clock (default real time): "today" is London's date at this instant.
 * @prop {GuestPrefill | null} guest - Prefills the guest's name, email and phone (property only).
 *
 * @fires {VenueBookingStepDetail} vb-step - A new step is shown after a guest action (`{ step }`).
 * @fires {VenueBookingChangeDetail} vb-change - The guest chose a value (`{ field, value }`).
 * @fires {VenueBookingSubmitDetail} vb-submit - The booking was sent (`{ booking }`, no personal data).
 * @fires {VenueBookingCompleteDetail} vb-complete - The booking is stored (`{ reference, status, manage_url, booking, restored }`, no personal data; `previous` too for a change, or `kept` for one whose old booking still stands); after a reload that shows a kept confirmation it fires again with `restored: true`.
 * @fires {VenueBookingChangedDetail} vb-changed - With `replaces`: booked, and the old booking cancelled (`{ reference, previous }`).
 * @fires {VenueBookingCancelledDetail} vb-cancelled - With `replaces`: the guest cancelled that booking instead of changing it (`{ reference }`; also when the proxy found it cancelled already).
 * @fires {VenueBookingRedirectDetail} vb-redirect - Cancelable; the guest is about to leave for the booking site (`{ url, booking }`).
 * @fires {VenueBookingErrorDetail} vb-error - `{ kind, status, during }`: a call failed (the guest sees a message and can retry), a ready booking cannot be sent from here (`kind: 'unavailable'`), or the locale module failed to load and English stays (`kind: 'locale'`).
 *
 * @slot - The venue's own way to book (a link, a phone number): the no-script fallback, shown again under an error, when a booking cannot be made here, and on a step with nothing to choose (a party no type takes).
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
 * @csspart requests - The quick picks beside the notes box; `request` is one pick.
 * @csspart notes - The notes said back on the confirmation.
 * @csspart consent - The marketing preferences.
 * @csspart submit - The submit (or continue to the booking site) button.
 * @csspart confirmation - The confirmation shown once the booking is stored.
 * @csspart manage - The confirmation's link to the proxy's page to manage or cancel the booking.
 * @csspart cancel - With `replaces`, the details step's way to cancel that booking instead (its confirm step and outcome).
 * @csspart ics - The .ics download link.
 * @csspart google-calendar - The Google Calendar link.
 * @csspart open - The button that opens the popup.
 * @csspart dialog - The popup's `<dialog>`.
 *
 * @cssproperty --vb-accent - Accent colour of chosen values and the main button.
 * @cssproperty --vb-accent-text - Text colour on the accent colour (default on a custom accent: white or black, whichever reads).
 * @cssproperty --vb-background - Background of the widget (default transparent; the dialog's is opaque).
 * @cssproperty --vb-text - Text colour (default inherited from the page).
 * @cssproperty --vb-muted - Colour of secondary text.
 * @cssproperty --vb-border - Colour of borders.
 * @cssproperty --vb-error - Colour of error messages.
 * @cssproperty --vb-radius - Corner radius of buttons.
 * @cssproperty --vb-font - Font family (default: the page's, inherited; its controls take it too).
 */
export class VenueBookingApi extends LitElement {
  // Attributes are strings unless a `type` says otherwise (Lit's default converter reads and
  // reflects them as they are), so string properties declare none.
  static override properties: PropertyDeclarations = {
    venue: {},
    venueGroup: { attribute: 'venue-group' },
    api: {},
    steps: {},
    locale: {},
    theme: { reflect: true },
    mode: { reflect: true },
    returnUrl: { attribute: 'return-url' },
    returnMethod: { attribute: 'return-method' },
    hideOffers: { type: Boolean, attribute: 'hide-offers' },
    partnerSource: { attribute: 'partner-source' },
    askDob: { attribute: 'ask-dob' },
    analytics: { type: Boolean },
    metaPixel: { type: Boolean, attribute: 'meta-pixel' },
    type: {},
    date: {},
    time: {},
    duration: { type: Number },
    numPeople: { type: Number, attribute: 'num-people' },
    replaces: {},
    now: { attribute: false },
    guest: { attribute: false },
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
  /** Whether to track a booking with the page's Meta pixel (`window.fbq`). */
  declare metaPixel: boolean;
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
  /** The manage token of a booking this one replaces (a change); empty for a new booking. */
  declare replaces: string;
  /** The clock; null means real time. "Today" is always London's date at this instant. */
  declare now: Date | null;
  /** Guest details to prefill. */
  declare guest: GuestPrefill | null;

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
    this.metaPixel = false;
    this.type = '';
    this.date = '';
    this.time = '';
    this.duration = undefined;
    this.numPeople = undefined;
    this.replaces = '';
    this.now = null;
    this.guest = null;
  }

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
}
