/**
 * Vue 3 typings for `<venue-booking>`: with `vue-tsc`, templates are checked for every property
 * (`:guest`, `theme`, `venue-group`…) and every `@vb-*` listener's event, so that one line in a
 * Vue project types the tag:
 *
 *     import type {} from 'venue-booking/vue';
 *
 * Vue still needs to be told that the tag is a custom element at run time
 * (`compilerOptions.isCustomElement`, see docs/developers/vue.md); it then sets a bound value on the element's
 * property when the element has one, so objects and dates pass as they are.
 */
import type { DefineComponent } from 'vue';
import type { VenueBookingAttributeValues, VenueBookingEvents, VenueBookingPropertyValues } from './element-props.js';

/** `@vb-step` in a template is the `onVbStep` prop of the component's type. */
export type VenueBookingVueEvents = {
  [K in keyof VenueBookingEvents as K extends `vb-${infer Name}` ? `onVb${Capitalize<Name>}` : never]?: (
    event: VenueBookingEvents[K],
  ) => void;
};

/** Every prop of `<venue-booking>` in a Vue template: properties, kebab-case attributes and events. */
export type VenueBookingVueProps = VenueBookingPropertyValues & VenueBookingAttributeValues & VenueBookingVueEvents;

declare module 'vue' {
  interface GlobalComponents {
    'venue-booking': DefineComponent<VenueBookingVueProps>;
  }
}
