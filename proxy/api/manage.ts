/**
 * Guests manage their own bookings: the link the booking answer carries (`manage_url`, a sealed
 * token: api/manage-token.ts), what it shows (`GET /api/manage/:token`), and the cancellation
 * (`POST /api/manage/:token/cancel`, and the manage page's form). A change is a new booking that
 * `replaces` the old one (api/bookings.ts): booked first, the old one cancelled only once the new
 * one is confirmed.
 *
 * Every write is bound to a booking this proxy made: the `_id` the cancel is sent for comes out of
 * the sealed token, never from the browser. The booking's status is asked of the service each time
 * (a booking search, §4.6: the venue may have cancelled or moved it meanwhile), never remembered.
 * The venue's rules come from its profile: whether guests may cancel online, and until how many
 * hours before (in London time), checked on the read and again on the write.
 *
 * Exactly once: a cancel is sent only for a booking the service still shows as not rejected, and
 * the first cancel of a booking (a claim in the state, across every instance) is the one counted,
 * listed on `/status` and told the venue's webhook; any other says `already`. A token that does
 * not open (altered, expired, another venue's) gets the same 404 whatever the cause.
 */
import type { Context } from 'hono';
import { ProxyError } from '../core/envelope.js';
import { envelopeResponse } from '../core/envelope.js';
import type { ProxyContext } from '../context.js';
import { PATHS, pathOf } from '../paths.js';
import { EMPTY_PROFILE } from '../state/venue-profiles.js';
import { isConfirmed } from '../../src/api/rules.js';
import { sendVenueEvent, type VenueEvent } from './webhook.js';
import { openManage, sealManage, tokenName, type ManageClaims } from './manage-token.js';

/** Why a guest may not cancel or change online. */
export type ManageReason = 'window' | 'capability' | 'status' | 'venue' | 'handoff';

/** Whether an action is open to the guest now, and if not why; `until` when a window closes it. */
export interface ManageRule {
  allowed: boolean;
  reason?: ManageReason;
  until?: string;
}

/** The booking as the manage page and the widget show it: no `_id`, no personal data. */
export interface ManagedBooking {
  venue_id: string;
  venue_name: string | null;
  reference: string;
  type: string;
  type_name: string | null;
  date: string;
  time: string;
  duration: number | null;
  people: number;
  status: string;
  deposit_paid: boolean;
}

/** What a token opens to: the booking now, the venue's phone, and what the guest may do. */
export interface ManageView {
  booking: ManagedBooking;
  phone: string | null;
  cancel: ManageRule;
  change: ManageRule;
}

/** A token's claims and its one-way name (for the per-token limit and the claims). */
export interface OpenedToken {
  claims: ManageClaims;
  name: string;
}

/** Statuses a guest may still cancel. */
const CANCELLABLE = new Set(['new', 'in_progress', 'complete']);
/** How long the first cancel of a booking holds its claim: longer than any token lives. */
const CANCEL_CLAIM_TTL_MS = 400 * 24 * 3_600_000;
/** How long a venue's refused cancel (no capability) is believed before it is tried again. */
const CAPABILITY_MEMORY_MS = 3_600_000;
/** Per token: views and cancels a link may make (a guest reloads; a prober is slowed). */
const TOKEN_LIMIT = { limit: 30, windowMs: 10 * 60_000 };
/** The records table of the last guest cancellations and changes (`/status`), and how many it keeps. */
export const CHANGES_TABLE = 'guest_changes';
const CHANGES_KEPT = 20;
/** The records table of venues whose App ID lacked the capability to cancel, by when. */
const REFUSED_TABLE = 'manage_refused';

/** The one 404 of every token that does not open. */
const notFound = () =>
  new ProxyError(404, 'This booking link is not valid any more. Please contact the venue about your booking.');

const objectOr = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const shortText = (value: unknown, max = 100) => (typeof value === 'string' && value ? value.slice(0, max) : undefined);

/**
 * The manage link of a booking the service has just made (`payload` the create answer's, `body`
 * what was sent), absolute: the public URL when set, else the request's origin. Undefined when the
 * answer has no `_id` to seal.
 */
export async function manageUrl(
  ctx: ProxyContext,
  origin: string,
  payload: unknown,
  body: Record<string, unknown>,
): Promise<string | undefined> {
  const booking = objectOr(objectOr(payload).booking);
  const id = shortText(booking._id);
  const reference = booking.reference;
  if (!id || (typeof reference !== 'string' && typeof reference !== 'number')) return undefined;
  const claims: ManageClaims = {
    venue: String(body.venue_id),
    id,
    reference: String(reference),
    date: String(body.date),
    time: String(body.time),
    type: String(body.type),
    people: Number(body.num_people),
    ...(typeof body.duration === 'number' ? { duration: body.duration } : {}),
  };
  const names = {
    venueName: shortText(objectOr(objectOr(payload).venue).title),
    typeName: shortText(objectOr(booking.type).name),
  };
  const token = await sealManage(ctx, { ...claims, ...names });
  return `${ctx.config.publicBase ?? origin}${pathOf(PATHS.managePage, { token })}`;
}

/**
 * Opens a token: its claims, or the one 404. Each token may be used `TOKEN_LIMIT` times per
 * window (429 beyond), counted by its one-way name.
 */
export async function openToken(
  ctx: ProxyContext,
  token: string,
  action: 'view' | 'cancel' | 'change',
): Promise<OpenedToken> {
  const name = await tokenName(token);
  const decision = await ctx.state.hit('manage-token', name, TOKEN_LIMIT);
  if (!decision.allowed)
    throw new ProxyError(429, 'Too many requests for this booking link. Please wait a few minutes.', {
      headers: { 'retry-after': String(Math.ceil(TOKEN_LIMIT.windowMs / 1000)) },
    });
  const claims = await openManage(ctx, token);
  if (!claims) {
    ctx.config.metrics.count('guest_manage_total', { action, outcome: 'not_found' });
    throw notFound();
  }
  return { claims, name };
}

/** The booking as the service shows it now, `capability` when it refuses to show it, null when it cannot. */
async function bookingNow(
  ctx: ProxyContext,
  claims: ManageClaims,
): Promise<Record<string, unknown> | 'capability' | 'gone' | null> {
  await ctx.budget.take('booking');
  const query = new URLSearchParams({
    venue_id: claims.venue,
    date: claims.date,
    time: claims.time,
    status: 'include_rejected',
    fields: '_id,reference,status,type,duration,num_people,deposits',
    limit: '100',
  });
  const answer = await ctx.upstream.call('GET', '/bookings', `?${query}`);
  if (!answer.ok) return answer.kind === 'auth' ? 'capability' : null;
  if (answer.status === 401 || answer.status === 403) return 'capability';
  const listed = objectOr(answer.body.payload).bookings;
  if (answer.status >= 300 || !Array.isArray(listed)) return null;
  const found = listed.map(objectOr).find((booking) => booking._id === claims.id);
  // Not listed even with the rejected ones: deleted by the venue.
  return found ?? 'gone';
}

/** The instant (epoch ms) of a London wall-clock date and time. */
export function londonInstant(date: string, time: string): number {
  const wall = Date.parse(`${date}T${time}:00Z`);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(wall)
      .map((part) => [part.type, part.value]),
  );
  const shown = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00Z`);
  return wall - (shown - wall);
}

/** Whether the venue's App ID was refused a cancel lately (it lacks the capability). */
async function capabilityRefused(ctx: ProxyContext, venue: string): Promise<boolean> {
  const at = Number((await ctx.records.all(REFUSED_TABLE)).get(venue) ?? NaN);
  return ctx.config.now() - at < CAPABILITY_MEMORY_MS;
}

/** What the guest may do with `claims` at `status`, by the venue's profile and the window, in London time. */
async function rulesOf(ctx: ProxyContext, claims: ManageClaims, status: string): Promise<ManageRule> {
  const profile = await ctx.profiles.get(claims.venue);
  const rules = (profile ?? EMPTY_PROFILE).cancellation;
  if (!CANCELLABLE.has(status)) return { allowed: false, reason: 'status' };
  if (!rules.online) return { allowed: false, reason: 'venue' };
  const deadline = londonInstant(claims.date, claims.time) - (rules.hours_before ?? 0) * 3_600_000;
  const until = new Date(deadline).toISOString();
  if (ctx.config.now() >= deadline) return { allowed: false, reason: 'window', until };
  if (await capabilityRefused(ctx, claims.venue)) return { allowed: false, reason: 'capability' };
  return { allowed: true, until };
}

/** The view of an opened token: the booking now and the venue's rules. */
export async function manageView(ctx: ProxyContext, claims: ManageClaims): Promise<ManageView> {
  const now = await bookingNow(ctx, claims);
  if (now === 'gone') throw notFound();
  const phone = (await ctx.profiles.get(claims.venue))?.phone ?? EMPTY_PROFILE.phone;
  const found = typeof now === 'object' && now !== null ? now : {};
  const status = shortText(found.status, 30) ?? 'unknown';
  const deposits = Array.isArray(found.deposits) ? found.deposits.map(objectOr) : [];
  const { venueName, typeName } = claims;
  const rule: ManageRule =
    now === 'capability'
      ? { allowed: false, reason: 'capability' }
      : now === null
        ? { allowed: false, reason: 'status' }
        : await rulesOf(ctx, claims, status);
  return {
    booking: {
      venue_id: claims.venue,
      venue_name: venueName ?? null,
      reference: claims.reference,
      type: claims.type,
      type_name: typeName ?? shortText(objectOr(found.type).name) ?? null,
      date: claims.date,
      time: claims.time,
      duration: typeof found.duration === 'number' ? found.duration : (claims.duration ?? null),
      people: typeof found.num_people === 'number' ? found.num_people : claims.people,
      status,
      deposit_paid: deposits.some((deposit) => deposit.status === 'paid'),
    },
    phone,
    cancel: rule,
    change: rule,
  };
}

/** The outcome of a cancel: done (or done before), or refused with why and the venue's phone. */
export type CancelOutcome =
  | { reference: string; status: 'rejected'; already: boolean }
  | { refused: ManageReason | 'failed'; phone: string | null };

/** Who cancels: the guest, or a change whose new booking (`new_reference`) replaced it. */
export type CancelCause = { kind: 'cancel' } | { kind: 'change'; newReference: string };

/** Remembers one guest cancellation or change for `/status` (the last `CHANGES_KEPT`). */
async function listChange(ctx: ProxyContext, claims: ManageClaims, cause: CancelCause): Promise<void> {
  const at = ctx.config.now();
  const entry = {
    at,
    venue: claims.venue,
    reference: claims.reference,
    date: claims.date,
    time: claims.time,
    people: claims.people,
    ...(cause.kind === 'change' ? { new_reference: cause.newReference } : {}),
  };
  await ctx.records.set(
    CHANGES_TABLE,
    `${at.toString(36).padStart(10, '0')}-${claims.reference}`,
    JSON.stringify(entry),
  );
  const kept = [...(await ctx.records.all(CHANGES_TABLE)).keys()].sort();
  for (const field of kept.slice(0, Math.max(0, kept.length - CHANGES_KEPT)))
    await ctx.records.set(CHANGES_TABLE, field, null);
}

/** A guest's cancellation or change, as `/status` lists them, newest first. */
export interface ListedChange {
  at: number;
  venue: string;
  reference: string;
  new_reference?: string;
  date: string;
  time: string;
  people: number;
}

/** The last guest cancellations and changes, newest first. */
export async function recentChanges(ctx: ProxyContext): Promise<ListedChange[]> {
  const kept = await ctx.records.all(CHANGES_TABLE);
  return [...kept.entries()]
    .sort(([a], [b]) => (a < b ? 1 : -1))
    .flatMap(([, value]) => {
      try {
        return [JSON.parse(value) as ListedChange];
      } catch {
        return [];
      }
    });
}

/** The venue's event of a guest's cancel or change: the booking's slot, nothing personal. */
const venueEvent = (claims: ManageClaims, cause: CancelCause): VenueEvent => ({
  type: cause.kind === 'change' ? 'booking.changed' : 'booking.cancelled',
  venue_id: claims.venue,
  reference: claims.reference,
  ...(cause.kind === 'change' ? { new_reference: cause.newReference } : {}),
  date: claims.date,
  time: claims.time,
  people: claims.people,
  booking_type: claims.type,
});

/**
 * Cancels the booking of `claims` upstream at most once: refused when the venue's rules say no
 * (checked again now, on the write); sent only while the service shows it not rejected; counted,
 * listed and told the venue once, by the first cancel's claim (across instances).
 */
export async function cancelOnce(
  ctx: ProxyContext,
  claims: ManageClaims,
  cause: CancelCause,
  c?: Context,
): Promise<CancelOutcome> {
  const phone = (await ctx.profiles.get(claims.venue))?.phone ?? null;
  const action = cause.kind;
  const refuse = (reason: ManageReason | 'failed'): CancelOutcome => {
    ctx.config.metrics.count('guest_manage_total', { action, outcome: reason });
    return { refused: reason, phone };
  };
  const now = await bookingNow(ctx, claims);
  if (now === 'capability') return refuse('capability');
  if (now === null) return refuse('failed');
  const status = now === 'gone' ? 'deleted' : (shortText(now.status, 30) ?? 'unknown');
  const wasRejected = status === 'rejected';
  if (!wasRejected) {
    // A change has already been checked against the rules before its new booking was made: its
    // cancel must follow once that booking is confirmed, whatever the clock says now.
    const rule = cause.kind === 'change' ? null : await rulesOf(ctx, claims, status);
    if (rule && !rule.allowed) return refuse(rule.reason ?? 'status');
    if (!CANCELLABLE.has(status)) return refuse('status');
    await ctx.budget.take('booking');
    const answer = await ctx.upstream.call('POST', `/bookings/${encodeURIComponent(claims.id)}`, '', {
      status: 'rejected',
    });
    const refusedCapability =
      (answer.ok && (answer.status === 401 || answer.status === 403)) || (!answer.ok && answer.kind === 'auth');
    if (refusedCapability) {
      await ctx.records.set(REFUSED_TABLE, claims.venue, String(ctx.config.now()));
      ctx.logger.log({
        level: 'warn',
        msg: 'the service refused a guest cancel: the App ID may not update bookings',
        venue: claims.venue,
      });
      return refuse('capability');
    }
    if (!answer.ok || answer.status >= 300) {
      ctx.logger.log({
        level: 'warn',
        msg: 'guest cancel failed',
        venue: claims.venue,
        ...(answer.ok ? { upstreamStatus: answer.status } : { fault: answer.kind }),
      });
      return refuse('failed');
    }
  }
  const mine = `${cause.kind} ${crypto.randomUUID()}`;
  const holder = await ctx.state.claim(`cancelled:${claims.id}`, mine, CANCEL_CLAIM_TTL_MS).catch(() => null);
  // Counted once: by the first claim, or, where the store cannot tell, by the cancel that was sent.
  const first = holder === mine || (holder === null && !wasRejected);
  const already = !first || (wasRejected && cause.kind === 'cancel');
  if (first) {
    ctx.config.metrics.count('guest_manage_total', { action, outcome: 'ok' });
    ctx.logger.log({
      level: 'info',
      msg: cause.kind === 'change' ? 'guest changed a booking' : 'guest cancelled a booking',
      venue: claims.venue,
    });
    await listChange(ctx, claims, cause).catch(() => undefined);
    // Not awaited: its retries take seconds, and the guest's answer waits for none (on a Worker it
    // runs on under `waitUntil`).
    void sendVenueEvent(ctx, venueEvent(claims, cause), c);
  } else if (cause.kind === 'cancel') ctx.config.metrics.count('guest_manage_total', { action, outcome: 'already' });
  return { reference: claims.reference, status: 'rejected', already };
}

/** A cancel refusal as the API answers it: 403 (capability) or 409 (window, status, venue), or 502. */
export function cancelRefusal(outcome: { refused: ManageReason | 'failed'; phone: string | null }): ProxyError {
  const call = outcome.phone ? ` Please call the venue on ${outcome.phone}.` : ' Please contact the venue.';
  const details = { reason: outcome.refused, phone: outcome.phone };
  if (outcome.refused === 'failed')
    return new ProxyError(502, `The booking could not be cancelled just now.${call}`, { details });
  if (outcome.refused === 'capability')
    return new ProxyError(403, `This booking cannot be cancelled online.${call}`, { details });
  const why =
    outcome.refused === 'window'
      ? 'It is too close to the booking to cancel online.'
      : outcome.refused === 'status'
        ? 'This booking can no longer be cancelled online.'
        : 'This venue takes cancellations by phone.';
  return new ProxyError(409, `${why}${call}`, { details });
}

/** `GET /api/manage/:token`: the booking now, the venue's phone and what the guest may do. */
export async function manageRead(ctx: ProxyContext, c: Context): Promise<Response> {
  const { claims } = await openToken(ctx, c.req.param('token') ?? '', 'view');
  const view = await manageView(ctx, claims);
  ctx.config.metrics.count('guest_manage_total', { action: 'view', outcome: 'ok' });
  return envelopeResponse(c.req.raw, 200, view, { 'referrer-policy': 'no-referrer' });
}

/** `POST /api/manage/:token/cancel`: cancels the booking once; a repeat says `already`. */
export async function manageCancel(ctx: ProxyContext, c: Context): Promise<Response> {
  const { claims } = await openToken(ctx, c.req.param('token') ?? '', 'cancel');
  const outcome = await cancelOnce(ctx, claims, { kind: 'cancel' }, c);
  if ('refused' in outcome) throw cancelRefusal(outcome);
  return envelopeResponse(c.req.raw, 200, outcome, { 'referrer-policy': 'no-referrer' });
}

/**
 * The booking a change replaces (`replaces`: its manage token), checked before anything is booked:
 * a token that opens, of the same venue, whose booking may be changed now. Its repeat (the key
 * already holds the change's answer) is let through, though the old booking is cancelled by then:
 * it replays the answer and finishes the change. A change needs an Idempotency-Key: it is what
 * makes the new booking and the old one's cancel happen once.
 */
export async function replacedBooking(
  ctx: ProxyContext,
  token: string,
  body: Record<string, unknown>,
  key: string | undefined,
): Promise<ManageClaims> {
  if (key === undefined)
    throw new ProxyError(400, 'A change needs an Idempotency-Key', {
      stored: false,
      errors: [
        {
          code: 'missing_idempotency_key',
          message: 'Send an Idempotency-Key with a change',
          fields: ['Idempotency-Key'],
        },
      ],
    });
  let claims: ManageClaims;
  try {
    ({ claims } = await openToken(ctx, token, 'change'));
  } catch (error) {
    if (error instanceof ProxyError)
      throw new ProxyError(error.status, error.message, { ...error.options, stored: false });
    throw error;
  }
  if (claims.venue !== body.venue_id) {
    ctx.config.metrics.count('guest_manage_total', { action: 'change', outcome: 'not_found' });
    throw new ProxyError(404, notFound().message, { stored: false });
  }
  if ((await ctx.state.heldKey(key)) === true) return claims;
  const view = await manageView(ctx, claims);
  if (!view.change.allowed) {
    const refusal = cancelRefusal({ refused: view.change.reason ?? 'status', phone: view.phone });
    ctx.config.metrics.count('guest_manage_total', { action: 'change', outcome: view.change.reason ?? 'status' });
    throw new ProxyError(refusal.status, refusal.message, { ...refusal.options, stored: false });
  }
  return claims;
}

/**
 * The answer of a change once its new booking is answered: when that booking is confirmed, the old
 * one is cancelled (once: `cancelOnce`) and the answer says `replaced: { reference }`; when it is
 * an enquiry, or the cancel is refused, the old booking stands and the answer says why
 * (`replace_refused`: its reference, why, and the venue's phone), so the guest knows both are held.
 */
export async function replaceSettled(
  ctx: ProxyContext,
  old: ManageClaims,
  answer: { status: number; body: string },
  c?: Context,
): Promise<string> {
  if (answer.status !== 200) return answer.body;
  const envelope = JSON.parse(answer.body) as { payload: Record<string, unknown> };
  const payload = objectOr(envelope.payload);
  const booking = objectOr(payload.booking);
  if (!isConfirmed(payload)) return answer.body;
  const outcome = await cancelOnce(ctx, old, { kind: 'change', newReference: String(booking.reference ?? '') }, c);
  if ('refused' in outcome)
    payload.replace_refused = { reference: old.reference, reason: outcome.refused, phone: outcome.phone };
  else payload.replaced = { reference: old.reference };
  return JSON.stringify({ ...envelope, payload });
}
