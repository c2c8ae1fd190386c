/**
 * Issue 36: a guest's cancel rests on `POST /bookings/{_id}` with `{ "status": "rejected" }` (§4.3,
 * real-api-notes "Updating a booking"). The path takes the 24-hex `_id` of the create answer, not
 * the numeric `booking_id` or the reference (those are 404, as any unknown id); a move that takes a
 * booking out of the venue's list (rejected, deleted, lost) or back needs the capability to manage
 * the venue's bookings, which the sandbox's default key has and `sandbox-confirm` (or the scenario
 * `cannot-manage`) has not: 403 in the envelope, nothing applied. The change sets
 * `status_changed_date`, a repeat changes nothing, and a rejected booking leaves the default
 * search and shows with `include_rejected`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openApiDocument } from '../../sandbox/openapi.js';
import { bookingBody, CONFIRM, qs, setup, V1 } from './helpers.js';

/** 20 March 2026, 11:45 in London: after the helpers' clock, so the change's time is its own. */
const LATER = '2026-03-20T11:45:00Z';

/** Books a fresh booking with the default key, then answers with its create answer's booking. */
async function booked(client: ReturnType<typeof setup>, over: Record<string, unknown> = {}) {
  const created = await client.post('/v4/bookings', bookingBody({ first_name: 'Cancelling', ...over }));
  assert.equal(created.status, 200, JSON.stringify(created.payload));
  return created.payload.booking as { _id: string; reference: string };
}

/** The error envelope of the spec (§2.1, SEED.md "Errors"): status, message, field errors. */
function assertEnvelope(answer: { status: number; body: any; payload: any }, status: number) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.status, status);
  assert.equal(typeof answer.body.statusText, 'string');
  assert.equal(typeof answer.payload.message, 'string');
  assert.ok(Array.isArray(answer.payload.errors));
}

describe('36. cancel: POST /bookings/{_id} with status rejected', () => {
  it('the default key cancels by _id: status rejected, status_changed_date set, the full record', async () => {
    const client = setup({ now: LATER });
    const { _id } = await booked(client);
    const r = await client.post(`/v4/bookings/${_id}`, { status: 'rejected' });
    assert.equal(r.status, 200, JSON.stringify(r.payload));
    assert.equal(r.payload.booking._id, _id);
    assert.equal(r.payload.booking.status, 'rejected');
    assert.equal(r.payload.booking.status_changed_date, '2026-03-20T11:45:00');
    assert.equal(r.payload.booking.last_updated, '2026-03-20T11:45:00');
    assert.equal(client.sandbox.store.findBooking(_id)!.status, 'rejected');
  });

  it('a repeat is 200 and changes nothing (a retried cancel is harmless)', async () => {
    const client = setup({ now: LATER, control: true });
    const { _id } = await booked(client);
    await client.post(`/v4/bookings/${_id}`, { status: 'rejected' });
    assert.equal((await client.post('/__sandbox/clock', { now: '2026-03-20T12:30:00Z' })).status, 200);
    const again = await client.post(`/v4/bookings/${_id}`, { status: 'rejected' });
    assert.equal(again.status, 200);
    assert.equal(again.payload.booking.status, 'rejected');
    assert.equal(again.payload.booking.status_changed_date, '2026-03-20T11:45:00');
  });

  it('the numeric booking_id, the reference, an unknown id and a malformed one are 404 in the envelope', async () => {
    const client = setup();
    const { _id, reference } = await booked(client);
    const search = await client.get(`/v4/bookings?${qs({ query: 'Cancelling', fields: 'booking_id' })}`);
    const number = String(search.payload.bookings[0].booking_id);
    for (const key of [number, reference, '64a1f0c2e4b0a1b2c3d4ffff', 'not-an-id', '100006']) {
      const r = await client.post(`/v4/bookings/${encodeURIComponent(key)}`, { status: 'rejected' });
      assertEnvelope(r, 404);
      assert.match(r.payload.message, /not found/i, key);
    }
    assert.notEqual(client.sandbox.store.findBooking(_id)!.status, 'rejected', 'nothing applied');
  });

  it('a key without the capability to manage bookings gets 403 in the envelope; confirming stays allowed', async () => {
    const client = setup();
    const { _id } = await booked(client, { type: '64a1f0c2e4b0a1b2c3d4e603', num_people: 12, time: '18:00' });
    const before = client.sandbox.store.findBooking(_id)!.status;
    for (const status of ['rejected', 'deleted']) {
      const r = await client.post(`/v4/bookings/${_id}`, { status }, CONFIRM);
      assertEnvelope(r, 403);
      assert.match(r.payload.message, /manage bookings/);
    }
    assert.equal(client.sandbox.store.findBooking(_id)!.status, before, 'nothing applied');
    // The confirm_* key may still take an enquiry in hand and confirm it, and create bookings.
    const taken = await client.post(`/v4/bookings/${_id}`, { status: 'in_progress' }, CONFIRM);
    assert.equal(taken.status, 200, JSON.stringify(taken.payload));
    const own = await client.post('/v4/bookings', bookingBody({ time: '20:00' }), CONFIRM);
    assert.equal(own.status, 200);
    // Once cancelled by a manager, the confirm_* key cannot bring it back either.
    assert.equal((await client.post(`/v4/bookings/${_id}`, { status: 'rejected' })).status, 200);
    assertEnvelope(await client.post(`/v4/bookings/${_id}`, { status: 'new' }, CONFIRM), 403);
  });

  it('the scenario cannot-manage refuses the default key the same way, per request or sandbox-wide', async () => {
    const client = setup();
    const { _id } = await booked(client);
    const r = await client.request(
      'POST',
      `/v4/bookings/${_id}`,
      { status: 'rejected' },
      { prefer: 'scenario=cannot-manage' },
    );
    assertEnvelope(r, 403);
    assert.equal(r.headers.get('preference-applied'), 'scenario=cannot-manage');
    const wide = setup({ scenario: 'cannot-manage' });
    const other = await booked(wide);
    assert.equal(
      (await wide.post('/v4/bookings', bookingBody({ time: '20:30' }))).status,
      200,
      'bookings are still made',
    );
    assertEnvelope(await wide.post(`/v4/bookings/${other._id}`, { status: 'rejected' }), 403);
    // Without the scenario the default key may.
    assert.equal((await client.post(`/v4/bookings/${_id}`, { status: 'rejected' })).status, 200);
  });

  it('a bad status is a 400 with field errors in the envelope, nothing applied', async () => {
    const client = setup();
    const { _id } = await booked(client);
    for (const status of ['cancelled', 5, null, '']) {
      const r = await client.post(`/v4/bookings/${_id}`, { status });
      assertEnvelope(r, 400);
      assert.deepEqual(r.payload.errors[0].fields, ['status']);
    }
    const text = await client.request('POST', `/v4/bookings/${_id}`, '{"status":', {
      'content-type': 'application/json',
    });
    assertEnvelope(text, 400);
    assert.equal(client.sandbox.store.findBooking(_id)!.status, 'complete');
  });

  it('a rejected booking leaves the default search and shows with include_rejected', async () => {
    const client = setup();
    const { _id } = await booked(client);
    const find = async (status?: string) =>
      (await client.get(`/v4/bookings?${qs({ query: 'Cancelling', status, fields: '_id,status' })}`)).payload
        .bookings as { _id: string; status: string }[];
    assert.deepEqual(
      (await find()).map((b) => b._id),
      [_id],
    );
    await client.post(`/v4/bookings/${_id}`, { status: 'rejected' });
    assert.deepEqual(await find(), [], 'the default (all) leaves it out');
    assert.deepEqual(await find('all'), []);
    assert.deepEqual(await find('include_rejected'), [{ _id, status: 'rejected' }]);
    assert.deepEqual(await find('rejected'), [{ _id, status: 'rejected' }]);
  });

  it('the OpenAPI document says the path takes the _id, and what 403 and 404 mean there', () => {
    const doc = openApiDocument() as any;
    const update = doc.paths['/bookings/{booking_id}'].post;
    const id = update.parameters.find((p: any) => p.name === 'booking_id');
    assert.equal(id.schema.pattern, '^[0-9a-f]{24}$');
    assert.match(id.description, /_id/);
    assert.match(update.responses['403'].description, /manage/);
    assert.match(update.responses['404'].description, /reference/);
    const statuses = doc.components.schemas.UpdatedBooking.properties.booking.properties.status.enum;
    assert.ok(statuses.includes('rejected') && !statuses.includes('cancelled'));
  });
});

describe('36. the manage capability in the default seed', () => {
  it('the default key may manage the demo group’s bookings; sandbox-confirm may not', async () => {
    const client = setup();
    const { _id } = await booked(client);
    assert.equal((await client.post(`/v4/bookings/${_id}/areas`, { areas: [] })).status, 200);
    assert.equal((await client.post(`/v4/bookings/${_id}/areas`, { areas: [] }, CONFIRM)).status, 403);
    assert.equal(
      (await client.get(`/v4/venues/${V1}/booking-availability?type=64a1f0c2e4b0a1b2c3d4e601`, CONFIRM)).status,
      200,
    );
  });
});
