/**
 * The answer to a created booking, reduced to what the widget shows and reports: the reference, the
 * status, date, time, party size and type name of the booking, the venue's title, and the
 * `bookingStatus` that tells a confirmation from an enquiry (src/venue-booking.ts reads
 * `booking.reference`, `bookingStatus` and `venue.title`; its `vb-complete` event carries the
 * reference and status). Everything else the upstream sends — `created_by` (the App ID), the
 * guest's contact details, internal ids and any field added later — stays here.
 */

const pickText = (source: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(
    keys.flatMap((key) => (typeof source[key] === 'string' ? [[key, (source[key] as string).slice(0, 200)]] : [])),
  );

const objectOr = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The create response's payload as the guest's browser receives it. */
export function bookingAnswer(payload: unknown): Record<string, unknown> {
  const source = objectOr(payload);
  const booking = objectOr(source.booking);
  const reduced: Record<string, unknown> = pickText(booking, ['reference', 'status', 'date', 'time']);
  if (typeof booking.num_people === 'number') reduced.num_people = booking.num_people;
  const typeName = objectOr(booking.type).name;
  if (typeof typeName === 'string') reduced.type = { name: typeName.slice(0, 200) };
  return {
    booking: reduced,
    ...pickText(source, ['bookingStatus']),
    venue: pickText(objectOr(source.venue), ['title']),
  };
}
