/**
 * The element's public types: what its properties take and what its events carry (re-exported by
 * `venue-booking.ts` and the package entry).
 */
import type { GuestDetails, Step } from './booking-flow.js';
import type { ShownStep } from './view.js';

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
