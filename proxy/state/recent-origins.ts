/**
 * The sites that recently loaded the widget or called the API, and whether the origin rule let
 * each in: what the embed studio shows a venue's staff, so that a site missing from
 * `VENUE_BOOKING_ORIGINS` shows up as refused, with its fix, instead of as a widget that never
 * loads.
 *
 * An entry is what requests claimed (their `Origin` or `Referer` header), never proof of a visit:
 * any client can write any value. So the list is honest about it and hard to abuse:
 *
 * - every origin is kept in its canonical form (core/url.ts), the form the settings keep, so
 *   `HTTPS://VENUE.EXAMPLE:443` is `https://venue.example` (allowed, when that is) and a
 *   lookalike internationalised name shows as the punycode it is; a value that is not an origin is
 *   ignored, so no markup or unusable settings line can get in;
 * - allowed and refused sites are bounded apart (`MAX_ORIGINS` each, the least recently seen
 *   forgotten first): forged refused origins can push out other refused ones, never an allowed one.
 *
 * A visit is a page view: the widget's script loading (once a page, whatever the page's widgets
 * and calls), not every request, of which one page makes several. The script is fresh in a
 * browser's cache for five minutes (api/script.ts), so a guest's second look within them is not
 * seen; every request still marks the site as seen.
 *
 * Per instance and in memory only (several instances each know their own visitors); the allowed
 * sites' page views are also counted durably, through `onView` (state/day-counts.ts).
 */
import { canonicalOrigin } from '../core/url.js';

/** One site as the proxy saw it. */
export interface OriginSighting {
  /** `scheme://host[:port]` in canonical form, or `null` for an opaque origin (a sandboxed frame, a file). */
  origin: string;
  /** Whether the origin rule lets this site call the API. */
  allowed: boolean;
  /** Page views that claimed it: loads of the widget's script. */
  views: number;
  /** Epoch ms of the first and of the latest request. */
  firstSeen: number;
  lastSeen: number;
}

/** The most sites kept of each kind (allowed, refused). */
export const MAX_ORIGINS = 50;

/** The recent sites of one proxy instance. */
export class RecentOrigins {
  /** Each kind's sites, with the order of their latest sighting across both kinds. */
  private readonly allowed = new Map<string, OriginSighting & { seq: number }>();
  private readonly refused = new Map<string, OriginSighting & { seq: number }>();
  private seq = 0;

  /**
   * `onView` hears each page view of an allowed site (its canonical origin), to count it where
   * counts outlive this instance; a refused site's never reach it, so a forged origin counts
   * nowhere but in this bounded list.
   */
  constructor(
    private readonly now: () => number,
    private readonly max = MAX_ORIGINS,
    private readonly onView: (origin: string) => void = () => {},
  ) {}

  /** Notes a request that claimed `origin`, a page view when `view`; values that are not an origin are ignored. */
  note(given: string, allowed: boolean, view = false): void {
    // A site seen before is noted as it is (the keys are canonical): a browser sends one spelling
    // on every call, and parsing it again cost a cross-origin read a URL parse each time.
    const origin = this.allowed.has(given) || this.refused.has(given) ? given : canonicalOrigin(given);
    if (origin === null) return;
    const now = this.now();
    const kind = allowed ? this.allowed : this.refused;
    const seen = this.allowed.get(origin) ?? this.refused.get(origin);
    this.allowed.delete(origin);
    this.refused.delete(origin);
    // Re-inserted, so each map's order is the order of last sight.
    const seq = ++this.seq;
    const views = (seen?.views ?? 0) + (view ? 1 : 0);
    if (seen) kind.set(origin, { ...seen, allowed, views, lastSeen: now, seq });
    else kind.set(origin, { origin, allowed, views, firstSeen: now, lastSeen: now, seq });
    if (kind.size > this.max) kind.delete(kind.keys().next().value!);
    if (view && allowed) this.onView(origin);
  }

  /** The sites, most recently seen first. */
  list(): OriginSighting[] {
    return [...this.allowed.values(), ...this.refused.values()]
      .sort((a, b) => b.seq - a.seq)
      .map(({ seq: _seq, ...site }) => site);
  }
}
