/**
 * Which site sent a request, so that reads and writes meet one origin rule. Browsers send `Origin`
 * on every cross-origin request and on same-origin POSTs, but not on same-origin GETs: a rule that
 * looks at `Origin` alone lets a misconfigured page read everything and fails it at the booking,
 * the last step (behind a dev server's proxy, which passes the browser's `Origin` on, exactly
 * that happened). Falling back to the `Referer`'s origin, then to `Sec-Fetch-Site`, gives GETs the
 * same answer as POSTs from the first call.
 */

/**
 * The page's origin (`Origin`, else the origin of `Referer`); `'same-origin'` when only
 * `Sec-Fetch-Site` speaks and says so; `'hidden'` when a browser says the request is from another
 * site without naming it; null when nothing says (not a browser page: curl, a server, a monitor).
 */
export function requestSite(request: {
  headers: { get(name: string): string | null };
}): string | 'same-origin' | 'hidden' | null {
  const origin = request.headers.get('origin');
  if (origin) return origin;
  const referer = request.headers.get('referer');
  if (referer) {
    try {
      return new URL(referer).origin;
    } catch {
      // An unreadable Referer names no site; fall through to Sec-Fetch-Site.
    }
  }
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite === 'same-site' || fetchSite === 'cross-site') return 'hidden';
  return fetchSite === 'same-origin' ? 'same-origin' : null;
}
