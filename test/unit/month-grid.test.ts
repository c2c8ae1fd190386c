import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addMonths, createMonth, moveFocus } from '../../src/venue/month-grid.js';
import { calendarRange } from '../../src/parts/date-picker.js';
import { icsFile, googleCalendarUrl } from '../../src/venue/calendar-links.js';
import { durationMinutes, endTimeOf, formatDuration } from '../../src/venue/format.js';
import { readReturn, returnUrlFor, withoutReturn } from '../../src/state/session.js';
import { venueInstant } from '../../src/venue/venue-instant.js';
import { addPlainDays, formatVenueTime, venueToday } from '../../src/venue/venue-time.js';
import { alternatives, checkGuest, partnerOffers } from '../../src/state/booking-flow.js';
import { normalizeAvailability } from '../../src/api/normalize.js';

describe('calendar data', () => {
  it('builds Monday-first weeks of a month, padding with neighbouring days', () => {
    const march = createMonth('2026-03-29');
    assert.equal(march.month, '2026-03');
    assert.equal(march.weeks[0][0].date, '2026-02-23');
    assert.equal(march.weeks[0][6].date, '2026-03-01');
    assert.equal(march.weeks.at(-1)!.at(-1)!.date, '2026-04-05');
    assert.ok(march.weeks.flat().filter((day) => !day.outside).length === 31);
  });

  it('moves focus by the APG keys, clamped to the bookable range', () => {
    const range = ['2026-03-16', '2026-06-13'] as const;
    assert.equal(moveFocus('2026-03-17', 'ArrowLeft', false, ...range), '2026-03-16');
    assert.equal(moveFocus('2026-03-16', 'ArrowLeft', false, ...range), '2026-03-16');
    assert.equal(moveFocus('2026-03-17', 'ArrowDown', false, ...range), '2026-03-24');
    assert.equal(moveFocus('2026-03-18', 'Home', false, ...range), '2026-03-16');
    assert.equal(moveFocus('2026-03-18', 'End', false, ...range), '2026-03-22');
    assert.equal(moveFocus('2026-03-31', 'PageDown', false, ...range), '2026-04-30');
    assert.equal(moveFocus('2026-03-31', 'PageDown', true, ...range), '2026-06-13');
    assert.equal(moveFocus('2026-03-31', 'x', false, ...range), null);
    assert.equal(addMonths('2028-01-31', 1), '2028-02-29');
  });

  it('spans the calendar from today to the last suggested date, focused on the likeliest day', () => {
    const day = (value: string, valid: boolean) => ({ value, valid });
    const days = [day('2026-03-16', false), day('2026-03-17', true), day('2026-05-02', false)];
    const today = '2026-03-16';
    assert.deepEqual(calendarRange(days, null, undefined, today), { focus: '2026-03-17', max: '2026-05-02' });
    assert.equal(calendarRange(days, null, '2026-04-01', today).focus, '2026-04-01');
    assert.equal(calendarRange(days, '2026-04-20', '2026-04-01', today).focus, '2026-04-20');
    // Without suggestions: today, and a year ahead.
    assert.deepEqual(calendarRange([], null, undefined, today), { focus: today, max: '2027-03-16' });
    assert.equal(calendarRange([day('2026-03-16', false)], null, undefined, today).focus, today);
  });
});

describe('venue time', () => {
  it('takes London’s date at an instant, and London wall times across the clock changes', () => {
    assert.equal(venueToday(new Date('2026-06-30T23:30:00Z')), '2026-07-01');
    assert.equal(venueToday(new Date('2026-12-31T23:30:00Z')), '2026-12-31');
    assert.equal(venueInstant('2026-03-29', '00:30').toISOString(), '2026-03-29T00:30:00.000Z');
    assert.equal(venueInstant('2026-03-29', '12:00').toISOString(), '2026-03-29T11:00:00.000Z');
    assert.equal(venueInstant('2026-10-25', '12:00').toISOString(), '2026-10-25T12:00:00.000Z');
    assert.equal(addPlainDays('2026-03-28', 2), '2026-03-30');
    assert.equal(formatVenueTime('19:30', 'en-GB'), '19:30');
  });

  it('takes London’s date by the clock rule as Intl does, every hour from 2024 to 2036', () => {
    const london = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', dateStyle: 'short' });
    const differ: string[] = [];
    for (let at = Date.UTC(2024, 0, 1); at < Date.UTC(2036, 0, 1); at += 30 * 60_000) {
      const instant = new Date(at);
      if (venueToday(instant) !== london.format(instant)) differ.push(instant.toISOString());
    }
    assert.deepEqual(differ, []);
  });
});

describe('formatting and calendar files', () => {
  it('reads durations in either unit and words them through Intl', () => {
    assert.equal(durationMinutes(1.5), 90);
    assert.equal(durationMinutes(90), 90);
    assert.equal(durationMinutes(-1), -1);
    assert.match(formatDuration(90, 'en-GB'), /^1 hr 30 min/);
    assert.equal(endTimeOf('23:30', 90), '01:00');
  });

  it('writes an .ics and a Google link in UTC from venue time', () => {
    const event = {
      reference: 'DMN-1',
      title: 'Booking at X',
      date: '2026-07-01',
      time: '19:00',
      minutes: 90,
      location: 'X, Quay',
      description: 'Ref',
    };
    const ics = icsFile(event, new Date('2026-06-01T00:00:00Z'));
    assert.match(ics, /DTSTART:20260701T180000Z\r\nDTEND:20260701T193000Z/);
    assert.match(ics, /LOCATION:X\\, Quay/);
    assert.match(googleCalendarUrl(event), /dates=20260701T180000Z%2F20260701T193000Z/);
  });
});

describe('return from the booking site', () => {
  it('tags the return URL, reads only its own return, and strips personal data', () => {
    const url = returnUrlFor('', 'https://venue.example/book?x=1&reference=OLD', 'w1');
    assert.equal(url, 'https://venue.example/book?x=1&vb_return=w1');
    const back =
      'https://venue.example/book?x=1&vb_return=w1&reference=DMN-1&status=complete&first_name=Ada&email=a%40b.c';
    assert.deepEqual(readReturn(back, 'w1', false), { reference: 'DMN-1', status: 'confirmed' });
    assert.equal(readReturn(back, 'other', false), null);
    assert.equal(withoutReturn(back), 'https://venue.example/book?x=1');
  });
});

describe('flow helpers', () => {
  it('offers the nearest times and the next dates as alternatives', () => {
    const availability = normalizeAvailability({
      validation: {
        time: {
          suggestedValues: ['18:00', '18:30', '19:30', '21:00', '22:00'].map((value) => ({
            value,
            valid: value !== '18:30',
          })),
        },
        date: {
          suggestedValues: ['2026-03-20', '2026-03-21', '2026-03-22', '2026-03-23', '2026-03-24'].map((value) => ({
            value,
            valid: value !== '2026-03-22',
          })),
        },
      },
    });
    assert.deepEqual(alternatives(availability, 'time', '19:00'), ['18:00', '19:30', '21:00', '22:00']);
    assert.deepEqual(alternatives(availability, 'date', '2026-03-21'), ['2026-03-23', '2026-03-24']);
  });

  it('checks guest details and keeps only offers this client may attach', () => {
    const ok = { first_name: 'A', last_name: 'B', email: 'a@b.co', phone: '+44 7700 900123' };
    assert.deepEqual(checkGuest(ok, '', '2026-03-16'), {});
    assert.deepEqual(checkGuest({ ...ok, email: 'x', phone: 'y', dob: '2030-01-01' }, 'optional', '2026-03-16'), {
      email: 'email',
      phone: 'phone',
      dob: 'dob',
    });
    assert.deepEqual(checkGuest(ok, 'required', '2026-03-16'), { dob: 'required' });
    assert.deepEqual(
      partnerOffers([{ availability: '' }, { availability: 'partner' }, { availability: 'marketplace' }]).length,
      2,
    );
  });
});
