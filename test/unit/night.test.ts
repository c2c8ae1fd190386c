/**
 * The venue's night (the service day a booking's date names): start times after midnight are the
 * end of that date's evening, for the times' order and groups, the nearest alternatives and the
 * calendar entry's day.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dayPart } from '../../src/parts/times.js';
import { nightMinutes, startDate } from '../../src/venue/venue-time.js';

describe("the venue's night", () => {
  it('counts a start time after midnight past 24:00, and any other from midnight', () => {
    assert.equal(nightMinutes('00:00'), 1440);
    assert.equal(nightMinutes('01:30'), 1530);
    assert.equal(nightMinutes('04:59'), 1739);
    assert.equal(nightMinutes('05:00'), 300);
    assert.equal(nightMinutes('23:30'), 1410);
    const listed = ['00:30', '23:30', '17:00', '00:00', '10:30'];
    assert.deepEqual(
      listed.sort((a, b) => nightMinutes(a) - nightMinutes(b)),
      ['10:30', '17:00', '23:30', '00:00', '00:30'],
    );
  });

  it('groups a time after midnight as late, never as the morning', () => {
    assert.deepEqual(['08:00', '11:00', '15:00', '17:30', '23:59', '00:00', '04:30'].map(dayPart), [
      'morning',
      'lunch',
      'afternoon',
      'evening',
      'evening',
      'late',
      'late',
    ]);
  });

  it("puts a start after midnight on the calendar's next day, across a month and a year", () => {
    assert.equal(startDate('2026-12-01', '23:30'), '2026-12-01');
    assert.equal(startDate('2026-12-01', '00:00'), '2026-12-02');
    assert.equal(startDate('2026-12-31', '00:30'), '2027-01-01');
    // The night the clocks go back: the date is still the Saturday's, the start on the Sunday.
    assert.equal(startDate('2026-10-24', '01:30'), '2026-10-25');
  });
});
