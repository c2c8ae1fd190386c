/**
 * The venue's webhook (`VENUE_BOOKING_WEBHOOK_URL`, `VENUE_BOOKING_WEBHOOK_SECRET`): when a guest
 * cancels or changes a booking online, the venue's own system (its till, its rota, a spreadsheet's
 * script) is told at once, because the service documents no webhooks of its own and the venue's
 * staff would otherwise learn of it only by looking.
 *
 * Each delivery is a JSON POST signed as Stripe signs its webhooks, so a receiver can use the
 * checks it may already have: `Venue-Booking-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" under the secret>`, signed again at each attempt (a receiver refuses old
 * timestamps), and `Venue-Booking-Event-Id`, the same on every attempt of one event (a receiver
 * drops a repeat). A failed attempt (no answer within the timeout, an error, anything but a 2xx, a
 * redirect included: the signature is not sent on to another address) is retried after a wait that
 * grows; after the last one the event is counted `failed`, logged and kept among the last failures
 * that `/status` lists. Nothing personal is sent (no name, email or phone: the event's fields are
 * picked one by one), and neither the secret nor the receiver's path reaches a log line.
 *
 * docs/webhook.md is the receiver's side: the body, the headers and how to check them.
 */
import type { Context } from 'hono';
import type { ProxyContext } from '../context.js';
import type { ResolvedConfig } from '../config.js';
import type { WebhookOutcome } from '../core/metrics.js';

/** What a guest did to a booking, as the venue's system is told: no personal data. */
export interface VenueEvent {
  type: 'booking.cancelled' | 'booking.changed';
  venue_id: string;
  /** The booking's reference (the cancelled one, or the one a change replaced). */
  reference: string;
  /** A change's new booking. */
  new_reference?: string;
  /** The booking's date (YYYY-MM-DD) and time (HH:mm), venue time. */
  date: string;
  time: string;
  people: number;
  /** The booking type's id. */
  booking_type: string;
}

/** The header that carries the signature. */
export const SIGNATURE_HEADER = 'Venue-Booking-Signature';
/** The header that names the event, the same on each attempt. */
export const EVENT_ID_HEADER = 'Venue-Booking-Event-Id';
/** How many failures `/status` may list, the newest first. */
const KEPT_FAILURES = 20;

/** One event the venue's webhook never took, as `/status` lists it (nothing personal). */
export interface WebhookFailure {
  /** When the last attempt failed, epoch ms. */
  at: number;
  id: string;
  type: VenueEvent['type'];
  venue_id: string;
  reference: string;
  attempts: number;
  /** Why the last attempt failed: `timeout`, `unreachable`, or `http_<status>`. */
  reason: string;
}

/** The last failures of each proxy instance, by its resolved config (one per `createProxy`). */
const failuresOf = new WeakMap<ResolvedConfig, WebhookFailure[]>();

/**
 * The events this proxy instance gave up on, the newest first (at most 20): what `/status` lists,
 * so the operator sees that the venue's system missed a cancel without reading logs. Kept in
 * memory: an instance's own, gone with a restart, as its counters are.
 */
export function recentWebhookFailures(ctx: ProxyContext): readonly WebhookFailure[] {
  return failuresOf.get(ctx.config) ?? [];
}

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** The signature header's value for `body` sent at `seconds` (Unix time). */
export async function webhookSignature(secret: string, seconds: number, body: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${seconds}.${body}`));
  return `t=${seconds},v1=${hex(mac)}`;
}

/** The event's fields, picked one by one: whatever else a caller's object holds is never sent. */
function dataOf(event: VenueEvent): Omit<VenueEvent, 'type'> {
  return {
    venue_id: event.venue_id,
    reference: event.reference,
    ...(event.new_reference ? { new_reference: event.new_reference } : {}),
    date: event.date,
    time: event.time,
    people: event.people,
    booking_type: event.booking_type,
  };
}

/** One attempt: the receiver's 2xx, or why not. */
async function attempt(
  config: ResolvedConfig,
  url: string,
  secret: string,
  id: string,
  body: string,
): Promise<string | null> {
  const seconds = Math.floor(config.now() / 1000);
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      // A redirect is a failure: the signed body goes to the address the operator set, no other.
      redirect: 'manual',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'venue-booking-proxy',
        [EVENT_ID_HEADER]: id,
        [SIGNATURE_HEADER]: await webhookSignature(secret, seconds, body),
      },
      signal: AbortSignal.timeout(config.webhookTimeoutMs),
    });
    // The receiver's body says nothing the proxy uses; it is dropped so the connection is freed.
    await response.body?.cancel().catch(() => undefined);
    return response.status >= 200 && response.status < 300 ? null : `http_${response.status}`;
  } catch (error) {
    const name = (error as Error).name;
    return name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unreachable';
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : resolve()));

/** Delivers one event, attempt after attempt; never throws. */
async function deliver(ctx: ProxyContext, event: VenueEvent, url: string, secret: string): Promise<void> {
  const { config, logger } = ctx;
  const id = `evt_${hex(crypto.getRandomValues(new Uint8Array(12)))}`;
  const body = JSON.stringify({ id, type: event.type, created: Math.floor(config.now() / 1000), data: dataOf(event) });
  // The receiver's host only: its path or query may carry a token of its own.
  const host = new URL(url).host;
  const count = (outcome: WebhookOutcome) => config.metrics.count('webhook_deliveries_total', { outcome });
  const delays = config.webhookRetryDelaysMs;
  for (let tries = 1; ; tries++) {
    const reason = await attempt(config, url, secret, id, body);
    if (reason === null) {
      count('delivered');
      logger.log({ level: 'info', msg: 'webhook delivered', event: id, type: event.type, attempts: tries, host });
      return;
    }
    if (tries > delays.length) {
      count('failed');
      logger.log({ level: 'error', msg: 'webhook failed', event: id, type: event.type, attempts: tries, reason, host });
      const kept = failuresOf.get(config) ?? [];
      kept.unshift({
        at: config.now(),
        id,
        type: event.type,
        venue_id: event.venue_id,
        reference: event.reference,
        attempts: tries,
        reason,
      });
      failuresOf.set(config, kept.slice(0, KEPT_FAILURES));
      return;
    }
    count('retried');
    logger.log({
      level: 'warn',
      msg: 'webhook attempt failed',
      event: id,
      type: event.type,
      attempt: tries,
      reason,
      host,
    });
    await wait(delays[tries - 1]!);
  }
}

/**
 * Tells the venue's webhook of `event`, when one is set (else does nothing). The promise settles
 * when the event is delivered or given up (up to 25 s with the defaults) and never rejects: a
 * route answers the guest without waiting for it. With the route's Hono context `c`, a Worker
 * keeps the delivery alive past the answer (`waitUntil`); Node simply runs it on.
 */
export function sendVenueEvent(ctx: ProxyContext, event: VenueEvent, c?: Context): Promise<void> {
  const { webhookUrl, webhookSecret } = ctx.config;
  if (!webhookUrl || !webhookSecret) return Promise.resolve();
  const delivery = deliver(ctx, event, webhookUrl, webhookSecret).catch((error: unknown) => {
    ctx.logger.log({ level: 'error', msg: 'webhook not sent', error: (error as Error).name });
  });
  if (c) {
    try {
      c.executionCtx.waitUntil(delivery);
    } catch {
      // Not a Worker: the delivery simply runs on.
    }
  }
  return delivery;
}
