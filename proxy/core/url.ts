/**
 * The parsed address of a request, shared by the guards, the routes and the log line: a cached read
 * used to parse its URL five times, a measurable share of its cost.
 */

const urls = new WeakMap<Request, URL>();

/** The request's URL, parsed on first use. Shared: read it, never change it. */
export function urlOf(request: Request): URL {
  let url = urls.get(request);
  if (!url) {
    url = new URL(request.url);
    urls.set(request, url);
  }
  return url;
}

/**
 * An origin in its one canonical form, as browsers send it (`URL.origin`: scheme and host in lower
 * case, the default port dropped, an internationalised name in punycode), so that settings, the
 * origin rule and the studio's site list compare and show one spelling. `null` (an opaque origin)
 * stays `null`; anything that is not an http(s) origin (a path, credentials, another scheme) is
 * null.
 */
export function canonicalOrigin(value: string): string | null {
  if (value === 'null') return 'null';
  // Only an http(s) origin is worth parsing: a thrown parse error costs more than a whole cached
  // read (the CORS check asks for every request, most with no `Origin` at all).
  if (value.length > 300 || !/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
  if (url.pathname !== '/' || url.search || url.hash) return null;
  return url.origin;
}

/** What the guards and the fast path read of a request's URL: a `URL`, or the plain split below. */
export type RequestUrl = Pick<URL, 'href' | 'origin' | 'hostname' | 'pathname' | 'search'>;

/**
 * The URL of a request whose Host and target the Node listener found plain (no percent, no
 * brackets, no dot segments: node/listener.ts), split without the WHATWG parser, which was a
 * tenth of a cached read's cost; null where the parser could change a character (a quote, which
 * it encodes, or a `#`), so the caller parses it as usual.
 */
export function plainUrl(scheme: string, host: string, target: string): RequestUrl | null {
  if (target.includes("'") || target.includes('#')) return null;
  const query = target.indexOf('?');
  const colon = host.indexOf(':');
  const origin = `${scheme}://${host}`;
  return {
    href: origin + target,
    origin,
    hostname: colon < 0 ? host : host.slice(0, colon),
    pathname: query < 0 ? target : target.slice(0, query),
    search: query < 0 || query === target.length - 1 ? '' : target.slice(query),
  };
}
