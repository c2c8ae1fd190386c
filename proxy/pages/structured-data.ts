/**
 * What the booking page tells search engines of its venues, as schema.org JSON-LD: each venue
 * takes reservations, here (`acceptsReservations` with the page's canonical address, and a
 * `ReserveAction` whose `EntryPoint` is that address on the web, desktop and mobile), with its
 * name, and its address, phone and email from the venue's profile. What lets Google treat the page
 * as the venue's own booking page, the one a Business Profile's reservation link may point to.
 *
 * `FoodEstablishment`, not `Restaurant`: the venue record does not say what kind of venue it is
 * (the live service's `type` is "venue" for all), and a bar, a pub, a café and a restaurant are
 * each a FoodEstablishment, the type `acceptsReservations` belongs to.
 */
import type { VenueProfile } from '../state/venue-profiles.js';

/** A venue the page books for: its name as the venue record gives it, and its profile if saved. */
export interface ListedVenue {
  name: string;
  profile: VenueProfile | null;
}

/** schema.org's `PostalAddress`, as far as a profile's address can be split. */
interface PostalAddress {
  '@type': 'PostalAddress';
  streetAddress: string;
  addressLocality?: string;
  postalCode?: string;
  addressCountry?: string;
}

/** A UK postcode at the end of a line (the service's venues are British), the town before it. */
const POSTCODE = /^(.*?)[,\s]*\b([A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})$/i;
/** A last line that only names the country. */
const UK = /^(?:united kingdom|uk|great britain|gb|england|scotland|wales|northern ireland)$/i;

/**
 * A profile's address (free text, a line each) as a `PostalAddress`: the street lines, then the
 * town and postcode of the last line (a UK postcode makes the country GB). One line cannot be told
 * apart: the text as it is, which schema.org's `address` also takes.
 */
export function postalAddress(address: string): PostalAddress | string {
  const lines = address
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/,$/, ''))
    .filter(Boolean);
  const country = lines.length > 2 && UK.test(lines.at(-1)!) ? lines.pop() : undefined;
  if (lines.length < 2) return address.trim();
  const last = lines.pop()!;
  const postcode = POSTCODE.exec(last);
  return {
    '@type': 'PostalAddress',
    streetAddress: lines.join(', '),
    ...(postcode
      ? { ...(postcode[1] ? { addressLocality: postcode[1] } : {}), postalCode: postcode[2]!.toUpperCase() }
      : { addressLocality: last }),
    ...(postcode || country ? { addressCountry: 'GB' } : {}),
  };
}

/** The schema.org description of one venue that books at `page`. */
function venueNode(venue: ListedVenue, page: string): Record<string, unknown> {
  const { profile } = venue;
  return {
    '@type': 'FoodEstablishment',
    name: venue.name,
    url: page,
    ...(profile?.address ? { address: postalAddress(profile.address) } : {}),
    ...(profile?.phone ? { telephone: profile.phone } : {}),
    ...(profile?.email ? { email: profile.email } : {}),
    acceptsReservations: page,
    potentialAction: {
      '@type': 'ReserveAction',
      target: {
        '@type': 'EntryPoint',
        urlTemplate: page,
        actionPlatform: ['https://schema.org/DesktopWebPlatform', 'https://schema.org/MobileWebPlatform'],
      },
    },
  };
}

/**
 * `value` as JSON that a `<script>` element's text cannot end early: `<`, `>` and `&` (a `</script>`
 * or `<!--` in a venue's name) and the two line separators JavaScript once refused, as `\uXXXX`
 * escapes, which JSON reads back as the same characters.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The page's `<script type="application/ld+json">`: its venue, or a `@graph` of a group's venues,
 * each bookable at `page` (the canonical address); none when no venue's name could be read now.
 * A data block, not a script: the page's CSP does not run it, and needs no nonce for it.
 */
export function structuredData(venues: readonly ListedVenue[], page: string): string {
  const nodes = venues.map((venue) => venueNode(venue, page));
  if (!nodes.length) return '';
  const data =
    nodes.length === 1
      ? { '@context': 'https://schema.org', ...nodes[0] }
      : { '@context': 'https://schema.org', '@graph': nodes };
  return `<script type="application/ld+json">${scriptJson(data)}</script>`;
}
