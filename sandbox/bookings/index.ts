/**
 * The entry of bookings/: what the rest of the sandbox uses of it. The parts: `fields.ts` (what
 * create and update read alike), `create.ts` (§4.2), `update.ts` (§4.3, §4.4), `records.ts` (the
 * answer shapes of §2.4 and §2.5), `search.ts` (§4.6) and `routes.ts` (the booking route table).
 */

export { handlingOf, NEW_BOOKING_FIELDS, parseNewBooking, storeBooking, type NewBooking } from './create.js';
export { packagesOf, plainDate, preferencesOf } from './fields.js';
export { BOOKING_ROUTES } from './routes.js';
export { SEARCH_PARAMS, topK } from './search.js';
export { UPDATE_RULES } from './update.js';
