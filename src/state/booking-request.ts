/**
 * The body of a booking sent through the API: the accepted `bookingDetails` (values sent back
 * unconverted) plus the guest's details. Only a booking sent from the details form needs it, so it
 * travels in the later steps chunk (`later-steps.ts`), which imports nothing at run time; the
 * element hands it to `apiBooking`. Pure.
 */
import type { Availability, Choices } from '../api/normalize.js';
import type { BookingRequest } from '../api/types.js';
import type { GuestDetails } from './booking-flow.js';

/** The API booking's body for these choices and details, with the offer, partner source and `replaces` when set. */
export function bookingRequest(
  availability: Availability,
  choices: Choices,
  venue: string,
  guest: GuestDetails,
  options: { offer?: string; partnerSource?: string; replaces?: string },
): BookingRequest {
  // Every accepted field goes back as the service gave it (venue_group and payments included):
  // that is the API-URL flow of the spec, and it keeps the duration in the service's own unit.
  const accepted = availability.details;
  const body: BookingRequest = {
    ...accepted,
    venue_id: String(accepted.venue_id ?? venue),
    type: String(accepted.type ?? choices.type),
    date: String(accepted.date ?? choices.date),
    time: String(accepted.time ?? choices.time),
    num_people: Number(accepted.num_people ?? choices.num_people),
    ...((accepted.duration ?? choices.duration) !== undefined
      ? { duration: Number(accepted.duration ?? choices.duration) }
      : {}),
    first_name: guest.first_name.trim(),
    last_name: guest.last_name.trim(),
    email: guest.email.trim(),
    phone: guest.phone.trim(),
  };
  if (guest.dob) body.dob = guest.dob;
  if (guest.notes?.trim()) body.notes = guest.notes.trim();
  if (guest.marketing_preferences?.length) body.marketing_preferences = guest.marketing_preferences;
  if (guest.website) body.website = guest.website;
  if (options.offer) body.offer = options.offer;
  if (options.partnerSource) body.partner_source = options.partnerSource;
  // A change: the proxy books this first and cancels the booking of that manage token once it is confirmed.
  if (options.replaces) body.replaces = options.replaces;
  body.source = 'partner';
  return body;
}
