/**
 * `GET /status`: one screen for the venue's manager, in plain words, from the same counters `/metrics` serves.
 * It says whether the proxy books on a sandbox (practice mode) or on the live service. How many
 * upstream calls the App ID has left this hour and how many bookings they carry at the rate seen
 * so far, how much the cache spares, who is refused and why, how slow the upstream is beside the
 * proxy, and the shared store's state. Server-rendered, no script; it reloads itself every 30 s.
 *
 * The counters are this instance's since it started (several instances each show their own; the
 * upstream's quota is the App ID's, shared by all).
 */
import type { Context } from 'hono';
import { total, type BookingOutcome, type MetricsSnapshot, type RefusalReason } from '../core/metrics.js';
import type { ProxyContext } from '../context.js';
import { escapeHtml, pageResponse, venueNav } from './page.js';

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

/** Plain words for the store's and the booking service's states. */
const SAYS: Record<string, string> = {
  memory: 'kept on this server only (no shared store)',
  ok: 'working',
  degraded: 'slow: answering from this server’s own memory where it must',
  down: 'not reachable: this server works on its own memory (limits and saved answers per server)',
  frugal: 'few requests left this hour: some answers come from memory a little earlier',
  limited: 'asked us to slow down: waiting a moment before asking again',
  failing: 'not answering properly: guests may not be able to book right now',
  misconfigured: 'refusing our credentials: your web person must check VENUE_BOOKING_APP_ID and VENUE_BOOKING_API_KEY',
};

/** Why requests were turned away, in plain words, by the counters' reason. */
const REFUSALS: Record<RefusalReason, string> = {
  uri_too_long: 'Addresses too long to be real',
  invalid_path: 'Malformed addresses',
  method: 'Requests of a kind this server does not answer',
  method_override: 'Requests trying to disguise their kind',
  unknown_host: 'Requests for another website’s name',
  forbidden_origin: 'Widgets on sites that are not allowed (see the booking widget page)',
  unauthorized: 'Pages for the venue opened without the password',
  bad_token: 'Pages for the venue opened with a wrong password',
  token_throttled: 'Wrong passwords tried too often (held back for a while)',
  body_too_large: 'Bookings too large to be real',
  rate_limit: 'One visitor asking too often',
  booking_rate_limit: 'One visitor booking too often',
  miss_limit: 'One visitor asking for too many new answers',
  upstream_budget: 'Held back to keep requests for bookings this hour',
  upstream_spared: 'Answered from memory to save requests this hour',
  upstream_backoff: 'Held back while the booking service asked us to slow down',
};

/** What became of bookings, in plain words. */
const OUTCOMES: Record<BookingOutcome, string> = {
  confirmed: 'Confirmed',
  enquiry: 'Sent as an enquiry for the venue to confirm',
  handed_off: 'Finished on the booking service’s own page',
  unproven_return: 'Came back from the booking service’s page without proof (not counted as bookings)',
  replayed: 'Sent twice by a guest (kept once)',
  refused: 'Refused (full, closed, or not possible)',
  failed: 'Failed (the booking service did not answer)',
};

/** The status page's HTML body. */
export function renderStatus(model: StatusModel, practice = false): string {
  const { callsLeft, callsPerBooking } = model;
  const left =
    callsLeft.source === 'upstream'
      ? `of ${callsLeft.of === null ? '?' : whole(callsLeft.of)} this hour, as the booking service last said${callsLeft.resetAt ? `; more from ${escapeHtml(london.format(callsLeft.resetAt))}` : ''}`
      : `of ${whole(callsLeft.of ?? 0)} an hour, as counted here (the booking service has not said yet)`;
  const rate = callsPerBooking.estimate
    ? `at about ${callsPerBooking.calls} requests a booking (none booked here yet: a busy venue’s figure)`
    : `at ${callsPerBooking.calls.toFixed(1)} requests a booking, as seen since this server started`;
  const rows = (items: { label: string; count: number }[], none: string) =>
    items.length
      ? `<table><tbody>${items.map((item) => `<tr><th scope="row">${escapeHtml(item.label)}</th><td>${whole(item.count)}</td></tr>`).join('')}</tbody></table>`
      : `<p class="note">${none}</p>`;
  const service = practice
    ? '<p class="practice" role="note">Practice mode: this server books on a practice copy of the booking service. Bookings here are not real.</p>'
    : '<p class="lead">Connected to the live booking service: bookings here are real.</p>';
  return `<header>${venueNav('status')}
<h1>How your booking service is doing</h1>
${service}
<p class="lead">Counted by this server since ${escapeHtml(london.format(model.since))} (London). The page updates itself every 30 seconds.</p></header>
<main><div class="grid">
<section class="card" aria-labelledby="calls"><h2 id="calls">Requests to the booking service left</h2><p class="figure">${whole(callsLeft.calls)}</p><p class="note">${left}.</p></section>
<section class="card" aria-labelledby="carried"><h2 id="carried">Bookings still possible this hour</h2><p class="figure">${whole(model.bookingsCarried)}</p><p class="note">${rate}.</p></section>
<section class="card" aria-labelledby="hits"><h2 id="hits">Answered from memory</h2><p class="figure">${model.hitRatio === null ? '—' : `${(model.hitRatio * 100).toFixed(1)} %`}</p><p class="note">${whole(model.reads.hit + model.reads.stale)} answers from memory, ${whole(model.reads.coalesced)} shared with a guest asking the same at once, ${whole(model.reads.miss)} asked of the booking service.</p></section>
<section class="card" aria-labelledby="health"><h2 id="health">Health</h2><p>Booking service: <strong>${escapeHtml(SAYS[model.upstream] ?? model.upstream)}</strong></p><p>Shared memory between servers: <strong>${escapeHtml(SAYS[model.store] ?? model.store)}</strong></p><p class="note">An answer takes ${ms(model.latency.proxyMs)} on average, of which the booking service ${ms(model.latency.upstreamMs)}.</p></section>
</div>
<div class="grid">
<section aria-labelledby="refusals"><h2 id="refusals">Requests turned away, and why</h2>${rows(
    model.refusals.map(({ reason, count }) => ({ label: REFUSALS[reason as RefusalReason] ?? 'Other', count })),
    'None so far.',
  )}</section>
<section aria-labelledby="bookings"><h2 id="bookings">Bookings</h2>${rows(
    model.bookings.map(({ outcome, count }) => ({ label: OUTCOMES[outcome as BookingOutcome] ?? 'Other', count })),
    'None so far.',
  )}</section>
</div></main>`;
}

/** `GET /status`: the status page. */
export async function statusPage(ctx: ProxyContext, _c: Context): Promise<Response> {
  return pageResponse(renderStatus(await statusOf(ctx), ctx.config.practice), {
    title: 'How your booking service is doing',
    description: 'The booking service’s health, the requests it has left this hour, and what it turned away.',
    refreshS: 30,
  });
}
