/**
 * The month calendar as pure data, Lion style: `createMonth` turns a month into weeks of days and
 * `moveFocus` answers the APG date-grid keys, so the template only renders and the unit tests cover
 * every edge (leap years, month ends, clock-change days) without a browser. Dates are plain
 * `yyyy-MM-dd` venue dates; nothing here reads a clock or the visitor's zone.
 */
import { addPlainDays, fromPlainDate, toPlainDate } from './venue-time.js';

/** One day cell of a month grid. */
export interface CalendarDay {
  /** The plain date. */
  date: string;
  /** Day of the month, for display. */
  day: number;
  /** Whether the day belongs to the neighbouring month (shown as an empty cell). */
  outside: boolean;
}

/** A month as the calendar renders it: Monday-first weeks of seven days. */
export interface CalendarMonth {
  /** `yyyy-MM` of the month. */
  month: string;
  weeks: CalendarDay[][];
}

/** `yyyy-MM` of a plain date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** The Monday-first weekday of a plain date: 0 for Monday to 6 for Sunday. */
const weekdayOf = (date: string) => (fromPlainDate(date).getUTCDay() + 6) % 7;

/** Builds the Monday-first weeks of the month that contains `date`. */
export function createMonth(date: string): CalendarMonth {
  const month = monthOf(date);
  const first = `${month}-01`;
  let cursor = addPlainDays(first, -weekdayOf(first));
  const weeks: CalendarDay[][] = [];
  do {
    const week: CalendarDay[] = [];
    for (let i = 0; i < 7; i++) {
      week.push({ date: cursor, day: Number(cursor.slice(8)), outside: monthOf(cursor) !== month });
      cursor = addPlainDays(cursor, 1);
    }
    weeks.push(week);
  } while (monthOf(cursor) === month);
  return { month, weeks };
}

/** Adds months to a plain date, keeping the day where it exists (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const value = fromPlainDate(date);
  const day = value.getUTCDate();
  value.setUTCMonth(value.getUTCMonth() + months, day);
  // Past the end of the month (31 Jan + 1 month = 3 Mar): back to its last day.
  if (value.getUTCDate() !== day) value.setUTCDate(0);
  return toPlainDate(value);
}

/** The seven Monday-first weekdays as dates of one week, for column headers. */
export function weekdayDates(): string[] {
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => addPlainDays('2024-01-01', i));
}

/** A plain date kept within [min, max]. */
export function clampDate(date: string, min: string, max: string): string {
  return date < min ? min : date > max ? max : date;
}

/** Days each arrow key moves the focus by. */
const ARROW_DAYS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

/**
 * Where focus goes for a key of the APG date grid: arrows ±1 day / ±1 week, Home/End the start or
 * end of the week, PageUp/PageDown ±1 month, with Shift ±1 year. The result is kept within
 * [min, max]; null means the key is not a calendar key.
 */
export function moveFocus(date: string, key: string, shift: boolean, min: string, max: string): string | null {
  const weekday = weekdayOf(date);
  const days = Object.hasOwn(ARROW_DAYS, key)
    ? ARROW_DAYS[key]
    : key === 'Home'
      ? -weekday
      : key === 'End'
        ? 6 - weekday
        : null;
  const months = key === 'PageUp' ? -1 : key === 'PageDown' ? 1 : 0;
  if (days === null && !months) return null;
  return clampDate(days === null ? addMonths(date, shift ? months * 12 : months) : addPlainDays(date, days), min, max);
}
