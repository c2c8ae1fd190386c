/**
 * A larger party's way on (issue 35), as pure functions in the later steps chunk: which booking
 * types take the party and on which days (read when a dead end is in sight, with as few upstream
 * reads as the service allows), how those days read ("Sunday to Thursday"), and the choices a
 * guest goes on with when a larger party moves the booking to another type: moved to a type that
 * takes it, continued as the type the service gave it, or back to the type it replaced. Like every
 * module of the chunk it imports nothing at run time.
 */
import type { Availability, Choices, normalizeAvailability, Suggestion } from '../api/normalize.js';
import type { ApiClient, AvailabilityQuery } from '../api/client.js';
import type { WireAvailability, WireProfile } from '../api/types.js';

/** A booking type that takes the party on some days: the guest is told which, and may move to it. */
export interface Fit {
  id: string;
  name: string;
  /** The party sizes it takes (null: unset). */
  min: number | null;
  max: number | null;
  /** The weekdays it takes the party on (0 Sunday … 6 Saturday), from the dates the service lists. */
  days: number[];
  /** The dates it takes the party on, to keep a chosen date that it also takes. */
  dates: string[];
  /** Whether it is booked as an enquiry (the venue confirms it). */
  enquiry: boolean;
}

/** What a dead end offers: the venue's phone and email (from its profile), and the types that take the party. */
export interface PartyHelp {
  people: number;
  fits: Fit[];
  phone: string | null;
  email: string | null;
}

/** The type and duration a larger party replaced (`BookingState.replaced`). */
export interface Replaced {
  type?: string;
  duration?: number;
}

/** At most this many fitting types are read and offered: a venue has a few types for large parties. */
const MOST = 3;

const valid = (answer: Availability | null, field: 'type' | 'date' | 'time' | 'duration'): Suggestion[] =>
  answer?.fields[field]?.suggestions.filter((item) => item.valid) ?? [];

/** The weekday (0 Sunday) of a plain date, as a calendar date (no zone can shift it). */
export const weekdayOf = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

/**
 * Reads what a dead end offers a party of `people` (0: a dead end that is not about the party:
 * the contact only), through the widget's client of the proxy (`api/client.ts`: its base, timeout
 * and error handling), answered from the proxy's cache when another guest asked the same: the
 * venue's profile (`GET {api}/venues/{id}/profile`: the proxy's own, no upstream read, so no share
 * of the hourly quota; 404 when it keeps none); the types that take the party on any day (one
 * availability read, `num_people` only); and for each such type its dates, times and party sizes
 * for that party (one read each). A failed read leaves its part out. The bundle's
 * `normalizeAvailability` comes in as an argument: the chunk imports nothing.
 */
export async function readPartyHelp(
  client: ApiClient,
  venue: string,
  people: number,
  normalize: typeof normalizeAvailability,
  signal?: AbortSignal,
): Promise<PartyHelp> {
  const path = `venues/${encodeURIComponent(venue)}/`;
  const read = (query: AvailabilityQuery) =>
    client.read<WireAvailability>(`${path}booking-availability`, signal, query).then(normalize);
  const profile = () => client.read<WireProfile | undefined>(`${path}profile`, signal);
  const optional = <T>(promise: Promise<T>) => promise.catch(() => null);
  const [found, types] = await Promise.all([
    optional(profile()),
    people ? optional(read({ num_people: people, fields: 'type' })) : null,
  ]);
  const fits = await Promise.all(
    valid(types, 'type')
      .slice(0, MOST)
      .map(async (type) => {
        const id = String(type.value);
        const answer = await optional(read({ type: id, num_people: people, fields: 'date,time,num_people' }));
        return answer && fitOf(id, type.label ?? id, answer);
      }),
  );
  return {
    people,
    fits: fits.filter((fit): fit is Fit => fit !== null && fit.dates.length > 0),
    phone: found?.phone || null,
    email: found?.email || null,
  };
}

/**
 * A type as its answer for the party tells it: the dates it lists as valid (their weekdays), its
 * party sizes (the rules), and an enquiry when its times say so (or, with no time listed, the
 * answer's own action, which the spec's service gives for the type while the booking is incomplete).
 */
export function fitOf(id: string, name: string, answer: Availability): Fit {
  const dates = valid(answer, 'date').map((item) => String(item.value));
  const actions = valid(answer, 'time').map((item) => item.action);
  const party = answer.fields.num_people;
  return {
    id,
    name,
    min: party?.min ?? null,
    max: party?.max ?? null,
    days: [...new Set(dates.map(weekdayOf))].sort(),
    dates,
    enquiry: (actions.length ? actions : [answer.action]).some(
      (action) => action === 'enquire' || action === 'may_enquire',
    ),
  };
}

/**
 * Weekdays (0 Sunday … 6 Saturday) as runs of consecutive days around the week, each `[first,
 * last]`, starting where a run starts ("Sunday to Thursday" is one run, not "Monday to Thursday"
 * and "Sunday"); runs in Monday-first order. Every day is one run from Monday.
 */
export function weekdayRuns(days: readonly number[]): [number, number][] {
  const set = new Set(days);
  if (set.size === 7) return [[1, 0]];
  const runs: [number, number][] = [];
  for (const day of [1, 2, 3, 4, 5, 6, 0]) {
    if (!set.has(day) || set.has((day + 6) % 7)) continue;
    let last = day;
    while (set.has((last + 1) % 7)) last = (last + 1) % 7;
    runs.push([day, last]);
  }
  return runs;
}

/** The words `dayText` needs. */
export interface DayWords {
  everyDay: string;
  dayRange: (first: string, last: string) => string;
}

/**
 * The days of a type in words of `locale`: "every day", "Sunday to Thursday", "Saturday and
 * Sunday", "Monday, Wednesday and Friday to Sunday" (a run of three or more days is a range).
 */
export function dayText(days: readonly number[], locale: string, words: DayWords): string {
  const runs = weekdayRuns(days);
  if (runs.length === 1 && new Set(days).size === 7) return words.everyDay;
  // 2026-03-22 is a Sunday: day `n` of the week is the 22nd plus n.
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  const name = (day: number) => weekday.format(Date.UTC(2026, 2, 22 + day));
  const parts = runs.flatMap(([first, last]) => {
    const length = (last - first + 7) % 7;
    if (length === 0) return [name(first)];
    if (length === 1) return [name(first), name(last)];
    return [words.dayRange(name(first), name(last))];
  });
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(parts);
}

/**
 * The choices of a guest who moves from a dead end to a type that takes the party: that type and
 * the party, and the date and time while the type takes the party on that date (the next answer
 * then says whether the time still holds, with the nearest times if not); a date it does not take
 * is given up with its time, and the guest picks another of its days.
 */
export function movedChoices(choices: Choices, fit: Fit): Choices {
  const { date, time, num_people } = choices;
  const kept = date !== undefined && fit.dates.includes(date);
  return { type: fit.id, num_people, ...(kept ? { date, time } : {}) };
}

/**
 * The duration a larger party's booking goes on with when the guest continues as the type the
 * service gave it: the duration of the type it replaced when the new type lists it as valid,
 * else none (the guest is told, and chooses one of the new type's).
 */
export function carriedDuration(replaced: Replaced, answer: Availability): number | undefined {
  const { duration } = replaced;
  return valid(answer, 'duration').some((item) => item.value === duration) ? duration : undefined;
}

/** The choices of a guest who continues as the type the service gave a larger party. */
export function continuedChoices(choices: Choices, replaced: Replaced, answer: Availability): Choices {
  const duration = choices.duration ?? carriedDuration(replaced, answer);
  return { ...choices, ...(duration === undefined ? {} : { duration }) };
}

/** The choices of a guest who goes back to change the party: the type and duration it replaced, no party size. */
export function restoredChoices(choices: Choices, replaced: Replaced): Choices {
  const { num_people: _people, ...rest } = choices;
  return { ...rest, type: replaced.type, duration: replaced.duration };
}
