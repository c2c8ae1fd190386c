/**
 * What of an upstream answer reaches the guest: a created booking reduced to what the widget shows,
 * and upstream refusals reworded by the proxy (the original text only in the server log).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { postJson, recordingProxy, upstreamJson, validBooking, VENUE } from './support.js';

type Payload = Record<string, unknown> & { message?: string; errors?: unknown[] };

describe('the booking answer', () => {
  test('only reference, status, date, time, party size, type name, venue title and bookingStatus', async () => {
    const { send } = recordingProxy({}, () =>
      upstreamJson(
        {
          booking: {
            _id: '64a1f0c2e4b0a1b2c3d4e9f1',
            reference: 'ABC123',
            status: 'enquiry',
            date: '2030-06-01T00:00:00',
            time: '19:00',
            num_people: 2,
            type: { id: '64a1f0c2e4b0a1b2c3d4e601', name: 'Dinner', internal_cost: 12 },
            created_by: 'test-app',
            email: 'ada@example.com',
            phone: '07700 900123',
            internal_notes: 'VIP, regular complainer',
          },
          bookingStatus: 'received',
          venue: { title: 'The Anchor', path: 'anchor', type: 'bar', page_type: 'venue', owner_email: 'x@y' },
          debug: { host: 'db-7.internal' },
        },
        201,
      ),
    );
    const response = await send('/api/bookings', postJson(validBooking()));
    assert.equal(response.status, 201);
    const { payload } = (await response.json()) as { payload: Payload & { manage_url?: string } };
    // The guest's manage link (api/manage.ts): the booking sealed, its _id not readable in it.
    const { manage_url: manage, ...rest } = payload;
    assert.match(manage ?? '', /^http:\/\/proxy\.test\/manage\/[A-Za-z0-9_-]{40,600}$/);
    assert.ok(!manage!.includes('64a1f0c2e4b0a1b2c3d4e9f1'));
    assert.deepEqual(rest, {
      booking: {
        reference: 'ABC123',
        status: 'enquiry',
        date: '2030-06-01T00:00:00',
        time: '19:00',
        num_people: 2,
        type: { name: 'Dinner' },
      },
      bookingStatus: 'received',
      venue: { title: 'The Anchor' },
    });
  });

  test('a live-shaped answer (no status, type as an id) stays readable', async () => {
    const { send } = recordingProxy({}, () =>
      upstreamJson({ booking: { reference: 'R9', type: '64a1f0c2e4b0a1b2c3d4e601' }, bookingStatus: 'confirmed' }, 200),
    );
    const { payload } = (await (await send('/api/bookings', postJson(validBooking()))).json()) as { payload: Payload };
    assert.deepEqual(payload, { booking: { reference: 'R9' }, bookingStatus: 'confirmed', venue: {} });
  });
});

describe("upstream refusals in the proxy's words", () => {
  const leaky = {
    message: 'ValidationError at /srv/app/v4/lib/bookings.js:212 (mongo shard db-7)',
    errors: [
      { code: 'full', message: 'capacity table t_cap_2 exhausted', fields: ['time'] },
      { code: 'missing_email', message: 'Email is required by /srv/app/rules.js', fields: ['email'] },
      { code: 'weird code <script>', message: '/etc/passwd', fields: ['../x', 'notes'] },
    ],
  };

  test("a 422 on a booking: codes and fields kept, messages the proxy's, the original only in the log", async () => {
    const { send, logger } = recordingProxy({}, () => upstreamJson(leaky, 422));
    const response = await send('/api/bookings', postJson(validBooking()));
    assert.equal(response.status, 422);
    const text = await response.text();
    assert.doesNotMatch(text, /srv|mongo|db-7|t_cap|passwd|script/);
    const { payload } = JSON.parse(text) as { payload: Payload };
    assert.deepEqual(payload, {
      message: 'The booking was not accepted',
      errors: [
        { code: 'full', message: 'This time is fully booked. Please choose another time.', fields: ['time'] },
        { code: 'missing_email', message: 'Email: please fill this in.', fields: ['email'] },
        { code: 'error', message: 'Notes: please check this.', fields: ['notes'] },
      ],
      stored: false,
    });
    const line = logger.lines.find((entry) => entry.msg === 'upstream refused');
    assert.equal(line?.route, 'POST /bookings');
    assert.match(String(line?.detail), /\/srv\/app\/v4\/lib\/bookings\.js/);
  });

  test('a refused read: one field error gives the message; none gives the generic one', async () => {
    const one = recordingProxy({}, () =>
      upstreamJson(
        { message: 'at /srv/x', errors: [{ code: 'invalid_date', message: '/srv/y', fields: ['date'] }] },
        400,
      ),
    );
    const read = `/api/venues/${VENUE}/booking-availability?num_people=2`;
    const { payload } = (await (await one.send(read)).json()) as { payload: Payload };
    assert.deepEqual(payload, {
      message: 'Date: please check this.',
      errors: [{ code: 'invalid_date', message: 'Date: please check this.', fields: ['date'] }],
    });
    const none = recordingProxy({}, () => upstreamJson({ message: 'stack at /srv/z' }, 404));
    const body = (await (await none.send(read)).json()) as { payload: Payload };
    assert.deepEqual(body.payload, { message: 'The booking service refused the request', errors: [] });
  });
});
