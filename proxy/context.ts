/**
 * What the proxy's route modules share: the resolved settings and the per-instance parts (upstream
 * client, state, budget), the venue allow-list, and how a relayed answer is sent. Built once per
 * proxy by `createRouteContext`; the routes read it and nothing above them.
 */
import type { Context } from 'hono';
import { ProxyError } from './core/envelope.js';
import { answer } from './core/headers.js';
import type { Logger } from './core/log.js';
import { urlOf, type RequestUrl } from './core/url.js';
import type { ResolvedConfig } from './config.js';
import { GROUP_LIST_TTL } from './settings/fixed.js';
import { PATHS } from './paths.js';
import type { UpstreamBudget } from './guards/budget.js';
import { clientOf } from './guards/client-ip.js';
import { ReadCache } from './state/cache.js';
import type { AnswerMemo } from './state/answer-memo.js';
import type { AllowedSites } from './state/allowed-sites.js';
import type { RecentOrigins } from './state/recent-origins.js';
import type { Records } from './state/records.js';
import type { VenueProfiles } from './state/venue-profiles.js';
import type { ProxyState, Relayed } from './state/types.js';
import type { Upstream } from './upstream/client.js';
import { sent, type SendOptions, type Sent } from './upstream/relay.js';

/** The state route modules work with. */
export interface ProxyContext {
  config: ResolvedConfig;
  upstream: Upstream;
  state: ProxyState;
  logger: Logger;
  now: () => number;
  /** True when the widget may use this venue (configured, or a venue of a configured group). */
  venueAllowed(id: string): Promise<boolean>;
  /** The upstream budget: a global share per kind of call, across instances (guards/budget.ts). */
  budget: UpstreamBudget;
  /** The client key of a request (per-client limits; hashed before any store sees it). */
  clientOf(c: Context): string;
  /**
   * Sends a relayed answer to the request of `c` (fills the booking URL, guards against leaking the
   * key); `cacheKey` names the cache entry it came from, when it did.
   */
  send(c: Context, relayed: Relayed, headers?: Record<string, string>, cacheKey?: string): Response;
  /**
   * `send` for a GET of `url` outside Hono (the Node entry's sequence, pipeline.ts): the answer as
   * sent, before the pipeline's headers. Either way a fresh answer from the cache is remembered
   * (`answers`) for a repeat.
   */
  sendPlain(url: RequestUrl, relayed: Relayed, headers?: Record<string, string>, cacheKey?: string): Sent;
  /** The answers sent just now from the read cache, by URL (state/answer-memo.ts). */
  answers: AnswerMemo;
  /** The sites that recently loaded the widget or called the API (the embed studio shows them). */
  recentOrigins: RecentOrigins;
  /** What the venue keeps with the proxy, the same on every instance (state/records.ts). */
  records: Records;
  /** The venues' profiles, kept in `records` (api/profile.ts). */
  profiles: VenueProfiles;
  /** The sites the venue's manager allowed from the studio, kept in `records`. */
  allowedSites: AllowedSites;
  /** Epoch ms when this proxy instance started (its counters count from then). */
  startedAt: number;
}

/** The parts a route context is made of. */
export interface RouteParts {
  config: ResolvedConfig;
  upstream: Upstream;
  state: ProxyState;
  budget: UpstreamBudget;
  recentOrigins: RecentOrigins;
  answers: AnswerMemo;
  records: Records;
  profiles: VenueProfiles;
  allowedSites: AllowedSites;
}

/** How a relayed answer to `url` is sent: the proxy's booking URL filled in, its key never leaked. */
export function sendOptions(config: ResolvedConfig, url: Pick<URL, 'origin'>): SendOptions {
  return {
    bookingUrl: `${config.publicBase ?? url.origin}${PATHS.bookings}`,
    apiKey: config.apiKey,
    onLeak: () => config.logger.log({ level: 'error', msg: 'upstream answer contained the API key; redacted' }),
  };
}

/**
 * The venue allow-list: the configured venues, and the venues of the configured groups, read once
 * per 5 minutes (stale copies kept through outages, and while the upstream must be spared).
 */
function venueAllowList(config: ResolvedConfig, upstream: Upstream): (id: string) => Promise<boolean> {
  const venues = new Set(config.venues);
  const groupVenues = new ReadCache<Set<string>>({
    ...GROUP_LIST_TTL,
    maxEntries: 100,
    now: config.now,
  });
  const venuesOfGroup = async (group: string): Promise<Set<string>> => {
    const kept = groupVenues.peek(group, true);
    if (kept?.source === 'HIT' || (kept && upstream.frugal())) return kept.value;
    const { value } = await groupVenues.get(group, async () => {
      const answer = await upstream.call('GET', '/venues', `?venue_group=${encodeURIComponent(group)}`);
      if (!answer.ok || answer.status >= 300) return { value: kept?.value ?? new Set<string>(), cache: false };
      const pages = (answer.body.payload as { pages?: { _id?: unknown }[] } | null)?.pages ?? [];
      return { value: new Set(pages.map((page) => String(page?._id))), cache: true };
    });
    return value;
  };
  return async (id) => {
    if (venues.has(id)) return true;
    for (const group of config.venueGroups) if ((await venuesOfGroup(group)).has(id)) return true;
    return false;
  };
}

/**
 * The key of a remembered answer: behind a public URL the path and query (every Host gets the same
 * answer), else the whole URL (the Host is part of what the app checked).
 */
export function memoKey(config: ResolvedConfig, url: RequestUrl): string {
  return config.publicOrigin !== null ? `${url.pathname}${url.search}` : url.href;
}

/** The route context of one proxy. */
export function createRouteContext(parts: RouteParts): ProxyContext {
  const { config, answers } = parts;
  const sendPlain = (url: RequestUrl, relayed: Relayed, headers?: Record<string, string>, cacheKey?: string) => {
    const answer = sent(relayed, { ...sendOptions(config, url), headers });
    // A fresh, whole 2xx from the cache may stand in for its route's checks for a moment.
    const fresh = cacheKey && headers?.['X-Cache'] !== 'STALE' && relayed.status >= 200 && relayed.status < 300;
    if (answers.wanted && fresh && !relayed.headers && !answer.leaked) {
      const own = { ...answer.headers };
      delete own['X-Cache'];
      own['x-cache'] = 'HIT';
      const sent = { status: relayed.status, own, body: { body: answer.body } };
      answers.keep(memoKey(config, url), { pathname: url.pathname, cacheKey, relayed, sent });
    }
    return answer;
  };
  return {
    config,
    upstream: parts.upstream,
    state: parts.state,
    logger: config.logger,
    now: config.now,
    budget: parts.budget,
    recentOrigins: parts.recentOrigins,
    records: parts.records,
    profiles: parts.profiles,
    allowedSites: parts.allowedSites,
    answers,
    startedAt: config.now(),
    clientOf: (c) => clientOf(config.clientKey, (name) => c.req.raw.headers.get(name), c.env),
    venueAllowed: venueAllowList(config, parts.upstream),
    sendPlain,
    send(c, relayed, headers, cacheKey) {
      const url = urlOf(c.req.raw);
      const sending = c.req.method === 'GET' ? sendPlain(url, relayed, headers, cacheKey) : undefined;
      const { status, body, headers: own } = sending ?? sent(relayed, { ...sendOptions(config, url), headers });
      // With the header layers the middleware recorded (security, CORS, rate limit).
      return answer(c, body, status, own);
    },
  };
}

/** How the app answers what a route threw: a ProxyError as it says, anything else a logged 500. */
export function asProxyError(error: unknown, booking: boolean, logger: Logger): ProxyError {
  if (error instanceof ProxyError) return error;
  logger.log({ level: 'error', msg: 'unexpected error', error: error instanceof Error ? error.name : 'unknown' });
  return new ProxyError(500, 'The booking proxy hit an unexpected error', booking ? { stored: 'unknown' } : {});
}
