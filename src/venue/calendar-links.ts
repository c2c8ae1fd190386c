/**
 * Add-to-calendar links for a stored booking: an iCalendar file (RFC 5545) as a data URL and a
 * Google Calendar template link. Both carry instants in UTC computed from the venue's London wall
 * time, so the event lands at the right hour in the guest's calendar wherever they are.
 */
import { venueInstant } from './venue-instant.js';

/** What a calendar entry needs. */
export interface CalendarEvent {
  reference: string;
  title: string;
  date: string;
  time: string;
  /** Length in minutes; -1 or unknown gives a two-hour entry. */
  minutes: number | null;
  location: string;
  description: string;
  /** The booking's page (the proxy's manage link), as the entry's URL, when there is one. */
  url?: string;
}

const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * The calendar date a start time of a booking's date falls on: the booking's date is the venue's
 * night, so a time before 05:00 is after its midnight, on the next day (venue-time.ts's
 * `nightMinutes`, written out: this chunk imports nothing from the bundle).
 */
function startDate(date: string, time: string): string {
  if (time >= '05:00') return date;
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

function span(event: CalendarEvent): [Date, Date] {
  const start = venueInstant(startDate(event.date, event.time), event.time);
  const minutes = event.minutes && event.minutes > 0 ? event.minutes : 120;
  return [start, new Date(start.getTime() + minutes * 60_000)];
}

/** Escapes text for an iCalendar property value (RFC 5545 3.3.11): any line break, CRLF too, as `\\n`. */
function icsText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/\r\n?|\n/g, '\\n')
    .replace(/([,;])/g, '\\$1');
}

const utf8 = new TextEncoder();

/**
 * Folds a content line at 75 octets (RFC 5545 3.1), a continuation starting with a space, never
 * inside a character: a guest's notes make descriptions long, and calendars may refuse or cut an
 * unfolded line.
 */
function fold(line: string): string {
  const parts: string[] = [];
  let part = '';
  let size = 0;
  for (const char of line) {
    const octets = utf8.encode(char).length;
    if (size + octets > 75) {
      parts.push(part);
      part = ' ';
      size = 1;
    }
    part += char;
    size += octets;
  }
  parts.push(part);
  return parts.join('\r\n');
}

/** The `.ics` file contents. `now` stamps the entry (DTSTAMP). */
export function icsFile(event: CalendarEvent, now: Date): string {
  const [start, end] = span(event);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//venue-booking//EN',
    'BEGIN:VEVENT',
    `UID:${event.reference}@venue-booking`,
    `DTSTAMP:${stamp(now)}`,
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(end)}`,
    `SUMMARY:${icsText(event.title)}`,
    `LOCATION:${icsText(event.location)}`,
    `DESCRIPTION:${icsText(event.description)}`,
    // A URI value (RFC 5545 3.8.4.6), not text: no escaping, only the folding below.
    ...(event.url ? [`URL:${event.url}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ]
    .map(fold)
    .join('\r\n');
}

/** A data URL of the `.ics` file, for an `<a download>`. */
export function icsDataUrl(event: CalendarEvent, now: Date): string {
  return `data:text/calendar;charset=utf-8,${encodeURIComponent(icsFile(event, now))}`;
}

/** A Google Calendar "create event" link. */
export function googleCalendarUrl(event: CalendarEvent): string {
  const [start, end] = span(event);
  const query = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${stamp(start)}/${stamp(end)}`,
    details: event.description,
    location: event.location,
  });
  return `https://calendar.google.com/calendar/render?${query}`;
}
