/** Issue 3 points 1–3: envelope and errors, authentication and capabilities, rate limits. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, avail, bookingBody, KITCHEN, OUTSIDER, READONLY, setup, T, V1, V2, V3, WIDGET } from './helpers.js';

const ENVELOPE_KEYS = ['payload', 'status', 'requestTime', 'responseTime', 'statusText', 'url', 'method', 'params'];
const LONDON_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

describe('1. envelope and errors', () => {
  it('wraps every JSON response in the §2.1 envelope with London times', async () => {
    const { get } = setup({ now: '2026-07-01T11:15:30Z' });
    const res = await get(avail(V1, { type: T.table }));
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [...ENVELOPE_KEYS].sort());
    assert.equal(res.body.status, 200);
    assert.equal(res.body.statusText, 'OK');
    assert.equal(res.body.method, 'GET');
    assert.equal(res.body.url, `/v4/venues/${V1}/booking-availability`, 'the path, as the live service echoes it');
    assert.deepEqual(res.body.params, { type: T.table });
    assert.match(res.body.requestTime, LONDON_TS);
    assert.equal(res.body.requestTime, '2026-07-01T12:15:30', 'BST: London is UTC+1 in July');
    assert.equal(res.body.responseTime, '2026-07-01T12:15:30');
  });

  it('echoes the query string in params, [] without one, never the JSON body (issue 18 point 4)', async () => {
    const { post } = setup();
    const res = await post(`/v4/venues/${V1}/booking-availability`, { type: T.table, num_people: 2 });
    assert.equal(res.body.method, 'POST');
    assert.deepEqual(res.body.params, []);
  });

  it('400 carries a message and field errors {code, message, fields}', async () => {
    const { post } = setup();
    const res = await post('/v4/bookings', { venue_id: V1 });
    assert.equal(res.status, 400);
    assert.equal(res.body.statusText, 'Bad Request');
    assert.equal(typeof res.payload.message, 'string');
    assert.ok(res.payload.errors.length >= 5);
    for (const e of res.payload.errors) {
      assert.equal(typeof e.code, 'string');
      assert.equal(typeof e.message, 'string');
      assert.ok(Array.isArray(e.fields));
    }
    const fields = res.payload.errors.flatMap((e: any) => e.fields);
    for (const f of ['source', 'first_name', 'last_name', 'num_people', 'type', 'date', 'time'])
      assert.ok(fields.includes(f), f);
  });

  it('malformed JSON is a 400, not a crash', async () => {
    const { request } = setup();
    const res = await request('POST', '/v4/bookings', '{"first_name": ', { 'content-type': 'application/json' });
    assert.equal(res.status, 400);
    assert.equal(res.payload.errors[0].code, 'invalid_json');
    const arr = await request('POST', '/v4/bookings', '[1,2]', { 'content-type': 'application/json' });
    assert.equal(arr.status, 400);
  });

  it('404 for unknown routes and unknown resources, in the envelope', async () => {
    const { get, post } = setup();
    const route = await get('/v4/nothing-here');
    assert.equal(route.status, 404);
    assert.equal(route.body.statusText, 'Not Found');
    assert.equal(typeof route.payload.message, 'string');
    assert.equal((await get(avail('64a1f0c2e4b0a1b2c3d4eaaa'))).status, 404);
    assert.equal((await post('/v4/bookings/999999', { status: 'in_progress' })).status, 404);
    assert.equal((await get('/elsewhere')).status, 404);
  });

  it('405 for a wrong method, with Allow', async () => {
    const { del, request } = setup();
    const res = await del(avail(V1));
    assert.equal(res.status, 405);
    assert.equal(res.body.statusText, 'Method Not Allowed');
    assert.match(res.headers.get('allow') ?? '', /GET/);
    assert.equal((await request('PUT', '/v4/bookings', {})).status, 405);
    assert.equal((await request('GET', '/v4/bookings/100001')).status, 405);
  });
});

describe('2. authentication and permissions', () => {
  it('401 without credentials or with a malformed header', async () => {
    const { request } = setup();
    assert.equal((await request('GET', avail(V1), undefined, {}, null)).status, 401);
    assert.equal((await request('GET', avail(V1), undefined, { authorization: 'just-a-key' }, null)).status, 401);
    assert.equal((await request('GET', avail(V1), undefined, { authorization: 'app:' }, null)).status, 401);
    const res = await request('GET', avail(V1), undefined, {}, null);
    assert.equal(res.body.statusText, 'Unauthorized');
    assert.match(res.payload.message, /APP_ID/);
  });

  it('403 with a wrong key or an unknown app', async () => {
    const { get } = setup();
    assert.equal((await get(avail(V1), { id: WIDGET.id, key: 'wrong' })).status, 403);
    assert.equal((await get(avail(V1), { id: 'nobody', key: 'x' })).status, 403);
  });

  it('SANDBOX_APP can check availability and book at every demo venue', async () => {
    const { get, post } = setup();
    for (const v of [V1, V2, V3]) assert.equal((await get(avail(v, { fields: 'type' }))).status, 200);
    assert.equal((await post('/v4/bookings', bookingBody())).status, 200);
  });

  it('capabilities scope reads and writes to their venue or group', async () => {
    const { get, post } = setup();
    // access_venue_bookings_501: read-only, one venue.
    assert.equal((await get(avail(V1, { fields: 'type' }), READONLY)).status, 200);
    assert.equal((await get(avail(V2, { fields: 'type' }), READONLY)).status, 403);
    assert.equal((await post('/v4/bookings', bookingBody(), READONLY)).status, 403);
    assert.equal((await get(`/v4/bookings?venue_id=${V1}`, READONLY)).status, 200);
    assert.equal((await get(`/v4/bookings?venue_id=${V3}`, READONLY)).status, 403);
    // An app of another group sees nothing here.
    assert.equal((await get(avail(V1), OUTSIDER)).status, 403);
    assert.equal((await get('/v4/venues/64a1f0c2e4b0a1b2c3d4e501', OUTSIDER)).status, 403);
    // A single-venue app: books at its venue, not at the others.
    assert.equal(
      (
        await post(
          '/v4/bookings',
          bookingBody({ venue_id: V3, type: T.kitchenTable, duration: 60, time: '12:00' }),
          KITCHEN,
        )
      ).status,
      200,
    );
    assert.equal((await post('/v4/bookings', bookingBody(), KITCHEN)).status, 403);
  });

  it('search only returns bookings of venues the app may read', async () => {
    const { get } = setup();
    const ro = await get('/v4/bookings?limit=100', READONLY);
    assert.equal(ro.status, 200);
    assert.ok(ro.payload.numFound > 0);
    assert.ok(ro.payload.bookings.every((b: any) => b.venue_id === V1));
    const admin = await get('/v4/bookings?limit=100', ADMIN);
    assert.ok(admin.payload.bookings.some((b: any) => b.venue_id === V2));
  });

  it('user data is limited to what the caller may see (§5.5)', async () => {
    const { get } = setup();
    assert.equal(
      (await get('/v4/users?search=example.com', WIDGET)).status,
      403,
      'the widget app cannot view customers',
    );
    const kitchen = await get('/v4/users?search=example.com', KITCHEN);
    assert.equal(kitchen.status, 200);
    assert.ok(kitchen.payload.users.length > 0);
    assert.ok(kitchen.payload.users.every((u: any) => u.associated_venues.includes(V3)));
    // A Quayside-only customer is "not found" for the Kitchen app.
    assert.equal((await get('/v4/users/64a1f0c2e4b0a1b2c3d4e901', KITCHEN)).status, 404);
    assert.equal((await get('/v4/users/64a1f0c2e4b0a1b2c3d4e901', ADMIN)).status, 200);
  });

  it('--app style apps (capabilities "all") may do everything', async () => {
    const full = { id: 'my-app', key: 'my-key' };
    const { get } = setup({ apps: [{ ...full, capabilities: 'all' }] });
    assert.equal((await get('/v4/users?search=smith', full)).status, 200);
    assert.equal((await get('/v4/bookings', full)).status, 200);
    assert.equal((await get('/v4/events/64a1f0c2e4b0a1b2c3d4ec91/guests?occurrence=2026-03-27', full)).status, 200);
  });
});

describe('3. rate limits', () => {
  it('sends X-RateLimit-* on every response, including errors', async () => {
    const { get, request } = setup({ now: '2026-03-20T10:20:00Z' });
    for (const res of [
      await get(avail(V1)),
      await get('/v4/nope'),
      await request('GET', avail(V1), undefined, {}, null),
    ]) {
      assert.equal(res.headers.get('x-ratelimit-limit'), '5000');
      assert.match(res.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/);
      assert.equal(res.headers.get('x-ratelimit-reset'), '2026-03-20T11:00:00Z');
    }
  });

  it('counts per App ID per hour and answers 429 over the limit', async () => {
    let now = new Date('2026-03-20T10:00:00Z');
    const { get } = setup({ rateLimit: 3, now: () => now });
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const r = await get(avail(V1, { fields: 'type' }));
      assert.equal(r.status, 200);
      remaining.push(r.headers.get('x-ratelimit-remaining'));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    const over = await get(avail(V1, { fields: 'type' }));
    assert.equal(over.status, 429);
    assert.equal(over.body.statusText, 'Too Many Requests');
    assert.equal(over.headers.get('x-ratelimit-remaining'), '0');
    // Another app has its own budget.
    assert.equal((await get(avail(V1, { fields: 'type' }), ADMIN)).status, 200);
    // The next hour resets the window.
    now = new Date('2026-03-20T11:00:01Z');
    const next = await get(avail(V1, { fields: 'type' }));
    assert.equal(next.status, 200);
    assert.equal(next.headers.get('x-ratelimit-remaining'), '2');
    assert.equal(next.headers.get('x-ratelimit-reset'), '2026-03-20T12:00:00Z');
  });
});
