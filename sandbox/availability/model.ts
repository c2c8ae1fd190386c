/**
 * The terms every stage of availability shares: the five booking fields, the request and what the
 * computation depends on, the action a booking gets, durations in either dialect's unit, and the
 * rules of a booking type (party size, durations, and the handling and deposit a scenario can
 * change). At the bottom of availability/: it imports none of its parts.
 */

import { num } from '../http.js';
import type { ScenarioEffects } from '../scenarios.js';
import type { Store } from '../store.js';
import type { BookingType, Dialect } from '../types.js';

export type { Dialect } from '../types.js';

/** The five booking fields of §2.3. */
export const FIELDS = ['type', 'num_people', 'date', 'time', 'duration'] as const;
export type Field = (typeof FIELDS)[number];

/** Parsed availability request. */
export interface AvailabilityRequest {
  type?: unknown;
  num_people?: unknown;
  date?: unknown;
  time?: unknown;
  duration?: unknown;
  getOffers?: boolean;
  /** Restricts computed validation keys (`fields=`; `next` asks for the hand-off alone); all when absent. */
  fields?: (Field | 'next')[];
}

/** Options the computation depends on besides the store. */
export interface AvailabilityContext {
  store: Store;
  now: number;
  dialect: Dialect;
  publicUrl: string;
  /** What the request's scenario changes (fully booked, deposits, enquiries only); none by default. */
  scenario?: ScenarioEffects;
}

/** How a booking would be handled (§3.2). */
export type Action = 'accept' | 'enquire' | 'may_enquire' | 'reject';

/**
 * Converts a duration sent by a client into minutes. Values above 12 are minutes (as POST /bookings,
 * booking records and the live service use); values of 12 or less, or with a fraction, are hours
 * (as §2.3 has it for availability). No booking type lasts 12 minutes or less, so this reading is
 * unambiguous; -1 is "until close".
 */
export function durationMinutes(value: unknown): number | undefined {
  const n = num(value);
  if (n === undefined) return undefined;
  if (n === -1) return -1;
  if (n <= 0) return undefined;
  if (n <= 12 || !Number.isInteger(n)) return Math.round(n * 60);
  return n;
}

/** A duration in the dialect's unit: minutes (live) or decimal hours (spec, §2.3). -1 stays -1. */
export function durationOut(minutes: number, dialect: Dialect): number {
  if (dialect === 'live' || minutes === -1) return minutes;
  return Math.round((minutes / 60) * 10000) / 10000;
}

/** The allowed durations of a type in minutes. */
export function typeDurations(t: BookingType): number[] {
  return t.rules.fixed_duration !== undefined && t.rules.fixed_duration !== null
    ? [t.rules.fixed_duration]
    : (t.rules.durations ?? []);
}

/** The duration a booking without one gets: the type's fixed or first duration. */
export function defaultDuration(t: BookingType): number {
  return t.rules.fixed_duration ?? t.rules.durations?.[0] ?? 120;
}

/** Whether a type confirms bookings on submission (an `enquiry-only` scenario says none does). */
export function autoconfirms(ctx: Pick<AvailabilityContext, 'scenario'>, t: BookingType): boolean {
  return t.rules.autoconfirm && !ctx.scenario?.enquiryOnly;
}

/** The deposit a head a type takes (a `deposit-required` scenario sets a floor). */
export function depositPerPerson(ctx: Pick<AvailabilityContext, 'scenario'>, t: BookingType): number {
  return Math.max(t.rules.deposit_per_person ?? 0, ctx.scenario?.depositPerPerson ?? 0);
}

/** The most a no-show may be charged a head after the card check a `card-check` scenario asks for, else 0. */
export const noShowCharge = (ctx: Pick<AvailabilityContext, 'scenario'>): number => ctx.scenario?.noShowCharge ?? 0;

/** Whether the booking site takes money or card details for a type (`depositRequired`): a deposit or a card check. */
export const takesPayment = (ctx: Pick<AvailabilityContext, 'scenario'>, t: BookingType): boolean =>
  depositPerPerson(ctx, t) > 0 || noShowCharge(ctx) > 0;

/**
 * What a type's money terms add to the venue's policy text (`booking_notes` of booking-rules): the
 * service gives the terms no fields of their own, so the venue states its deposit and its no-show
 * charge in its policy, as these words do.
 */
export function moneyNotes(ctx: Pick<AvailabilityContext, 'scenario'>, t: BookingType): string[] {
  const deposit = depositPerPerson(ctx, t);
  const noShow = noShowCharge(ctx);
  return [
    ...(deposit > 0 ? [`A deposit of £${deposit} a person is taken when you book.`] : []),
    ...(noShow > 0
      ? [
          `Card details are checked when you book (£0, not a charge); a no-show may be charged up to £${noShow} a person.`,
        ]
      : []),
  ];
}

/** How a type handles a booking that fits: confirmed (accept) or taken as an enquiry. */
export const handlingFor = (ctx: AvailabilityContext, t: BookingType): Action =>
  autoconfirms(ctx, t) ? 'accept' : 'enquire';

/** Why a party size does not fit a type, or null. */
export function peopleReason(t: BookingType, n: number): string | null {
  const { min_people: min, max_people: max } = t.rules;
  if ((min != null && n < min) || (max != null && n > max)) {
    if (min != null && max != null) return `${t.name} is for ${min} to ${max} people`;
    return min != null ? `${t.name} is for at least ${min} people` : `${t.name} is for at most ${max} people`;
  }
  return null;
}
