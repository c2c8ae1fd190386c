/**
 * The independent upstream stand-in (test/support/spec-upstream.ts) answers a booking update as
 * the spec says (§4.3, §3.1, §4.6), so that the proxy's cancel tests against it check the proxy
 * against a second reading of the spec rather than against our sandbox alone: the `_id` names the
 * booking (the reference is 404), `rejected` sets `status_changed_date` and leaves the default
 * search, `include_rejected` shows it, a bad status is a 400 and `refuseUpdate` a 403, each in the
 * envelope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSpecUpstream, type SpecUpstream } from '../support/spec-upstream.js';

let standIn: SpecUpstream;
before(async () => (standIn = await startSpecUpstream()));
after(() => standIn.close());

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${standIn.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

const BOOKING = {
  source: 'partner',
  venue_id: '64a1f0c2e4b0a1b2c3d4e501',
  type: '64a1f0c2e4b0a1b2c3d4e601',
  date: '2026-03-21',
  time: '19:30',
  num_people: 2,
  first_name: 'Stand',
  last_name: 'In',
};
const search = (status?: string) =>
  `/bookings?venue_id=${BOOKING.venue_id}&date=${BOOKING.date}&time=19%3A30${status ? `&status=${status}` : ''}`;

describe('the spec upstream stand-in: POST /bookings/{_id}', () => {
  test('a cancel by _id is rejected with status_changed_date, and leaves the default search', async () => {
    const created = await call('POST', '/bookings', BOOKING);
    const { _id, reference } = created.body.payload.booking;
    assert.equal((await call('POST', `/bookings/${reference}`, { status: 'rejected' })).status, 404);
    assert.equal((await call('POST', `/bookings/${_id}`, { status: 'cancelled' })).status, 400);
    standIn.refuseUpdate = true;
    const refused = await call('POST', `/bookings/${_id}`, { status: 'rejected' });
    standIn.refuseUpdate = false;
    assert.equal(refused.status, 403);
    assert.equal(typeof refused.body.payload.message, 'string');
    assert.equal((await call('GET', search())).body.payload.numFound, 1, 'nothing applied yet');
    const cancelled = await call('POST', `/bookings/${_id}`, { status: 'rejected' });
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.payload.booking.status, 'rejected');
    assert.match(cancelled.body.payload.booking.status_changed_date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    assert.equal((await call('GET', search())).body.payload.numFound, 0);
    const all = await call('GET', search('include_rejected'));
    assert.deepEqual(
      all.body.payload.bookings.map((booking: { status: string }) => booking.status),
      ['rejected'],
    );
    assert.equal(standIn.updates, 4);
  });
});
