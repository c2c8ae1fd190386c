/**
 * Issue 18's four mismatches with the live service, each in both dialects, written from the live
 * shapes that shared/real-api-notes.md records (not from what the sandbox used to answer), and what
 * the issue says to keep.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { avail, bookingBody, setup, T, V1 } from './helpers.js';

const DIALECTS = ['spec', 'live'] as const;
/** A complete availability request for a Table on Monday 23 March 2026, in the dialect's duration unit. */
const complete = (dialect: 'spec' | 'live') => ({
  type: T.table,
  num_people: 2,
  date: '2026-03-23',
  time: '19:00',
  duration: dialect === 'live' ? 120 : 2,
});

for (const dialect of DIALECTS) {
  describe(`issue 18 mismatches, ${dialect} dialect`, () => {
    it('1. fields=next answers 200 with validation.next, the usual action and next with the fields sent so far', async () => {
      const { get } = setup({ dialect });
      const res = await get(avail(V1, { ...complete(dialect), fields: 'next' }));
      assert.equal(res.status, 200, JSON.stringify(res.payload));
      assert.deepEqual(res.payload.validation, { next: { valid: true } });
      assert.equal(res.payload.action, 'accept');
      assert.equal(typeof res.payload.next.web, 'string');
      assert.match(res.payload.next.api, /\/v4\/bookings$/);
      assert.equal(res.payload.bookingDetails.venue_id, V1);
      assert.equal(res.payload.bookingDetails.time, '19:00');

      // Incomplete (no time): the action follows the usual rule, and next is still there.
      const partial = { type: T.table, num_people: 2, date: '2026-03-23' };
      const usual = (await get(avail(V1, partial))).payload.action;
      const next = (await get(avail(V1, { ...partial, fields: 'next' }))).payload;
      assert.equal(next.action, usual);
      if (dialect === 'live') assert.equal(next.action, 'reject', 'live: reject while a field is missing');
      assert.deepEqual(next.validation, { next: { valid: true } });
      assert.match(next.next.web, /type=64a1f0c2e4b0a1b2c3d4e601/);
      assert.match(next.next.web, /date=2026-03-23/);
      assert.doesNotMatch(next.next.web, /time=/, 'only the fields sent so far');
      assert.ok(next.next.api);

      // next among other fields.
      const both = (await get(avail(V1, { ...complete(dialect), fields: 'time,next' }))).payload;
      assert.deepEqual(Object.keys(both.validation).sort(), ['next', 'time']);
      assert.deepEqual(both.validation.next, { valid: true });
    });

    it("2. the create answer's venue carries _id (and the live booking the captured keys)", async () => {
      const { post } = setup({ dialect });
      const res = await post('/v4/bookings', bookingBody());
      assert.equal(res.status, 200, JSON.stringify(res.payload));
      const { venue, booking } = res.payload;
      assert.equal(venue._id, V1, 'clients read venue._id');
      assert.deepEqual(Object.keys(venue).sort(), ['_id', 'page_type', 'path', 'title', 'type']);
      assert.equal(venue.page_type, 'venue');
      if (dialect === 'live') {
        assert.equal(venue.type, 'venue');
        assert.deepEqual(Object.keys(booking).sort(), [
          '_id',
          'created_date',
          'date',
          'deposits',
          'email',
          'first_name',
          'last_name',
          'last_updated',
          'num_people',
          'payments',
          'reference',
          'source',
          'time',
          'type',
          'venue_id',
        ]);
        assert.deepEqual(booking.payments, []);
        assert.deepEqual(Object.keys(booking.type).sort(), [
          'guestlist',
          'id',
          'name',
          'private_hire',
          'use_standing_capacity',
        ]);
        const withNotes = (await post('/v4/bookings', bookingBody({ notes: 'Window seat', time: '20:00' }))).payload;
        assert.equal(withNotes.booking.notes, 'Window seat', 'notes appear when they were given');
        assert.ok(!('offer' in withNotes.booking) && !('packages' in withNotes.booking));
      } else {
        // The spec dialect keeps what §2.4 states: notes, packages and offer as null.
        assert.equal(booking.notes, null);
        assert.equal(booking.packages, null);
        assert.equal(booking.offer, null);
      }
    });

    it('3. POST /bookings without duration for an auto-confirm type with a choice of durations is confirmed', async () => {
      const { post, sandbox } = setup({ dialect });
      const body: Record<string, unknown> = bookingBody();
      delete body.duration;
      const res = await post('/v4/bookings', body);
      assert.equal(res.status, 200, JSON.stringify(res.payload));
      assert.equal(res.payload.bookingStatus, 'confirmed');
      const stored = sandbox.store.findBooking(res.payload.booking._id)!;
      assert.equal(stored.status, 'complete');
      assert.equal(stored.duration, 90, "the type's default (first) duration");
    });

    it('4. the envelope echoes the path as url, and the query string (or []) as params', async () => {
      const { get, post, request } = setup({ dialect });
      const read = await get(avail(V1, { type: T.table, num_people: 2 }));
      assert.equal(read.body.url, `/v4/venues/${V1}/booking-availability`);
      assert.deepEqual(read.body.params, { type: T.table, num_people: '2' }, 'strings, as a query string has them');

      const created = await post('/v4/bookings', bookingBody());
      assert.equal(created.body.url, '/v4/bookings');
      assert.deepEqual(created.body.params, [], 'a POST with a JSON body and no query string');

      const both = await request('POST', `/v4/venues/${V1}/booking-rules?type=${T.table}`, { date: '2026-03-23' });
      assert.equal(both.status, 200);
      assert.deepEqual(both.body.params, { type: T.table }, 'the query alone, never the body');

      const missing = await get('/v4/bookings/999999/areas');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.url, '/v4/bookings/999999/areas');
      assert.deepEqual(missing.body.params, []);
    });

    it('keeps: what real clients send that the spec does not show', async () => {
      const { request, sandbox } = setup({ dialect });

      // A JSON body without Content-Type.
      const bare = await request('POST', '/v4/bookings', JSON.stringify(bookingBody()));
      assert.equal(bare.status, 200, JSON.stringify(bare.payload));

      // Content-Type: application/json on a bodiless GET.
      const typed = await request('GET', avail(V1, { type: T.table }), undefined, {
        'content-type': 'application/json',
      });
      assert.equal(typed.status, 200);

      // A form-encoded body with marketing_preferences[].
      const form = new URLSearchParams(Object.entries(bookingBody({ time: '20:30' })).map(([k, v]) => [k, String(v)]));
      form.append('marketing_preferences[]', '64a1f0c2e4b0a1b2c3d4e801');
      const formed = await request('POST', '/v4/bookings', form.toString(), {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(formed.status, 200, JSON.stringify(formed.payload));
      assert.deepEqual(sandbox.store.findBooking(formed.payload.booking._id)!.marketing_preferences, [
        '64a1f0c2e4b0a1b2c3d4e801',
      ]);

      // Booking-rules parameters in a JSON body.
      const rules = await request('POST', `/v4/venues/${V1}/booking-rules`, { type: T.table, date: '2026-03-23' });
      assert.equal(rules.status, 200, JSON.stringify(rules.payload));
      assert.equal(typeof rules.payload.bookings_from, 'string');
    });
  });
}

/**
 * Without an Authorization header the live service answers availability and creates bookings
 * (a partner's client with live traffic on record does both) and refuses a status change with 403;
 * the spec dialect answers 401 to all three (§5).
 */
describe('calls without credentials', () => {
  it('live dialect: availability and a booking answer 200, a status change 403', async () => {
    const { get, post, sandbox } = setup({ dialect: 'live' }, null);
    const read = await get(avail(V1, { type: T.table }));
    assert.equal(read.status, 200, JSON.stringify(read.payload));
    assert.equal(typeof read.payload.action, 'string');
    const created = await post('/v4/bookings', bookingBody());
    assert.equal(created.status, 200, JSON.stringify(created.payload));
    const id = created.payload.booking._id;
    assert.ok(sandbox.store.findBooking(id), 'the booking is stored');
    const change = await post(`/v4/bookings/${id}`, { status: 'deleted' });
    assert.equal(change.status, 403);
    assert.equal(typeof change.payload.message, 'string');
    assert.notEqual(sandbox.store.findBooking(id)!.status, 'deleted', 'nothing applied');
    // An unknown venue is still unknown, not forbidden.
    assert.equal((await get(avail('64a1f0c2e4b0a1b2c3d4eaaa'))).status, 404);
  });

  it('spec dialect: 401 for each of them', async () => {
    const { get, post } = setup({ dialect: 'spec' }, null);
    assert.equal((await get(avail(V1, { type: T.table }))).status, 401);
    assert.equal((await post('/v4/bookings', bookingBody())).status, 401);
    const booked = await setup({ dialect: 'spec' }).post('/v4/bookings', bookingBody());
    assert.equal(booked.status, 200);
    assert.equal((await post(`/v4/bookings/${booked.payload.booking._id}`, { status: 'deleted' })).status, 401);
  });

  it('live dialect: a malformed or wrong header is still refused', async () => {
    const { request } = setup({ dialect: 'live' }, null);
    assert.equal((await request('GET', avail(V1), undefined, { authorization: 'just-a-key' })).status, 401);
    assert.equal((await request('GET', avail(V1), undefined, { authorization: 'nobody:nothing' })).status, 403);
  });
});
