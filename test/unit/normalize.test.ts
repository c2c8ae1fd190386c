import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeAvailability, plainDate, plainTime } from '../../src/api/normalize.js';

describe('normalizeAvailability', () => {
  it('reads the spec dialect, where every suggestion has `value`', () => {
    const result = normalizeAvailability({
      valid: false,
      action: 'reject',
      validation: {
        type: { valid: true, suggestedValues: [{ value: 'abc', label: 'Table', valid: true, offers: ['o1'] }] },
        num_people: {
          valid: false,
          rules: { min: 2, max: null },
          suggestedValues: [
            { value: 2, valid: true },
            { value: 20, valid: false, message: 'Too many' },
          ],
        },
      },
      bookingDetails: { venue_id: 'v', date: '2026-03-14' },
      next: { web: 'https://book.example/book?x=1' },
    });
    assert.deepEqual(result.fields.type?.suggestions[0], {
      value: 'abc',
      label: 'Table',
      valid: true,
      message: null,
      action: null,
      offers: ['o1'],
      endTime: null,
    });
    assert.equal(result.fields.num_people?.min, 2);
    assert.equal(result.fields.num_people?.max, null);
    assert.equal(result.fields.num_people?.suggestions[1].message, 'Too many');
    assert.equal(result.next.api, null);
    assert.equal(result.next.web, 'https://book.example/book?x=1');
  });

  it('reads the live dialect: time and date keys, type objects, T00:00:00 dates, string counts', () => {
    const result = normalizeAvailability({
      action: 'accept',
      validation: {
        type: {
          suggestedValues: [{ value: { id: 't1', name: 'Dinner', autoconfirmable: true }, valid: true, message: null }],
        },
        time: { suggestedValues: [{ time: '9:30', valid: true, action: 'enquire', message: null }] },
        date: { suggestedValues: [{ date: '2026-03-14', valid: false, message: null }] },
        duration: { suggestedValues: [{ value: 90, label: '1h 30m', endTime: '21:00' }] },
      },
      bookingDetails: { venue_id: 'v', venue_group: 'g', payments: [], date: '2026-03-14T00:00:00', num_people: '4' },
      next: { api: 'https://api.example/v4/bookings', web: 'https://book.example/book' },
    });
    assert.equal(result.fields.type?.suggestions[0].value, 't1');
    assert.equal(result.fields.type?.suggestions[0].label, 'Dinner');
    assert.equal(result.fields.time?.suggestions[0].value, '09:30');
    assert.equal(result.fields.time?.suggestions[0].action, 'enquire');
    assert.equal(result.fields.date?.suggestions[0].valid, false);
    assert.equal(result.fields.duration?.suggestions[0].endTime, '21:00');
    assert.equal(result.details.date, '2026-03-14');
    assert.equal(result.details.num_people, 4);
    assert.equal(result.action, 'accept');
  });

  it('survives garbage without throwing', () => {
    for (const wire of [
      null,
      undefined,
      {},
      { validation: { time: { suggestedValues: [null, 3, {}, { value: {} }] } } },
      { action: 'maybe', next: 'x' },
    ] as never[]) {
      const result = normalizeAvailability(wire);
      assert.equal(result.action, 'reject');
      assert.deepEqual(result.fields.time?.suggestions ?? [], []);
    }
  });

  it('strips time parts from dates and pads times', () => {
    assert.equal(plainDate('2026-10-25T00:00:00'), '2026-10-25');
    assert.equal(plainTime('7:05'), '07:05');
    assert.equal(plainTime('19:30:00'), '19:30');
  });
});
