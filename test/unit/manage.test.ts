/**
 * The widget's side of managing a booking (issue 36), as plain data: the proxy's manage link kept
 * in the confirmation (and so in `vb-complete` and across a reload), a change's `replaces` sent with
 * the booking and the old reference kept, and the manage link in the calendar entry.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeAvailability } from '../../src/api/normalize.js';
import { enGB } from '../../src/i18n/en-GB.js';
import { enGBLater } from '../../src/i18n/en-GB-later.js';
import { calendarEvent, type Booked } from '../../src/parts/confirmation.js';
import { bookingRequest } from '../../src/state/booking-request.js';
import { apiBooking, initialState, savedBooking, transition } from '../../src/state/booking-state.js';
import { icsFile } from '../../src/venue/calendar-links.js';

const all = { type: 't', date: '2026-03-17', time: '19:00', duration: 90, num_people: 2 };
const guest = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 7700 900123' };
const manage = 'https://book.example/manage/tok_abc123';

describe('the manage link and a change, in the booking state', () => {
  it('keeps the manage link of the booking answer in the confirmation, and saves it across a reload', () => {
    const sent = transition(initialState(), { type: 'submit' });
    const after = transition(sent, {
      type: 'booked',
      created: { bookingStatus: 'Confirmed', booking: { reference: 'R7' }, manage_url: manage },
      instant: true,
    });
    assert.deepEqual(after.confirmation, {
      reference: 'R7',
      status: 'confirmed',
      manage_url: manage,
      previous: undefined,
    });
    const saved = JSON.parse(JSON.stringify(savedBooking(after, '')));
    assert.deepEqual(saved.confirmation, { reference: 'R7', status: 'confirmed', manage_url: manage });
    const reloaded = transition(initialState(), { type: 'restore', back: null, saved });
    assert.equal(reloaded.confirmation?.manage_url, manage);
    assert.equal(reloaded.arrival, 'restored');
  });

  it("keeps the reference a change replaced (the proxy's `replaced`)", () => {
    const after = transition(initialState(), {
      type: 'booked',
      created: {
        bookingStatus: 'Confirmed',
        booking: { reference: 'R8' },
        manage_url: manage,
        replaced: { reference: 'R2' },
      },
      instant: true,
    });
    assert.equal(after.confirmation?.previous, 'R2');
  });

  it("keeps the reference of a booking a change could not cancel (the proxy's `replace_refused`), saved across a reload", () => {
    const after = transition(initialState(), {
      type: 'booked',
      created: {
        bookingStatus: 'Confirmed',
        booking: { reference: 'R9' },
        replace_refused: { reference: 'R3', reason: 'capability', phone: '020 7946 0000' },
      },
      instant: true,
    });
    assert.equal(after.confirmation?.previous, undefined);
    assert.deepEqual(after.confirmation?.kept, { reference: 'R3', phone: '020 7946 0000' });
    const saved = JSON.parse(JSON.stringify(savedBooking(after, '')));
    const reloaded = transition(initialState(), { type: 'restore', back: null, saved });
    assert.deepEqual(reloaded.confirmation?.kept, { reference: 'R3', phone: '020 7946 0000' });
  });

  it('sends `replaces` with the booking when the element has one, and none otherwise', () => {
    const ready = normalizeAvailability({
      action: 'accept',
      bookingDetails: { venue_id: 'v1', ...all },
      next: { api: '/api/bookings' },
    });
    const state = { ...initialState(), choices: { ...all } };
    const extras = { offers: [], partnerSource: '', request: bookingRequest };
    const change = apiBooking(state, ready, 'v1', guest, { ...extras, replaces: 'tok_abc123' });
    assert.equal(change?.body.replaces, 'tok_abc123');
    const fresh = apiBooking(state, ready, 'v1', guest, { ...extras, replaces: '' });
    assert.equal(fresh && 'replaces' in fresh.body, false);
  });
});

describe('the manage link in the calendar entry', () => {
  const booked = (manage_url?: string): Booked => ({
    strings: { ...enGBLater, ...enGB },
    reference: 'R7',
    choices: { ...all },
    venue: 'The Anchor',
    fields: [],
    format: String,
    minutes: (duration) => duration,
    notes: 'Window table',
    manage_url,
  });

  it("puts it in the description (Google's link shows no URL) and as the .ics entry's URL", () => {
    const event = calendarEvent(booked(manage))!;
    assert.equal(event.description, `Reference: R7\n\nWindow table\n\nManage or cancel this booking: ${manage}`);
    assert.equal(event.url, manage);
    const file = icsFile(event, new Date('2026-01-01T00:00:00Z')).replace(/\r\n /g, '');
    assert.match(file, new RegExp(`\r\nURL:${manage}\r\n`));
    assert.ok(
      file.includes(`DESCRIPTION:Reference: R7\\n\\nWindow table\\n\\nManage or cancel this booking: ${manage}`),
    );
  });

  it('leaves it out when the booking has none, or it is no web address', () => {
    for (const url of [undefined, 'javascript:alert(1)']) {
      const event = calendarEvent(booked(url))!;
      assert.equal(event.description, 'Reference: R7\n\nWindow table');
      assert.equal(event.url, undefined);
      assert.ok(!icsFile(event, new Date('2026-01-01T00:00:00Z')).includes('URL:'));
    }
  });
});
