/**
 * Venue time. Every date and time the guest sees or sends is the venue's (Europe/London), whatever
 * the visitor's own zone, so calendar dates are plain `yyyy-MM-dd` strings and never come from
 * local `Date` getters. Plain-date arithmetic runs on UTC noon, which no zone rule can move; an
 * instant becomes London wall-clock values only through `Intl` with `timeZone: 'Europe/London'`.
 * (date-fns and date-fns-tz are avoided on purpose: `Intl` already knows London's rules, and they
 * cost kilobytes of the bundle budget.)
 */

/** The zone of every venue the service knows. */
export const VENUE_ZONE = 'Europe/London';

/** Two digits, as dates and times are written. */
export const pad = (value: number) => String(value).padStart(2, '0');

/** `yyyy-MM-dd` of a UTC-noon `Date` built by `fromPlainDate`. */
export function toPlainDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** A plain date as a `Date` at UTC noon: safe for day arithmetic and weekday lookups. */
export function fromPlainDate(date: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day, 12));
}

/**
 * London's calendar date at `now`, as `yyyy-MM-dd`. Its formatter is made on first use, not when
 * the module loads: a page's first `Intl.DateTimeFormat` loads the engine's date data, some 30 ms of
 * a phone's main thread (120 ms at Lighthouse's 4× slowdown), which the first screen (the booking
 * types) does not need.
 */
export function venueToday(now: Date = new Date()): string {
  const londonDate = dateFormat('en-GB', { timeZone: VENUE_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
  const parts = Object.fromEntries(londonDate.formatToParts(now).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Adds whole days to a plain date without touching any time zone. */
export function addPlainDays(date: string, days: number): string {
  const value = fromPlainDate(date);
  value.setUTCDate(value.getUTCDate() + days);
  return toPlainDate(value);
}

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * One formatter per locale and options: building an `Intl.DateTimeFormat` costs about a hundred
 * times more than using one, and a calendar render formats some fifty dates.
 */
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

/** Minutes since midnight of an `HH:mm` time. */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours * 60 + minutes;
}

/**
 * Minutes of a start time in the venue's night, the service day a booking's date names: a time
 * before 05:00 is after midnight, the end of that date's evening (as the service lists it: 17:00 …
 * 23:30, 00:00), so it counts from the date's midnight past 24:00. Times sort, group and compare by
 * it; no venue opens for bookings before 05:00.
 */
export function nightMinutes(time: string): number {
  return minutesOf(time) + (time < NIGHT_END ? 1440 : 0);
}

/** The end of a venue's night: a start time before it is after the midnight of the booking's date. */
export const NIGHT_END = '05:00';

/**
 * Formats a plain date for people, in the given locale, as the venue's calendar day. The date is
 * formatted at UTC noon in UTC, so no visitor zone can move it to a neighbouring day.
 */
export function formatVenueDate(
  date: string,
  locale: string,
  style: Intl.DateTimeFormatOptions = { dateStyle: 'full' },
): string {
  return dateFormat(locale, { ...style, timeZone: 'UTC' }).format(fromPlainDate(date));
}

/**
 * Formats an `HH:mm` London wall-clock time for people, in the given locale (12 or 24 h as the
 * locale has it). It is a wall-clock value, so it is formatted as such (in UTC), never through an
 * instant that a clock change could shift.
 */
export function formatVenueTime(time: string, locale: string): string {
  const minutes = minutesOf(time);
  return dateFormat(locale, { timeStyle: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, 0, 1, 0, minutes)));
}
