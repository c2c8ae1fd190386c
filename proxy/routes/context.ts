/**
 * What the proxy's route modules share: the resolved settings and the per-instance state (upstream
 * client, caches, limiters). Kept apart from app.ts so route modules import types only from here.
 */
import type { Context } from 'hono';
import type { UpstreamBudget } from '../guards/budget.js';
import type { Logger } from '../core/log.js';
import type { Relayed } from '../upstream/relay.js';
import type { ProxyState } from '../state/types.js';
import type { Transport, Upstream } from '../upstream/client.js';

/** Settings of one proxy instance. See `config.ts` for how they are read from the environment. */
export interface ProxyConfig {
  /** Upstream base URL, ending in `/v4`. */
  upstream: string;
  appId: string;
  apiKey: string;
  /** The fetch that reaches the upstream; the sandbox's handler when embedded. */
  fetch?: (request: Request) => Promise<Response>;
  /** Reaches the upstream without `Request` or `Response` (the Node entry's node:http); takes precedence over `fetch`. */
  transport?: Transport;
  /** Venue ids the widget may use. */
  venues: string[];
  /** Venue groups whose venue list the widget may read; their venues are allowed too. */
  venueGroups?: string[];
  /** Origins (scheme://host[:port]) of the sites allowed to call the proxy from a browser. */
  origins?: string[];
  /** Public base URL of the proxy (where `/api` lives), for `next.api`; default: the request's origin. */
  publicUrl?: string;
  /** URL prefix of the hosted booking site; `next.web` is passed only when it starts with it. */
  bookingSite?: string;
  /** Return bridge targets: venue id (or `*` for any venue) → page URL of the venue. */
  returnPages?: Record<string, string>;
  /**
   * Whether the return bridge takes the guest back to the page they left from (on an allowed origin)
   * and tells widgets so (`GET /api/return`), so they ask for `return_method=post`. Default true;
   * false leaves only `returnPages` and the widgets fall back to a GET return.
   */
  returnBridge?: boolean;
  /** `partner_source` sent with every booking; when unset the widget's value is passed on. */
  partnerSource?: string;
  /** Upstream timeout in milliseconds (default 10 000). */
  timeoutMs?: number;
  /**
   * How long identical early reads (availability with a date but short of a complete choice, rules,
   * filtered offers) share one upstream answer, in ms (default 60 000); past it, the stale copy is
   * served while one background call refreshes it.
   */
  cacheTtlMs?: number;
  /**
   * How long availability reads without a date (the type list and the calendar every guest of a
   * venue starts with) are shared, in ms (default 10 minutes), refreshed the same way.
   */
  browseTtlMs?: number;
  /** How long past the TTL a cached answer may still be served when sparing the upstream (default 10 min). */
  staleMs?: number;
  /** Requests per client per window on `/api` (default 300 per minute). */
  rateLimit?: { limit: number; windowMs: number };
  /** Booking attempts per client per window (default 20 per 10 minutes). */
  bookingRateLimit?: { limit: number; windowMs: number };
  /** The App ID's upstream calls per hour; the budget's shares derive from it (default 5000). */
  upstreamQuota?: number;
  /** Upstream calls per hour only final checks and bookings may spend (default a fifth of the quota, at least 5). */
  upstreamReserve?: number;
  /** Cache misses per client per window, early reads and final checks each (default quota/50, at least 10, per 10 minutes). */
  missLimit?: { limit: number; windowMs: number };
  /** Upstream requests left in its window at or below which early reads are never sent upstream (default the reserve). */
  lowWater?: number;
  /** How long complete availability checks (the one before submit) are shared, in ms (default 5 000). */
  finalTtlMs?: number;
  /** How long marketing preferences, venue records and lists, and a venue's whole offers list are shared, in ms (default one hour). */
  staticTtlMs?: number;
  /** Largest accepted request body in bytes (default 16 KiB). */
  bodyLimit?: number;
  /** Identifies the client for rate limiting (e.g. the socket address); default one shared bucket. */
  clientKey?: (request: { headers: { get(name: string): string | null } }, env: unknown) => string | undefined;
  /** Where structured logs go (default JSON lines on the console). */
  logger?: Logger;
  /** Clock, for tests. */
  now?: () => number;
  /** Shared state (Redis, a Durable Object); default: this instance's memory. */
  state?: ProxyState;
  /** The widget bundle to serve at `/venue-booking.js`, when the host has it. */
  widgetScript?: Uint8Array<ArrayBuffer>;
  /** The chunks the bundle imports on demand (locale modules), by file name. */
  widgetChunks?: Record<string, Uint8Array<ArrayBuffer>>;
}

/** Defaults applied to every optional number. */
export const DEFAULTS = {
  timeoutMs: 10_000,
  cacheTtlMs: 60_000,
  browseTtlMs: 600_000,
  staleMs: 600_000,
  rateLimit: { limit: 300, windowMs: 60_000 },
  bookingRateLimit: { limit: 20, windowMs: 600_000 },
  upstreamQuota: 5000,
  finalTtlMs: 5_000,
  staticTtlMs: 3_600_000,
  bodyLimit: 16 * 1024,
} as const;

/** The state route modules work with. */
export interface ProxyContext {
  config: ProxyConfig;
  upstream: Upstream;
  state: ProxyState;
  logger: Logger;
  now: () => number;
  /** True when the widget may use this venue (configured, or a venue of a configured group). */
  venueAllowed(id: string): Promise<boolean>;
  /** The upstream budget: a global share per kind of call, across instances (budget.ts). */
  budget: UpstreamBudget;
  /** The client key of a request (per-client limits; hashed before any store sees it). */
  clientOf(c: Context): string;
  /** Sends a relayed answer to the request of `c` (fills the booking URL, guards against leaking the key). */
  send(c: Context, relayed: Relayed, headers?: Record<string, string>): Response;
}
