/**
 * Rebuilds upstream answers for the client. Nothing of the upstream's response passes by
 * reference: the envelope is rebuilt (our path, no upstream URL, no echoed params, no `revision`),
 * no upstream header is copied, error payloads are reworded (errors.ts), and the
 * serialized text is checked for the API key before it leaves.
 */
import { envelopeText } from '../core/envelope.js';
import type { Relayed } from '../state/types.js';
import type { Fault } from './client.js';

/**
 * Stands in for the proxy's booking URL in cached availability answers; replaced per request by
 * the proxy's public address, so one cache entry serves every host name the proxy answers on.
 */
export const BOOKING_URL_SENTINEL = '__venue_booking_proxy_booking_url__';
const SENTINEL_JSON = JSON.stringify(BOOKING_URL_SENTINEL);

/** The relayed form of an upstream fault (never cached). */
export function faultRelay(path: string, method: string, fault: Fault, stored?: boolean | 'unknown'): Relayed {
  const payload: Record<string, unknown> = { message: fault.message, errors: [] };
  if (stored !== undefined) payload.stored = stored;
  return {
    status: fault.status,
    text: envelopeText(path, method, fault.status, payload),
    headers: fault.retryAfterS ? { 'Retry-After': String(fault.retryAfterS) } : undefined,
  };
}

/** How a relayed answer is sent: for which booking URL, guarding which key. */
export interface SendOptions {
  bookingUrl: string;
  apiKey: string;
  headers?: Record<string, string>;
  onLeak: () => void;
}

/** A relayed answer's body as sent for one booking URL: encoded once, scanned for the key once. */
export interface Prepared {
  bookingUrl: string;
  apiKey: string;
  bytes: Uint8Array<ArrayBuffer>;
  leaked: boolean;
}

// Cached answers are sent many times with the same booking URL: the sentinel substitution, the key
// scan and the UTF-8 encoding are done once per (answer, booking URL), not once per hit. The
// relayed text never changes after it is built, so the prepared body stays right for its life.
const prepared = new WeakMap<Relayed, Prepared>();
const encoder = new TextEncoder();

/** A relayed answer's body as sent for `bookingUrl`, and whether the key had to be redacted from it. */
export function prepare(relayed: Relayed, bookingUrl: string, apiKey: string): Prepared {
  const kept = prepared.get(relayed);
  if (kept && kept.bookingUrl === bookingUrl && kept.apiKey === apiKey) return kept;
  let body = relayed.text;
  if (body.includes(SENTINEL_JSON)) body = body.split(SENTINEL_JSON).join(JSON.stringify(bookingUrl));
  const leaked = apiKey.length >= 4 && body.includes(apiKey);
  if (leaked) body = body.split(apiKey).join('[redacted]');
  const fresh: Prepared = { bookingUrl, apiKey, bytes: encoder.encode(body), leaked };
  prepared.set(relayed, fresh);
  return fresh;
}

/** A relayed answer as sent, before the middleware's headers: status, body and its own headers. */
export interface Sent {
  status: number;
  body: Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
  /** Whether the key had to be redacted from the body. */
  leaked: boolean;
}

/** A relayed answer as sent: the booking URL filled in, the key never leaked. */
export function sent(relayed: Relayed, options: SendOptions): Sent {
  const { bytes, leaked } = prepare(relayed, options.bookingUrl, options.apiKey);
  // Reported on every answer that needed it, not only the first time its body was prepared.
  if (leaked) options.onLeak();
  return {
    status: relayed.status,
    body: bytes,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...relayed.headers,
      ...options.headers,
    },
    leaked,
  };
}
