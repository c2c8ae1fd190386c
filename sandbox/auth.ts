/**
 * Authentication (§5), capability checks (§4.10) and the hourly rate limit (§8).
 *
 * The spec lists capability strings but not which endpoint needs which; the mapping below is the
 * sandbox's documented reading of their names (see SEED.md, "Apps and capabilities").
 */

import { ApiError } from './http.js';
import type { Store } from './store.js';
import type { App, Dialect } from './types.js';

/** What a request may need to be allowed to do. */
export type Permission =
  | 'see' // public venue data: availability, rules, offers, settings, marketing preferences
  | 'read_bookings'
  | 'create_bookings'
  | 'update_bookings' // status and fields of a booking
  | 'manage_bookings' // areas and everything above
  | 'view_customers'
  | 'download_customers'
  | 'manage_permissions'
  | 'manage_rules'
  | 'manage_page'
  | 'refunds'
  | 'reports';

/** Prefixes of §4.10 with their scope and what they grant (besides 'see'). */
export const CAPABILITIES: Record<string, { scope: 'venue' | 'group'; grants: Permission[] }> = {
  access_venue_bookings: { scope: 'venue', grants: ['read_bookings'] },
  access_venue_group_bookings: { scope: 'group', grants: ['read_bookings'] },
  confirm_venue_bookings: { scope: 'venue', grants: ['read_bookings', 'create_bookings', 'update_bookings'] },
  confirm_venue_group_bookings: { scope: 'group', grants: ['read_bookings', 'create_bookings', 'update_bookings'] },
  manage_venue_bookings: {
    scope: 'venue',
    grants: ['read_bookings', 'create_bookings', 'update_bookings', 'manage_bookings'],
  },
  manage_venue_group_bookings: {
    scope: 'group',
    grants: ['read_bookings', 'create_bookings', 'update_bookings', 'manage_bookings'],
  },
  manage_no_venue_bookings: { scope: 'group', grants: [] },
  manage_venue_refunds: { scope: 'venue', grants: ['refunds'] },
  manage_venue_group_refunds: { scope: 'group', grants: ['refunds'] },
  view_venue_customers: { scope: 'venue', grants: ['view_customers'] },
  view_venue_group_customers: { scope: 'group', grants: ['view_customers'] },
  download_venue_customers: { scope: 'venue', grants: ['view_customers', 'download_customers'] },
  download_venue_group_customers: { scope: 'group', grants: ['view_customers', 'download_customers'] },
  view_venue_reports: { scope: 'venue', grants: ['reports'] },
  view_venue_group_reports: { scope: 'group', grants: ['reports'] },
  download_venue_reports: { scope: 'venue', grants: ['reports'] },
  download_venue_group_reports: { scope: 'group', grants: ['reports'] },
  manage_venue_booking_rules: { scope: 'venue', grants: ['manage_rules'] },
  manage_venue_group_booking_rules: { scope: 'group', grants: ['manage_rules'] },
  manage_page: { scope: 'venue', grants: ['manage_page'] },
  manage_venue_group_venues: { scope: 'group', grants: ['manage_page'] },
  manage_venue_permissions: { scope: 'venue', grants: ['manage_permissions'] },
  manage_venue_group_permissions: { scope: 'group', grants: ['manage_permissions'] },
};

/** Splits a capability string into its known prefix and target id, or null when malformed. */
export function parseCapability(cap: unknown): { prefix: string; target: string; scope: 'venue' | 'group' } | null {
  if (typeof cap !== 'string') return null;
  const m = /^([a-z_]+)_([0-9a-f]{24})$/.exec(cap);
  if (!m) return null;
  const def = CAPABILITIES[m[1]!];
  return def ? { prefix: m[1]!, target: m[2]!, scope: def.scope } : null;
}

/**
 * The caller without credentials in the live dialect. The live service answers availability and
 * creates bookings without an Authorization header (observed with a partner's client that has live
 * traffic on record) and refuses with 403 what needs more than public access (a status change):
 * this app has public access only, `see` and `create_bookings` at every venue, and shares one
 * rate-limit window.
 */
export const ANONYMOUS: App = { id: 'anonymous', key: '', capabilities: [], name: 'Anonymous (live dialect)' };

/** What the anonymous caller may do. */
const PUBLIC_ACCESS: ReadonlySet<Permission> = new Set(['see', 'create_bookings']);

/**
 * Parses `Authorization: APPID:KEY` (a `Bearer `/`Basic ` prefix is not part of the spec and is
 * refused). Without the header: 401 in the spec dialect, the {@link ANONYMOUS} caller in the live one.
 */
export function authenticate(store: Store, header: string | null, dialect: Dialect = 'spec'): App {
  if (!header || !header.trim()) {
    if (dialect === 'live') return ANONYMOUS;
    throw new ApiError(401, 'Credentials required: send Authorization: <APP_ID>:<API_KEY>');
  }
  const value = header.trim();
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1) {
    throw new ApiError(401, 'Credentials not found: the Authorization header must be <APP_ID>:<API_KEY>');
  }
  const app = store.apps.get(value.slice(0, colon));
  if (!app || app.key !== value.slice(colon + 1)) throw new ApiError(403, 'These credentials are not valid');
  return app;
}

/** Answers "may this app do that at this venue (or venue group)?" */
export class Access {
  /** The app's capabilities, parsed once (checks run per venue and per user in searches). */
  private readonly caps: NonNullable<ReturnType<typeof parseCapability>>[];

  constructor(
    private readonly store: Store,
    readonly app: App,
  ) {
    const all = app.capabilities === 'all' ? [] : app.capabilities;
    this.caps = all.map(parseCapability).filter((cap) => cap !== null);
  }

  /** True when the app holds a capability granting `perm` over the venue (directly or via its group). */
  can(perm: Permission, venueId: string): boolean {
    if (this.app === ANONYMOUS) return PUBLIC_ACCESS.has(perm) && this.store.venues.has(venueId);
    if (this.app.capabilities === 'all') return true;
    const venue = this.store.venues.get(venueId);
    const group = venue?.venue_group;
    for (const parsed of this.caps) {
      const applies =
        parsed.scope === 'venue' ? parsed.target === venueId : parsed.target === group || parsed.target === venueId;
      if (!applies) continue;
      if (perm === 'see' || CAPABILITIES[parsed.prefix]!.grants.includes(perm)) return true;
    }
    return false;
  }

  /** True when the app may do `perm` across a whole venue group (group-scoped capability or 'all'). */
  canGroup(perm: Permission, groupId: string): boolean {
    if (this.app === ANONYMOUS) return PUBLIC_ACCESS.has(perm);
    if (this.app.capabilities === 'all') return true;
    return this.caps.some((parsed) => {
      return (
        parsed.scope === 'group' &&
        parsed.target === groupId &&
        (perm === 'see' || CAPABILITIES[parsed.prefix]!.grants.includes(perm))
      );
    });
  }

  /** Venue ids the app may do `perm` at. */
  venues(perm: Permission): Set<string> {
    const out = new Set<string>();
    for (const id of this.store.venues.keys()) if (this.can(perm, id)) out.add(id);
    return out;
  }

  /** Throws 403 unless allowed. */
  require(perm: Permission, venueId: string): void {
    if (!this.can(perm, venueId)) {
      throw new ApiError(403, `These credentials do not allow ${perm.replace('_', ' ')} for venue ${venueId}`);
    }
  }
}

/** Fixed hourly windows per App ID (window = the clock hour in UTC). */
export class RateLimiter {
  private readonly windows = new Map<string, { hour: number; count: number }>();

  constructor(readonly limit: number) {}

  /** Counts one request and returns the header values; `allowed` false when over the limit. */
  hit(appId: string, nowMs: number, count = true): { allowed: boolean; headers: Record<string, string> } {
    const hour = Math.floor(nowMs / 3_600_000);
    let w = this.windows.get(appId);
    if (!w || w.hour !== hour) this.windows.set(appId, (w = { hour, count: 0 }));
    const allowed = w.count < this.limit;
    if (allowed && count) w.count++;
    return {
      allowed,
      headers: {
        'X-RateLimit-Limit': String(this.limit),
        'X-RateLimit-Remaining': String(Math.max(0, this.limit - w.count)),
        'X-RateLimit-Reset': new Date((hour + 1) * 3_600_000).toISOString().replace('.000Z', 'Z'),
      },
    };
  }
}
