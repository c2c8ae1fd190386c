import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addDays, londonDate, londonInstant, londonMinutes, londonTimestamp, weekdayOf } from '../../sandbox/time.js';

const at = (iso: string) => Date.parse(iso);

describe('London time in the sandbox', () => {
  it('turns instants into London wall-clock values on both sides of the clock changes', () => {
    assert.equal(londonTimestamp(at('2026-03-29T00:59:59Z')), '2026-03-29T00:59:59');
    assert.equal(londonTimestamp(at('2026-03-29T01:00:00Z')), '2026-03-29T02:00:00');
    assert.equal(londonTimestamp(at('2026-10-25T00:30:00Z')), '2026-10-25T01:30:00');
    assert.equal(londonTimestamp(at('2026-10-25T01:30:00Z')), '2026-10-25T01:30:00');
  });

  it('knows London midnight, not UTC midnight, in summer', () => {
    assert.equal(londonDate(at('2026-07-01T22:59:00Z')), '2026-07-01');
    assert.equal(londonDate(at('2026-07-01T23:00:00Z')), '2026-07-02');
    assert.equal(londonMinutes(at('2026-07-01T23:05:00Z')), 5);
  });

  it('has no instant for the hour skipped in March, and the first of the hour repeated in October', () => {
    assert.equal(londonInstant('2026-03-29', 90), null);
    assert.equal(londonInstant('2026-03-29', 150), at('2026-03-29T01:30:00Z'));
    assert.equal(londonInstant('2026-10-25', 90), at('2026-10-25T00:30:00Z'));
    assert.equal(londonInstant('2026-10-25', 150), at('2026-10-25T02:30:00Z'));
  });

  it('does plain-date arithmetic across the clock changes without drifting a day', () => {
    assert.equal(addDays('2026-03-28', 1), '2026-03-29');
    assert.equal(addDays('2026-03-29', 1), '2026-03-30');
    assert.equal(addDays('2026-10-25', -1), '2026-10-24');
    assert.equal(weekdayOf('2026-10-25'), 'sunday');
  });
});
