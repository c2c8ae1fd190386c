/**
 * The hostile-input suite: forbidden routes and methods, encoded and dotted paths, bad JSON, wrong
 * types, oversized bodies, header injection, foreign venues and origins. For EACH case it asserts
 * a 4xx answer in the service's envelope, that NOTHING reached the upstream (a recording fetch),
 * and that the API key is in no header, body or log line. Every case runs twice: against the app's
 * Fetch handler, and over real sockets against the Node entry's listener with its cache-hit fast
 * path warm for the valid neighbours of the hostile requests.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { nodeListener } from '../../proxy/node/listener.js';
import {
  assertNoLeak,
  FOREIGN_VENUE,
  GROUP,
  ORIGIN,
  OTHER_VENUE,
  postJson,
  recordingProxy,
  TYPE,
  validBooking,
  VENUE,
} from './support.js';

interface Case {
  name: string;
  path: string;
  init?: RequestInit;
  /** Expected status; default any 4xx. */
  status?: number;
}

const A = `/api/venues/${VENUE}/booking-availability`;
const ID = '64a1f0c2e4b0a1b2c3d4eb01';
const cases: Case[] = [];
const add = (name: string, path: string, init?: RequestInit, status?: number) =>
  cases.push({ name, path, init, status });

// 1. Forbidden routes: booking search and updates, areas, users, venue-group users, event guests…
const forbidden = [
  '/api/bookings/' + ID,
  `/api/bookings/${ID}/areas`,
  `/api/bookings/${ID}/preorders`,
  '/api/users',
  '/api/users/',
  `/api/users/${ID}`,
  `/api/users/${ID}/marketing-preferences`,
  `/api/venue-groups/${GROUP}/users`,
  `/api/venue-groups/${GROUP}/users/${ID}`,
  `/api/events/${ID}/guests?occurrence=2026-01-01`,
  '/v4/bookings',
  '/v4/users',
  '/api',
  '/api/',
  '/api/v4/bookings',
  `/api/venues/${VENUE}/bookings`,
  `/api/venues/${VENUE}/users`,
  '/admin',
  `${A}/extra`,
  `/api/venues/${VENUE}/`,
  `/api/venues/${VENUE}/offers/${ID}`,
  '/api/healthz',
  `/api/venue-groups/${GROUP}`,
  '/api/bookings/search',
  `/api/venues/${VENUE}/booking-rules/${TYPE}`,
];
for (const path of forbidden) {
  add(`GET ${path}`, path);
  add(`POST ${path}`, path, postJson({ status: 'in_progress' }));
}
add('GET /api/bookings (booking search)', '/api/bookings?email=ada@example.com', undefined, 405);
add('GET /api/bookings with fields', '/api/bookings?fields=email,phone', undefined, 405);

// 2. Other methods on allowed routes.
for (const method of ['PUT', 'DELETE', 'PATCH', 'HEAD', 'PROPFIND', 'QUERY']) {
  for (const path of [A, '/api/bookings', `/api/venues/${VENUE}`, `/api/venues?venue_group=${GROUP}`])
    add(`${method} ${path}`, path, { method }, 405);
}
for (const path of [
  `/api/venues/${VENUE}/offers`,
  `/api/venues/${VENUE}/marketing-preferences`,
  `/api/venues/${VENUE}`,
  `/api/venues?venue_group=${GROUP}`,
]) {
  add(`POST ${path}`, path, postJson({}), 405);
}

// 3. Encoded and dotted paths that try to reach other routes.
for (const path of [
  `/api/venues/..%2fbookings`,
  `/api/venues/%2e%2e%2fusers`,
  `/api/venues/${VENUE}%2fbooking-availability`,
  `${A}%00`,
  `/api/venues/${VENUE}%00/offers`,
  `/api//venues/${VENUE}/offers`,
  `/api/venues/${VENUE};x=1/offers`,
  `/api/venues/%36%34a1f0c2e4b0a1b2c3d4e501/offers`,
  `${A}.json`,
  '/api/venues/.well-known',
  '/api/%62ookings',
  `/api/venues/${VENUE}/%2e%2e/%2e%2e/users`,
  '/api/venues/ＶＥＮＵＥ/offers',
  `/api/venues/${VENUE}/..%252fusers`,
  `/api/bookings%3fsearch=1`,
  `/api/venues/${VENUE}/offers%23`,
  '/api/bookings/..;/users',
  `/api/venues/${VENUE}/.%2e/.%2e/users`,
  '/.env',
  '/api/.git/config',
]) {
  add(`encoded GET ${path}`, path);
}
add('encoded POST /api/%62ookings', '/api/%62ookings', postJson(validBooking()));
add('dotted POST bookings/../users', '/api/bookings/../users', postJson({ email: 'x@y.z' }));

// 4. Foreign and malformed venues.
for (const route of [
  'booking-availability',
  'offers',
  'marketing-preferences',
  'booking-rules?type=' + TYPE + '&date=2030-01-01',
]) {
  add(`foreign venue ${route}`, `/api/venues/${FOREIGN_VENUE}/${route}`, undefined, 404);
  add(`group id as venue ${route}`, `/api/venues/${GROUP}/${route}`, undefined, 404);
  add(`malformed venue ${route}`, `/api/venues/${'a'.repeat(65)}/${route}`, undefined, 400);
}
add('foreign venue settings', `/api/venues/${FOREIGN_VENUE}?fields=booking_types`, undefined, 404);
add('__proto__ venue', '/api/venues/__proto__/offers', undefined, 404);
add('constructor venue', '/api/venues/constructor', undefined, 404);
add('unconfigured venue group', `/api/venues?venue_group=${GROUP}`, undefined, 404);
add('venue list without group', '/api/venues', undefined, 400);
add('venue list bad group', '/api/venues?venue_group=..', undefined, 400);
add('booking at a foreign venue', '/api/bookings', postJson(validBooking({ venue_id: FOREIGN_VENUE })), 400);

// 5. Bad query values.
const badQueries: [string, string][] = [
  ['date', '2026-13-01'],
  ['date', '2026-02-30'],
  ['date', '01/12/2026'],
  ['date', '2026-1-1'],
  ['date', 'today'],
  ['date', '2026-12-01T10:00:00'],
  ['date', '1999-12-31'],
  ['time', '25:00'],
  ['time', '7pm'],
  ['time', '19:60'],
  ['time', '19:00:00'],
  ['time', '1900'],
  ['time', '19:00\r\nX-Injected: 1'],
  ['num_people', '0'],
  ['num_people', '-1'],
  ['num_people', '2.5'],
  ['num_people', 'two'],
  ['num_people', '1001'],
  ['num_people', '1e3'],
  ['num_people', '0x10'],
  ['duration', 'abc'],
  ['duration', '1441'],
  ['duration', '-2'],
  ['duration', '1.234'],
  ['duration', 'Infinity'],
  ['type', 'bad id!'],
  ['type', "x'; DROP TABLE bookings;--"],
  ['type', 'a'.repeat(65)],
  ['type', '<script>alert(1)</script>'],
  ['type', '../../users'],
  ['getOffers', 'yes'],
  ['getOffers', 'maybe'],
  ['fields', 'payments'],
  ['fields', 'type,bogus'],
  ['venue_group', GROUP],
  ['apikey', 'x'],
  ['Authorization', 'a:b'],
  ['_method', 'DELETE'],
  ['callback', 'steal'],
  ['__proto__', 'x'],
];
for (const [name, value] of badQueries) {
  add(
    `availability ${name}=${JSON.stringify(value).slice(0, 30)}`,
    `${A}?${new URLSearchParams({ [name]: value })}`,
    undefined,
    400,
  );
}
add('repeated type', `${A}?type=${TYPE}&type=${ID}`, undefined, 400);
add('offers unknown param', `/api/venues/${VENUE}/offers?email=a@b.co`, undefined, 400);
add('offers bad date', `/api/venues/${VENUE}/offers?date=tomorrow`, undefined, 400);
add('rules missing type', `/api/venues/${VENUE}/booking-rules?date=2030-01-01`, undefined, 400);
add('rules missing date', `/api/venues/${VENUE}/booking-rules?type=${TYPE}`, undefined, 400);
add('settings labels', `/api/venues/${VENUE}?fields=booking_labels`, undefined, 400);
add('settings customers', `/api/venues/${VENUE}?fields=customer_labels,booking_types`, undefined, 400);
add('settings stages', `/api/venues/${VENUE}?fields=booking_stages`, undefined, 400);
add('marketing prefs with params', `/api/venues/${VENUE}/marketing-preferences?user=${ID}`, undefined, 400);
add(
  'availability POST with a parameter both in the query and the body',
  `${A}?type=${TYPE}`,
  postJson({ type: TYPE, date: '2030-01-01' }),
  400,
);
add('availability POST bad JSON', A, postJson('{"type":'), 400);
add('availability POST array', A, postJson('[1,2]'), 400);
add('availability POST text/plain', A, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }, 415);
add('availability POST bad field', A, postJson({ num_people: { $gt: 0 } }), 400);

// 6. Bad booking bodies.
const B = '/api/bookings';
for (const body of ['{', 'nope', '[]', 'null', '"text"', '123', '{"venue_id":', ''])
  add(`booking body ${JSON.stringify(body)}`, B, postJson(body), 400);
add(
  'booking text/plain',
  B,
  { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(validBooking()) },
  415,
);
add(
  'booking form-encoded',
  B,
  { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'first_name=a' },
  415,
);
add('booking no content-type', B, { method: 'POST', body: new Blob([JSON.stringify(validBooking())]) }, 415);
for (const field of ['venue_id', 'type', 'date', 'time', 'num_people', 'first_name', 'last_name']) {
  const body = validBooking();
  delete body[field];
  add(`booking missing ${field}`, B, postJson(body), 400);
}
const badFields: [string, unknown][] = [
  ['num_people', '2 people'],
  ['num_people', 0],
  ['num_people', 2.5],
  ['num_people', true],
  ['num_people', [2]],
  ['first_name', { a: 1 }],
  ['first_name', ['Ada']],
  ['first_name', 'x'.repeat(101)],
  ['first_name', 'Ada\u0000'],
  ['last_name', 'Love\u202elace'],
  ['last_name', 'Lovelace\r\nBcc: all@example.com'],
  ['email', 'not-an-email'],
  ['email', 'a@b'],
  ['email', 'ada@example.com\r\nBcc: x@y.z'],
  ['email', `${'a'.repeat(250)}@x.com`],
  ['phone', 'call me maybe'],
  ['phone', '+44 <script>'],
  ['dob', '2999-01-01'],
  ['dob', 'yesterday'],
  ['date', '2030-02-31'],
  ['time', '7:00 pm'],
  ['duration', 'long'],
  ['duration', 99999],
  ['type', 'Table for two'],
  ['offer', 'x y'],
  ['package', '<b>'],
  ['newsletter_signup', 'perhaps'],
  ['marketing_preferences', 'x y'],
  ['marketing_preferences', [1, 2]],
  ['marketing_preferences', Array.from({ length: 30 }, (_, i) => `pref${i}`)],
  ['notes', 'n'.repeat(2001)],
  ['notes', 'bell\u0007'],
  ['custom_field_value', 'c'.repeat(501)],
  ['partner_source', 'p'.repeat(101)],
  ['source', { $ne: 'partner' }],
  ['venue_id', '../users'],
];
for (const [field, value] of badFields)
  add(`booking ${field}=${JSON.stringify(value).slice(0, 30)}`, B, postJson(validBooking({ [field]: value })), 400);
for (const field of [
  'status',
  'created_by',
  'booking_id',
  'user_id',
  'assigned_to',
  'labels',
  'admin_notes',
  'deposits',
  'constructor',
  'prototype',
]) {
  add(`booking unknown field ${field}`, B, postJson(validBooking({ [field]: 'x' })), 400);
}
add(
  'booking __proto__ field',
  B,
  postJson(`{"__proto__":{"admin":true},${JSON.stringify(validBooking()).slice(1)}`),
  400,
);
for (const key of ['short', 'has space in it', 'k'.repeat(129), 'ключ-ключ-ключ']) {
  add(
    `booking Idempotency-Key ${key.slice(0, 20)}`,
    B,
    postJson(validBooking(), {
      'idempotency-key':
        encodeURIComponent(key).includes('%') && !/^[\x20-\x7e]*$/.test(key) ? encodeURIComponent(key) : key,
    }),
    400,
  );
}

// 7. Oversized bodies and addresses.
add('booking body 20 KiB', B, postJson(validBooking({ notes: 'n'.repeat(20_000) })), 413);
add('booking body 1 MiB', B, postJson({ junk: 'j'.repeat(1 << 20) }), 413);
add('availability body 20 KiB', A, postJson({ type: 't'.repeat(20_000) }), 413);
add(
  'return body 20 KiB',
  `/api/return?venue=${VENUE}`,
  {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `reference=${'r'.repeat(20_000)}`,
  },
  413,
);
add('URL of 3000 characters', `${A}?type=${'t'.repeat(3000)}`, undefined, 414);

// 8. Header injection, method overrides, foreign origins.
for (const name of ['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override']) {
  add(`${name} on availability`, A, { headers: { [name]: 'DELETE' } }, 400);
  add(`${name} on booking`, B, postJson(validBooking(), { [name]: 'PUT' }), 400);
}
for (const origin of [
  'https://evil.example',
  'null',
  `${ORIGIN}.evil.example`,
  'https://venue.example:8443',
  'http://venue.example',
]) {
  add(`origin ${origin} availability`, A, { headers: { origin } }, 403);
  add(`origin ${origin} booking`, B, postJson(validBooking(), { origin }), 403);
  add(
    `origin ${origin} preflight`,
    B,
    { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } },
    403,
  );
}

// 9. The return bridge: nothing upstream, never an open redirect.
const R = '/api/return';
const form = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body,
});
add('return foreign venue', `${R}?venue=${FOREIGN_VENUE}`, form('reference=DMN-1&status=complete'), 404);
add('return venue without a page', `${R}?venue=${OTHER_VENUE}`, form('reference=DMN-1&status=complete'), 404);
add('return without venue', R, form('reference=DMN-1&status=complete'), 404);
add('return missing reference', `${R}?venue=${VENUE}`, form('status=complete'), 400);
add('return script reference', `${R}?venue=${VENUE}`, form('reference=<script>&status=complete'), 400);
add('return CRLF status', `${R}?venue=${VENUE}`, form('reference=DMN-1&status=complete%0d%0aSet-Cookie:%20x=1'), 400);
add(
  'return from a foreign site',
  `${R}?venue=${VENUE}`,
  form('reference=DMN-1&status=complete', { origin: 'https://evil.example' }),
  403,
);
add(
  'return as text',
  `${R}?venue=${VENUE}`,
  { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'reference=DMN-1' },
  415,
);
// A GET return is not refused: it lands, or shows a readable page (return-bridge.test.ts).
add('return PUT', `${R}?venue=${VENUE}`, { method: 'PUT' }, 405);
// The hand-off id: asked with a booking's details of a served venue, by GET; anything else is
// refused before the availability is read.
const H = `/api/venues/${VENUE}/handoff`;
add('handoff foreign venue', `/api/venues/${FOREIGN_VENUE}/handoff?type=${TYPE}`, undefined, 404);
add('handoff invalid party', `${H}?type=${TYPE}&num_people=abc`, undefined, 400);
add('handoff script type', `${H}?type=%3Cscript%3E`, undefined, 400);
add('handoff POST', H, { method: 'POST' }, 405);
for (const page of [
  'https://evil.example/landing',
  `${ORIGIN}.evil.example/landing`,
  'javascript:alert(1)',
  'data:text/html,<p>x</p>',
  `https://user:pass@${new URL(ORIGIN).host}/landing`,
  '//evil.example/landing',
  '/relative/page',
]) {
  add(
    `return to page ${page.slice(0, 40)}`,
    `${R}?venue=${OTHER_VENUE}&page=${encodeURIComponent(page)}`,
    form('reference=DMN-1&status=complete'),
    404,
  );
}

/**
 * Sends one case and checks its answer: a 4xx (the case's status when it names one) in the
 * envelope, with nosniff, nothing upstream, the key nowhere. False when the request could not be
 * sent at all (a request the platform refuses to build, or a connection closed on an oversized
 * body), which reached nothing either.
 */
async function refusedAsItShould(
  c: Case,
  sendCase: () => Promise<Response>,
  calls: unknown[],
  logger: Parameters<typeof assertNoLeak>[1],
): Promise<boolean> {
  let response: Response;
  try {
    response = await sendCase();
  } catch (error) {
    assert.ok(error instanceof TypeError, String(error));
    assert.equal(calls.length, 0);
    return false;
  }
  const text = await assertNoLeak(response.clone(), logger);
  if (c.status) assert.equal(response.status, c.status, `status for ${c.name}: ${text.slice(0, 200)}`);
  else assert.ok(response.status >= 400 && response.status < 500, `expected 4xx, got ${response.status}`);
  assert.equal(calls.length, 0, `upstream was called: ${JSON.stringify(calls).slice(0, 300)}`);
  if (c.init?.method !== 'HEAD') {
    const body = JSON.parse(text) as { payload: { message: string; errors: unknown[] } };
    assert.equal(typeof body.payload.message, 'string');
    assert.ok(Array.isArray(body.payload.errors));
  }
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  return true;
}

describe('hostile input never reaches the upstream', () => {
  const { send, calls, logger } = recordingProxy();
  /** Cases the proxy answered and that passed every check below; a request the platform refused to build is not one. */
  let refused = 0;
  for (const c of cases) {
    test(c.name, async () => {
      calls.length = 0;
      if (await refusedAsItShould(c, () => send(c.path, c.init), calls, logger)) refused++;
    });
  }

  test('at least 150 hostile cases were answered by the proxy with a 4xx and passed every check', () => {
    // The proxy's own request log, one line per request it answered: the cases really ran through it.
    const answered = logger.lines.filter((line) => line.msg === 'request' && Number(line.status) >= 400).length;
    assert.ok(refused >= 150, `${refused} of ${cases.length} cases passed`);
    assert.ok(answered >= refused, `the proxy logged ${answered} refusals for ${refused} cases`);
  });

  test('control: a valid request does reach the recording upstream, with our credentials only', async () => {
    calls.length = 0;
    const response = await send(`${A}?type=${TYPE}`, {
      headers: { authorization: 'evil:creds', cookie: 'session=1', origin: ORIGIN, 'x-forwarded-for': '1.2.3.4' },
    });
    assert.equal(response.status, 200);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.headers.get('authorization'), `test-app:${'k3y-MUST-never-LEAK-7f3a9c'}`);
    for (const name of ['cookie', 'x-forwarded-for', 'origin']) assert.equal(calls[0]!.headers.get(name), null, name);
    assert.equal(new URL(calls[0]!.url).search, `?type=${TYPE}`);
  });
});

describe('hostile input through the Node entry, its fast path warm', () => {
  const { proxy, calls, logger } = recordingProxy();
  const server = createServer(nodeListener(proxy));
  let base = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  // Valid reads at the addresses the hostile cases aim at, answered from the cache just before
  // each case, so the fast path holds a remembered answer for them.
  const warm = async () => {
    for (const path of [A, `${A}?type=${TYPE}`, `/api/venues/${VENUE}`, `/api/venues/${VENUE}/offers`]) {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${base}${path}`);
        assert.equal(response.status, 200, path);
        await response.arrayBuffer();
      }
    }
    calls.length = 0;
  };
  let refused = 0;
  for (const c of cases) {
    test(c.name, async () => {
      await warm();
      if (await refusedAsItShould(c, () => fetch(`${base}${c.path}`, c.init), calls, logger)) refused++;
    });
  }

  test('at least 150 hostile cases were refused through the Node entry', () => {
    assert.ok(refused >= 150, `${refused} of ${cases.length} cases passed`);
    const fast = logger.lines.filter((line) => line.msg === 'request' && line.cache === 'HIT').length;
    assert.ok(fast >= cases.length, 'the warm-up reads were answered from the cache');
  });
});
