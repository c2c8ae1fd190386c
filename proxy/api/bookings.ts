/**
 * `POST /api/bookings`: a guest's booking with only the documented fields (§4.2), `source` forced
 * to `partner`, `partner_source` from the settings or the widget, at most one upstream booking per
 * `Idempotency-Key`. Every error answer says whether the booking was stored (`payload.stored`:
 * true, false or 'unknown'), so the widget never loses what the guest typed and never books twice.
 * A booking made answers the guest's `manage_url` (api/manage.ts); one sent with `replaces` (a
 * manage token) is a change: the old booking is cancelled once the new one is confirmed.
 */
import type { Context } from 'hono';
import { envelopeText, ProxyError, throwIfInvalid } from '../core/envelope.js';
import { urlOf } from '../core/url.js';
import { readFields, type Rule } from '../guards/validate.js';
import { fingerprintOf, type StoredAnswer } from '../state/idempotency.js';
import { guestError } from '../upstream/errors.js';
import { faultRelay } from '../upstream/relay.js';
import { isConfirmed, LIMITS, PARTY_SIZE } from '../../src/api/rules.js';
import { bookingAnswer } from './booking-answer.js';
import { botAnswer, HONEYPOT, judgeBooking, PROOF } from './bot-check.js';
import { TURNSTILE } from './turnstile.js';
import { bookingSource, keepCount } from './booking-source.js';
import type { ProxyContext } from '../context.js';
import { jsonBody } from './input.js';
import { bookingReconciler, claimReference } from './reconcile.js';
import { bookedScope, dateScope } from './read-through.js';
import { manageUrl, replacedBooking, replaceSettled } from './manage.js';

/** The documented fields of `POST /bookings`, with their forms. */
const BOOKING: Record<string, Rule> = {
  venue_id: { kind: 'id', required: true },
  type: { kind: 'id', required: true },
  date: { kind: 'date', required: true },
  time: { kind: 'time', required: true },
  num_people: { kind: 'int', required: true, ...PARTY_SIZE },
  duration: { kind: 'duration' },
  first_name: { kind: 'text', required: true, max: LIMITS.name },
  last_name: { kind: 'text', required: true, max: LIMITS.name },
  email: { kind: 'email' },
  phone: { kind: 'phone' },
  dob: { kind: 'date', past: true },
  offer: { kind: 'id' },
  notes: { kind: 'text', max: LIMITS.notes, multiline: true },
  package: { kind: 'id' },
  newsletter_signup: { kind: 'bool' },
  marketing_preferences: { kind: 'ids' },
  custom_field_value: { kind: 'text', max: 500 },
  partner_source: { kind: 'text', max: LIMITS.label },
  // A change: the manage token of the booking this one replaces (api/manage.ts); never sent upstream.
  replaces: { kind: 'text', max: 600 },
  // Accepted for compatibility and then overridden: a widget's booking is always `partner`.
  source: { kind: 'text', max: 50 },
};

/**
 * Keys dropped, not forwarded: an availability answer's bookingDetails that the widget may echo,
 * and the bot check's fields (read by bot-check.ts).
 */
const ECHOED = ['venue_group', 'payments', HONEYPOT, PROOF, TURNSTILE];

/** Client-chosen idempotency keys: a UUID or similar opaque token. */
const KEY_RE = /^[A-Za-z0-9_.:-]{8,128}$/;

/**
 * What an answer given before the Idempotency-Key is compared may say of `stored`: false when the
 * request has no valid key or the store holds nothing under it; 'unknown' when a booking under the
 * key was stored (or is running) or the store cannot tell, since the guest may be retrying it.
 */
export async function storedBefore(ctx: ProxyContext, request: Request): Promise<false | 'unknown'> {
  const key = request.headers.get('idempotency-key');
  if (key === null || !KEY_RE.test(key)) return false;
  return (await ctx.state.heldKey(key)) === false ? false : 'unknown';
}

/** The Idempotency-Key of a request, refused (400, nothing stored) when it is not a valid one. */
function idempotencyKey(c: Context): string | undefined {
  const key = c.req.header('idempotency-key');
  if (key === undefined || KEY_RE.test(key)) return key;
  throw new ProxyError(400, 'The Idempotency-Key header is not valid', {
    stored: false,
    errors: [
      {
        code: 'invalid_idempotency_key',
        message: 'Use 8 to 128 letters, digits or - _ . :',
        fields: ['Idempotency-Key'],
      },
    ],
  });
}

/**
 * The upstream body of a booking request: the documented fields validated, `source` forced to
 * `partner`, `partner_source` from the settings or the widget. A refusal says whether an earlier
 * booking under the request's key may be stored.
 */
async function bookingBody(ctx: ProxyContext, c: Context): Promise<Record<string, unknown>> {
  const request = c.req.raw;
  const refuseBeforeKey = async (error: unknown): Promise<never> => {
    if (error instanceof ProxyError)
      throw new ProxyError(error.status, error.message, {
        ...error.options,
        stored: await storedBefore(ctx, request),
      });
    throw error;
  };
  const input = await jsonBody(c).catch(refuseBeforeKey);
  const { values, errors } = readFields(input, BOOKING, { drop: ECHOED });
  if (errors.length) throwIfInvalid(errors, await storedBefore(ctx, request));
  if (!(await ctx.venueAllowed(values.venue_id as string))) {
    throw new ProxyError(400, 'This venue is not available here', {
      stored: await storedBefore(ctx, request),
      errors: [{ code: 'unknown_venue', message: 'This venue is not available here', fields: ['venue_id'] }],
    });
  }
  const body: Record<string, unknown> = { ...values, source: 'partner' };
  const partnerSource = ctx.config.partnerSource ?? values.partner_source;
  if (partnerSource === undefined) delete body.partner_source;
  else body.partner_source = partnerSource;
  return body;
}

/**
 * Whether a booking request is one the route would send (a valid key, valid fields, a venue served
 * here, a bot check passed): the client limits count only those against the client's bookings, so
 * an invalid one (400) or a bot's (a decoy) never spends a booking slot.
 */
export async function bookingValid(ctx: ProxyContext, c: Context): Promise<boolean> {
  try {
    idempotencyKey(c);
    const input = await jsonBody(c);
    const { errors, values } = readFields(input, BOOKING, { drop: ECHOED });
    if (errors.length || !(await ctx.venueAllowed(values.venue_id as string))) return false;
    return !ctx.config.botCheck || (await judgeBooking(ctx, input, ctx.clientOf(c))) === 'passed';
  } catch {
    return false;
  }
}

/**
 * Makes the booking upstream: the answer to send (and keep for repeats of its key), `stored` always
 * said. A booking made is counted by venue and `source` (where it came from) for `/status`.
 */
async function placeBooking(
  ctx: ProxyContext,
  path: string,
  body: Record<string, unknown>,
  source: string,
  origin: string,
): Promise<StoredAnswer> {
  const venue = body.venue_id as string;
  await ctx.budget.take('booking');
  const answer = await ctx.upstream.call('POST', '/bookings', '', body);
  if (!answer.ok) {
    const stored = answer.mayHaveActed ? 'unknown' : false;
    const relayed = faultRelay(path, 'POST', answer, stored);
    ctx.logger.log({ level: 'warn', msg: 'booking failed', venue, fault: answer.kind, stored: String(stored) });
    ctx.config.metrics.booking('failed');
    const unsettled = stored === 'unknown';
    return { status: relayed.status, body: relayed.text, headers: relayed.headers ?? {}, keep: unsettled, unsettled };
  }
  if (answer.status >= 300) {
    ctx.config.metrics.booking('refused');
    const where = { route: 'POST /bookings', status: answer.status };
    const payload = {
      ...guestError(answer.body.payload, 'The booking was not accepted', ctx.logger, where),
      stored: false,
    };
    return {
      status: answer.status,
      body: envelopeText(path, 'POST', answer.status, payload),
      headers: {},
      keep: false,
    };
  }
  // The date's final checks no longer vouch for its slots; its early reads stay shared (read-through.ts).
  await ctx.state.bump(bookedScope(dateScope(venue, body.date as string)!));
  ctx.logger.log({ level: 'info', msg: 'booking created', venue, status: answer.status });
  const reduced = bookingAnswer(answer.body.payload);
  // The guest's own link to the booking: kept with the answer, so a repeat of its key gets it too.
  const manage = await manageUrl(ctx, origin, answer.body.payload, body);
  if (manage) reduced.manage_url = manage;
  const outcome = isConfirmed(reduced as Parameters<typeof isConfirmed>[0]) ? 'confirmed' : 'enquiry';
  ctx.config.metrics.booking(outcome);
  await keepCount(ctx, { venue, source, outcome });
  return {
    status: answer.status,
    body: envelopeText(path, 'POST', answer.status, reduced),
    headers: {},
    keep: true,
  };
}

/** `POST /api/bookings`: at most one upstream booking per Idempotency-Key. */
export async function book(ctx: ProxyContext, c: Context): Promise<Response> {
  const path = urlOf(c.req.raw).pathname;
  const key = idempotencyKey(c);
  const body = await bookingBody(ctx, c);
  // A change names the booking it replaces: checked before anything is booked, never sent upstream.
  const replaces = typeof body.replaces === 'string' ? body.replaces : undefined;
  delete body.replaces;
  const replaced = replaces === undefined ? undefined : await replacedBooking(ctx, replaces, body, key);
  // Before any slot or upstream call: a bot gets its decoy; the proof is spent by this key.
  const input = await jsonBody(c);
  const decoy = await botAnswer(
    ctx,
    path,
    input,
    ctx.clientOf(c),
    key ?? crypto.randomUUID(),
    c.req.header('origin') ?? null,
    urlOf(c.req.raw).origin,
  );
  if (decoy) return ctx.send(c, decoy);
  const source = bookingSource(ctx, c.req.raw);
  const origin = urlOf(c.req.raw).origin;
  const work = () => placeBooking(ctx, path, body, source, origin);
  if (key === undefined) {
    const answer = await work();
    return ctx.send(c, { status: answer.status, text: answer.body, headers: answer.headers });
  }
  // The fingerprint binds the key to the details and to the client that sent them (its key goes
  // into the hash, never into the store), so another address with the same key and details gets
  // 409, not the first guest's answer.
  // The reference a key books is its own: no other key's reconciliation may adopt it (reconcile.ts).
  const workClaimed = async () => {
    const answer = await work();
    await claimReference(ctx, key, answer);
    return answer;
  };
  const result = await ctx.state.idempotent(
    key,
    await fingerprintOf(
      `${ctx.clientOf(c)}\n${JSON.stringify(body, Object.keys(body).sort())}${replaces ? `\n${replaces}` : ''}`,
    ),
    workClaimed,
    bookingReconciler(ctx, key, path, body),
  );
  if ('conflict' in result) {
    // The key holds another booking (other details, or another client's): this request made
    // none, but the guest's earlier one under this key may be stored, so `stored` is not false.
    throw new ProxyError(409, 'This Idempotency-Key was already used for another booking', {
      stored: 'unknown',
      errors: [
        {
          code: 'idempotency_key_reused',
          message: 'Use a new Idempotency-Key for a different booking',
          fields: ['Idempotency-Key'],
        },
      ],
    });
  }
  const { answer, replayed } = result;
  if (replayed) ctx.config.metrics.booking('replayed');
  // The old booking is cancelled once the new one is confirmed: after the key's answer, on its
  // first run and on every repeat alike, so a change cut off before its cancel completes on retry.
  const text = replaced ? await replaceSettled(ctx, replaced, answer, c) : answer.body;
  return ctx.send(
    c,
    { status: answer.status, text, headers: answer.headers },
    replayed ? { 'Idempotent-Replayed': 'true' } : {},
  );
}
