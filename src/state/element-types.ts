/**
 * The element's public types: what its properties take and what its events carry (re-exported by
 * `venue-booking.ts` and the package entry), and how its events are fired.
 */
import type { GuestDetails, Step } from './booking-flow.js';
import type { ShownStep } from './view.js';

/** The confirmation the widget shows once a booking is stored. */
export interface BookingConfirmation {
  reference: string;
  /** `confirmed` when the venue accepted it at once, `enquiry` when the venue will confirm later. */
  status: 'confirmed' | 'enquiry';
  /**
   * The proxy's page where the guest looks up, cancels or changes this booking (`/manage/<token>`),
   * when the proxy made the booking and gave one; a partner may send it in their own email.
   */
  manage_url?: string;
  /** The reference of the booking this one replaced (a change, `replaces`): that booking is cancelled. */
  previous?: string;
  /**
   * A change the service would not finish: this booking is made, but the one `replaces` named could
   * not be cancelled online and still stands (its `reference`); the guest cancels it with the venue
   * (its `phone`, when the proxy knows it). No `vb-changed` then.
   */
  kept?: { reference: string; phone?: string };
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

/** `vb-step`'s detail: the step now shown. */
export interface VenueBookingStepDetail {
  step: ShownStep;
}

/** `vb-change`'s detail: the field the guest chose and its value. */
export interface VenueBookingChangeDetail {
  field: 'venue' | Step | 'offer';
  value: string | number | null;
}

/** `vb-submit`'s detail: the booking sent. */
export interface VenueBookingSubmitDetail {
  booking: BookingSummary;
}

/**
 * `vb-complete`'s detail: the confirmation (with `manage_url` and, for a change, `previous`).
 * `restored`: false when the booking was just stored (or the guest just
 * came back from the booking site); true when a reload shows a confirmation kept from before, so a
 * host page that renders its own thank-you state can restore it without counting the booking twice.
 */
export interface VenueBookingCompleteDetail extends BookingConfirmation {
  booking: BookingSummary;
  restored: boolean;
}

/** `vb-changed`'s detail: the new booking's reference and the one it replaced, now cancelled. */
export interface VenueBookingChangedDetail {
  reference: string;
  previous: string;
}

/** `vb-cancelled`'s detail: the reference of the booking the guest cancelled (the one `replaces` names). */
export interface VenueBookingCancelledDetail {
  reference: string;
}

/** `vb-redirect`'s detail: where the guest is about to go, and the booking. */
export interface VenueBookingRedirectDetail {
  url: string;
  booking: BookingSummary;
}

/**
 * `vb-error`'s detail. `kind`: an API error kind (`network`, `timeout`, `rate-limited`, `server`,
 * `invalid`), `unavailable` when a ready booking can be sent neither through the API nor to the
 * booking site, or `locale` (during `locale`) when the `locale` module could not be loaded and
 * English stays.
 */
export interface VenueBookingErrorDetail {
  kind: string;
  status: number | null;
  during: 'venues' | 'availability' | 'submit' | 'locale';
}

/** `detail` of each event the widget fires, by event name. */
export interface VenueBookingEventDetails {
  'vb-step': VenueBookingStepDetail;
  'vb-change': VenueBookingChangeDetail;
  'vb-submit': VenueBookingSubmitDetail;
  'vb-complete': VenueBookingCompleteDetail;
  'vb-changed': VenueBookingChangedDetail;
  'vb-cancelled': VenueBookingCancelledDetail;
  'vb-redirect': VenueBookingRedirectDetail;
  'vb-error': VenueBookingErrorDetail;
}

/**
 * Fires a widget event from the element: bubbling and composed, so a host page hears it through the
 * shadow root; with `analytics` on, also pushed to `window.dataLayer` as a `vb_*` event of the
 * contract's version (docs/events.md; `EVENTS_VERSION` in `conversions.ts`, which the bundle does
 * not import), its details carrying no personal data (the manage link stays out). False when a
 * cancelable event was cancelled.
 */
export function fire<K extends keyof VenueBookingEventDetails>(
  element: HTMLElement & { analytics: boolean },
  name: K,
  detail: VenueBookingEventDetails[K],
  cancelable = false,
): boolean {
  if (element.analytics) {
    const layer = ((globalThis as { dataLayer?: unknown[] }).dataLayer ??= []);
    // The manage link is the key to the booking: it never goes to analytics.
    const { manage_url: _key, ...data } = detail as { manage_url?: string };
    layer.push({ event: name.replace('-', '_'), vb_version: 1, ...data });
  }
  return element.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
}
