/**
 * Availability (§2.2, §2.3, §3.2, §4.1), computed from venue settings, type rules and stored
 * bookings — never canned — so the widget is tested against behaviour, not fixtures.
 *
 * The entry of availability/: {@link computeAvailability} runs the stages in order (the fields read
 * and checked across, the suggestions, the verdict), and this module exports what the rest of the
 * sandbox uses. The parts: `model.ts` (the shared terms and type rules), `day-plan.ts` (a type's
 * start times on a business day), `slot-check.ts` (one start time against the clock and capacity),
 * `fields.ts`, `suggestions.ts` and `verdict.ts` (the stages).
 */

import { availableToPartners, isVisible } from '../offers.js';
import type { Venue } from '../types.js';
import { assess, hasError } from './fields.js';
import { FIELDS, type AvailabilityContext, type AvailabilityRequest, type Field } from './model.js';
import { SUGGESTIONS } from './suggestions.js';
import { bookingDetailsOf, decideAction, depositRequiredOf, nextOf } from './verdict.js';

export { dateClosedReason, slotsFor, unavailableOn } from './day-plan.js';
export { FIELD_READINGS } from './fields.js';
export {
  autoconfirms,
  defaultDuration,
  depositPerPerson,
  durationMinutes,
  durationOut,
  FIELDS,
  moneyNotes,
  takesPayment,
  typeDurations,
  type Action,
  type AvailabilityContext,
  type AvailabilityRequest,
  type Dialect,
  type Field,
} from './model.js';
export { DATE_HORIZON_DAYS } from './suggestions.js';
export { verdictOf, webUrl } from './verdict.js';

/**
 * Computes the availability result (§2.2) for one venue. Never throws on bad values: they become
 * field errors. `fields=next` (observed live) computes no field: `validation` holds only
 * `next: {valid: true}`, and `next` is there with the fields sent so far.
 */
export function computeAvailability(
  ctx: AvailabilityContext,
  venue: Venue,
  req: AvailabilityRequest,
): Record<string, unknown> {
  const a = assess(ctx, venue, req);
  if (req.getOffers)
    a.offers = ctx.store.offers.filter(
      (o) => o.page_id === venue._id && availableToPartners(o) && isVisible(o, ctx.now),
    );
  const asked: readonly (Field | 'next')[] = req.fields?.length ? req.fields : FIELDS;
  const wanted = FIELDS.filter((f) => asked.includes(f));
  const asksNext = asked.includes('next');
  const validation: Record<string, unknown> = {};
  for (const field of wanted) validation[field] = SUGGESTIONS[field](a);
  if (asksNext) validation.next = { valid: true };

  const complete = FIELDS.every((f) => !hasError(a, f));
  const action = decideAction(a, complete);
  const result: Record<string, unknown> = {
    valid: wanted.every((f) => !hasError(a, f)),
    validation,
    action,
    depositRequired: depositRequiredOf(a),
    preordersAvailable: (a.type?.rules.preorders ?? 'none') !== 'none',
    bookingDetails: bookingDetailsOf(a),
  };
  if (asksNext || (complete && action !== 'reject')) result.next = nextOf(a);
  return result;
}
