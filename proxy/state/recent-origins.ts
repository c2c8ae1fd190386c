/**
 * The sites that recently loaded the widget or called the API, and whether the origin rule let
 * each in: what the embed studio shows a venue's staff, so that a site missing from
 * `VENUE_BOOKING_ORIGINS` shows up as refused, with its fix, instead of as a widget that never
 * loads.
 *
 * Per instance and in memory only (several instances each know their own visitors), bounded (the
 * least recently seen site is forgotten first), and kept only for values shaped like an origin:
 * the `Origin` header is the client's to write, so a hostile one can push real sites out of the
 * list but cannot grow it or put markup in it.
 */

/** One site as the proxy saw it. */
export interface OriginSighting {
  /** `scheme://host[:port]`, or `null` for an opaque origin (a sandboxed frame, a file). */
  origin: string;
  /** Whether the origin rule lets this site call the API. */
  allowed: boolean;
  /** Requests seen from it: the widget's script and the API's calls. */
  requests: number;
  /** Epoch ms of the first and of the latest request. */
  firstSeen: number;
  lastSeen: number;
}

/** What an origin looks like: an http(s) scheme, a host name or address, an optional port; or `null`. */
const ORIGIN_RE = /^(?:https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?|null)$/i;

/** The most sites kept. */
export const MAX_ORIGINS = 50;

/** The recent sites of one proxy instance. */
export class RecentOrigins {
  private readonly sites = new Map<string, OriginSighting>();

  constructor(
    private readonly now: () => number,
    private readonly max = MAX_ORIGINS,
  ) {}

  /** Notes a request from `origin`; values not shaped like an origin are ignored. */
  note(origin: string, allowed: boolean): void {
    if (origin.length > 200 || !ORIGIN_RE.test(origin)) return;
    const now = this.now();
    const seen = this.sites.get(origin);
    if (seen) {
      seen.requests++;
      seen.lastSeen = now;
      seen.allowed = allowed;
      // Re-inserted, so the map's order is the order of last sight.
      this.sites.delete(origin);
      this.sites.set(origin, seen);
      return;
    }
    this.sites.set(origin, { origin, allowed, requests: 1, firstSeen: now, lastSeen: now });
    if (this.sites.size > this.max) this.sites.delete(this.sites.keys().next().value!);
  }

  /** The sites, most recently seen first. */
  list(): OriginSighting[] {
    return [...this.sites.values()].reverse().map((site) => ({ ...site }));
  }
}
