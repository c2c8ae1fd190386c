/**
 * Where a booking came from, for the counts `/status` shows (state/day-counts.ts): an allowed
 * site by its origin, the booking page by its link or its QR code, or elsewhere. Read from what
 * the browser says of the page (request-site.ts), never from anything the widget writes: a short,
 * fixed set of answers, so no client can put free text into the counts.
 *
 * The booking page is this proxy's own origin, like the studio's preview. It is told apart by the
 * page's address, which its requests to this proxy carry in `Referer`: the booking page (and only
 * it) sends its address to its own origin (`Referrer-Policy: same-origin`, pages/booking-page.ts)
 * and nothing to any other. Its QR code's link is marked (`QR_MARK`, `qrLink`), so the QR's
 * bookings show apart. A browser that sends no `Referer` counts as elsewhere, never as a site.
 */
import type { ProxyContext } from '../context.js';
import { canonicalOrigin } from '../core/url.js';
import { PATHS, templateMatcher } from '../paths.js';
import { requestSite } from '../guards/request-site.js';
import { countOne, placeOfPage, PLACES, type CountedOutcome, type CountSource } from '../state/day-counts.js';

const bookingPagePath = templateMatcher(PATHS.bookingPage);

/**
 * The place of a page of this proxy's, from its address: the booking page by its link or QR code
 * (the last two segments of the path, so a proxy under a path prefix is read alike), else elsewhere.
 */
function ownPage(referer: string | null, own: string): CountSource {
  if (!referer) return PLACES.other;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return PLACES.other;
  }
  if (url.origin !== own) return PLACES.other;
  const tail = `/${url.pathname.split('/').slice(-2).join('/')}`;
  return bookingPagePath(tail) ? placeOfPage(url.searchParams) : PLACES.other;
}

/**
 * Where the booking `request` came from. Only a request the origin rule let in reaches a booking
 * (guards/request.ts `siteGuard`), so a site named here is an allowed one, by its canonical origin.
 */
export function bookingSource(ctx: ProxyContext, request: Request): CountSource {
  const header = (name: string) => request.headers.get(name);
  const own = ctx.config.publicOrigin ?? new URL(request.url).origin;
  const site = requestSite(header);
  if (site === null || site === 'hidden') return PLACES.other;
  const origin = site === 'same-origin' ? own : canonicalOrigin(site);
  if (origin === null || origin === 'null') return PLACES.other;
  return origin === own ? ownPage(header('referer'), own) : origin;
}

/**
 * Counts one booking, enquiry or page view where counts outlive this instance. A store that fails
 * loses the count, never the booking or the page: logged, not thrown.
 */
export async function keepCount(
  ctx: Pick<ProxyContext, 'records' | 'logger' | 'now'>,
  what: { venue: string | null; source: CountSource; outcome: CountedOutcome },
): Promise<void> {
  try {
    await countOne(ctx.records, ctx.now(), what);
  } catch (error) {
    ctx.logger.log({
      level: 'warn',
      msg: 'count not kept',
      outcome: what.outcome,
      error: error instanceof Error ? error.name : 'unknown',
    });
  }
}
