/**
 * The manager's part of `/status`: bookings, enquiries and page views today, this week and this
 * month, by venue (by name) and by where they came from (each allowed site by its origin, the
 * booking page, its QR code), and a chart of the last 14 days. Read from the counts kept in the
 * records store (state/day-counts.ts), so they are every instance's and outlive a restart.
 *
 * The chart is a table (the numbers, for everyone) whose last column draws each day's bar as an
 * inline SVG hidden from assistive technology: no script, and no inline style (the page's CSP
 * allows none; SVG attributes are not styles).
 */
import type { ProxyContext } from '../context.js';
import {
  addDays,
  countsBetween,
  londonDate,
  NO_VENUE,
  PLACES,
  weekStart,
  type CountedOutcome,
  type CountRow,
  type CountSource,
} from '../state/day-counts.js';
import type { Records } from '../state/records.js';
import { escapeHtml } from './page.js';
import { whole } from './status-server.js';
import { venueInfo } from './venue-data.js';

/** The days the chart shows, today included. */
export const CHART_DAYS = 14;

/** What was counted in a period. */
export type Tally = Record<CountedOutcome, number>;

/** A row's tallies for today, this week (since Monday) and this month. */
export interface Periods {
  today: Tally;
  week: Tally;
  month: Tally;
}

/** What the manager's part of the page shows. */
export interface CountsModel {
  /** London's date today. */
  today: string;
  total: Periods;
  venues: { id: string; name: string; periods: Periods }[];
  sources: { source: CountSource; periods: Periods }[];
  /** The chart's days, the oldest first. */
  days: { date: string; tally: Tally }[];
}

const empty = (): Tally => ({ confirmed: 0, enquiry: 0, view: 0 });
const emptyPeriods = (): Periods => ({ today: empty(), week: empty(), month: empty() });

/** The most venues named on the page: the counts are bounded by the venues served, the names cost reads. */
const MAX_VENUES = 50;

/**
 * The counts from `rows` on `today`: by venue (the venues with a booking this week or month; the names
 * read as the studio reads them) and by source, every allowed site listed even before its first
 * booking, the booking page and its QR code too, and the rest only when it counted something.
 */
export async function countsModel(ctx: ProxyContext, rows: readonly CountRow[], today: string): Promise<CountsModel> {
  const week = weekStart(today);
  const month = `${today.slice(0, 8)}01`;
  const total = emptyPeriods();
  const byVenue = new Map<string, Periods>();
  const allowed = [...ctx.config.origins, ...(await ctx.allowedSites.list()).map((site) => site.origin)];
  const bySource = new Map<CountSource, Periods>(
    [...allowed, PLACES.page, PLACES.qr].map((source) => [source, emptyPeriods()]),
  );
  const chart = new Map<string, Tally>();
  for (let day = 0; day < CHART_DAYS; day++) chart.set(addDays(today, day - CHART_DAYS + 1), empty());
  // The chart may reach further back than the week and the month: its days count nowhere else.
  const periodStart = week < month ? week : month;
  for (const row of rows) {
    const day = chart.get(row.date);
    if (day) day[row.outcome] += row.count;
    if (row.date < periodStart) continue;
    const targets = [total];
    let source = bySource.get(row.source);
    if (!source) bySource.set(row.source, (source = emptyPeriods()));
    targets.push(source);
    if (row.venue !== NO_VENUE) {
      let venue = byVenue.get(row.venue);
      if (!venue) byVenue.set(row.venue, (venue = emptyPeriods()));
      targets.push(venue);
    }
    for (const periods of targets) {
      if (row.date >= month) periods.month[row.outcome] += row.count;
      if (row.date >= week) periods.week[row.outcome] += row.count;
      if (row.date === today) periods.today[row.outcome] += row.count;
    }
  }
  const ids = [...byVenue.keys()].slice(0, MAX_VENUES);
  const infos = await Promise.all(ids.map((id) => venueInfo(ctx, id)));
  const rank = (source: CountSource) => {
    const place = ([PLACES.page, PLACES.qr, PLACES.other] as string[]).indexOf(source);
    const site = allowed.indexOf(source);
    return place >= 0 ? 20_000 + place : site >= 0 ? site : 10_000;
  };
  // The allowed sites as the settings and the studio list them, sites allowed no longer, then the places.
  const ordered = [...bySource].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  return {
    today,
    total,
    venues: infos.map((info) => ({
      id: info.id,
      name: info.title ?? `Venue ${info.id}`,
      periods: byVenue.get(info.id)!,
    })),
    sources: ordered
      .filter(([source, periods]) => source !== PLACES.other || hasAny(periods.month) || hasAny(periods.week))
      .map(([source, periods]) => ({ source, periods })),
    days: [...chart].map(([date, tally]) => ({ date, tally })),
  };
}

const hasAny = (tally: Tally) => tally.confirmed + tally.enquiry + tally.view > 0;

/** The counts of the month so far (and of the days of the week and the chart before it), or null when the store cannot say. */
export async function readCounts(ctx: ProxyContext, records: Records): Promise<CountsModel | null> {
  const today = londonDate(ctx.now());
  const from = [weekStart(today), `${today.slice(0, 8)}01`, addDays(today, 1 - CHART_DAYS)].sort()[0]!;
  try {
    return await countsModel(ctx, await countsBetween(records, from, today), today);
  } catch (error) {
    ctx.logger.log({ level: 'warn', msg: 'counts not read', error: error instanceof Error ? error.name : 'unknown' });
    return null;
  }
}

const plural = (count: number, one: string, many: string) => `${whole(count)} ${count === 1 ? one : many}`;

/** A tally in words: `3 bookings, 1 enquiry, 40 page views` (views only where they are counted). */
function tallyWords(tally: Tally, views: boolean, joiner = ', '): string {
  const parts = [plural(tally.confirmed, 'booking', 'bookings'), plural(tally.enquiry, 'enquiry', 'enquiries')];
  if (views) parts.push(plural(tally.view, 'page view', 'page views'));
  return parts.join(joiner);
}

/** Where a source's bookings came from, in plain words. */
function sourceLabel(source: CountSource): string {
  if (source === PLACES.page) return 'Your booking page (its link)';
  if (source === PLACES.qr) return 'Your booking page’s QR code';
  if (source === PLACES.other) return 'Elsewhere (the studio’s preview, apps)';
  return `<span class="origin">${escapeHtml(source)}</span>`;
}

const dayName = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
const monthName = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long' });
const dateOf = (date: string) => Date.parse(`${date}T12:00:00Z`);

/** A table of `rows` by period, each cell a tally in words on lines of its own. */
function periodTable(
  caption: string,
  head: string,
  rows: { label: string; periods: Periods }[],
  views: boolean,
): string {
  const cell = (tally: Tally) => `<td>${tallyWords(tally, views, '<br>')}</td>`;
  const body = rows
    .map(
      ({ label, periods }) =>
        `<tr><th scope="row">${label}</th>${cell(periods.today)}${cell(periods.week)}${cell(periods.month)}</tr>`,
    )
    .join('');
  return `<table class="counts"><caption>${caption}</caption><thead><tr><th scope="col">${head}</th><th scope="col">Today</th><th scope="col">This week</th><th scope="col">This month</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** The chart of the last days: a table of the numbers, each row's bar drawn beside them. */
function chartOf(days: CountsModel['days']): string {
  const most = Math.max(1, ...days.map(({ tally }) => tally.confirmed + tally.enquiry));
  const bar = ({ confirmed, enquiry }: Tally) => {
    const booked = (confirmed / most) * 100;
    const asked = (enquiry / most) * 100;
    return `<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="bar-booked" width="${booked.toFixed(1)}" height="10"/><rect class="bar-enquiry" x="${booked.toFixed(1)}" width="${asked.toFixed(1)}" height="10"/></svg>`;
  };
  const rows = [...days]
    .reverse()
    .map(
      ({ date, tally }) =>
        `<tr><th scope="row">${escapeHtml(dayName.format(dateOf(date)))}</th><td>${whole(tally.confirmed)}</td><td>${whole(tally.enquiry)}</td><td class="bar-cell">${bar(tally)}</td></tr>`,
    )
    .join('');
  return `<table class="chart" id="chart"><caption>Bookings and enquiries, the last ${days.length} days (today first). In the chart, bookings are the dark part of each bar and enquiries the light part.</caption><thead><tr><th scope="col">Day</th><th scope="col">Bookings</th><th scope="col">Enquiries</th><th scope="col">Chart</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Where the counts are kept, when that is not for good: said beside them. */
const KEPT: Partial<Record<Records['kind'], string>> = {
  memory:
    'These counts are kept in this server’s memory only: they start again from nothing when it restarts. Your web person can keep them in a file or a shared store.',
};

/** The manager's part of the page; `null`: the counts cannot be read now. */
export function renderCounts(model: CountsModel | null, kept: Records['kind']): string {
  if (!model)
    return '<p class="problem">The counts of bookings cannot be read right now. They are kept, and show again when the store answers.</p>';
  const { total } = model;
  const summary = [
    ['Today', total.today],
    ['This week (since Monday)', total.week],
    [`This month (${monthName.format(dateOf(model.today))})`, total.month],
  ] as const;
  const venues = model.venues.length
    ? periodTable(
        'Bookings and enquiries by venue',
        'Venue',
        model.venues.map(({ name, periods }) => ({ label: escapeHtml(name), periods })),
        false,
      )
    : '<p class="note">No bookings or enquiries yet this month.</p>';
  const where = KEPT[kept] ? `<p class="note">${KEPT[kept]}</p>` : '';
  return `<section aria-labelledby="counts"><h2 id="counts">Bookings and enquiries</h2>${where}
<ul class="periods">${summary.map(([label, tally]) => `<li class="card"><h3>${label}</h3><p>${tallyWords(tally, true)}</p></li>`).join('')}</ul>
${chartOf(model.days)}</section>
<section aria-labelledby="by-venue"><h2 id="by-venue">By venue</h2>${venues}</section>
<section aria-labelledby="by-source"><h2 id="by-source">Where they came from</h2>${periodTable(
    'Bookings, enquiries and page views by where they came from: each site allowed to show your widget, your booking page and its QR code',
    'From',
    model.sources.map(({ source, periods }) => ({ label: sourceLabel(source), periods })),
    true,
  )}<p class="note">A page view is your widget loading on a page of a site, or your booking page opening. A browser that loaded the widget in the last five minutes may not load it again, so a guest’s quick second look may not count.</p></section>`;
}
