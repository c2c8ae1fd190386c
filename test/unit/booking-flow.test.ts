import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeAvailability } from '../../src/api/normalize.js';
import { bookingRequest } from '../../src/state/booking-request.js';
import {
  alternatives,
  autoChoice,
  clearFrom,
  isReady,
  nextStep,
  parseSteps,
  planRead,
  planSubmission,
  readKey,
  reconcile,
  submitRoute,
} from '../../src/state/booking-flow.js';

const guest = { first_name: ' Ada ', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 7700 900123' };

describe('booking flow', () => {
  it('parses the steps attribute, keeping every field exactly once', () => {
    assert.deepEqual(parseSteps('num_people,date,type,time,duration'), [
      'num_people',
      'date',
      'type',
      'time',
      'duration',
    ]);
    assert.deepEqual(parseSteps('date, bogus ,date'), ['date', 'type', 'time', 'duration', 'num_people']);
    assert.deepEqual(parseSteps(null), ['type', 'date', 'time', 'duration', 'num_people']);
  });

  it('finds the first unchosen step in order', () => {
    const order = parseSteps('');
    assert.equal(nextStep(order, {}), 'type');
    assert.equal(nextStep(order, { type: 't', date: '2026-01-01' }), 'time');
    assert.equal(nextStep(order, { type: 't', date: 'd', time: '19:00', duration: 90, num_people: 2 }), null);
  });

  it('clears a choice the new answer rejects, and never auto-chooses on the same answer', () => {
    const order = parseSteps('');
    const availability = normalizeAvailability({
      validation: {
        type: { valid: true, suggestedValues: [{ value: 't', valid: true }] },
        time: {
          valid: false,
          suggestedValues: [
            { value: '19:00', valid: false },
            { value: '20:00', valid: true },
          ],
        },
      },
    });
    const result = reconcile(order, { type: 't', date: '2026-01-01', time: '19:00' }, availability);
    assert.deepEqual(result.problems, [{ field: 'time', value: '19:00', reason: null, alternatives: ['20:00'] }]);
    assert.equal(result.choices.time, undefined);
    assert.equal(result.autoChosen, null);
  });

  it("offers the alternatives nearest a refused time in the venue's night: 00:00 beside 23:30, listed last", () => {
    const night = normalizeAvailability({
      validation: {
        time: {
          valid: false,
          suggestedValues: ['17:00', '17:30', '22:30', '23:00', '23:30', '00:00', '00:30'].map((time) => ({
            time,
            valid: time !== '00:30',
          })),
        },
      },
    });
    assert.deepEqual(alternatives(night, 'time', '00:30'), ['22:30', '23:00', '23:30', '00:00']);
  });

  it('auto-chooses a step with exactly one valid value', () => {
    const availability = normalizeAvailability({
      validation: {
        type: {
          suggestedValues: [
            { value: 'only', valid: true },
            { value: 'closed', valid: false },
          ],
        },
      },
    });
    const result = reconcile(parseSteps(''), {}, availability);
    assert.equal(result.autoChosen, 'type');
    assert.equal(result.choices.type, 'only');
  });

  it('clears a step and those after it when going back', () => {
    assert.deepEqual(clearFrom({ type: 't', date: 'd', time: '19:00' }, parseSteps(''), 'date'), { type: 't' });
  });

  it('is ready only when every field is chosen and the action can be submitted', () => {
    const order = parseSteps('');
    const all = { type: 't', date: '2026-01-01', time: '19:00', duration: 90, num_people: 2 };
    assert.equal(isReady(order, all, normalizeAvailability({ action: 'reject' })), false);
    assert.equal(isReady(order, all, normalizeAvailability({ action: 'may_enquire' })), true);
    assert.equal(isReady(order, { ...all, time: undefined }, normalizeAvailability({ action: 'accept' })), false);
  });

  it('submits through the API with the accepted details, unconverted, plus the guest', () => {
    const availability = normalizeAvailability({
      action: 'accept',
      bookingDetails: {
        venue_id: 'v1',
        venue_group: 'g',
        payments: [],
        type: 't',
        date: '2026-03-14T00:00:00',
        time: '19:00',
        duration: 90,
        num_people: '2',
      },
      next: { api: '/api/bookings', web: 'https://book.example/book?v=1' },
    });
    const plan = planSubmission(availability, {}, 'v1', guest, { returnUrl: 'https://venue.example/' });
    assert.equal(plan?.kind, 'api');
    assert.deepEqual(bookingRequest(availability, {}, 'v1', guest, {}), {
      venue_id: 'v1',
      venue_group: 'g',
      payments: [],
      type: 't',
      date: '2026-03-14',
      time: '19:00',
      duration: 90,
      num_people: 2,
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      phone: '+44 7700 900123',
      source: 'partner',
    });
  });

  it('redirects to the web URL with return_url when a deposit is needed or no API URL is given', () => {
    for (const wire of [
      { depositRequired: true, next: { api: '/api/bookings', web: 'https://book.example/book?v=1' } },
      { next: { web: 'https://book.example/book' } },
    ]) {
      const plan = planSubmission(normalizeAvailability({ action: 'accept', ...wire }), {}, 'v1', guest, {
        returnUrl: 'https://venue.example/back?x=1',
      });
      assert.equal(plan?.kind, 'web');
      assert.match(plan?.kind === 'web' ? plan.url : '', /[?&]return_url=https%3A%2F%2Fvenue\.example%2Fback%3Fx%3D1$/);
    }
    const posted = planSubmission(
      normalizeAvailability({
        action: 'accept',
        depositRequired: true,
        next: { web: 'https://book.example/book?v=1' },
      }),
      {},
      'v1',
      guest,
      { returnUrl: 'https://proxy.example/api/return?venue=v1', returnMethod: 'post', offer: 'o1' },
    );
    assert.equal(
      posted?.kind === 'web' ? posted.url : '',
      'https://book.example/book?v=1&return_url=https%3A%2F%2Fproxy.example%2Fapi%2Freturn%3Fvenue%3Dv1&return_method=post&offer=o1',
    );
  });

  it("needs the guest's details for an API booking, not for a hand-off to the booking site", () => {
    const next = { api: '/api/bookings', web: 'https://book.example/book' };
    const api = normalizeAvailability({ action: 'accept', bookingDetails: { venue_id: 'v1' }, next });
    assert.equal(planSubmission(api, {}, 'v1', null, { returnUrl: 'https://venue.example/' }), null);
    const web = normalizeAvailability({ action: 'accept', depositRequired: true, next });
    assert.equal(planSubmission(web, {}, 'v1', null, { returnUrl: 'https://venue.example/' })?.kind, 'web');
  });

  it('routes a ready booking through the API, to the booking site, or nowhere when neither is given', () => {
    const web = 'https://book.example/?venue_id=v1';
    assert.equal(submitRoute(normalizeAvailability({ action: 'accept', next: { api: '/api/bookings', web } })), 'api');
    assert.equal(
      submitRoute(
        normalizeAvailability({ action: 'accept', depositRequired: true, next: { api: '/api/bookings', web } }),
      ),
      'web',
    );
    assert.equal(submitRoute(normalizeAvailability({ action: 'accept', next: { web } })), 'web');
    // A deposit, or no API URL, and next.web withheld: nothing can be sent from here.
    assert.equal(
      submitRoute(normalizeAvailability({ action: 'accept', depositRequired: true, next: { api: '/api/bookings' } })),
      null,
    );
    assert.equal(submitRoute(normalizeAvailability({ action: 'accept', next: null })), null);
  });

  describe('availability reads (the call plan)', () => {
    const order = parseSteps('');
    const day = { type: 't', date: '2026-01-01' };
    // The answer to the times read: times, durations and party sizes in one.
    const times = normalizeAvailability({
      validation: {
        time: {
          valid: false,
          suggestedValues: [
            { time: '19:00', valid: true },
            { time: '21:00', valid: false },
          ],
        },
        duration: { suggestedValues: [{ value: 90, valid: true }] },
        num_people: { suggestedValues: [2, 4].map((value) => ({ value, valid: true })) },
      },
    });
    const at19 = { ...day, time: '19:00' };
    const held = { read: { choices: at19 }, availability: times };

    it('asks the type and date steps for their own field, and the times read for the steps after it too', () => {
      assert.deepEqual(planRead(order, {}, null), { choices: {}, fields: ['type'] });
      assert.deepEqual(planRead(order, { type: 't' }, null), { choices: { type: 't' }, fields: ['type', 'date'] });
      // Asking for every field means no `fields=` at all.
      assert.deepEqual(planRead(order, day, null), { choices: day });
      // With nothing in hand (a reload after the time), the read for the duration serves the party size too.
      assert.deepEqual(planRead(order, at19, null), { choices: at19 });
    });

    it('reuses the times answer for a time, a duration and a party size it listed as valid', () => {
      const untimed = { read: { choices: day }, availability: times };
      assert.equal(planRead(order, at19, untimed), untimed.read);
      assert.equal(planRead(order, { ...at19, duration: 90 }, untimed), untimed.read);
      assert.equal(planRead(order, at19, held), held.read);
      assert.equal(planRead(order, { ...at19, duration: 90 }, held), held.read);
      // Taking a time back, as after a final check that refused it, keeps the answer in hand too.
      const refused = { ...held, read: { choices: { ...day, time: '21:00', duration: 90, num_people: 2 } } };
      assert.equal(planRead(order, day, refused), refused.read);
    });

    it('reads a late time again, where closing time may cut the durations listed without it short', () => {
      const evening = normalizeAvailability({
        validation: {
          time: { suggestedValues: ['18:00', '19:00', '21:30'].map((time) => ({ time, valid: true })) },
          duration: { suggestedValues: [90, 120, 180].map((value) => ({ value, valid: true })) },
        },
      });
      const untimed = { read: { choices: day }, availability: evening };
      // Closing is at least 21:30 + 1 h 30: from 19:00 every listed duration ends by then.
      assert.equal(planRead(order, { ...day, time: '19:00' }, untimed), untimed.read);
      assert.equal(planRead(order, { ...day, time: '20:00' }, untimed).choices.time, '20:00', 'not listed');
      assert.deepEqual(planRead(order, { ...day, time: '21:30' }, untimed), { choices: { ...day, time: '21:30' } });
    });

    it('reads a time after midnight again too: it is the latest start of the night, not the earliest', () => {
      // A bar open until 02:00: 00:00 and 2 or 3 hours listed with no time; from 00:00, 3 hours ends past closing.
      const night = normalizeAvailability({
        validation: {
          time: { suggestedValues: ['22:30', '23:00', '23:30', '00:00'].map((time) => ({ time, valid: true })) },
          duration: { suggestedValues: [120, 180].map((value) => ({ value, valid: true })) },
        },
      });
      const untimed = { read: { choices: day }, availability: night };
      assert.deepEqual(planRead(order, { ...day, time: '00:00' }, untimed), { choices: { ...day, time: '00:00' } });
      assert.deepEqual(planRead(order, { ...day, time: '23:30' }, untimed), { choices: { ...day, time: '23:30' } });
    });

    it('reads again for a choice the answer did not list as valid, or one that changes the earlier steps', () => {
      assert.deepEqual(planRead(order, { ...day, time: '21:00' }, held), {
        choices: { ...day, time: '21:00' },
      });
      assert.deepEqual(planRead(order, { ...at19, duration: 120 }, held), {
        choices: { ...at19, duration: 120 },
      });
      assert.deepEqual(planRead(order, { ...day, date: '2026-01-02' }, held), {
        choices: { ...day, date: '2026-01-02' },
      });
      // A party size chosen before the time changes which times are offered.
      const party = parseSteps('num_people');
      const before = { read: { choices: {} }, availability: times };
      assert.deepEqual(planRead(party, { num_people: 2 }, before), {
        choices: { num_people: 2 },
        fields: ['type', 'num_people'],
      });
    });

    it('always reads the complete check, asking for every field', () => {
      const all = { ...at19, duration: 90, num_people: 2 };
      assert.deepEqual(planRead(order, all, held), { choices: all });
      assert.ok(readKey(planRead(order, all, held)).endsWith('&fields='));
    });

    it('auto-chooses from the answer in hand a next step with one valid value', () => {
      assert.deepEqual(autoChoice(order, { ...day, time: '19:00' }, times), { ...day, time: '19:00', duration: 90 });
      assert.equal(autoChoice(order, { ...day, time: '19:00', duration: 90 }, times), null);
    });
  });
});
