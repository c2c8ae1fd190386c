/**
 * Answers in the service's envelope (§2.1). The proxy answers every error itself in this shape
 * (`payload.message`, `payload.errors: [{ code, message, fields }]`), so the widget parses one
 * shape whether the refusal came from the proxy or from the upstream.
 */
import type { Envelope, WireErrorPayload, WireFieldError } from '../../src/api/types.js';
import { noteBodySize } from './headers.js';
import { urlOf } from './url.js';
import { redactedPath } from '../paths.js';

/** A field error as the live service sends it; every field of the proxy's errors is filled. */
export type FieldError = Required<Pick<WireFieldError, 'code' | 'fields'>> & { message: string };

/** How a parameter is named in messages a guest may read. */
const LABELS: Record<string, string> = {
  num_people: 'Number of people',
  getOffers: 'getOffers',
  dob: 'Date of birth',
  venue_group: 'Venue group',
  partner_source: 'Partner source',
};
/** A parameter's name as a guest reads it, in the proxy's field errors and in reworded upstream ones. */
export const label = (name: string) =>
  LABELS[name] ?? (name.charAt(0).toUpperCase() + name.slice(1)).replace(/_/g, ' ');

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const london = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

// The last second formatted: `Intl` formatting costs a relayed read more than its JSON does, and
// every envelope of one second carries the same text.
let lastSecond = NaN;
let lastText = '';

/** `YYYY-MM-DDTHH:mm:ss` in London time, the envelope's timestamp form. */
export function londonTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second === lastSecond) return lastText;
  const parts = Object.fromEntries(london.formatToParts(ms).map((part) => [part.type, part.value]));
  lastText = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  lastSecond = second;
  return lastText;
}

/**
 * Builds an enveloped JSON response. `params` is always empty: echoing hostile or personal input
 * back is never useful to the widget.
 */
export function envelopeResponse(request: Request, status: number, payload: unknown, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/json; charset=utf-8');
  h.set('cache-control', 'no-store');
  const text = envelopeText(urlOf(request).pathname, request.method, status, payload);
  return noteBodySize(new Response(text, { status, headers: h }), text);
}

/** Serializes a fresh envelope around `payload`, for the proxy's own answers and relayed ones. */
export function envelopeText(path: string, method: string, status: number, payload: unknown): string {
  const now = londonTimestamp(Date.now());
  const body: Envelope = {
    payload,
    status,
    requestTime: now,
    responseTime: now,
    statusText: STATUS_TEXT[status] ?? 'Error',
    url: redactedPath(path).slice(0, 200),
    method,
    params: [],
  };
  return JSON.stringify(body);
}

/** Options of an error answer. */
export interface ErrorOptions {
  errors?: FieldError[];
  /** Booking routes only: whether the booking may have been stored upstream. */
  stored?: WireErrorPayload['stored'];
  headers?: HeadersInit;
  /** What the guest's side needs to act on the refusal (a manage route's `reason` and the venue's phone). */
  details?: Record<string, unknown>;
}

/** An error answer in the envelope; `errors` is always present so clients can iterate it. */
export function errorResponse(request: Request, status: number, message: string, options: ErrorOptions = {}): Response {
  return envelopeResponse(request, status, errorPayload(message, options), options.headers);
}

/** The payload of an error answer. */
export function errorPayload(message: string, options: ErrorOptions = {}): WireErrorPayload {
  const payload: WireErrorPayload = { message, errors: options.errors ?? [] };
  if (options.stored !== undefined) payload.stored = options.stored;
  if (options.details) Object.assign(payload, { details: options.details });
  return payload;
}

/** An error the route code throws; the app turns it into `errorResponse`. */
export class ProxyError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: ErrorOptions = {},
  ) {
    super(message);
  }
}

/** A 400 listing field errors (thrown when there is at least one). */
export function throwIfInvalid(errors: FieldError[], stored?: WireErrorPayload['stored']): void {
  if (errors.length === 0) return;
  const message = errors.length === 1 ? errors[0]!.message : 'Some details are not valid';
  throw new ProxyError(400, message, { errors, ...(stored === undefined ? {} : { stored }) });
}
