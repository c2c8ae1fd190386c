/**
 * Scenarios: the situations a partner's client must handle, on request and without a restart.
 *
 * A request picks one with `Prefer: scenario=<name>` (as Prism uses `Prefer`), and may add
 * `latency=<ms>`; a sandbox may be given a default (`scenario` option, `--scenario` flag, or the
 * seed's `scenario`). The answer says which applied in `Preference-Applied`. The data-shaping
 * scenarios change the computation (availability, handling, the hosted page), never the seed; the
 * transport ones (429, 503, latency, a lost answer) wrap the request.
 */

import { ApiError } from './http.js';

/** What a data-shaping scenario changes in the computation. */
export interface ScenarioEffects {
  /** Every start time counts as full: `may_enquire`, and a booking becomes an enquiry. */
  fullyBooked?: boolean;
  /** Every type takes at least this deposit a head (pounds): `depositRequired`, `next` holds only `web`. */
  depositPerPerson?: number;
  /** Every type takes card details (a £0 check); a no-show may be charged up to this a head (pounds): `depositRequired`, `next` holds only `web`. */
  noShowCharge?: number;
  /** No type confirms automatically: `enquire`, and a booking is `received`. */
  enquiryOnly?: boolean;
  /** The key may not manage bookings, whatever its capabilities: a cancel (status `rejected`) is 403. */
  cannotManage?: boolean;
}

/** One scenario: what it does (for the README, the OpenAPI document and errors) and how. */
export interface Scenario {
  doc: string;
  effects?: ScenarioEffects;
  /** Answer with this status instead of running the request (nothing is applied). */
  refuse?: 429 | 503;
  /** Milliseconds to wait before answering (the `latency` preference overrides it). */
  latency?: number;
  /** Run the request (a booking is stored), then lose the answer: a 504 gateway page. */
  loseAnswer?: boolean;
}

/** Seconds a refused request is told to wait (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 30;

/** The scenario table. */
export const SCENARIOS = {
  'fully-booked': {
    doc: 'Every start time is full: suggestions and the action say may_enquire, and POST /bookings stores an enquiry (bookingStatus received).',
    effects: { fullyBooked: true },
  },
  'deposit-required': {
    doc: 'Every booking type takes a deposit (at least £10 a head): depositRequired is true, next holds only web, a submission through the API URL is refused (web_required), and the hosted page asks for the deposit.',
    effects: { depositPerPerson: 10 },
  },
  'card-check': {
    doc: 'Every booking type takes card details, a £0 check that is not a charge: depositRequired is true, next holds only web, and booking-rules’ booking_notes states that a no-show may be charged up to £20 a head.',
    effects: { noShowCharge: 20 },
  },
  'enquiry-only': {
    doc: 'No booking type confirms automatically: the action is enquire, and POST /bookings answers bookingStatus received.',
    effects: { enquiryOnly: true },
  },
  'cannot-manage': {
    doc: 'The key lacks the capability to manage the venue’s bookings, whatever it holds: a status change to or from rejected, deleted or lost (a cancel) and replacing assigned areas are 403; bookings are still made, read and confirmed.',
    effects: { cannotManage: true },
  },
  'rate-limited': {
    doc: `429 Too Many Requests with Retry-After: ${RETRY_AFTER_SECONDS} and X-RateLimit-Remaining: 0; nothing is applied.`,
    refuse: 429,
  },
  unavailable: {
    doc: `503 Service Unavailable with Retry-After: ${RETRY_AFTER_SECONDS}; nothing is applied.`,
    refuse: 503,
  },
  slow: {
    doc: 'The answer comes after an added latency: 1500 ms, or the latency=<ms> preference (at most 30000).',
    latency: 1500,
  },
  'answer-lost': {
    doc: 'The request is applied (a booking is stored) but its answer is lost: a 504 gateway page instead. Tests that a client retries with the same Idempotency-Key, or looks the booking up, rather than booking twice.',
    loseAnswer: true,
  },
} as const satisfies Record<string, Scenario>;

/** A scenario's name. */
export type ScenarioName = keyof typeof SCENARIOS;

/** The longest latency a request may ask for: long enough for any client timeout, short of hanging a test run. */
export const MAX_LATENCY_MS = 30_000;

/** What applies to one request: the scenario (if any) and the latency to add. */
export interface AppliedScenario {
  name?: ScenarioName;
  scenario?: Scenario;
  latency: number;
}

/** True for a known scenario name. */
export function isScenario(name: unknown): name is ScenarioName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(SCENARIOS, name);
}

/** The `Prefer` preferences of a request, lower-cased names (RFC 7240: `name[=value]`, comma separated). */
function preferences(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(/[,;]/)) {
    const [name, ...rest] = part.split('=');
    const key = name!.trim().toLowerCase();
    if (key && !out.has(key))
      out.set(
        key,
        rest
          .join('=')
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      );
  }
  return out;
}

/**
 * The scenario of a request: its `Prefer: scenario=…` (else the sandbox default) and its
 * `latency=…`. An unknown name or a bad latency is a 400 that names the valid ones.
 */
export function scenarioOf(prefer: string | null, fallback: AppliedScenario): AppliedScenario {
  const prefs = preferences(prefer);
  const asked = prefs.get('scenario');
  if (asked !== undefined && !isScenario(asked)) {
    const message = `Unknown scenario ${asked.slice(0, 40)}; use one of ${Object.keys(SCENARIOS).join(', ')}`;
    throw new ApiError(400, message, [{ code: 'invalid_scenario', message, fields: ['Prefer'] }]);
  }
  const name = asked ?? fallback.name;
  const scenario: Scenario | undefined = name ? SCENARIOS[name] : undefined;
  let latency = asked !== undefined ? (scenario?.latency ?? 0) : fallback.latency;
  const rawLatency = prefs.get('latency');
  if (rawLatency !== undefined) {
    latency = Number(rawLatency);
    if (!/^\d{1,5}$/.test(rawLatency) || latency > MAX_LATENCY_MS) {
      const message = `latency must be a whole number of milliseconds up to ${MAX_LATENCY_MS}`;
      throw new ApiError(400, message, [{ code: 'invalid_latency', message, fields: ['Prefer'] }]);
    }
  }
  return { name, scenario, latency };
}

/** The sandbox-wide default from its options; throws on an unknown name (a bad option, not a bad request). */
export function defaultScenario(name: string | undefined, latency: number | undefined): AppliedScenario {
  if (name !== undefined && !isScenario(name))
    throw new RangeError(`scenario: unknown ${name}; use one of ${Object.keys(SCENARIOS).join(', ')}`);
  if (latency !== undefined && !(Number.isInteger(latency) && latency >= 0 && latency <= MAX_LATENCY_MS))
    throw new RangeError(`latency: a whole number of milliseconds up to ${MAX_LATENCY_MS}`);
  const scenario: Scenario | undefined = name ? SCENARIOS[name] : undefined;
  return { name, scenario, latency: latency ?? scenario?.latency ?? 0 };
}

/** The `Preference-Applied` value of an answer, or null when nothing was applied. */
export function preferenceApplied(applied: AppliedScenario): string | null {
  const parts = [];
  if (applied.name) parts.push(`scenario=${applied.name}`);
  if (applied.latency) parts.push(`latency=${applied.latency}`);
  return parts.length ? parts.join(', ') : null;
}

/** Waits `ms` (no timer when 0); ends early when the client goes away. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (!ms || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The answer a client gets when its answer was lost on the way: a gateway's page, not the service's JSON. */
export function lostAnswer(): Response {
  return new Response(
    '<html><head><title>504 Gateway Time-out</title></head><body><h1>504 Gateway Time-out</h1></body></html>',
    {
      status: 504,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    },
  );
}
