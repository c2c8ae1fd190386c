/**
 * The widget's only door to the network: a small fetch client for the proxy's `/api`.
 *
 * Every call is abortable (the caller's signal) and bounded (a per-attempt timeout), and every
 * failure becomes an `ApiError` whose `kind` tells the UI what to say and whether retrying helps.
 * GETs retry once on network faults and gateway errors (502/503/504); POSTs are never retried here
 * (a retry of a booking is the guest's decision and reuses its Idempotency-Key).
 *
 * Why not ky: ky 2 alone weighed about 25 KB minified, most of the 30 KiB gzip budget's headroom;
 * the widget needs only this much of it, written on the platform's `fetch` and `AbortSignal`.
 */
import type { Choices } from './normalize.js';
import type { BookingRequest, Envelope, WireAvailability, WireBookingCreated, WireErrorPayload } from './types.js';

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

/** Query and body values for availability: the choices plus the widget's flags. */
export type AvailabilityQuery = Choices & { getOffers?: boolean };

/** The typed calls the widget makes. */
export interface ApiClient {
  availability(venue: string, query: AvailabilityQuery, signal?: AbortSignal): Promise<WireAvailability>;
  createBooking(body: BookingRequest, idempotencyKey: string, signal?: AbortSignal): Promise<WireBookingCreated>;
  get<T>(path: string, searchParams?: Record<string, string | number | boolean | undefined>, signal?: AbortSignal): Promise<T>;
}

/** Gateway statuses worth one more try of a GET. */
const RETRY_STATUSES = [502, 503, 504];

async function errorOf(response: Response): Promise<ApiError> {
  const status = response.status;
  let payload: WireErrorPayload | null = null;
  try {
    const body = (await response.json()) as Partial<Envelope<WireErrorPayload>>;
    if (body && typeof body.payload === 'object' && body.payload) payload = body.payload;
  } catch {
    // Not JSON (a gateway page): the status says enough.
  }
  const message = payload?.message ?? `The booking service answered ${status}.`;
  if (status === 429) return new ApiError('rate-limited', message, status, payload);
  if (status >= 500) return new ApiError('server', message, status, payload);
  return new ApiError('invalid', message, status, payload);
}

/** Creates the typed client for one proxy base URL. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = new URL(options.base.replace(/\/?$/, '/'), globalThis.location?.href ?? 'http://localhost/').href;
  const timeout = options.timeout ?? 15_000;
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function request<T>(method: 'GET' | 'POST', path: string, init: { query?: object; json?: unknown; headers?: Record<string, string>; signal?: AbortSignal }): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), base);
    for (const [key, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
    if (init.json !== undefined) headers['Content-Type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      const retry = method === 'GET' && attempt === 0;
      const timer = AbortSignal.timeout(timeout);
      const signal = init.signal ? AbortSignal.any([init.signal, timer]) : timer;
      let response: Response;
      try {
        response = await send(url, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json), signal });
      } catch (error) {
        if (init.signal?.aborted) throw new ApiError('aborted', 'Aborted');
        if (timer.aborted) throw new ApiError('timeout', 'The booking service took too long to answer.');
        if (retry) continue;
        throw new ApiError('network', error instanceof Error ? error.message : 'The booking service could not be reached.');
      }
      if (response.ok) {
        const envelope = (await response.json()) as Envelope<T>;
        return envelope.payload;
      }
      if (retry && RETRY_STATUSES.includes(response.status)) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (init.signal?.aborted) throw new ApiError('aborted', 'Aborted');
        continue;
      }
      throw await errorOf(response);
    }
  }

  return {
    availability(venue, query, signal) {
      return request('GET', `venues/${encodeURIComponent(venue)}/booking-availability`, { query, signal });
    },
    createBooking(body, idempotencyKey, signal) {
      return request('POST', 'bookings', { json: body, headers: { 'Idempotency-Key': idempotencyKey }, signal });
    },
    get(path, searchParams, signal) {
      return request('GET', path, { query: searchParams, signal });
    },
  };
}
