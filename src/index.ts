/**
 * The package entry: registers `<venue-booking>` once (and its tag and events in the DOM's typings)
 * and exports its class and every type its properties, events and answers name (the frameworks'
 * template typings are apart, in `venue-booking/react`, `venue-booking/vue` and
 * `venue-booking/svelte`; under Node the entry is `node.ts`).
 *
 * The define is guarded so that a page loading the script twice, or two bundles that both import
 * the widget, never throws; and it is skipped where there is no custom-element registry (a server
 * importing the module while rendering).
 */
import { VenueBooking, type VenueBookingEventDetails } from './venue-booking.js';

export {
  VenueBooking,
  type BookingConfirmation,
  type BookingSummary,
  type GuestPrefill,
  type ShownStep,
  type VenueBookingEventDetails,
  type VenueBookingCancelledDetail,
  type VenueBookingChangeDetail,
  type VenueBookingChangedDetail,
  type VenueBookingCompleteDetail,
  type VenueBookingErrorDetail,
  type VenueBookingRedirectDetail,
  type VenueBookingStepDetail,
  type VenueBookingSubmitDetail,
} from './venue-booking.js';
export type {
  KebabCase,
  VenueBookingAttributeValue,
  VenueBookingAttributeValues,
  VenueBookingEvents,
  VenueBookingPropertyName,
  VenueBookingPropertyValues,
} from './element-props.js';
export type { GuestDetails, Step } from './state/booking-flow.js';
export type { Availability, Choices, FieldError, FieldState, Suggestion } from './api/normalize.js';
export type { BookingField, AvailabilityAction, BookingRequest } from './api/types.js';

if (typeof customElements !== 'undefined' && !customElements.get('venue-booking')) {
  customElements.define('venue-booking', VenueBooking);
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
    'vb-changed': CustomEvent<VenueBookingEventDetails['vb-changed']>;
    'vb-cancelled': CustomEvent<VenueBookingEventDetails['vb-cancelled']>;
    'vb-redirect': CustomEvent<VenueBookingEventDetails['vb-redirect']>;
    'vb-error': CustomEvent<VenueBookingEventDetails['vb-error']>;
  }
}
