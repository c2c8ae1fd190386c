/**
 * What only the end of a booking needs, as one on-demand chunk pinned by its integrity like the
 * locale modules (`pinned-import.ts`): the details form's and the confirmation's templates, the form's controller (`GuestForm`), en-GB's words for them and the add-to-calendar links.
 * It is fetched once a booking is in sight (`BookingData.laterSteps`), beside the offers and
 * marketing preferences that the form waits for anyway, so a guest does not wait for it; the
 * script of the first screen is that much smaller and quicker to evaluate. Like every chunk it
 * imports nothing at run time: Lit's tags come in as an argument (`LitTags`).
 */
export { GuestForm } from './controllers/guest-form.js';
export { renderConfirmation } from './parts/confirmation.js';
export { renderDetails } from './parts/details.js';
export { googleCalendarUrl, icsDataUrl } from './calendar-links.js';
export { enGBLater } from './i18n/en-GB-later.js';
