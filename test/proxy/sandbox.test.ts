/**
 * The proxy through the real sandbox (nothing of ours mocked), in both dialects: availability with
 * `next` rewritten, rules, offers, marketing preferences, public venue settings, the venue list of
 * a configured group, a booking with `source` forced and `partner_source` from the settings, a
 * concurrent double submit with one Idempotency-Key creating exactly one booking, the return
 * bridge, CORS, security headers and wrong credentials.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createStack } from '../../proxy/stack.js';
import { API_KEY, fetchWithProof, GROUP, memoryLogger, ORIGIN, postJson, TYPE, VENUE } from './support.js';

const ORIGIN_URL = 'http://localhost:5173';
const BASE = `${ORIGIN_URL}/stack`;
const DATE = '2030-06-04'; // a Tuesday, well after the fixed clock

type Envelope<T = Record<string, any>> = { payload: T; status: number };

function stackFor(dialect: 'spec' | 'live', proxy: Parameters<typeof createStack>[0]['proxy'] = {}) {
  const logger = memoryLogger();
  const stack = createStack({
    origin: ORIGIN_URL,
    basePath: '/stack',
    sandbox: { dialect, now: '2030-05-01T10:00:00' },
    proxy: {
      logger,
      origins: [ORIGIN],
      venueGroups: [GROUP],
      partnerSource: 'proxy-test',
      returnPages: { '*': 'https://venue.example/booked?from=widget' },
      ...proxy,
    },
  });
  // A booking carries its proof of work, as the widget's does.
  const send = (path: string, init: RequestInit = {}) => fetchWithProof(stack, `${BASE}${path}`, init);
  const json = async <T = Record<string, any>>(path: string, init?: RequestInit) => {
    const response = await send(path, init);
    return { response, body: (await response.json()) as Envelope<T> };
  };
  return { stack, send, json, logger };
}

/** Asks for availability until a bookable time is known; returns the accepted details. */
async function bookable(json: ReturnType<typeof stackFor>['json']) {
  const first = await json(`/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=${DATE}&num_people=2`);
  assert.equal(first.response.status, 200);
  const times = first.body.payload.validation.time.suggestedValues as {
    value?: string;
    time?: string;
    valid: boolean;
  }[];
  const time = times.find((item) => item.valid)!;
  const chosen = time.time ?? time.value!;
  const query = `type=${TYPE}&date=${DATE}&num_people=2&time=${encodeURIComponent(chosen)}`;
  const second = await json(`/api/venues/${VENUE}/booking-availability?${query}`);
  const durations = (second.body.payload.validation.duration?.suggestedValues ?? []) as {
    value: number;
    valid?: boolean;
  }[];
  const duration = durations.find((item) => item.valid !== false);
  if (!duration) return second.body.payload;
  const third = await json(`/api/venues/${VENUE}/booking-availability?${query}&duration=${duration.value}`);
  return third.body.payload;
}

for (const dialect of ['spec', 'live'] as const) {
  describe(`through the real sandbox (${dialect} dialect)`, () => {
    test('availability: next.api names the proxy, next.web the sandbox booking page', async () => {
      const { json } = stackFor(dialect);
      const availability = await bookable(json);
      assert.ok(['accept', 'enquire', 'may_enquire'].includes(availability.action), availability.action);
      assert.equal(availability.next.api, `${BASE}/api/bookings`);
      assert.ok(availability.next.web.startsWith(`${BASE}/sandbox/book?`), availability.next.web);
      // POST with a JSON body gives the same answer.
      const post = await json(
        `/api/venues/${VENUE}/booking-availability`,
        postJson({ type: TYPE, date: DATE, num_people: 2 }),
      );
      assert.equal(post.response.status, 200);
      assert.ok(post.body.payload.validation.time);
    });

    test('next.web is dropped when it does not point at the configured booking site', async () => {
      const { json } = stackFor(dialect, { bookingSite: 'https://book.example/book' });
      const availability = await bookable(json);
      assert.equal(availability.next.web, undefined);
      assert.equal(availability.next.api, `${BASE}/api/bookings`);
    });

    test('rules, offers, marketing preferences, venue list', async () => {
      const { json } = stackFor(dialect);
      const rules = await json(`/api/venues/${VENUE}/booking-rules?type=${TYPE}&date=${DATE}`);
      assert.equal(rules.response.status, 200);
      assert.equal(typeof rules.body.payload.booking_available, 'boolean');
      // The spec's own form: POST with URL parameters and no body.
      const posted = await json(`/api/venues/${VENUE}/booking-rules?type=${TYPE}&date=${DATE}`, {
        method: 'POST',
        headers: { origin: ORIGIN },
      });
      assert.equal(posted.response.status, 200, JSON.stringify(posted.body.payload));
      assert.deepEqual(posted.body.payload, rules.body.payload);
      // The live form: fields= in the query beside a JSON body.
      const mixed = await json(
        `/api/venues/${VENUE}/booking-availability?fields=time`,
        postJson({ type: TYPE, date: DATE, num_people: 2 }),
      );
      assert.equal(mixed.response.status, 200, JSON.stringify(mixed.body.payload));
      assert.deepEqual(Object.keys(mixed.body.payload.validation), ['time']);
      const offers = await json<unknown[]>(`/api/venues/${VENUE}/offers?num_people=2`);
      assert.equal(offers.response.status, 200);
      assert.ok(Array.isArray(offers.body.payload));
      const prefs = await json(`/api/venues/${VENUE}/marketing-preferences`);
      assert.ok(prefs.body.payload.marketing_preferences.length > 0);
      const venues = await json(`/api/venues?venue_group=${GROUP}`);
      assert.ok(venues.body.payload.pages.some((page: { _id: string }) => page._id === VENUE));
    });

    test('venue settings: only public fields, never labels, stages or customer labels', async () => {
      const { json } = stackFor(dialect);
      const all = await json(`/api/venues/${VENUE}`);
      assert.equal(all.response.status, 200);
      const keys = Object.keys(all.body.payload.venue).sort();
      assert.deepEqual(keys, [
        '_id',
        'booking_types',
        'booking_unavailable',
        'opening_times',
        'packages',
        'path',
        'preorder_menus',
        'title',
        'venue_group',
      ]);
      const one = await json(`/api/venues/${VENUE}?fields=booking_types`);
      assert.ok(Array.isArray(one.body.payload.venue.booking_types));
      assert.equal(one.body.payload.venue.opening_times, undefined);
    });

    test('a booking: source forced to partner, partner_source from the settings, no key anywhere', async () => {
      const { stack, json, logger } = stackFor(dialect);
      const details = (await bookable(json)).bookingDetails;
      const { venue_group: _group, payments: _payments, ...accepted } = details;
      const { response, body } = await json(
        '/api/bookings',
        postJson(
          {
            ...accepted,
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.com',
            phone: '07700 900123',
            source: 'marketplace',
            partner_source: 'from-widget',
          },
          { 'idempotency-key': `single-${dialect}-0001`, origin: ORIGIN },
        ),
      );
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN);
      const reference = body.payload.booking.reference as string;
      const stored = stack.sandbox.store.bookings.filter((booking) => booking.reference === reference);
      assert.equal(stored.length, 1);
      assert.equal(stored[0]!.source, 'partner');
      assert.equal(stored[0]!.partner_source, 'proxy-test');
      assert.ok(!JSON.stringify(logger.lines).includes(API_KEY));
      assert.ok(!JSON.stringify(logger.lines).includes('ada@example.com'), 'no personal data in logs');
      assert.ok(!JSON.stringify(logger.lines).includes('Lovelace'), 'no personal data in logs');
    });

    test('concurrent double submit with one Idempotency-Key creates exactly one booking', async () => {
      const { stack, json } = stackFor(dialect);
      const details = (await bookable(json)).bookingDetails;
      const before = stack.sandbox.store.bookings.length;
      const body = {
        venue_id: VENUE,
        type: TYPE,
        date: DATE,
        time: details.time,
        num_people: 2,
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
      };
      const key = `double-${dialect}-${Date.now()}`;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => json('/api/bookings', postJson(body, { 'idempotency-key': key }))),
      );
      assert.ok(
        answers.every((answer) => answer.response.status === 200),
        JSON.stringify(answers.map((answer) => answer.body)),
      );
      assert.equal(stack.sandbox.store.bookings.length, before + 1, 'exactly one booking stored');
      assert.equal(new Set(answers.map((answer) => answer.body.payload.booking.reference)).size, 1);
      assert.equal(answers.filter((answer) => answer.response.headers.get('idempotent-replayed') === 'true').length, 4);
      // A later repeat gets the same answer; the same key with other details is refused.
      const later = await json('/api/bookings', postJson(body, { 'idempotency-key': key }));
      assert.equal(later.body.payload.booking.reference, answers[0]!.body.payload.booking.reference);
      const other = await json('/api/bookings', postJson({ ...body, num_people: 3 }, { 'idempotency-key': key }));
      assert.equal(other.response.status, 409);
      assert.equal(other.body.payload.stored, 'unknown', 'the key holds a stored booking');
      assert.equal(stack.sandbox.store.bookings.length, before + 1);
      // Without the key, the same details do make a second booking (proving the count can move).
      await json('/api/bookings', postJson(body));
      assert.equal(stack.sandbox.store.bookings.length, before + 2);
    });

    test('an invalid booking is answered by the sandbox with stored: false, and the key can be reused', async () => {
      const { json } = stackFor(dialect);
      const key = `fix-${dialect}-00001`;
      const bad = await json(
        '/api/bookings',
        postJson(
          {
            venue_id: VENUE,
            type: '64a1f0c2e4b0a1b2c3d4e6ff',
            date: DATE,
            time: '19:00',
            num_people: 2,
            first_name: 'A',
            last_name: 'B',
          },
          { 'idempotency-key': key },
        ),
      );
      assert.equal(bad.response.status, 400);
      assert.equal(bad.body.payload.stored, false);
      assert.ok(bad.body.payload.errors.some((error: { fields: string[] }) => error.fields.includes('type')));
      const details = (await bookable(json)).bookingDetails;
      const good = await json(
        '/api/bookings',
        postJson(
          {
            venue_id: VENUE,
            type: TYPE,
            date: DATE,
            time: details.time,
            num_people: 2,
            first_name: 'A',
            last_name: 'B',
          },
          { 'idempotency-key': key },
        ),
      );
      assert.equal(good.response.status, 200);
    });
  });
}

describe('around the routes', () => {
  test('the return bridge answers 303 to the venue page with only reference and status', async () => {
    const { send } = stackFor('spec');
    // The hand-off id the widget gets for a booking handed off (a brunch takes a deposit): without
    // it a return proves nothing.
    const brunch = 'type=64a1f0c2e4b0a1b2c3d4e602&date=2030-05-04&time=10:30&num_people=2&duration=120';
    const probe = (await (
      await send(`/api/venues/${VENUE}/handoff?${brunch}`, { headers: { origin: ORIGIN_URL } })
    ).json()) as {
      payload: { handoff: string };
    };
    const response = await send(`/api/return?venue=${VENUE}&handoff=${probe.payload.handoff}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN_URL },
      body: 'reference=DMN-12345678901&status=complete&first_name=Ada&last_name=Lovelace&email=ada%40example.com',
    });
    assert.equal(response.status, 303);
    const location = new URL(response.headers.get('location')!);
    assert.equal(location.origin + location.pathname, 'https://venue.example/booked');
    assert.deepEqual(
      [...location.searchParams],
      [
        ['from', 'widget'],
        ['reference', 'DMN-12345678901'],
        ['status', 'complete'],
      ],
    );
  });

  test('CORS preflight for a configured origin; none for others; security headers everywhere', async () => {
    const { send } = stackFor('spec');
    const preflight = await send('/api/bookings', {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,idempotency-key',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), ORIGIN);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Idempotency-Key/i);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    const foreign = await send('/api/bookings', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.headers.get('access-control-allow-origin'), null);
    const health = await send('/healthz');
    assert.deepEqual(await health.json(), { ok: true, upstream: 'ok', store: 'memory' });
    for (const response of [preflight, foreign, health]) {
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('x-frame-options'), 'SAMEORIGIN');
      assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    }
  });

  test('wrong credentials upstream → 502 "misconfigured", detail in the log, key nowhere', async () => {
    const { json, logger } = stackFor('spec', { apiKey: API_KEY });
    const { response, body } = await json(`/api/venues/${VENUE}/booking-availability`);
    assert.equal(response.status, 502);
    assert.match(body.payload.message, /misconfigured/);
    assert.ok(logger.lines.some((line) => line.fault === 'auth' && line.upstreamStatus === 403));
    assert.ok(!JSON.stringify(logger.lines).includes(API_KEY));
  });

  test('venues of a configured group are allowed even when not listed', async () => {
    const { json, send } = stackFor('spec', { venues: [] });
    const settings = await json(`/api/venues/${VENUE}?fields=booking_types`);
    assert.equal(settings.response.status, 200);
    assert.equal((await send('/api/venues/64a1f0c2e4b0a1b2c3d4e599/offers')).status, 404);
  });
});
