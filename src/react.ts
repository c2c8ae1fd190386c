/**
 * React 19 JSX typings for `<venue-booking>`: every property, attribute and `onvb-*` event of the
 * element, so that one line in a React project types the tag:
 *
 *     import type {} from 'venue-booking/react';
 *
 * Generated from custom-elements.json by `npm run docs`:
 * edit the element's JSDoc, not this file (test/package/react-types.test.ts fails when they drift).
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { VenueBooking, VenueBookingEventDetails } from './index.js';

/** The element's properties: React 19 assigns them to the element, so objects and dates pass as they are. */
export interface VenueBookingProperties {
  /** The venue id, or a comma-separated list of venue ids. */
  venue?: VenueBooking['venue'];
  /** A venue group id whose venues are offered in a picker. */
  venueGroup?: VenueBooking['venueGroup'];
  /** Base URL of the proxy's `/api`. */
  api?: VenueBooking['api'];
  /** The order of the steps, as a comma list of booking fields. */
  steps?: VenueBooking['steps'];
  /**
   * The language of the widget (BCP 47); if its module cannot be loaded, English stays and
   * `vb-error` fires.
   */
  locale?: VenueBooking['locale'];
  /** `light`, `dark` or `auto`. */
  theme?: VenueBooking['theme'];
  /** `inline` or `popup`. */
  mode?: VenueBooking['mode'];
  /** Where the booking site sends the guest back; default the current page. */
  returnUrl?: VenueBooking['returnUrl'];
  /**
   * How the booking site returns the guest's details: `post` (through the proxy's bridge, when it
   * offers one) or `get`.
   */
  returnMethod?: VenueBooking['returnMethod'];
  /** Hides offers and offer badges. */
  hideOffers?: VenueBooking['hideOffers'];
  /** Label stored with the booking as `partner_source`. */
  partnerSource?: VenueBooking['partnerSource'];
  /** Whether to ask for a date of birth: `required`, `optional` or empty. */
  askDob?: VenueBooking['askDob'];
  /** Whether to push events to `window.dataLayer`. */
  analytics?: VenueBooking['analytics'];
  /** Whether to track a booking with the page's Meta pixel (`window.fbq`). */
  metaPixel?: VenueBooking['metaPixel'];
  /** Prefilled booking type id. */
  type?: VenueBooking['type'];
  /** Prefilled date, `yyyy-MM-dd`. */
  date?: VenueBooking['date'];
  /** Prefilled time, `HH:mm`. */
  time?: VenueBooking['time'];
  /** Prefilled duration, in the service's unit. */
  duration?: VenueBooking['duration'];
  /** Prefilled party size. */
  numPeople?: VenueBooking['numPeople'];
  /** The manage token of a booking this one replaces (a change); empty for a new booking. */
  replaces?: VenueBooking['replaces'];
  /** The clock (default real time): "today" is London's date at this instant. */
  now?: VenueBooking['now'];
  /** Prefills the guest's name, email and phone (property only). */
  guest?: VenueBooking['guest'];
}

/** Attributes that are not property names: React 19 writes these as attributes. */
export interface VenueBookingAttributes {
  /** A venue group id whose venues are offered in a picker. */
  'venue-group'?: string;
  /** Where the booking site sends the guest back; default the current page. */
  'return-url'?: string;
  /**
   * How the booking site returns the guest's details: `post` (through the proxy's bridge, when it
   * offers one) or `get`.
   */
  'return-method'?: 'post' | 'get';
  /** Hides offers and offer badges. */
  'hide-offers'?: boolean;
  /** Label stored with the booking as `partner_source`. */
  'partner-source'?: string;
  /** Whether to ask for a date of birth: `required`, `optional` or empty. */
  'ask-dob'?: 'required' | 'optional' | '';
  /** Whether to track a booking with the page's Meta pixel (`window.fbq`). */
  'meta-pixel'?: boolean;
  /** Prefilled party size. */
  'num-people'?: number | `${number}`;
}

/** `on<event>`: React 19 listens to the element's event of that exact name. */
export interface VenueBookingEventProps {
  /** A new step is shown after a guest action (`{ step }`). */
  'onvb-step'?: (event: CustomEvent<VenueBookingEventDetails['vb-step']>) => void;
  /** The guest chose a value (`{ field, value }`). */
  'onvb-change'?: (event: CustomEvent<VenueBookingEventDetails['vb-change']>) => void;
  /** The booking was sent (`{ booking }`, no personal data). */
  'onvb-submit'?: (event: CustomEvent<VenueBookingEventDetails['vb-submit']>) => void;
  /**
   * The booking is stored (`{ reference, status, manage_url, booking, restored }`, no personal
   * data; `previous` too for a change, or `kept` for one whose old booking still stands); after a
   * reload that shows a kept confirmation it fires again with `restored: true`.
   */
  'onvb-complete'?: (event: CustomEvent<VenueBookingEventDetails['vb-complete']>) => void;
  /** With `replaces`: booked, and the old booking cancelled (`{ reference, previous }`). */
  'onvb-changed'?: (event: CustomEvent<VenueBookingEventDetails['vb-changed']>) => void;
  /**
   * With `replaces`: the guest cancelled that booking instead of changing it (`{ reference }`; also
   * when the proxy found it cancelled already).
   */
  'onvb-cancelled'?: (event: CustomEvent<VenueBookingEventDetails['vb-cancelled']>) => void;
  /** Cancelable; the guest is about to leave for the booking site (`{ url, booking }`). */
  'onvb-redirect'?: (event: CustomEvent<VenueBookingEventDetails['vb-redirect']>) => void;
  /**
   * `{ kind, status, during }`: a call failed (the guest sees a message and can retry), a ready
   * booking cannot be sent from here (`kind: 'unavailable'`), or the locale module failed to load
   * and English stays (`kind: 'locale'`).
   */
  'onvb-error'?: (event: CustomEvent<VenueBookingEventDetails['vb-error']>) => void;
}

/**
 * What a handler under a misspelt `onvb-*` name receives: no event of the element. TypeScript
 * never rejects an unknown hyphenated JSX name, but through this type an inline handler that reads
 * its event (`event.detail`) fails to compile, naming this type.
 */
export interface NoSuchVenueBookingEvent {
  readonly 'not an event of <venue-booking>: check the name against VenueBookingEventDetails': never;
}

/**
 * Every prop `<venue-booking>` takes in React 19: the usual HTML ones (`id`, `className`, `ref`,
 * `key`, `children`…) and the element's own. The misspelt-event guard is a separate member of
 * the intersection, so it never applies to the real `onvb-*` props above.
 */
export type VenueBookingProps = Omit<
  DetailedHTMLProps<HTMLAttributes<VenueBooking>, VenueBooking>,
  keyof VenueBookingProperties | keyof VenueBookingAttributes
> &
  VenueBookingProperties &
  VenueBookingAttributes &
  VenueBookingEventProps & { [misspelt: `onvb-${string}`]: (event: NoSuchVenueBookingEvent) => void };

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React 19 declares its JSX types in this namespace
  namespace JSX {
    interface IntrinsicElements {
      'venue-booking': VenueBookingProps;
    }
  }
}
