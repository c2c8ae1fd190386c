/**
 * What the venue-facing pages take from the venues' profiles (state/venue-profiles.ts): the
 * contact a guest is given where the widget cannot help (the fallback inside `<venue-booking>`,
 * the booking page's address block), and the look a page starts from when its link or the studio's
 * query names none. With several venues (a group, several ticked), the first of them, in their
 * order, that has what is asked: a page shows one phone, never a choice between them.
 */
import type { ProxyContext } from '../context.js';
import type { VenueProfile } from '../state/venue-profiles.js';

/** The query keys that say a widget's look: the studio's form and the booking page's link. */
export const LOOK_KEYS = ['theme', 'locale', 'type', 'accent', 'accent-text', 'background', 'text'] as const;

/** The colours among `LOOK_KEYS`: a query that names one names the colours as a whole. */
const COLOUR_KEYS = ['accent', 'accent-text', 'background', 'text'] as const;

/** The saved profiles of `venues`, in their order (a venue with none is left out). */
export async function profilesOf(
  ctx: ProxyContext,
  venues: readonly string[],
): Promise<{ venue: string; profile: VenueProfile }[]> {
  const found = await Promise.all(venues.map(async (venue) => ({ venue, profile: await ctx.profiles.get(venue) })));
  return found.filter((item): item is { venue: string; profile: VenueProfile } => item.profile !== null);
}

/** The phone and email a guest is given: the first profile with either (both from that one). */
export function contactOf(profiles: readonly { profile: VenueProfile }[]): {
  phone: string | null;
  email: string | null;
} {
  const found = profiles.find(({ profile }) => profile.phone || profile.email)?.profile;
  return { phone: found?.phone ?? null, email: found?.email ?? null };
}

/** The first profile's look that sets anything, as the query keys the studio and the booking page read. */
export function lookQuery(profiles: readonly { profile: VenueProfile }[]): URLSearchParams {
  const query = new URLSearchParams();
  for (const { profile } of profiles) {
    const { theme, colours, booking_type: type, locale } = profile.look;
    if (theme) query.set('theme', theme);
    if (locale) query.set('locale', locale);
    if (type) query.set('type', type);
    for (const [name, value] of Object.entries(colours)) query.set(name, value);
    if (query.size) return query;
  }
  return query;
}

/** Whether `query` says anything of the look (the studio's form always does once it has been used). */
export const saysLook = (query: URLSearchParams) => LOOK_KEYS.some((key) => query.has(key));

/**
 * `query` with the venue's `look` under what it leaves unsaid, field by field; the colours as a
 * whole (a link that names one colour names the colours it wants). For links, which guests follow:
 * `?locale=fr` keeps the venue's colours.
 */
export function withLook(query: URLSearchParams, look: URLSearchParams): URLSearchParams {
  const merged = new URLSearchParams(query);
  const coloured = COLOUR_KEYS.some((key) => query.get(key));
  for (const [key, value] of look) {
    const colour = (COLOUR_KEYS as readonly string[]).includes(key);
    if (colour ? !coloured : !query.get(key)) merged.set(key, value);
  }
  return merged;
}
