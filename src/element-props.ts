/**
 * What a framework may set on `<venue-booking>`, as types derived from the element's class (so
 * they never drift from it): its properties, its attributes that are not property names (the
 * kebab-case ones), and its events with their `detail`. The Vue and Svelte typings
 * (`venue-booking/vue`, `venue-booking/svelte`) are built from these; an Angular component can
 * type the values it binds with them. No framework is imported here.
 */
import type { LitElement } from 'lit';
import type { VenueBookingEventDetails } from './state/element-types.js';
import type { VenueBooking } from './venue-booking.js';

/** The element's own public properties (not LitElement's or HTMLElement's), methods left out. */
export type VenueBookingPropertyName = {
  [K in Exclude<keyof VenueBooking, keyof LitElement>]: VenueBooking[K] extends (...args: never[]) => unknown
    ? never
    : K;
}[Exclude<keyof VenueBooking, keyof LitElement>];

/** Every property a framework may set, with the class's own type (objects and dates pass as they are). */
export type VenueBookingPropertyValues = Partial<Pick<VenueBooking, VenueBookingPropertyName>>;

/** `venueGroup` → `venue-group`: Lit's attribute name of a camel-case property. */
export type KebabCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${KebabCase<Tail>}`
  : S;

/** An attribute's value: numbers may be written as digit strings; objects (`guest`, `now`) are properties only. */
export type VenueBookingAttributeValue<T> = [T] extends [number | undefined]
  ? number | `${number}`
  : [T] extends [boolean]
    ? boolean
    : [T] extends [string]
      ? T
      : never;

/** The attributes whose names are not property names (`venue-group`, `num-people`…), as their values. */
export type VenueBookingAttributeValues = {
  [
    K in VenueBookingPropertyName as K extends KebabCase<K>
      ? never
      : VenueBookingAttributeValue<VenueBooking[K]> extends never
        ? never
        : KebabCase<K>
  ]?: VenueBookingAttributeValue<VenueBooking[K]>;
};

/** The element's events, as the DOM types them. */
export type VenueBookingEvents = { [K in keyof VenueBookingEventDetails]: CustomEvent<VenueBookingEventDetails[K]> };
