/**
 * Europe/London calendar and clock helpers for the sandbox.
 *
 * Why date-fns-tz: it owns the zone rules (offsets, wall time → instant) so this module no longer
 * parses `Intl` parts by hand. Why memoised: these helpers sit on the availability hot path, so the
 * London offset is memoised per UTC hour and wall time → instant per London wall-clock hour
 * (London only ever changes its clocks on the hour, so one answer holds for the whole hour).
 *
 * Why only some of date-fns-tz: the sandbox must give the same answers on a laptop in Sydney, a CI
 * box in UTC and an edge runtime, and several date-fns(-tz) paths read the host's zone. Measured
 * here with `TZ=America/Los_Angeles` / `TZ=Australia/Sydney` (date-fns-tz 3.2, date-fns 4.4):
 * - `getTimezoneOffset(zone, date)` treats its date as a wall time and is an hour out for the hour
 *   after London's clocks go back (marnusw/date-fns-tz#227); the `xxx` token of
 *   `formatInTimeZone` reads the true instant and is right in every host zone, so offsets use it.
 * - `formatInTimeZone`'s wall-clock tokens are an hour out while the *host* skips an hour
 *   (marnusw/date-fns-tz#258), so London timestamps are built from the offset in UTC instead.
 * - date-fns `addDays`/`getDay` work in the host's zone and move a UTC-midnight date across the
 *   host's DST change, so plain `yyyy-MM-dd` dates keep their small UTC-midnight arithmetic.
 * Never build a calendar date from local `Date` getters.
 */

import { millisecondsInDay, millisecondsInHour, millisecondsInMinute } from 'date-fns/constants';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';

const LONDON = 'Europe/London';
/** Bound on each memo: far more hours than a sandbox run touches, small enough to never matter. */
const CACHE_LIMIT = 100_000;

const offsetCache = new Map<number, number>();

/** Offset of London from UTC, in minutes, at the given instant (0 in winter, 60 in summer). */
export function londonOffsetMinutes(epochMs: number): number {
  const hour = Math.floor(epochMs / millisecondsInHour);
  const cached = offsetCache.get(hour);
  if (cached !== undefined) return cached;
  const offset = parseOffset(formatInTimeZone(hour * millisecondsInHour, LONDON, 'xxx'));
  if (offsetCache.size > CACHE_LIMIT) offsetCache.clear();
  offsetCache.set(hour, offset);
  return offset;
}

/** Minutes of a `±HH:mm` offset. */
function parseOffset(text: string): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!m) throw new RangeError(`unexpected UTC offset from date-fns-tz: ${text}`);
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** London wall-clock `YYYY-MM-DDTHH:mm:ss` of an instant: the envelope and payload timestamp form. */
export function londonTimestamp(epochMs: number): string {
  const local = new Date(epochMs + londonOffsetMinutes(epochMs) * millisecondsInMinute);
  return local.toISOString().slice(0, 19);
}

/** UTC `YYYY-MM-DDTHH:mm:ss` of an instant: the search result timestamp form (§2.5 says UTC). */
export function utcTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}

/** London calendar date `yyyy-MM-dd` of an instant. */
export function londonDate(epochMs: number): string {
  return londonTimestamp(epochMs).slice(0, 10);
}

/** London minutes since midnight of an instant. */
export function londonMinutes(epochMs: number): number {
  const ts = londonTimestamp(epochMs);
  return Number(ts.slice(11, 13)) * 60 + Number(ts.slice(14, 16));
}

/**
 * The instant of a London wall-clock time, or `null` when that wall time does not exist (the hour
 * skipped when the clocks go forward). An ambiguous time (clocks going back) resolves to its first
 * occurrence, as people mean it.
 */
export function londonInstant(date: string, minutes: number): number | null {
  const base = dateToUtcMs(date);
  if (base === null) return null;
  const wall = base + minutes * millisecondsInMinute;
  const wallHour = Math.floor(wall / millisecondsInHour);
  const start = wallHourStart(wallHour);
  return start === null ? null : start + (wall - wallHour * millisecondsInHour);
}

const wallHourCache = new Map<number, number | null>();

/**
 * The first instant of a London wall-clock hour (hours since the epoch, read as UTC), or null.
 *
 * `fromZonedTime` gives the first guess, but it does not report the skipped hour (it returns an
 * instant whose London wall time is another hour) and which occurrence of the repeated hour it
 * returns depends on the host's zone. So the guess is checked: the earliest of the guess and its
 * neighbours an hour either side whose London wall time round-trips wins, and none means skipped.
 */
function wallHourStart(wallHour: number): number | null {
  const cached = wallHourCache.get(wallHour);
  if (cached !== undefined) return cached;
  const wall = wallHour * millisecondsInHour;
  const zoned = fromZonedTime(new Date(wall).toISOString().slice(0, 19), LONDON).getTime();
  const guess = Number.isNaN(zoned) ? wall : zoned; // a year date-fns-tz cannot parse: check 0 and +60
  let found: number | null = null;
  for (const candidate of [guess - millisecondsInHour, guess, guess + millisecondsInHour]) {
    if (candidate + londonOffsetMinutes(candidate) * millisecondsInMinute === wall) {
      found = candidate;
      break;
    }
  }
  if (wallHourCache.size > CACHE_LIMIT) wallHourCache.clear();
  wallHourCache.set(wallHour, found);
  return found;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Milliseconds of UTC midnight of a plain date, or null when the string is not a real date. Plain
 * dates live on UTC midnights so no zone (the host's or London's) can move them.
 */
export function dateToUtcMs(date: string): number | null {
  const m = DATE_RE.exec(date);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const ms = Date.UTC(y, mo - 1, d);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  return ms;
}

/** True for a real calendar date in `yyyy-MM-dd`. */
export function isDate(value: unknown): value is string {
  return typeof value === 'string' && dateToUtcMs(value) !== null;
}

/**
 * Calendar arithmetic on plain dates. Not date-fns `addDays`: that one steps in the host's zone and
 * moves a UTC midnight to the previous day across the host's DST change.
 */
export function addDays(date: string, days: number): string {
  const ms = dateToUtcMs(date);
  if (ms === null) throw new RangeError(`not a date: ${date}`);
  return new Date(ms + days * millisecondsInDay).toISOString().slice(0, 10);
}

/** Weekday names indexed like `Date#getUTCDay`, as the spec's opening_times and offer rules key them. */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Weekday of a plain date. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[new Date(dateToUtcMs(date) ?? 0).getUTCDay()]!;
}

const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of a strict 24-hour `HH:mm`, or null. */
export function parseTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = TIME_RE.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** `HH:mm` of minutes since midnight; values past 24:00 wrap (a slot after midnight). */
export function formatTime(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/** Human label of a duration in minutes, e.g. "1 hour 30 minutes". */
export function durationLabel(minutes: number): string {
  if (minutes < 0) return 'Until close';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const parts: string[] = [];
  if (h) parts.push(`${h} hour${h === 1 ? '' : 's'}`);
  if (m || !h) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  return parts.join(' ');
}

/** A clock: returns "now". Injected everywhere so tests and `--now` fix time. */
export type Clock = () => Date;

/** Builds the sandbox clock from the `now` option: an ISO string fixes it, a function is used as is. */
export function makeClock(now?: string | (() => Date)): Clock {
  if (typeof now === 'function') return now;
  if (typeof now === 'string') {
    const fixed = parseInstant(now);
    if (fixed === null) throw new RangeError(`now: not an ISO 8601 date-time: ${now}`);
    return () => new Date(fixed);
  }
  return () => new Date();
}

/**
 * Parses an ISO 8601 instant. A value without zone is London wall time (the service's own
 * timestamp form); a plain date is London midnight.
 */
export function parseInstant(value: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
    value.trim(),
  );
  if (!m) return null;
  const date = m[1]!;
  const base = dateToUtcMs(date);
  if (base === null) return null;
  const h = Number(m[2] ?? 0);
  const mi = Number(m[3] ?? 0);
  const s = Number(m[4] ?? 0);
  if (h > 23 || mi > 59 || s > 59) return null;
  const zone = m[5];
  if (zone) {
    const wall = base + ((h * 60 + mi) * 60 + s) * 1000;
    if (zone === 'Z') return wall;
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    return wall - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * millisecondsInMinute;
  }
  const inst = londonInstant(date, h * 60 + mi);
  return inst === null ? base + (h * 60 + mi - 60) * millisecondsInMinute + s * 1000 : inst + s * 1000;
}
