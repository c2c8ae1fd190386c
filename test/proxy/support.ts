/**
 * Shared helpers of the proxy's Node tests: a recording upstream (every request the proxy makes is
 * kept, so a test can prove that nothing reached the upstream), a scripted upstream for faults, a
 * memory logger, and a check that the API key appears nowhere a client or a log could see it.
 */
import assert from 'node:assert/strict';
import { createProxy, type ProxyApp, type ProxyConfig } from '../../proxy/app.js';
import type { LogEntry, Logger } from '../../proxy/core/log.js';
import { withProof } from '../support/bot-proof.js';

export { fetchWithProof, withProof } from '../support/bot-proof.js';

export const APP_ID = 'test-app';
export const API_KEY = 'k3y-MUST-never-LEAK-7f3a9c';
export const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
export const OTHER_VENUE = '64a1f0c2e4b0a1b2c3d4e502';
export const FOREIGN_VENUE = '64a1f0c2e4b0a1b2c3d4e599';
export const GROUP = '64a1f0c2e4b0a1b2c3d4e500';
export const TYPE = '64a1f0c2e4b0a1b2c3d4e601';
export const ORIGIN = 'https://venue.example';
export const BASE = 'http://proxy.test';

/** A logger that keeps every line. */
export function memoryLogger(): Logger & { lines: LogEntry[] } {
  const lines: LogEntry[] = [];
  return { lines, log: (entry) => void lines.push(entry) };
}

/** What a scripted upstream answers: a Response, or a thrown error (unreachable). */
export type Script = (request: Request, body: string) => Response | Promise<Response>;

/** An enveloped upstream answer. */
export function upstreamJson(payload: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(
    { payload, status, url: 'http://upstream.internal/v4/x', params: { secret: 'nothing' } },
    { status, headers },
  );
}

/** The default script: a plausible availability answer for any path. */
export const okScript: Script = () =>
  upstreamJson({ valid: true, action: 'accept', next: { api: 'http://upstream.internal/v4/bookings' } });

/** A proxy over a recording upstream. */
export function recordingProxy(overrides: Partial<ProxyConfig> = {}, script: Script = okScript) {
  const calls: { method: string; url: string; headers: Headers; body: string }[] = [];
  const logger = memoryLogger();
  const proxy: ProxyApp = createProxy({
    upstream: 'http://upstream.internal/v4',
    appId: APP_ID,
    apiKey: API_KEY,
    venues: [VENUE, OTHER_VENUE],
    origins: [ORIGIN],
    rateLimit: { limit: 100_000, windowMs: 60_000 },
    bookingRateLimit: { limit: 100_000, windowMs: 60_000 },
    logger,
    returnPages: { [VENUE]: 'https://venue.example/thanks' },
    bookingSite: 'https://book.example/book',
    publicUrl: BASE,
    // The bot check stays on, as guests get it, with little work per proof (`send` solves one per booking).
    botWork: 100,
    fetch: async (request) => {
      const body = await request.text();
      calls.push({ method: request.method, url: request.url, headers: request.headers, body });
      return script(request, body);
    },
    ...overrides,
  });
  /** Sends a request to the proxy as it is (path relative to BASE). */
  const sendAsIs = (path: string, init: RequestInit = {}) =>
    proxy.fetch(new Request(path.startsWith('http') ? path : `${BASE}${path}`, init));
  /** Sends a request to the proxy (path relative to BASE); a booking carries a proof, as the widget's does. */
  const send = async (path: string, init: RequestInit = {}) => sendAsIs(path, await withProof(sendAsIs, path, init));
  return { proxy, calls, logger, send, sendAsIs };
}

/** JSON POST init. */
export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** Asserts that the key is in no header, no body and no log line. Returns the body text. */
export async function assertNoLeak(response: Response, logger: { lines: LogEntry[] }): Promise<string> {
  const text = await response.text();
  assert.ok(!text.includes(API_KEY), 'key leaked in the body');
  for (const [name, value] of response.headers)
    assert.ok(!value.includes(API_KEY) && !name.includes(API_KEY), `key leaked in header ${name}`);
  for (const line of logger.lines) assert.ok(!JSON.stringify(line).includes(API_KEY), 'key leaked in a log line');
  return text;
}

/** A booking body the proxy accepts. */
export function validBooking(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    venue_id: VENUE,
    type: TYPE,
    date: '2030-06-01',
    time: '19:00',
    num_people: 2,
    duration: 120,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: '07700 900123',
    ...extra,
  };
}
