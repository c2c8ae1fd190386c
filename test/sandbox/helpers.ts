/**
 * Test helpers: a sandbox with a fixed clock and a tiny HTTP client over `sandbox.fetch`, so every
 * conformance test goes through real Requests and Responses (no internals). Every answer, whether
 * through the client or `sandbox.fetch` directly, is checked against the sandbox's OpenAPI document.
 */
import { createSandbox, SANDBOX_APP, SANDBOX_CONFIRM_APP, SEED_IDS, type SandboxOptions } from '../../sandbox/app.js';
import { checkAnswer } from './openapi-answers.js';

/** Friday 20 March 2026, 10:00 in London (GMT). */
export const NOW = '2026-03-20T10:00:00Z';
export const IDS = SEED_IDS;
export const V1 = IDS.venues.quayside;
export const V2 = IDS.venues.cellar;
export const V3 = IDS.venues.kitchen;
export const T = IDS.types;
export const ADMIN = { id: 'sandbox-admin', key: 'sandbox-admin-key' };
export const READONLY = { id: 'sandbox-readonly', key: 'sandbox-readonly-key' };
export const KITCHEN = { id: 'sandbox-kitchen', key: 'sandbox-kitchen-key' };
export const OUTSIDER = { id: 'sandbox-outsider', key: 'sandbox-outsider-key' };
export const WIDGET = SANDBOX_APP;
/** The widget's app without the capability to manage bookings (a cancel is 403). */
export const CONFIRM = SANDBOX_CONFIRM_APP;

/** A parsed response. */
export interface Res<P = any> {
  status: number;
  headers: Headers;
  body: any;
  payload: P;
  text: string;
}

/** Creates a sandbox (fixed clock by default) and a client acting as `as` (the widget app by default). */
export function setup(options: SandboxOptions = {}, as: { id: string; key: string } | null = WIDGET) {
  const sandbox = createSandbox({ now: NOW, ...options });
  // The one hook every request goes through: each answer must match the OpenAPI document.
  const unchecked = sandbox.fetch;
  sandbox.fetch = async (request: Request) => {
    const response = await unchecked(request.clone());
    await checkAnswer(request, response.clone());
    return response;
  };
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    app = as,
  ): Promise<Res> => {
    const h: Record<string, string> = { ...headers };
    if (app) h.authorization = `${app.id}:${app.key}`;
    let payload: BodyInit | undefined;
    if (body !== undefined) {
      if (typeof body === 'string') payload = body;
      else {
        payload = JSON.stringify(body);
        h['content-type'] ??= 'application/json';
      }
    }
    // The controls answer a loopback Host only (control.ts).
    const base = options.control ? 'http://localhost:8787' : 'http://sandbox.test';
    const res = await sandbox.fetch(new Request(`${base}${path}`, { method, headers: h, body: payload }));
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, payload: parsed?.payload, text };
  };
  return {
    sandbox,
    request,
    get: (path: string, app?: { id: string; key: string } | null) =>
      request('GET', path, undefined, {}, app === undefined ? as : app),
    post: (path: string, body?: unknown, app?: { id: string; key: string } | null) =>
      request('POST', path, body ?? {}, {}, app === undefined ? as : app),
    del: (path: string, app?: { id: string; key: string } | null) =>
      request('DELETE', path, undefined, {}, app === undefined ? as : app),
  };
}

/** Query string from an object (arrays repeat the key). */
export function qs(params: Record<string, string | number | boolean | (string | number)[] | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  }
  return q.toString();
}

/** Availability path of a venue with query parameters. */
export const avail = (venue: string, params: Parameters<typeof qs>[0] = {}) =>
  `/v4/venues/${venue}/booking-availability?${qs(params)}`;

/** A valid POST /bookings body for the main demo venue, overridable. */
export function bookingBody(over: Record<string, unknown> = {}) {
  return {
    source: 'partner',
    first_name: 'Test',
    last_name: 'Guest',
    email: 'test.guest@example.com',
    phone: '07700900999',
    venue_id: V1,
    type: T.table,
    num_people: 2,
    date: '2026-03-23',
    time: '19:00',
    duration: 120,
    ...over,
  };
}
