/**
 * The package entry: registers `<venue-booking>` once and exports its class and types.
 *
 * The define is guarded so that a page loading the script twice, or two bundles that both import
 * the widget, never throws; and it is skipped where there is no custom-element registry (a server
 * importing the module while rendering).
 */
import { VenueBooking } from './venue-booking.js';

export { VenueBooking, type BookingConfirmation } from './venue-booking.js';
export type { Choices, Suggestion, Availability } from './api/normalize.js';
export type { BookingField, AvailabilityAction, BookingRequest } from './api/types.js';

if (typeof customElements !== 'undefined' && !customElements.get('venue-booking')) {
  customElements.define('venue-booking', VenueBooking);
}
