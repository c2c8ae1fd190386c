/**
 * Instants of venue time, for the calendar links: the instant a London wall-clock date and time
 * names. Apart from venue-time.ts so that it travels with the calendar links in their on-demand
 * chunk (`later-steps.ts`), and the bundle carries neither.
 */
/** London's wall-clock fields at an instant (this module imports nothing). */
const londonParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** London's offset from UTC at an instant, in milliseconds (0 in winter, one hour in summer). */
function londonOffset(at: number): number {
  const parts: Record<string, number> = {};
  for (const part of londonParts.formatToParts(new Date(at))) parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The instant of a London wall-clock date (`yyyy-MM-dd`) and time (`HH:mm`). The offset is read
 * twice so a time just after a clock change uses the offset in force at that time.
 */
export function venueInstant(date: string, time: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const [hours, minutes] = time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hours, minutes);
  const first = wall - londonOffset(wall);
  return new Date(wall - londonOffset(first));
}
