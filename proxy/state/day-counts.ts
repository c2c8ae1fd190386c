/**
 * Bookings, enquiries and page views by day, venue and where they came from: what `/status` tells
 * a venue's manager. Kept in the records store (state/records.ts), so the numbers outlive a
 * restart and add up across instances, where the metrics (core/metrics.ts) are one instance's
 * since it started.
 *
 * One table per London month (`counts:2026-11`), one field per day, venue, source and outcome
 * (`2026-11-28|<venue id>|https://venue.example|confirmed`), each holding a number. Every part is
 * from a bounded set, so a table stays small whatever clients send:
 *
 * - the day: at most 31 a table;
 * - the venue: one this proxy serves (the booking route refuses any other before it counts), `-`
 *   for a page view, which names no venue;
 * - the source: an allowed site's canonical origin (only a request the origin rule let in is
 *   counted: a refused or forged origin never gets a field of its own), or one of `PLACES`;
 * - the outcome: one of `OUTCOMES`.
 *
 * Nothing personal: no guest's detail, address or client key is part of a field.
 */
import type { Records } from './records.js';

/** Where a booking or page view came from when it was not an allowed site. */
export const PLACES = {
  /** The booking page `/book/<id>`, opened from its link. */
  page: 'page',
  /** The booking page, opened from its QR code (the link carries `QR_MARK`). */
  qr: 'qr',
  /** Anything else: this proxy's other pages (the studio's preview), a program, a browser that said nothing. */
  other: 'other',
} as const;

/** A place of `PLACES`. */
export type Place = (typeof PLACES)[keyof typeof PLACES];

/** An allowed site's canonical origin, or a place. */
export type CountSource = string;

/** What is counted: a confirmed booking, an enquiry for the venue to confirm, a page view. */
export type CountedOutcome = 'confirmed' | 'enquiry' | 'view';

/** The venue part of a page view's field: a page view names no venue. */
export const NO_VENUE = '-';

/** The query parameter, and its one value, that mark the booking page's link in its QR code. */
export const QR_MARK = { name: 'via', value: 'qr' } as const;

/** The booking page's `link` as its QR code encodes it: marked, so that what the QR brings is told apart. */
export function qrLink(link: string): string {
  const url = new URL(link);
  url.searchParams.set(QR_MARK.name, QR_MARK.value);
  return url.href;
}

/** The place of a booking page opened with `search`: the QR code's when its link is marked. */
export function placeOfPage(search: URLSearchParams): Place {
  return search.get(QR_MARK.name) === QR_MARK.value ? PLACES.qr : PLACES.page;
}

/** One counted number: the day (London), venue, source and outcome it counts. */
export interface CountRow {
  date: string;
  venue: string;
  source: CountSource;
  outcome: CountedOutcome;
  count: number;
}

const OUTCOMES: ReadonlySet<string> = new Set<CountedOutcome>(['confirmed', 'enquiry', 'view']);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

const londonDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** London's calendar date (`YYYY-MM-DD`) at epoch ms `at`. */
export function londonDate(at: number): string {
  return londonDay.format(at);
}

/** The calendar date `days` after `date` (before, when negative): day arithmetic in UTC, where days have no DST. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The Monday of `date`'s week (weeks run Monday to Sunday, as in the UK). */
export function weekStart(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** The table of `date`'s month. */
export function tableOf(date: string): string {
  return `counts:${date.slice(0, 7)}`;
}

/**
 * Adds one to what `outcome` counts for `venue` (null for a page view) and `source` on London's
 * day at `at`. A part that could break the field's form (a `|`) is not counted: the callers pass
 * only checked values, so that is a bug, never a guest's booking lost.
 */
export async function countOne(
  records: Records,
  at: number,
  what: { venue: string | null; source: CountSource; outcome: CountedOutcome },
): Promise<void> {
  const venue = what.venue ?? NO_VENUE;
  if (venue.includes('|') || what.source.includes('|') || !what.source) return;
  const date = londonDate(at);
  await records.add(tableOf(date), `${date}|${venue}|${what.source}|${what.outcome}`, 1);
}

/** Every count from `from` to `to` (London dates, both included), read from each month's table once. */
export async function countsBetween(records: Records, from: string, to: string): Promise<CountRow[]> {
  const tables = new Set<string>();
  for (let date = from; date <= to; date = addDays(date, 1)) tables.add(tableOf(date));
  const read = await Promise.all([...tables].map((table) => records.all(table)));
  const rows: CountRow[] = [];
  for (const fields of read) {
    for (const [field, value] of fields) {
      const [date, venue, source, outcome, ...rest] = field.split('|');
      const count = Number(value);
      if (rest.length || !date || !DATE_RE.test(date) || date < from || date > to) continue;
      if (!venue || !source || !outcome || !OUTCOMES.has(outcome) || !Number.isFinite(count) || count <= 0) continue;
      rows.push({ date, venue, source, outcome: outcome as CountedOutcome, count });
    }
  }
  return rows;
}
