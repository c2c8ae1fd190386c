/**
 * Svelte 5 typings for `<venue-booking>`: with `svelte-check`, markup is checked for every property,
 * kebab-case attribute and `onvb-*` handler's event, so that one line in a Svelte project types
 * the tag:
 *
 *     import type {} from 'venue-booking/svelte';
 *
 * Svelte sets a value on the element's property when the element has one (`venueGroup={…}`,
 * `guest={…}`), else writes an attribute (`venue-group="…"`); `onvb-step={…}` listens to `vb-step`.
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { VenueBooking } from './venue-booking.js';
import type { VenueBookingAttributeValues, VenueBookingEvents, VenueBookingPropertyValues } from './element-props.js';

/** `onvb-step={…}` in markup: Svelte 5 listens to the element's event of that name. */
export type VenueBookingSvelteEvents = {
  [K in keyof VenueBookingEvents as `on${K}`]?: (event: VenueBookingEvents[K]) => void;
};

/** Every attribute of `<venue-booking>` in Svelte markup: the usual HTML ones and the element's own. */
export type VenueBookingSvelteAttributes = Omit<
  HTMLAttributes<VenueBooking>,
  keyof VenueBookingPropertyValues | keyof VenueBookingAttributeValues
> &
  VenueBookingPropertyValues &
  VenueBookingAttributeValues &
  VenueBookingSvelteEvents;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Svelte declares its intrinsic elements in this namespace
  namespace svelteHTML {
    interface IntrinsicElements {
      'venue-booking': VenueBookingSvelteAttributes;
    }
  }
}
