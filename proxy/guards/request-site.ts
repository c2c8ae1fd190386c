/**
 * Which site sent a request, so that reads and writes meet one origin rule. Browsers send `Origin`
 * on every cross-origin request and on same-origin POSTs, but not on same-origin GETs: a rule that
 * looks at `Origin` alone lets a misconfigured page read everything and fails it at the booking,
 * the last step (behind a dev server's proxy, which passes the browser's `Origin` on, exactly
 * that happened). Falling back to the `Referer`'s origin, then to `Sec-Fetch-Site`, gives GETs the
 * same answer as POSTs from the first call.
 */
import { canonicalOrigin, type RequestUrl } from '../core/url.js';
import { isLoopback } from './validate.js';

/**
 * The page's origin (`Origin`, else the origin of `Referer`); `'same-origin'` when only
 * `Sec-Fetch-Site` speaks and says so; `'hidden'` when a browser says the request is from another
 * site without naming it; null when nothing says (not a browser page: curl, a server, a monitor).
 */
export function requestSite(header: (name: string) => string | null): string | 'same-origin' | 'hidden' | null {
  const origin = header('origin');
  if (origin) return origin;
  const referer = header('referer');
  if (referer) {
    try {
      return new URL(referer).origin;
    } catch {
      // An unreadable Referer names no site; fall through to Sec-Fetch-Site.
    }
  }
  const fetchSite = header('sec-fetch-site');
  if (fetchSite === 'same-site' || fetchSite === 'cross-site') return 'hidden';
  return fetchSite === 'same-origin' ? 'same-origin' : null;
}

/**
 * Whether `origin` is the proxy's own for a request to `url`: the public URL's origin (else the
 * request's own), and also the request's own when it is addressed to a loopback name. This
 * machine has two names (`localhost`, `127.0.0.1`): a page of this proxy opened under the name the
 * public URL (set, or derived from the port at start) does not use was let read and refused at
 * "Book now". A loopback Host is this machine's own, and its origin can only be sent by a page
 * served from it (a rebinding page sends its own origin), so counting it widens nothing a foreign
 * Host may do.
 */
export function isOwnOrigin(origin: string, url: RequestUrl, publicOrigin: string | null): boolean {
  return origin === (publicOrigin ?? url.origin) || (origin === url.origin && isLoopback(url.hostname));
}

/** What the origin rule needs to know: the configured origins and the proxy's own. */
export interface SiteSettings {
  origins: readonly string[];
  /** The origin of the proxy's public URL; null: the request's own origin (trusted on loopback only). */
  publicOrigin: string | null;
  /** The origin of the hosted booking site, which posts the return bridge; null when not configured. */
  bookingSiteOrigin: string | null;
}

/** The sites the venue's manager allowed from the studio (state/allowed-sites.ts), by canonical origin. */
export interface ManagedOrigins {
  has(origin: string): boolean;
}

/** Paths the booking site's pages reach (the return bridge: the route table's `fromBookingSite` rows). */
export type BookingSitePaths = ReadonlySet<string>;

/**
 * The origin rule, for the guards and for CORS: which pages may call the proxy, and the
 * `Access-Control-Allow-Origin` a page's `Origin` gets.
 *
 * The return bridge is posted to by the booking site's page as a top-level navigation; a page with
 * `Referrer-Policy: no-referrer` (as the booking site's are) sends the opaque `Origin: null`. The
 * bridge makes no upstream call and only redirects to an allowed page with a reference and a
 * status, so that opaque origin may reach it (and nothing else).
 *
 * The configured origins are the operator's; `managed` adds the sites the venue's manager allowed
 * from the studio, checked the same way.
 *
 * Origins are compared in their canonical form (core/url.ts `canonicalOrigin`): the settings are
 * kept in it, and a request's other spelling of an allowed origin (`HTTPS://VENUE.EXAMPLE:443`)
 * is that origin.
 */
export function siteRule(
  settings: SiteSettings,
  bookingSitePaths: BookingSitePaths,
  managed: ManagedOrigins = { has: () => false },
): {
  siteAllowed(origin: string, url: RequestUrl): boolean;
  allowOrigin(origin: string): string | null;
} {
  const origins = new Set(settings.origins);
  const { publicOrigin, bookingSiteOrigin } = settings;
  // Browsers send the canonical form: only another spelling (a non-browser client's) pays the parse.
  const listed = (origin: string) => origins.has(origin) || managed.has(origin);
  const allowed = (origin: string) => listed(origin) || (origin !== '' && listed(canonicalOrigin(origin) ?? ''));
  return {
    siteAllowed: (given, url) => {
      if (listed(given) || isOwnOrigin(given, url, publicOrigin)) return true;
      const origin = canonicalOrigin(given);
      return (
        origin !== null &&
        (listed(origin) ||
          isOwnOrigin(origin, url, publicOrigin) ||
          ((origin === bookingSiteOrigin || origin === 'null') && bookingSitePaths.has(url.pathname)))
      );
    },
    allowOrigin: (origin) => (allowed(origin) ? origin : null),
  };
}
