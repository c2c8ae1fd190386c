/**
 * The path of every route, once: the first column of the route table (proxy/routes.ts), kept in a
 * module of its own, below every layer, so that what must name a route (a guard, a page linking its
 * stylesheet, a booking's lookup, the booking URL of an answer) can do so without importing the
 * handlers. No other module of the proxy writes a route path, the API's prefix included
 * (test/package/architecture.test.ts reads the source and fails on one).
 */
export const PATHS = {
  availability: '/api/venues/:venue/booking-availability',
  rules: '/api/venues/:venue/booking-rules',
  offers: '/api/venues/:venue/offers',
  marketingPreferences: '/api/venues/:venue/marketing-preferences',
  venue: '/api/venues/:venue',
  profile: '/api/venues/:venue/profile',
  /** The bot check's proof-of-work challenge for a booking at the venue (api/bot-check.ts). */
  challenge: '/api/venues/:venue/challenge',
  venues: '/api/venues',
  bookings: '/api/bookings',
  return: '/api/return',
  /** A hand-off id, for a booking whose availability sends the guest to the booking site. */
  handoff: '/api/venues/:venue/handoff',
  health: '/healthz',
  live: '/livez',
  ready: '/readyz',
  script: '/venue-booking.js',
  metrics: '/metrics',
  status: '/status',
  studio: '/embed',
  studioScript: '/embed/studio.js',
  studioProfile: '/embed/profile',
  /** The studio's "Allow this site" and "Remove" (POST): one segment below the studio, which its answer redirects back to. */
  studioSites: '/embed/sites',
  pagesCss: '/embed/pages.css',
  wordpressPlugin: '/embed/wordpress-plugin.zip',
  siteCheck: '/site-check',
  bookingCss: '/book/style.css',
  bookingPage: '/book/:id',
  bookingQr: '/book/:id/qr.svg',
  bookingQrPng: '/book/:id/qr.png',
  /** A guest's booking by the token of its manage link (api/manage.ts): never logged as requested. */
  manage: '/api/manage/:token',
  manageCancel: '/api/manage/:token/cancel',
  /** The guest's manage page and its change page (pages/manage-page.ts). */
  managePage: '/manage/:token',
  manageChange: '/manage/:token/change',
} as const;

/** A manage link's token in a path: the segment after `/manage/` (the API's and the pages'). */
const MANAGE_TOKEN = /^((?:\/api)?\/manage\/)[^/]+/;

/**
 * A path as it may be written down (a log line, an envelope's `url`): a manage link's token
 * replaced by `:token`, since the token alone opens the guest's booking.
 */
export function redactedPath(pathname: string): string {
  return pathname.replace(MANAGE_TOKEN, '$1:token');
}

/** Where the API is mounted: the guards, CORS and the per-client limits of the API apply below it. */
export const API_PREFIX = '/api';

/** Whether a path is the API's, as Hono's `/api/*` matches: the guards' Host and site rules, CORS and limits apply. */
export function isApiPath(pathname: string): boolean {
  return pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);
}

/**
 * A route's path relative to the proxy's root (`status` for `/status`): what the proxy's own pages
 * link to, so that they work under whatever address and prefix they were opened at.
 */
export function relativePath(path: string): string {
  return path.slice(1);
}

/** A route's concrete path: `template` with each `:name` segment filled with its value, encoded. */
export function pathOf(template: string, values: Record<string, string>): string {
  return template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** The label the metrics give every widget chunk (a bounded set, whatever the release's file names). */
export const CHUNK_ROUTE = '/:chunk.js';

/**
 * A matcher of a route template (`:name` matches one segment) against a concrete path: the
 * segments' values by name, or null.
 */
export function templateMatcher(template: string): (pathname: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = template.replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const pattern = new RegExp(`^${source}$`);
  return (pathname) => {
    const match = pattern.exec(pathname);
    return match ? Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) : null;
  };
}
