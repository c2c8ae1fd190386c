/**
 * What the venue-facing pages (the embed studio, the booking page) need to know of the configured
 * venues and groups, for people: names, and each venue's booking types with their party sizes.
 * Read as the widget reads them (`GET /api/venues/{id}`, `GET /api/venues?venue_group=`), through
 * the cache with the widget's own keys, so a page costs at most one upstream call per venue and
 * group an hour and the widget's next read is a hit. What cannot be read now is left out, and the
 * page says so rather than failing.
 */
import { PATHS } from '../paths.js';
import { PARTY_SIZE } from '../../src/api/rules.js';
import type { ProxyContext } from '../context.js';
import { readThrough, type ReadCall } from '../api/read-through.js';
import { bookingRulesRead, shapeVenueList, venueRecordRead } from '../api/reads.js';

/** A booking type as a venue offers it. */
export interface BookingType {
  id: string;
  name: string;
  /** The party sizes it takes: any until its rules are read (`withPartySizes`). */
  minPeople: number;
  maxPeople: number;
}

/** A configured venue, as far as it could be read. */
export interface VenueInfo {
  id: string;
  /** Its name, or null when its record could not be read now. */
  title: string | null;
  types: BookingType[];
}

/** A configured venue group and the venues it lists. */
export interface GroupInfo {
  id: string;
  /** Its venues; a title the list does not give is taken from the venue's own record where known. */
  venues: { id: string; title: string | null }[];
}

/** The payload of a read through the cache, or undefined when it failed. */
async function payloadOf(ctx: ProxyContext, path: string, spec: Parameters<typeof readThrough>[2]): Promise<unknown> {
  const call: ReadCall<unknown> = {
    path,
    method: 'GET',
    client: () => 'venue-pages',
    waitUntil: () => {},
    send: (relayed) => (relayed.status < 300 ? JSON.parse(relayed.text)?.payload : undefined),
  };
  return readThrough(ctx, call, spec).catch(() => undefined);
}

const text = (value: unknown, max = 100) =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null;
const count = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= PARTY_SIZE.min && value <= PARTY_SIZE.max
    ? value
    : fallback;

/** The booking types of a venue record's `booking_types`, those with an id and a name. */
function typesOf(list: unknown): BookingType[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap(
    (item: { id?: unknown; name?: unknown; rules?: { min_people?: unknown; max_people?: unknown } }) => {
      const id = text(item?.id, 64);
      const name = text(item?.name);
      if (!id || !name) return [];
      const minPeople = count(item.rules?.min_people, PARTY_SIZE.min);
      return [{ id, name, minPeople, maxPeople: Math.max(minPeople, count(item.rules?.max_people, PARTY_SIZE.max)) }];
    },
  );
}

/** One venue's name and booking types. */
export async function venueInfo(ctx: ProxyContext, id: string): Promise<VenueInfo> {
  const payload = (await payloadOf(ctx, PATHS.venue.replace(':venue', id), {
    ...venueRecordRead(id),
    tier: 'static',
  })) as {
    venue?: { title?: unknown; booking_types?: unknown };
  };
  return { id, title: text(payload?.venue?.title), types: typesOf(payload?.venue?.booking_types) };
}

/** One group's venues. */
export async function groupInfo(ctx: ProxyContext, id: string): Promise<GroupInfo> {
  const payload = await payloadOf(ctx, PATHS.venues, {
    method: 'GET',
    path: '/venues',
    values: { venue_group: id },
    shape: shapeVenueList,
    tier: 'static',
  });
  const pages = payload ? shapeVenueList(payload).pages : [];
  return {
    id,
    venues: pages.flatMap((page) => {
      const venue = text(page._id, 64);
      return venue ? [{ id: venue, title: text(page.title) }] : [];
    }),
  };
}

/** Every configured venue (the first 50) and group (the first 20), read at once. */
export async function venuesAndGroups(ctx: ProxyContext): Promise<{ venues: VenueInfo[]; groups: GroupInfo[] }> {
  const [venues, groups] = await Promise.all([
    Promise.all(ctx.config.venues.slice(0, 50).map((id) => venueInfo(ctx, id))),
    Promise.all(ctx.config.venueGroups.slice(0, 20).map((id) => groupInfo(ctx, id))),
  ]);
  return { venues, groups: groups.map((group) => named(group, venues)) };
}

/** `group` with its venues' missing names taken from `venues`. */
export function named(group: GroupInfo, venues: readonly VenueInfo[]): GroupInfo {
  return {
    ...group,
    venues: group.venues.map((venue) => ({
      ...venue,
      title: venue.title ?? venues.find((known) => known.id === venue.id)?.title ?? null,
    })),
  };
}

/**
 * `offer`'s booking type `type` (the one a prefill names) with the party sizes its rules take on
 * `date`, read as the widget reads them (one call, shared through the cache): the venue record
 * names types only. Unchanged when the type is not offered or its rules cannot be read now.
 */
export async function withPartySizes(
  ctx: ProxyContext,
  venues: VenueInfo[],
  type: string,
  date: string,
): Promise<VenueInfo[]> {
  const venue = venues.find((item) => item.types.some((known) => known.id === type));
  if (!venue) return venues;
  const rules = (await payloadOf(ctx, PATHS.rules.replace(':venue', venue.id), {
    ...bookingRulesRead(venue.id, { type, date }),
    tier: 'early',
  })) as { min_people?: unknown; max_people?: unknown } | undefined;
  if (!rules) return venues;
  const minPeople = count(rules.min_people, PARTY_SIZE.min);
  const maxPeople = Math.max(minPeople, count(rules.max_people, PARTY_SIZE.max));
  return venues.map((item) =>
    item !== venue
      ? item
      : { ...item, types: item.types.map((known) => (known.id === type ? { ...known, minPeople, maxPeople } : known)) },
  );
}
