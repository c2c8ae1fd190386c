/**
 * The package entry under Node (package.json's `node` condition, listed first, so it applies with
 * or without `--conditions=browser`): importing `venue-booking` on a server (rendering, tests, a
 * framework's SSR pass) never throws.
 *
 * Plain Node resolves Lit's server build, which brings its own `HTMLElement` shim: the element's
 * class loads as usual. With the `browser` condition Lit's browser build loads instead and needs a
 * DOM (`HTMLElement`, `document`) at import: without one, `VenueBooking` is `undefined` here, as
 * there is nothing a server could do with it; the element is defined where the page runs.
 */
import type * as Entry from './index.js';

let entry: typeof Entry | undefined;
try {
  entry = await import('./index.js');
} catch (error) {
  // Only a missing DOM global is expected here; anything else is a real fault.
  if (!(error instanceof ReferenceError)) throw error;
  entry = undefined;
}

/** The element's class, where it can be loaded (see above). */
export const VenueBooking = entry?.VenueBooking as typeof Entry.VenueBooking;
