/**
 * `GET /status`: one screen for the operator, from the same counters `/metrics` serves. How many
 * upstream calls the App ID has left this hour and how many bookings they carry at the rate seen
 * so far, how much the cache spares, who is refused and why, how slow the upstream is beside the
 * proxy, and the shared store's state. Server-rendered, no script; it reloads itself every 30 s.
 *
 * The counters are this instance's since it started (several instances each show their own; the
 * upstream's quota is the App ID's, shared by all).
 */
import type { Context } from 'hono';
import { total, type MetricsSnapshot } from '../core/metrics.js';
import type { ProxyContext } from './context.js';
import { escapeHtml, pageResponse } from './page.js';

/** Upstream calls a booking costs when none has been made here yet: a busy venue's figure (README, Benchmarks). */
export const ESTIMATED_CALLS_PER_BOOKING = 2.5;

/** What the status page shows. */
export interface StatusModel {
  /** Epoch ms when this instance started counting. */
  since: number;
  upstream: ReturnType<ProxyContext['upstream']['health']>;
  store: ReturnType<ProxyContext['state']['health']>;
  /** Upstream calls left this hour, and where that figure comes from. */
  callsLeft: { calls: number; of: number | null; source: 'upstream' | 'budget'; resetAt: number | null };
  /** Upstream calls per booking made here (null before the first booking), and whether it is an estimate. */
  callsPerBooking: { calls: number; estimate: boolean };
  /** Bookings the calls left carry at that rate. */
  bookingsCarried: number;
  /** Share of cached reads answered without a call of their own (null before any read). */
  hitRatio: number | null;
  reads: Record<'hit' | 'miss' | 'coalesced' | 'stale', number>;
  refusals: { reason: string; count: number }[];
  bookings: { outcome: string; count: number }[];
  /** Mean latency in ms of the proxy's answers and of the upstream's (null before any). */
  latency: { proxyMs: number | null; upstreamMs: number | null };
}

const mean = (snapshot: MetricsSnapshot, name: 'request_duration_seconds' | 'upstream_duration_seconds') => {
  let count = 0;
  let sum = 0;
  for (const sample of snapshot[name] ?? []) {
    count += sample.value;
    sum += sample.sum ?? 0;
  }
  return count ? (sum / count) * 1000 : null;
};

/** The status of one proxy instance now. */
export async function statusOf(ctx: ProxyContext): Promise<StatusModel> {
  const snapshot = await ctx.config.metrics.snapshot();
  const { quota } = ctx.upstream;
  const budgetLeft = (snapshot.budget_remaining_calls ?? []).find((sample) => sample.labels.share === 'all')?.value;
  const callsLeft: StatusModel['callsLeft'] =
    quota.remaining !== null
      ? { calls: quota.remaining, of: quota.limit, source: 'upstream', resetAt: quota.resetAt }
      : { calls: budgetLeft ?? ctx.config.budget.quota, of: ctx.config.budget.quota, source: 'budget', resetAt: null };
  const made = ['confirmed', 'enquiry', 'handed_off'].reduce(
    (sum, outcome) => sum + total(snapshot, 'bookings_total', { outcome }),
    0,
  );
  const upstreamCalls = total(snapshot, 'upstream_requests_total');
  const callsPerBooking = made
    ? { calls: upstreamCalls / made, estimate: false }
    : { calls: ESTIMATED_CALLS_PER_BOOKING, estimate: true };
  const reads = {
    hit: total(snapshot, 'cache_reads_total', { result: 'hit' }),
    miss: total(snapshot, 'cache_reads_total', { result: 'miss' }),
    coalesced: total(snapshot, 'cache_reads_total', { result: 'coalesced' }),
    stale: total(snapshot, 'cache_reads_total', { result: 'stale' }),
  };
  const readCount = reads.hit + reads.miss + reads.coalesced + reads.stale;
  const counted = (name: 'refusals_total' | 'bookings_total', label: string) =>
    (snapshot[name] ?? [])
      .filter((sample) => sample.value > 0)
      .map((sample) => ({ [label]: sample.labels[label]!, count: sample.value }))
      .sort((a, b) => b.count - a.count);
  return {
    since: ctx.startedAt,
    upstream: ctx.upstream.health(),
    store: ctx.state.health(),
    callsLeft,
    callsPerBooking,
    bookingsCarried: Math.floor(Math.max(0, callsLeft.calls) / Math.max(1, callsPerBooking.calls)),
    hitRatio: readCount ? (readCount - reads.miss) / readCount : null,
    reads,
    refusals: counted('refusals_total', 'reason') as StatusModel['refusals'],
    bookings: counted('bookings_total', 'outcome') as StatusModel['bookings'],
    latency: {
      proxyMs: mean(snapshot, 'request_duration_seconds'),
      upstreamMs: mean(snapshot, 'upstream_duration_seconds'),
    },
  };
}

const london = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const whole = (value: number) => Math.round(value).toLocaleString('en-GB');
const ms = (value: number | null) => (value === null ? '—' : `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`);

/** Plain words for the store's and the upstream's states. */
const SAYS: Record<string, string> = {
  memory: 'in this process (no shared store)',
  ok: 'ok',
  degraded: 'slow: answering from local state where it must',
  down: 'down: working on local state (limits and cache per instance)',
  frugal: 'few calls left: early reads served from the cache',
  limited: 'backing off after a 429',
  failing: 'failing: the last call did not get a usable answer',
  misconfigured: 'refusing the App ID: check VENUE_BOOKING_APP_ID and VENUE_BOOKING_API_KEY',
};

/** The status page's HTML body. */
export function renderStatus(model: StatusModel): string {
  const { callsLeft, callsPerBooking } = model;
  const left =
    callsLeft.source === 'upstream'
      ? `of ${callsLeft.of === null ? '?' : whole(callsLeft.of)} this window, as the service last reported${callsLeft.resetAt ? `; resets ${escapeHtml(london.format(callsLeft.resetAt))}` : ''}`
      : `of the budget of ${whole(callsLeft.of ?? 0)} an hour, as counted here (the service has not reported yet)`;
  const rate = callsPerBooking.estimate
    ? `at about ${callsPerBooking.calls} calls a booking (no booking here yet: a busy venue's figure)`
    : `at ${callsPerBooking.calls.toFixed(1)} upstream calls a booking, the rate since this instance started`;
  const rows = (items: { label: string; count: number }[], none: string) =>
    items.length
      ? `<table><tbody>${items.map((item) => `<tr><th scope="row">${escapeHtml(item.label)}</th><td>${whole(item.count)}</td></tr>`).join('')}</tbody></table>`
      : `<p class="note">${none}</p>`;
  return `<header><nav aria-label="Operator pages"><a href="status" aria-current="page">Status</a><a href="embed">Embed studio</a><a href="metrics">Metrics (Prometheus)</a></nav>
<h1>Booking proxy status</h1>
<p class="lead">Counted by this instance since ${escapeHtml(london.format(model.since))} (London). The page reloads every 30 seconds.</p></header>
<main><div class="grid">
<section class="card" aria-labelledby="calls"><h2 id="calls">Upstream calls left</h2><p class="figure">${whole(callsLeft.calls)}</p><p class="note">${left}.</p></section>
<section class="card" aria-labelledby="carried"><h2 id="carried">Bookings they carry</h2><p class="figure">${whole(model.bookingsCarried)}</p><p class="note">${rate}.</p></section>
<section class="card" aria-labelledby="hits"><h2 id="hits">Cache hit ratio</h2><p class="figure">${model.hitRatio === null ? '—' : `${(model.hitRatio * 100).toFixed(1)} %`}</p><p class="note">${whole(model.reads.hit)} hits, ${whole(model.reads.coalesced)} waited for a call in flight, ${whole(model.reads.stale)} stale, ${whole(model.reads.miss)} misses (each an upstream call).</p></section>
<section class="card" aria-labelledby="health"><h2 id="health">Health</h2><p>Upstream: <strong>${escapeHtml(SAYS[model.upstream] ?? model.upstream)}</strong></p><p>Shared store: <strong>${escapeHtml(SAYS[model.store] ?? model.store)}</strong></p><p class="note">Mean time of an answer: ${ms(model.latency.proxyMs)} in the proxy (upstream calls included), ${ms(model.latency.upstreamMs)} per upstream call.</p></section>
</div>
<div class="grid">
<section aria-labelledby="refusals"><h2 id="refusals">Refusals by reason</h2>${rows(
    model.refusals.map(({ reason, count }) => ({ label: reason, count })),
    'None so far.',
  )}</section>
<section aria-labelledby="bookings"><h2 id="bookings">Bookings by outcome</h2>${rows(
    model.bookings.map(({ outcome, count }) => ({ label: outcome, count })),
    'None so far.',
  )}</section>
</div></main>`;
}

/** `GET /status`: the status page. */
export async function statusPage(ctx: ProxyContext, _c: Context): Promise<Response> {
  return pageResponse(renderStatus(await statusOf(ctx)), { title: 'Booking proxy status', refreshS: 30 });
}
