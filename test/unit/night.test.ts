/**
 * The venue's night (the service day a booking's date names): start times after midnight are the
 * end of that date's evening, for the times' order and groups, the nearest alternatives and the
 * calendar entry's day.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dayPart } from '../../src/parts/times.js';
import { icsFile } from '../../src/venue/calendar-links.js';
import { nightMinutes } from '../../src/venue/venue-time.js';

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

  it("puts a calendar entry's start after midnight on the calendar's next day, across a month and a year", () => {
    const event = { reference: 'R1', title: 'Booking', minutes: 120, location: '', description: '' };
    const starts = (date: string, time: string) =>
      /DTSTART:(\d{8}T\d{4})/.exec(icsFile({ ...event, date, time }, new Date('2026-01-01T00:00:00Z')))![1];
    assert.equal(starts('2026-12-01', '23:30'), '20261201T2330');
    assert.equal(starts('2026-12-01', '00:00'), '20261202T0000');
    assert.equal(starts('2026-12-31', '00:30'), '20270101T0030');
    // In summer London is an hour ahead of UTC: 00:30 on the night of 30 June is 23:30 UTC that day.
    assert.equal(starts('2026-06-30', '00:30'), '20260630T2330');
  });
});
