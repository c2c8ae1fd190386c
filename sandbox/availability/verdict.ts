/**
 * Stage 4 of availability: the verdict and what the answer hands on. The top-level action, the
 * booking details accepted so far, the hand-off (`next`) with its hosted page URL, and the verdict
 * on a whole booking that create uses to decide confirmed or received.
 */

import type { Venue } from '../types.js';
import { assess, hasError, validDuration, type Assessment } from './fields.js';
import {
  defaultDuration,
  durationOut,
  FIELDS,
  handlingFor,
  takesPayment,
  type Action,
  type AvailabilityContext,
  type Dialect,
} from './model.js';

/**
 * Stage 4: the top-level action. A complete request takes its start time's verdict. An incomplete
 * one is `reject` live (observed); the spec dialect tells how the type would be handled.
 */
export function decideAction(a: Assessment, complete: boolean): Action {
  if (complete && a.timeCheck) return a.timeCheck.action;
  if (a.live) return 'reject';
  const invalidGiven = FIELDS.some((f) => a.errors[f]?.some((e) => !e.code.startsWith('missing_')));
  return invalidGiven || !a.type ? 'reject' : handlingFor(a.ctx, a.type);
}

/** The booking fields accepted so far (§2.2 bookingDetails); the live dialect's own forms. */
export function bookingDetailsOf(a: Assessment): Record<string, unknown> {
  const details: Record<string, unknown> = { venue_id: a.venue._id, venue_group: a.venue.venue_group };
  if (a.type && !hasError(a, 'type')) details.type = a.type.id;
  if (a.num_people !== undefined && !hasError(a, 'num_people')) details.num_people = a.num_people;
  if (a.date !== undefined && !hasError(a, 'date')) details.date = a.live ? `${a.date}T00:00:00` : a.date;
  if (a.time !== undefined && !hasError(a, 'time')) details.time = a.time;
  if (validDuration(a) !== undefined) details.duration = durationOut(a.duration!, a.ctx.dialect);
  if (a.live) details.payments = [];
  return details;
}

/**
 * How a booking with every field would be handled, decided from its own fields: the action of its
 * start time (`accept`, `enquire`, `may_enquire`), or `reject` when a field does not fit. A booking
 * without a duration is judged on the type's default duration, in both dialects.
 */
export function verdictOf(
  ctx: AvailabilityContext,
  venue: Venue,
  b: { type: string; num_people: number; date: string; time: string; duration?: number },
): Action {
  const type = venue.booking_types.find((t) => t.id === b.type);
  const duration = b.duration ?? (type ? defaultDuration(type) : undefined);
  const a = assess(ctx, venue, { ...b, duration });
  return FIELDS.every((f) => !hasError(a, f)) && a.timeCheck ? a.timeCheck.action : 'reject';
}

/** The hand-off (§2.2 `next`): the web URL, and the API URL unless a deposit or pre-orders need the web page. */
export function nextOf(a: Assessment): Record<string, string> {
  const type = a.type && !hasError(a, 'type') ? a.type : undefined;
  const web = webUrl(a.ctx, a.venue, {
    type: type?.id,
    num_people: hasError(a, 'num_people') ? undefined : a.num_people,
    date: hasError(a, 'date') ? undefined : a.date,
    time: hasError(a, 'time') ? undefined : a.time,
    duration: validDuration(a),
  });
  return needsWeb(a) ? { web } : { web, api: `${a.ctx.publicUrl}/v4/bookings` };
}

/** Whether the chosen type takes a deposit or card details (`depositRequired`). */
export const depositRequiredOf = (a: Assessment) => !!a.type && takesPayment(a.ctx, a.type);

/** Whether only the hosted page can take the booking: a deposit or required pre-orders. */
const needsWeb = (a: Assessment) => depositRequiredOf(a) || a.type?.rules.preorders === 'required';

/** The hosted booking page URL for the details given (durations in minutes, as the booking site uses). */
export function webUrl(
  ctx: { publicUrl: string; dialect: Dialect },
  venue: Venue,
  d: { type?: string; num_people?: number; date?: string; time?: string; duration?: number },
): string {
  const q = new URLSearchParams({ venue_group: venue.venue_group, venue_id: venue._id });
  for (const key of ['type', 'num_people', 'date', 'time', 'duration'] as const)
    if (d[key] !== undefined) q.set(key, String(d[key]));
  // The live booking site's URL ends in a bare `&source`; the spec dialect names the source.
  return `${ctx.publicUrl}/book?${q.toString()}${ctx.dialect === 'live' ? '&source' : '&source=partner'}`;
}
