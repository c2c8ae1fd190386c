/**
 * Every read of the proxy goes through `readThrough`: identical reads share one upstream answer
 * through the state's cache, for as long as the read's tier says. A cache miss spends the shared
 * upstream quota only within the client's miss limit and the budget's share for its kind
 * (guards/budget.ts); where a read is spared, a stale copy is served when there is one.
 */
import type { Context } from 'hono';
import { envelopeText, ProxyError } from '../core/envelope.js';
import type { RefusalReason } from '../core/metrics.js';
import { urlOf } from '../core/url.js';
import type { ResolvedConfig } from '../config.js';
import type { Spend } from '../guards/budget.js';
import { canonicalQuery, type Value } from '../guards/validate.js';
import type { CacheSource } from '../state/cache.js';
import type { Loaded, Relayed } from '../state/types.js';
import { guestError } from '../upstream/errors.js';
import { faultRelay } from '../upstream/relay.js';
import type { ProxyContext } from '../context.js';

/** One cached, coalesced upstream read. */
export interface ReadSpec {
  method: 'GET' | 'POST';
  /** Upstream path (relative to `/v4`), built from validated ids only. */
  path: string;
  values: Record<string, Value>;
  /** Reshapes a 2xx payload to what the widget may see. */
  shape: (payload: unknown) => unknown;
  /** How its answer is shared: how long, whether refreshed in the background, what a miss spends. */
  tier: CacheTier;
  /**
   * The venue's date the read is about (`venue:date`): its cached copies are retired when a final
   * check for it refuses the time; a final check's copies also when a booking for that date is
   * made here (`bookedScope`).
   */
  scope?: string;
}

/**
 * How a read's answers are shared, by what the read asks:
 * - `early`: an early step (booking rules, offers filtered by a booking's details): the cache TTL;
 * - `times`: the times of a date, short of a complete choice: the cache TTL, then served stale
 *   while one call refreshes it;
 * - `browse`: what every guest of a venue starts with (availability without a date: the type list
 *   and the calendar): `browseTtlMs`, refreshed the same way;
 * - `final`: the complete check before submit: `finalTtlMs`, never served stale, paid from the reserve;
 * - `static`: what changes rarely and every guest shares (venue records and lists, marketing
 *   preferences, a venue's whole offers list): `staticTtlMs`, refreshed in the background.
 */
export type CacheTier = 'early' | 'times' | 'browse' | 'final' | 'static';

/** What a tier means for one read. */
interface TierRule {
  /** How long the answer is fresh (undefined: the state's TTL, `cacheTtlMs`). */
  ttlMs: number | undefined;
  /** Past its TTL, serve the stale copy at once and refresh it in the background (stale-while-revalidate). */
  revalidate: boolean;
  /** A final check or an early step, for the budget. */
  spend: Exclude<Spend, 'booking'>;
}

/** The rule of `tier` under `config`. */
function tierRule(config: ResolvedConfig, tier: CacheTier): TierRule {
  switch (tier) {
    case 'early':
      return { ttlMs: undefined, revalidate: false, spend: 'early' };
    case 'times':
      return { ttlMs: undefined, revalidate: true, spend: 'early' };
    case 'browse':
      return { ttlMs: config.browseTtlMs, revalidate: true, spend: 'early' };
    case 'final':
      return { ttlMs: config.finalTtlMs, revalidate: false, spend: 'final' };
    case 'static':
      return { ttlMs: config.staticTtlMs, revalidate: true, spend: 'early' };
  }
}

/** The scope of a venue's date, for `ReadSpec.scope` (none without a date). */
export function dateScope(venue: string, date: Value | undefined): string | undefined {
  return typeof date === 'string' ? `${venue}:${date}` : undefined;
}

/**
 * The scope a booking made here retires: the date's final checks. `POST /bookings` skips the
 * availability check, so a check answered before a booking must not vouch for the slot after it.
 * The date's early reads outlive it: one booking seldom closes a slot, the next guest's final
 * check is fresh, and its refusal retires them (retiring them on every booking cost about one
 * more upstream call per booking).
 */
export function bookedScope(scope: string): string {
  return `${scope}:booked`;
}

/** Whether an availability answer says the chosen time cannot be booked. */
function timeRefused(payload: unknown): boolean {
  const validation = (payload as { validation?: { time?: { valid?: unknown } } } | null)?.validation;
  return validation?.time?.valid === false;
}

const retryAfter = (seconds: number) => ({ 'Retry-After': String(Math.max(1, Math.min(3600, Math.ceil(seconds)))) });

/** A read refused to spare the upstream: 429 with `Retry-After`, in the service's envelope. */
function spared(retryAfterS: number, code: string, message: string): ProxyError {
  return new ProxyError(429, 'The booking service is busy. Please try again shortly.', {
    headers: retryAfter(retryAfterS),
    errors: [{ code, message, fields: [] }],
  });
}

/**
 * What a read needs of the request it answers: the route's app (a Hono context) or the Node
 * entry's fast path (pipeline/fast-path.ts) provide it, so both run the very same read.
 */
export interface ReadCall<T> {
  /** The request's path, for the envelope. */
  path: string;
  method: string;
  /** The client key, for the per-client miss limit. */
  client(): string;
  /** Keeps a background refresh alive after the answer (a Worker's `waitUntil`; elsewhere it runs on). */
  waitUntil(promise: Promise<unknown>): void;
  /** Sends a relayed answer; `cacheKey` names the cache entry it came from. */
  send(relayed: Relayed, headers: Record<string, string>, cacheKey: string): T;
}

/** The read call of a route's Hono context. */
function honoCall(ctx: ProxyContext, c: Context): ReadCall<Response> {
  return {
    path: urlOf(c.req.raw).pathname,
    method: c.req.method,
    client: () => ctx.clientOf(c),
    waitUntil(promise) {
      try {
        c.executionCtx.waitUntil(promise);
      } catch {
        // Not a Worker: the refresh simply runs on.
      }
    },
    send: (relayed, headers, cacheKey) => ctx.send(c, relayed, headers, cacheKey),
  };
}

/** `readThrough` for a route of the app. */
export function cachedRead(ctx: ProxyContext, c: Context, spec: ReadSpec): Promise<Response> {
  return readThrough(ctx, honoCall(ctx, c), spec);
}

/** `readThrough` for a route that reads an answer to decide its own (the hand-off): the answer, not sent. */
export function cachedAnswer(ctx: ProxyContext, c: Context, spec: ReadSpec): Promise<Relayed> {
  return readThrough(ctx, { ...honoCall(ctx, c), send: (relayed) => relayed }, spec);
}

/**
 * Runs a read through the cache. A miss spends the upstream budget only within the client's miss
 * limit and the budget's share for its kind; early steps are never sent upstream when the
 * upstream reports few calls left. Where a read is spared, a stale copy is served if there is one
 * (never for a final check: its answer decides whether a slot is offered), else a 429.
 */
export async function readThrough<T>(ctx: ProxyContext, call: ReadCall<T>, spec: ReadSpec): Promise<T> {
  const ourPath = call.path;
  const search = canonicalQuery(spec.values);
  const { ttlMs, revalidate, spend } = tierRule(ctx.config, spec.tier);
  const scopes = !spec.scope ? [] : spend === 'final' ? [spec.scope, bookedScope(spec.scope)] : [spec.scope];
  // Most reads have no scope (no date): no store is asked.
  const generations = scopes.length ? await Promise.all(scopes.map((scope) => ctx.state.generation(scope))) : [];
  const key = `${spec.method} ${spec.path}${search}${generations.map((g) => `#${g}`).join('')}`;
  const { metrics } = ctx.config;
  // Every answer says where it came from, in `X-Cache` and in the cache metrics.
  const answer = (relayed: Relayed, source: CacheSource) => {
    metrics.count('cache_reads_total', { result: source.toLowerCase() });
    return call.send(relayed, { 'X-Cache': source }, key);
  };
  const fresh = await ctx.state.peekRead(key, false);
  if (fresh) return answer(fresh.value, fresh.source);
  const stale = async () => (spend === 'early' ? ctx.state.peekRead(key, true) : undefined);
  const spare = async (error: ProxyError, reason: RefusalReason) => {
    const kept = await stale();
    if (kept) return answer(kept.value, 'STALE');
    metrics.refused(reason);
    throw error;
  };
  await ctx.upstream.sync();
  if (spend === 'early' && ctx.upstream.frugal())
    return spare(
      spared(ctx.upstream.windowLeftS(), 'upstream_spared', 'Few upstream calls are left; they are kept for bookings'),
      'upstream_spared',
    );
  const client = await ctx.state.hit(
    spend === 'early' ? 'miss' : 'miss-final',
    call.client(),
    ctx.budget.settings.missLimit,
  );
  if (!client.allowed)
    return spare(
      spared(Number(client.headers['Retry-After']), 'miss_limit', 'Too many new searches from this client'),
      'miss_limit',
    );
  const load = async (): Promise<Loaded> => {
    const budget = await ctx.budget.take(spend);
    if (!budget.allowed) {
      metrics.refused('upstream_budget');
      const refusal = spared(budget.retryAfterS, 'upstream_budget', 'The upstream budget for searches is spent');
      const payload = { message: refusal.message, errors: refusal.options.errors };
      return {
        value: {
          status: 429,
          text: envelopeText(ourPath, call.method, 429, payload),
          headers: retryAfter(budget.retryAfterS),
        },
        cache: false,
      };
    }
    const answer = await ctx.upstream.call(spec.method, spec.path, search);
    if (!answer.ok) return { value: faultRelay(ourPath, call.method, answer), cache: false };
    const payload = answer.body.payload;
    // A fresh final check that refuses the time retires the date's early copies, so none of them
    // goes on offering the slot.
    if (spend === 'final' && spec.scope && answer.status < 300 && timeRefused(payload))
      await ctx.state.bump(spec.scope);
    const relayed: Relayed =
      answer.status < 300
        ? { status: answer.status, text: envelopeText(ourPath, call.method, answer.status, spec.shape(payload)) }
        : {
            status: answer.status,
            text: envelopeText(
              ourPath,
              call.method,
              answer.status,
              guestError(payload, 'The booking service refused the request', ctx.logger, {
                route: `${spec.method} ${spec.path}`,
                status: answer.status,
              }),
            ),
          };
    return { value: relayed, cache: true, ttlMs };
  };
  if (revalidate) {
    const kept = await stale();
    if (kept) {
      // Stale-while-revalidate: this reader gets the stale copy at once, the next a fresh one.
      call.waitUntil(ctx.state.read(key, load).catch(() => undefined));
      return answer(kept.value, 'STALE');
    }
  }
  const { value, source } = await ctx.state.read(key, load);
  if (value.status >= 500 || value.status === 429) {
    const kept = await stale();
    if (kept) return answer(kept.value, 'STALE');
  }
  return answer(value, source);
}
