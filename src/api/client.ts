/**
 * The widget's only door to the network: a ky client for the proxy's `/api`.
 *
 * Every call is abortable (the caller's signal) and bounded (a per-attempt timeout), and every
 * failure becomes an `ApiError` whose `kind` tells the UI what to say and whether retrying helps.
 * GETs retry once on network faults and gateway errors (502/503/504); POSTs are never retried by
 * ky (a retry of a booking is the guest's decision and reuses its Idempotency-Key).
 */
import ky, { HTTPError, TimeoutError } from 'ky';
import type { Choices } from './normalize.js';
import type {
  BookingRequest,
  Envelope,
  WireAvailability,
  WireBookingCreated,
  WireBookingRules,
  WireErrorPayload,
  WireOffer,
  WireVenue,
} from './types.js';

/** What went wrong, in the terms the widget shows the guest. */
export type ApiErrorKind = 'network' | 'timeout' | 'rate-limited' | 'server' | 'invalid' | 'aborted';

/** A failed call to the proxy, with what the UI needs to explain it. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status: number | null = null,
    /** The error payload in the service's envelope, when there was one. */
    readonly payload: WireErrorPayload | null = null,
  ) {
    super(message);
  }

  /** Whether trying the same call again can succeed. */
  get retryable(): boolean {
    return this.kind !== 'invalid' && this.kind !== 'aborted';
  }

  /**
   * Whether the proxy refused the page's site (`forbidden_origin`: its origin is not in
   * `VENUE_BOOKING_ORIGINS`): nothing the guest does helps, and the site's owner must act.
   */
  get siteRefused(): boolean {
    return this.status === 403 && Boolean(this.payload?.errors?.some((error) => error.code === 'forbidden_origin'));
  }
}

/** Options for `createApiClient`. */
export interface ApiClientOptions {
  /** Base URL of the proxy's `/api`, absolute or relative to the page. */
  base: string;
  /** Per-attempt timeout in milliseconds (default 15 s: the live service can take a second or two). */
  timeout?: number;
  /** The fetch to use; the test seam, and a way to add headers in a partner's app. */
  fetch?: typeof fetch;
}

/** Query values for availability: the choices, the widget's flags and the `fields=` asked for. */
export type AvailabilityQuery = Choices & { getOffers?: boolean; fields?: string };

/**
 * The client of one proxy: a GET's payload, or the body of the proxy's own JSON (`read`, its path
 * under the proxy's base; the typed reads below give each endpoint its path and shape) and the
 * booking's POST.
 */
export interface ApiClient {
  read<T>(path: string, signal?: AbortSignal, query?: object): Promise<T>;
  createBooking(body: BookingRequest, idempotencyKey: string, signal?: AbortSignal): Promise<WireBookingCreated>;
}

/** Turns whatever ky or fetch threw into an `ApiError`; the error body is read defensively. */
async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof DOMException && error.name === 'AbortError') return new ApiError('aborted', 'Aborted');
  if (error instanceof TimeoutError) return new ApiError('timeout', 'The booking service took too long to answer.');
  if (!(error instanceof HTTPError)) return new ApiError('network', 'The booking service could not be reached.');
  const status = error.response.status;
  // The body when it is JSON; anything else (a gateway page, a cut body) leaves `payload` null: the
  // status says enough.
  const data = (await error.response.json().catch(() => undefined)) as Partial<Envelope<WireErrorPayload>> | undefined;
  const payload =
    data && typeof data === 'object' && data.payload && typeof data.payload === 'object' ? data.payload : null;
  const message = payload?.message ?? `The booking service answered ${status}.`;
  if (status === 429) return new ApiError('rate-limited', message, status, payload);
  if (status >= 500) return new ApiError('server', message, status, payload);
  return new ApiError('invalid', message, status, payload);
}

/** Query values as strings, leaving out the unset ones. */
function searchParams(query: object = {}): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params[key] = String(value);
  }
  return params;
}

/** Creates the typed client for one proxy base URL. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = new URL(options.base.replace(/\/?$/, '/'), globalThis.location?.href ?? 'http://localhost/').href;
  const http = ky.create({
    prefixUrl: base,
    timeout: options.timeout ?? 15_000,
    retry: { limit: 1, methods: ['get'], statusCodes: [502, 503, 504] },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  // The service's envelope gives its payload; the proxy's own JSON (the venue profile) is its body.
  async function call<T>(run: () => Promise<Envelope<T>>): Promise<T> {
    try {
      const body = await run();
      return body.payload ?? (body as T);
    } catch (error) {
      throw await toApiError(error);
    }
  }

  return {
    read: (path, signal, query) => call(() => http.get(path, { searchParams: searchParams(query), signal }).json()),
    createBooking(body, idempotencyKey, signal) {
      return call(() =>
        http.post('bookings', { json: body, headers: { 'Idempotency-Key': idempotencyKey }, signal }).json(),
      );
    },
  };
}

// The typed reads, one per endpoint of the proxy's `/api`: functions of the client rather than its
// methods, so the bundle names each briefly and leaves out those the widget does not call. The
// payloads are read defensively (`?.`): a proxy or gateway may answer without one.

const venuePath = (venue: string, suffix = '') => `venues/${encodeURIComponent(venue)}${suffix}`;

export const readAvailability = (client: ApiClient, venue: string, query: AvailabilityQuery, signal?: AbortSignal) =>
  client.read<WireAvailability>(venuePath(venue, '/booking-availability'), signal, query);

/** A venue group's venues: ids and paths only (spec §4.9). */
export const readVenueGroup = (client: ApiClient, group: string, signal?: AbortSignal) =>
  client
    .read<{ pages?: WireVenue[] }>('venues', signal, { venue_group: group })
    .then((payload) => payload?.pages ?? []);

/** A venue's record, asked with its booking types only: the smallest settings that carry its title. */
export const readVenue = (client: ApiClient, venue: string, signal?: AbortSignal) =>
  client
    .read<{ venue?: WireVenue }>(venuePath(venue), signal, { fields: 'booking_types' })
    .then((payload) => payload?.venue);

/** Every visible offer of a venue. */
export const readOffers = (client: ApiClient, venue: string, signal?: AbortSignal) =>
  client
    .read<WireOffer[] | { offers?: WireOffer[] }>(venuePath(venue, '/offers'), signal)
    .then((payload) => (Array.isArray(payload) ? payload : (payload?.offers ?? [])));

/** A booking type's rules on a date (its party sizes). */
export const readBookingRules = (
  client: ApiClient,
  venue: string,
  query: { type: string; date: string },
  signal?: AbortSignal,
) => client.read<WireBookingRules>(venuePath(venue, '/booking-rules'), signal, query);
