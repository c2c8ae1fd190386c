/**
 * People-facing wording of values through `Intl` (durations, end times), kept apart
 * from templates so every locale formats the same way and unit tests can pin the results.
 */
import { minutesOf, pad } from './venue-time.js';

/**
 * Minutes of a duration as the service sent it. The spec sends decimal hours to availability and
 * the live service minutes; the safe client rule is to send the value back unconverted, so this is
 * only for labels: values of 12 or less, or with a fraction, are hours (no booking lasts 12
 * minutes), -1 is "until close" (returned as -1).
 */
export function durationMinutes(value: number): number {
  if (value === -1) return -1;
  return value <= 12 || !Number.isInteger(value) ? Math.round(value * 60) : value;
}

const units = new Map<string, Intl.NumberFormat>();

/** One unit formatter per locale and unit, built once (durations are formatted on every render). */
function unitFormat(locale: string, unit: 'hour' | 'minute'): Intl.NumberFormat {
  const key = `${locale}|${unit}`;
  let format = units.get(key);
  if (!format) units.set(key, (format = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' })));
  return format;
}

/** "1 hr 30 min" in the locale's words, through `Intl.NumberFormat` units. */
export function formatDuration(minutes: number, locale: string): string {
  const unit = (value: number, name: 'hour' | 'minute') => unitFormat(locale, name).format(value);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return [hours ? unit(hours, 'hour') : '', rest || !hours ? unit(rest, 'minute') : ''].filter(Boolean).join(' ');
}

/** The wall-clock end of a booking starting at `time` and lasting `minutes`, as `HH:mm`. */
export function endTimeOf(time: string, minutes: number): string {
  const end = (minutesOf(time) + minutes) % 1440;
  return `${pad(Math.floor(end / 60))}:${pad(end % 60)}`;
}
