/**
 * The v4 wire contract, as the spec (§2) describes it and as the live service is observed to send it
 * (`shared/real-api-notes.md`). Shared by the widget and, as types only, by the proxy.
 *
 * Every shape here is what may arrive, so optional and nullable wherever either source disagrees;
 * `normalize.ts` turns them into the one internal form the widget reasons about.
 */

/** The envelope every JSON response of the service carries (§2.1). */
export interface Envelope<P = unknown> {
  payload: P;
  status: number;
  requestTime?: string;
  responseTime?: string;
  statusText?: string;
  url?: string;
  method?: string;
  params?: unknown;
}

/** The booking fields the availability endpoint reasons about (§2.3). */
export type BookingField = 'type' | 'date' | 'time' | 'duration' | 'num_people';

/** All five booking fields in the spec's default order. */
export const BOOKING_FIELDS: readonly BookingField[] = ['type', 'date', 'time', 'duration', 'num_people'];

/** How a booking would be handled on submission (§3.2). */
export type AvailabilityAction = 'accept' | 'enquire' | 'may_enquire' | 'reject';

/** A field error; the live service sends `{code, message, fields}` (real-api-notes). */
export interface WireFieldError {
  code?: string;
  message?: string | null;
  fields?: string[];
}

/**
 * One suggested value as it may arrive. The spec puts the value under `value`; the live service
 * uses `time` for times and `date` for dates, and an object for booking types.
 */
export interface WireSuggestion {
  value?: string | number | WireTypeValue | null;
  time?: string;
  date?: string;
  label?: string | null;
  endTime?: string | null;
  valid?: boolean;
  message?: string | null;
  action?: AvailabilityAction | string | null;
  offers?: string[] | null;
  errors?: WireFieldError[] | null;
}

/** A booking type as the live service describes it inside a suggestion. */
export interface WireTypeValue {
  id: string;
  name?: string;
  guestlist?: boolean;
  privateHire?: boolean;
  autoconfirmable?: boolean;
  availableLinkedTypes?: unknown[];
}

/** The field-validation object (§2.2). */
export interface WireFieldValidation {
  valid?: boolean;
  errors?: WireFieldError[] | null;
  suggestedValues?: WireSuggestion[] | null;
  rules?: { min?: number | null; max?: number | null } | null;
}

/** The availability result, `payload` of booking-availability (§2.2). */
export interface WireAvailability {
  valid?: boolean;
  validation?: Partial<Record<BookingField, WireFieldValidation>>;
  action?: AvailabilityAction | string;
  depositRequired?: unknown;
  preordersAvailable?: boolean;
  bookingDetails?: Record<string, unknown>;
  next?: { api?: string | null; web?: string | null } | null;
}

/** What the widget sends to `POST /bookings` (§4.2 and the API-URL flow). */
export interface BookingRequest {
  venue_id: string;
  type: string;
  date: string;
  time: string;
  num_people: number;
  duration?: number;
  first_name: string;
  last_name: string;
  email?: string;
  phone?: string;
  dob?: string;
  notes?: string;
  offer?: string;
  marketing_preferences?: string[];
  partner_source?: string;
  source?: string;
  /** The manage token of the booking this one replaces (a change): the proxy cancels that one once this is confirmed. */
  replaces?: string;
  [extra: string]: unknown;
}

/** The stored booking in a create response, read defensively (§2.4; live omits some keys). */
export interface WireBooking {
  _id?: string;
  reference?: string;
  venue_id?: string;
  date?: string;
  time?: string;
  num_people?: number;
  duration?: number;
  type?: { id?: string; name?: string } | string;
  status?: string;
  [extra: string]: unknown;
}

/** The payload of a create response (§4.2). */
export interface WireBookingCreated {
  booking?: WireBooking;
  bookingStatus?: string;
  venue?: { title?: string; path?: string; type?: string; page_type?: string };
  /** Added by our proxy to a booking it made: the guest's page to look up, cancel or change it. */
  manage_url?: string;
  /** Added by our proxy to a change (`replaces`): the booking it replaced, cancelled. */
  replaced?: { reference?: string };
  /** Added by our proxy to a change whose old booking the service would not cancel: it still stands. */
  replace_refused?: { reference?: string; reason?: string; phone?: string | null };
}

/** The payload of an error response: the service's envelope with a message and field errors. */
export interface WireErrorPayload {
  message?: string;
  errors?: WireFieldError[];
  /** Set by our proxy on booking errors: whether the booking may have been stored upstream. */
  stored?: boolean | 'unknown';
}

/** An offer (§2.9), reduced to what the widget shows and submits. */
export interface WireOffer {
  _id: string;
  title?: string;
  description?: string;
  start_date?: string | null;
  expiry_date?: string | null;
  /** '' (all bookings), 'partner', or the marketplace's brand (not for this client). */
  availability?: string;
  [extra: string]: unknown;
}

/** A marketing preference of a venue (§2.7). */
export interface WireMarketingPreference {
  id: string;
  name?: string;
  description?: string;
}

/** A venue as the widget names it in its venue picker (§4.9 list items, or a venue record). */
export interface WireVenue {
  _id: string;
  path?: string;
  title?: string;
  name?: string;
}

/** A booking type's booking rules for a date (§2.8), reduced to the party sizes it takes; read defensively. */
export interface WireBookingRules {
  min_people?: unknown;
  max_people?: unknown;
  /** The venue's bookings policy message (§2.11): shown before a hand-off, as text. */
  booking_notes?: unknown;
}

/** A hand-off's answer (`GET /api/venues/{id}/handoff`): the return methods the proxy's bridge accepts and its signed hand-off id. */
export interface WireReturnBridge {
  methods?: unknown;
  handoff?: unknown;
}

/**
 * The venue's profile as the proxy keeps it (`GET /api/venues/{id}/profile`, issue 35): the
 * venue's own contact and rules, not the service's, answered as bare JSON (not in the service's
 * envelope). Read defensively: a proxy that keeps no profile for the venue answers 404, and the
 * widget then shows no contact.
 */
export interface WireProfile {
  venue_id?: string;
  phone?: string | null;
  email?: string | null;
  address?: string | null;
  cancellation?: { online?: boolean; hours_before?: number | null } | null;
  look?: {
    theme?: 'light' | 'dark' | 'auto' | null;
    colours?: Record<string, string>;
    booking_type?: string | null;
    locale?: string | null;
  } | null;
}
