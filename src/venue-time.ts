/**
 * Venue time. Every date and time the guest sees or sends is the venue's (Europe/London), whatever
 * the visitor's own zone, so calendar dates are plain `yyyy-MM-dd` strings and never come from
 * local `Date` getters. Instants are only turned into London wall-clock values through date-fns-tz.
 */
import { addDays, format as formatPlain, parseISO } from 'date-fns';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';

/** The zone of every venue the service knows. */
export const VENUE_ZONE = 'Europe/London';

/** London's calendar date at `now`, as `yyyy-MM-dd`. */
export function venueToday(now: Date = new Date()): string {
  return formatInTimeZone(now, VENUE_ZONE, 'yyyy-MM-dd');
}

/** Adds whole days to a plain date without touching any time zone. */
export function addPlainDays(date: string, days: number): string {
  return formatPlain(addDays(parseISO(date), days), 'yyyy-MM-dd');
}

/** The instant of a London wall-clock date and time (for calendar files and links). */
export function venueInstant(date: string, time: string): Date {
  return fromZonedTime(`${date}T${time}:00`, VENUE_ZONE);
}

/**
 * Formats a plain date for people, in the given locale, as the venue's calendar day. The date is
 * anchored at London noon so no visitor zone can move it to a neighbouring day.
 */
export function formatVenueDate(date: string, locale: string, style: Intl.DateTimeFormatOptions = { dateStyle: 'full' }): string {
  return new Intl.DateTimeFormat(locale, { ...style, timeZone: VENUE_ZONE }).format(venueInstant(date, '12:00'));
}

/** Formats an `HH:mm` London time for people, in the given locale. */
export function formatVenueTime(date: string, time: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: VENUE_ZONE }).format(venueInstant(date, time));
}
