/**
 * The reconciliation's decision (issue 34, part 3), against the search result shapes of the spec:
 * a result that shows every detail of the request is a match; one that shows a detail that is not
 * the request's positively differs; one that shows nothing different but lacks a compared detail
 * (§2.5's `booking_id` without `reference`, a `type` with only its `name`) leaves the outcome
 * unknown, never "not made". Adopted: exactly one match, nothing that may also be it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareResult, searchVerdict } from '../../proxy/api/reconcile.js';

const TYPE = '64a1f0c2e4b0a1b2c3d4e601';
/** A booking request's upstream body, as bookings.ts sends it. */
const body: Record<string, unknown> = {
  venue_id: '64a1f0c2e4b0a1b2c3d4e501',
  type: TYPE,
  date: '2030-06-04',
  time: '19:00',
  num_people: 2,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0018',
  source: 'partner',
};

/** A result with every field the reconciliation asks for (`fields=`), as the sandbox answers. */
const full = (changes: Record<string, unknown> = {}): Record<string, unknown> => ({
  reference: 'DMN-10000000001',
  status: 'complete',
  date: '2030-06-04T00:00:00',
  time: '19:00',
  num_people: 2,
  type: { guestlist: false, id: TYPE, name: 'Dinner', private_hire: false },
  first_name: 'ada',
  last_name: 'LOVELACE',
  email: 'Ada@Example.com',
  phone: '+442079460018',
  source: 'partner',
  ...changes,
});

/** A result shaped as §2.5 lists it: `booking_id` (no `reference`), `type` with a `name` key. */
const spec = (changes: Record<string, unknown> = {}): Record<string, unknown> => {
  const { reference: _reference, ...rest } = full();
  return { ...rest, booking_id: 50_001, type: { name: 'Dinner' }, ...changes };
};

describe('one search result against the request', () => {
  test('every detail shown and the request’s: a match', () => {
    assert.equal(compareResult(full(), body), 'match');
  });

  test('a detail shown and not the request’s: positively differs, whatever else is missing', () => {
    for (const changes of [
      { time: '19:30' },
      { date: '2030-06-05T00:00:00' },
      { num_people: 3 },
      { type: { id: '64a1f0c2e4b0a1b2c3d4e602', name: 'Dinner' } },
      { first_name: 'Grace' },
      { last_name: 'Hopper' },
      { email: 'grace@example.com' },
      { phone: '+44 20 7946 0019' },
      { source: 'widget' },
    ]) {
      assert.equal(compareResult(full(changes), body), 'differs', JSON.stringify(changes));
      assert.equal(compareResult(spec(changes), body), 'differs', `§2.5 shape: ${JSON.stringify(changes)}`);
    }
  });

  test('a compared detail the result does not show: missing, not a mismatch', () => {
    assert.equal(compareResult(spec(), body), 'missing', '§2.5: a type with only its name');
    for (const field of ['time', 'date', 'num_people', 'type', 'first_name', 'last_name', 'email', 'phone']) {
      const { [field]: _dropped, ...result } = full();
      assert.equal(compareResult(result, body), 'missing', `without ${field}`);
    }
    assert.equal(compareResult(full({ email: null }), body), 'missing', 'an email shown as null');
  });

  test('a detail the request did not carry is not compared; no source shown proves nothing', () => {
    const { email: _email, phone: _phone, ...withoutContact } = body;
    const { email: _e, phone: _p, ...result } = full();
    assert.equal(compareResult(result, withoutContact), 'match');
    const { source: _source, ...sourceless } = full();
    assert.equal(compareResult(sourceless, body), 'match');
  });
});

describe('a complete search, decided', () => {
  test('no result, or only results that positively differ: none (not made)', () => {
    assert.deepEqual(searchVerdict([], body), { none: true });
    assert.deepEqual(searchVerdict([spec({ time: '20:00' }), full({ first_name: 'Grace' })], body), { none: true });
  });

  test('a §2.5 result of the same guest: unknown, never none', () => {
    assert.deepEqual(searchVerdict([spec()], body), { unknown: true });
    assert.deepEqual(searchVerdict([spec({ first_name: 'Grace' }), spec()], body), { unknown: true });
  });

  test('exactly one full match with a reference: adopted', () => {
    const found = full();
    assert.deepEqual(searchVerdict([full({ time: '20:00' }), found], body), { adopt: found });
  });

  test('a match is not adopted beside a result that may also be it, beside another match, without a reference, or for a request with neither email nor phone', () => {
    assert.deepEqual(searchVerdict([full(), spec()], body), { unknown: true });
    assert.deepEqual(searchVerdict([full(), full({ reference: 'DMN-10000000002' })], body), { unknown: true });
    const { reference: _reference, ...unreferenced } = full();
    assert.deepEqual(searchVerdict([{ ...unreferenced, booking_id: 50_001 }], body), { unknown: true });
    const { email: _email, phone: _phone, ...anonymous } = body;
    assert.deepEqual(searchVerdict([full()], anonymous), { unknown: true });
  });
});
