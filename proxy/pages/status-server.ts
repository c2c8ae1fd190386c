/**
 * The server's part of `/status`, folded under "For your web person": how many upstream calls the
 * App ID has left this hour and how many bookings they carry at the rate seen so far, how much the
 * cache spares, who is refused and why, how fast the proxy and the upstream answer, and the shared
 * store's state. From the same counters `/metrics` serves: this instance's since it started
 * (several instances each show their own; the upstream's quota is the App ID's, shared by all).
 */
import { total, type BookingOutcome, type MetricsSnapshot, type RefusalReason } from '../core/metrics.js';
import type { ProxyContext } from '../context.js';
import { escapeHtml } from './page.js';

/** Upstream calls a booking costs when none has been made here yet: a busy venue's figure (docs/contributing/benchmarks.md). */
export const ESTIMATED_CALLS_PER_BOOKING = 2.5;

/** What the web person's part of the status page shows. */
export interface ServerModel {
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
  /**
   * The mean time in ms of the proxy's answers and of the upstream's (null before any): over two
   * different sets (most answers make no upstream call, and one may make several), so the page
   * states them side by side, never one as a part of the other.
   */
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

/** The server's status now, from this instance's metrics. */
export async function serverStatusOf(ctx: ProxyContext): Promise<ServerModel> {
  const snapshot = await ctx.config.metrics.snapshot();
  const { quota } = ctx.upstream;
  const budgetLeft = (snapshot.budget_remaining_calls ?? []).find((sample) => sample.labels.share === 'all')?.value;
  const callsLeft: ServerModel['callsLeft'] =
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
    refusals: counted('refusals_total', 'reason') as ServerModel['refusals'],
    bookings: counted('bookings_total', 'outcome') as ServerModel['bookings'],
    latency: {
      proxyMs: mean(snapshot, 'request_duration_seconds'),
      upstreamMs: mean(snapshot, 'upstream_duration_seconds'),
    },
  };
}

/** London's date and time, for the page. */
export const london = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
/** A whole number as the page writes it (`4,999`). */
export const whole = (value: number) => Math.round(value).toLocaleString('en-GB');
const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;

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
  decoy: 'Sent by bots, answered with a made-up booking (nothing booked)',
};

/** The plain words for a state of the booking service or of the shared store. */
export function says(state: string): string {
  return SAYS[state] ?? state;
}

/**
 * The timing line: the two means side by side, each over its own set (the answers, mostly from
 * memory; the calls to the booking service), since one is not a part of the other.
 */
export function timingLine({ proxyMs, upstreamMs }: ServerModel['latency']): string {
  if (proxyMs === null) return 'No answers timed yet.';
  const answers = `This server’s answers took ${ms(proxyMs)} on average, counting those it gives without asking the booking service.`;
  return upstreamMs === null
    ? `${answers} It has not asked the booking service anything yet.`
    : `${answers} Its own requests to the booking service took ${ms(upstreamMs)} on average.`;
}

/** The web person's part of the page (inside its `<details>`). */
export function renderServer(model: ServerModel): string {
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
  return `<p class="note">Counted by this server since ${escapeHtml(london.format(model.since))} (London); other servers count their own.</p>
<div class="grid status-grid">
<section class="card" aria-labelledby="calls"><h3 id="calls">Requests to the booking service left</h3><p class="figure">${whole(callsLeft.calls)}</p><p class="note">${left}.</p></section>
<section class="card" aria-labelledby="carried"><h3 id="carried">Bookings still possible this hour</h3><p class="figure">${whole(model.bookingsCarried)}</p><p class="note">${rate}.</p></section>
<section class="card" aria-labelledby="hits"><h3 id="hits">Answered from memory</h3><p class="figure">${model.hitRatio === null ? '—' : `${(model.hitRatio * 100).toFixed(1)} %`}</p><p class="note">${whole(model.reads.hit + model.reads.stale)} answers from memory, ${whole(model.reads.coalesced)} shared with a guest asking the same at once, ${whole(model.reads.miss)} asked of the booking service.</p></section>
<section class="card" aria-labelledby="health"><h3 id="health">Health</h3><p>Booking service: <strong>${escapeHtml(says(model.upstream))}</strong></p><p>Shared memory between servers: <strong>${escapeHtml(says(model.store))}</strong></p><p class="note" id="timing">${timingLine(model.latency)}</p></section>
</div>
<div class="grid status-grid">
<section aria-labelledby="refusals"><h3 id="refusals">Requests turned away, and why</h3>${rows(
    model.refusals.map(({ reason, count }) => ({ label: REFUSALS[reason as RefusalReason] ?? 'Other', count })),
    'None so far.',
  )}</section>
<section aria-labelledby="outcomes"><h3 id="outcomes">Booking attempts, and what became of them</h3>${rows(
    model.bookings.map(({ outcome, count }) => ({ label: OUTCOMES[outcome as BookingOutcome] ?? 'Other', count })),
    'None so far.',
  )}</section>
</div>`;
}
