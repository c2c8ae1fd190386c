/**
 * Venue time. Every date and time the guest sees or sends is the venue's (Europe/London), whatever
 * the visitor's own zone, so calendar dates are plain `yyyy-MM-dd` strings and never come from
 * local `Date` getters. Plain-date arithmetic runs on UTC noon, which no zone rule can move; an
 * instant becomes London's calendar date by the UK's clock rule (`venueToday`), and people read
 * dates and times formatted by `Intl`. (date-fns and date-fns-tz are avoided on purpose: they cost
 * kilobytes of the bundle budget.)
 */

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
 * London's calendar date at `now`, as `yyyy-MM-dd`, by the UK's clock rule rather than through
 * `Intl`: a page's first zoned `Intl.DateTimeFormat` loads the engine's time-zone and date data,
 * some 40 ms of a phone's main thread (160 ms at Lighthouse's 4× slowdown), and the first screen
 * asks for today (the types' booking rules are read for it) before the guest has done anything.
 * The unit tests hold the rule to `Intl`'s answer hour by hour over a dozen years.
 */
export function venueToday(now: Date = new Date()): string {
  return toPlainDate(new Date(now.getTime() + londonOffset(now.getTime())));
}

const HOUR = 3_600_000;

/**
 * London's offset from UTC at an instant, in ms: an hour in British Summer Time, which runs from
 * 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October (the rule since
 * 1996), else none.
 */
function londonOffset(at: number): number {
  const year = new Date(at).getUTCFullYear();
  // 01:00 UTC on the last Sunday of a month (0-based): from the month's last day, back to its Sunday.
  const lastSunday = (month: number) => {
    const last = new Date(Date.UTC(year, month + 1, 0, 1));
    return last.getTime() - last.getUTCDay() * 24 * HOUR;
  };
  return at >= lastSunday(2) && at < lastSunday(9) ? HOUR : 0;
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
