/**
 * One rule set: for every input of the table, the widget's own check of the details form
 * (`checkGuest`) and the real proxy's validation of `POST /api/bookings` agree — a value the widget
 * accepts is not refused by the proxy, and a value the proxy refuses is flagged by the widget next
 * to its field (so the guest never meets a form-level error for a field mistake).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkGuest, type GuestDetails } from '../../src/state/booking-flow.js';
import { isPartySize, LIMITS } from '../../src/api/rules.js';
import { postJson, recordingProxy, upstreamJson, validBooking } from './support.js';

type Field = 'first_name' | 'last_name' | 'email' | 'phone' | 'dob' | 'notes';

/** [field, value, accepted by both]. */
const TABLE: [Field, string, boolean][] = [
  ['email', 'ada@example.com', true],
  ['email', '  ada@example.com  ', true],
  ['email', 'ada.lovelace+vb@mail.example.co.uk', true],
  ['email', "o'brien@example.ie", true],
  ['email', 'a@b.c', true],
  ['email', 'ada@localhost', false],
  ['email', 'ada@example.com.', false],
  ['email', 'ada@-example.com', false],
  ['email', 'ada@exa_mple.com', false],
  ['email', 'ada@example..com', false],
  ['email', 'ada lovelace@example.com', false],
  ['email', 'ada@@example.com', false],
  ['email', 'ada:x@example.com', false],
  ['email', 'ada[1]@example.com', false],
  ['email', 'ada\\x@example.com', false],
  ['email', `${'a'.repeat(65)}@example.com`, false],
  ['email', `${'a'.repeat(64)}@example.com`, true],
  ['email', `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(63)}.com`, false],
  ['email', `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com`, true],
  ['email', 'x', false],
  ['phone', '07700 900123', true],
  ['phone', '+44 (0)7700 900123', true],
  ['phone', '+44.7700.900.123', true],
  ['phone', '020-7946-0000', true],
  ['phone', '12345', false],
  ['phone', '123456', true],
  ['phone', '1'.repeat(25), true],
  ['phone', '1'.repeat(26), false],
  ['phone', '++447700900123', false],
  ['phone', '07700 900123 ext 4', false],
  ['phone', 'call me', false],
  ['first_name', 'Ada', true],
  ['first_name', 'Zoë-Marie', true],
  ['first_name', 'a'.repeat(LIMITS.name), true],
  ['first_name', 'a'.repeat(LIMITS.name + 1), false],
  ['first_name', 'Ada\u202e', false],
  ['first_name', 'Ada\u200b', false],
  ['last_name', "O'Brien", true],
  ['last_name', 'Love\nlace', false],
  ['last_name', 'Love\tlace', false],
  ['dob', '1990-05-17', true],
  ['dob', '1901-01-01', true],
  ['dob', '1899-12-31', false],
  ['dob', '2001-02-29', false],
  ['dob', '2000-02-29', true],
  ['dob', '2999-01-01', false],
  ['dob', '17/05/1990', false],
  ['notes', 'Window seat please.\nIt is a birthday.', true],
  ['notes', 'n'.repeat(LIMITS.notes), true],
  ['notes', 'n'.repeat(LIMITS.notes + 1), false],
  ['notes', 'Hidden\u0007bell', false],
  ['notes', 'Zero\u200bwidth', false],
];

const GUEST: GuestDetails = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '07700 900123',
};

/** Today in UTC, as the proxy reads it for a date of birth. */
const TODAY = new Date().toISOString().slice(0, 10);

describe('one rule set for guest details (widget check and proxy agree)', () => {
  const { send } = recordingProxy({}, () =>
    upstreamJson({ booking: { reference: 'DMN-00000000001' }, bookingStatus: 'confirmed' }),
  );

  for (const [field, value, accepted] of TABLE) {
    it(`${field} ${JSON.stringify(value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : value)} → ${accepted ? 'accepted' : 'refused'}`, async () => {
      const widget = checkGuest({ ...GUEST, [field]: value }, 'optional', TODAY);
      assert.equal(widget[field] === undefined, accepted, `widget: ${JSON.stringify(widget)}`);
      assert.deepEqual(
        Object.keys(widget).filter((name) => name !== field),
        [],
        'no other field is flagged',
      );

      const response = await send('/api/bookings', postJson(validBooking({ [field]: value })));
      const body = (await response.json()) as { payload: { errors?: { fields: string[] }[] } };
      if (accepted) assert.equal(response.status, 200, JSON.stringify(body.payload));
      else {
        assert.equal(response.status, 400);
        assert.deepEqual(
          body.payload.errors?.flatMap((error) => error.fields),
          [field],
          'the proxy names the same field',
        );
      }
    });
  }

  for (const size of [0, 1, 2, 12, 1000, 1001, 2.5, -1]) {
    it(`party size ${size} → ${isPartySize(size) ? 'accepted' : 'refused'} by both`, async () => {
      const response = await send('/api/bookings', postJson(validBooking({ num_people: size })));
      assert.equal(response.status === 200, isPartySize(size), `proxy answered ${response.status}`);
    });
  }
});
