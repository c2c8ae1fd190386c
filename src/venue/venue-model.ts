/**
 * The venue the widget books at, as one pure model: the ids of the `venue` attribute (one id or a
 * comma list), whether a picker comes first (a list or a `venue-group`), the venue in use and its
 * name for people from the sources that know it (the create response or the saved names, the
 * picker's list, the venue's own record), never its id.
 */
import type { WireVenue } from '../api/types.js';

/** The guest's venue: the one picked (multi-venue only) and its known title (create response, saved names). */
export interface VenuePick {
  id: string | null;
  title: string;
}

/** What is known of the venue in use. */
export interface VenueModel {
  /** Whether the guest picks the venue (a list of ids or a group). */
  multi: boolean;
  /** The venue the booking is for ('' until one is picked). */
  current: string;
  /** Its name for people, or '' while it is unknown. */
  name: string;
}

/** The ids of a `venue` attribute: one id or a comma-separated list. */
export function venueIds(venue: string | null | undefined): string[] {
  return (venue ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

/** A venue's name for people: its title, else its path made readable. */
export function venueName(venue: WireVenue | undefined): string {
  if (!venue) return '';
  if (venue.title || venue.name) return String(venue.title ?? venue.name);
  return (venue.path ?? '').replace(/[-_]+/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase());
}

/** The name of one venue of a picker's list, else its id. */
export function listedName(venues: readonly WireVenue[] | undefined, id: string): string {
  return venueName(venues?.find((venue) => venue._id === id)) || id;
}

/**
 * The model of the venue in use: `attribute` and `group` are the element's `venue` and
 * `venue-group`; `list` the picker's venues and `record` the name read from the venue itself.
 */
export function venueModel(
  attribute: string,
  group: string,
  pick: VenuePick,
  list: readonly WireVenue[] | undefined,
  record: string | undefined,
): VenueModel {
  const ids = venueIds(attribute);
  const multi = Boolean(group) || ids.length > 1;
  const current = multi ? (pick.id ?? '') : (ids[0] ?? '');
  const name = pick.title || venueName(list?.find((venue) => venue._id === current)) || record || '';
  return { multi, current, name };
}
