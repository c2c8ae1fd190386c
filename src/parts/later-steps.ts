/**
 * What only the later steps need, as one on-demand chunk pinned by its integrity like the locale
 * modules (`pinned-import.ts`): the details form's and the confirmation's templates, the form's
 * controller (`GuestForm`), their styles (`later-styles.ts`), en-GB's words for them, the hand-off's money terms (`handoff.ts`), the
 * add-to-calendar links, the body and the Idempotency-Key of a booking being sent, the party step's template (its chips, the select past
 * them, a larger party's field) and a larger party's way on (`party-help.ts`: what a dead end
 * offers, a change of type said and confirmed). It is fetched once the party step, a dead end or a
 * booking is in sight (`BookingData.laterSteps`), so the script of the first screen is that much
 * smaller and quicker to evaluate. Like every chunk it imports nothing at run time: Lit's tags
 * come in as an argument (`LitTags`), the bundle's `checkGuest` as the form's, its option button
 * as the party step's.
 */
export { GuestForm } from '../controllers/guest-form.js';
export { renderConfirmation } from './confirmation.js';
export { adoptLaterStyles } from './later-styles.js';
export { readPreferences, renderDetails } from './details.js';
export { readBridge, readPolicy, renderHandoff } from './handoff.js';
export { renderMoved, renderParty, renderPartyHelp } from './party-more.js';
export { readPartyHelp } from '../state/party-help.js';
export { googleCalendarUrl, icsDataUrl } from '../venue/calendar-links.js';
export { enGBLater } from '../i18n/en-GB-later.js';
export { clearPendingBookingKey, pendingBookingKey } from '../state/pending-booking.js';
export { bookingRequest } from '../state/booking-request.js';
