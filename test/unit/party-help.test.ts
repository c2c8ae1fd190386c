/**
 * A larger party's way on (`src/state/party-help.ts`): the days a type takes a party, in words;
 * what a dead end offers, read from the real sandbox (in either dialect); and the choices a guest
 * goes on with when the booking moves to another type.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeAvailability } from '../../src/api/normalize.js';
import { createApiClient } from '../../src/api/client.js';
import {
  carriedDuration,
  continuedChoices,
  dayText,
  fitOf,
  movedChoices,
  readPartyHelp,
  restoredChoices,
  weekdayOf,
  weekdayRuns,
  type Fit,
} from '../../src/state/party-help.js';
import { createStack } from '../../proxy/stack.js';

const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const PRIVATE_HIRE = '64a1f0c2e4b0a1b2c3d4e603';
const WORDS = { everyDay: 'every day', dayRange: (first: string, last: string) => `${first} to ${last}` };

/**
 * The widget's real client of the real proxy and sandbox (one stack, in process), and the
 * upstream reads the proxy made: the hourly quota every visitor shares.
 */
function stackClient(dialect: 'spec' | 'live', profiles?: Record<string, unknown>) {
  const upstream: string[] = [];
  const stack = createStack({
    origin: 'http://localhost',
    sandbox: { now: '2026-11-28T10:00:00Z', dialect },
    ...(profiles ? { proxy: { profileSeed: profiles } } : {}),
    upstream: (sandbox) => (request) => {
      upstream.push(new URL(request.url).search);
      return sandbox.fetch(request);
    },
  });
  const client = createApiClient({
    base: 'http://localhost/api',
    fetch: (input, init) => stack.fetch(new Request(input, init)),
  });
  return { client, upstream };
}

describe('the days a type takes a party', () => {
  it('reads a plain date as its weekday, whatever the host zone', () => {
    assert.equal(weekdayOf('2026-12-04'), 5);
    assert.equal(weekdayOf('2026-03-29'), 0);
    assert.equal(weekdayOf('2026-10-25'), 0);
  });

  it('groups weekdays in runs around the week, from where a run starts', () => {
    assert.deepEqual(weekdayRuns([0, 1, 2, 3, 4]), [[0, 4]]);
    assert.deepEqual(weekdayRuns([5, 6, 0]), [[5, 0]]);
    assert.deepEqual(weekdayRuns([1, 3, 5, 6, 0]), [
      [3, 3],
      [5, 1],
    ]);
    assert.deepEqual(weekdayRuns([1, 3, 4, 5]), [
      [1, 1],
      [3, 5],
    ]);
    assert.deepEqual(weekdayRuns([]), []);
  });

  it('says them as a person would, in the locale', () => {
    assert.equal(dayText([0, 1, 2, 3, 4], 'en-GB', WORDS), 'Sunday to Thursday');
    assert.equal(dayText([6, 0], 'en-GB', WORDS), 'Saturday and Sunday');
    assert.equal(dayText([1, 3, 5, 6, 0], 'en-GB', WORDS), 'Wednesday and Friday to Monday');
    assert.equal(dayText([1, 2, 4], 'en-GB', WORDS), 'Monday, Tuesday and Thursday');
    assert.equal(dayText([0, 1, 2, 3, 4, 5, 6], 'en-GB', WORDS), 'every day');
    assert.equal(
      dayText([0, 1, 2, 3, 4], 'fr', { everyDay: 'tous les jours', dayRange: (a, b) => `du ${a} au ${b}` }),
      'du dimanche au jeudi',
    );
  });
});

describe('what a dead end offers, read from the sandbox', () => {
  for (const dialect of ['spec', 'live'] as const)
    it(`a party of 12: Private Hire, 10–60, Sunday to Thursday, an enquiry, in two availability reads (${dialect})`, async () => {
      const { client, upstream } = stackClient(dialect, { [VENUE]: { phone: '+44 20 7946 0000' } });
      const help = await readPartyHelp(client, VENUE, 12, normalizeAvailability);
      assert.deepEqual(
        help.fits.map(({ id, name, min, max, days, enquiry }) => ({ id, name, min, max, days, enquiry })),
        [{ id: PRIVATE_HIRE, name: 'Private Hire', min: 10, max: 60, days: [0, 1, 2, 3, 4], enquiry: true }],
      );
      assert.equal(help.fits[0]!.dates.includes('2026-12-03'), true);
      assert.equal(help.fits[0]!.dates.includes('2026-12-04'), false);
      // The venue's profile, kept by the proxy (its own JSON, not the service's envelope).
      assert.deepEqual([help.people, help.phone, help.email], [12, '+44 20 7946 0000', null]);
      // One read for the types that take 12, one for the type's days: the profile is the proxy's own.
      assert.equal(upstream.length, 2);
      // Asked again (another guest, the same party): the proxy answers from its cache.
      await readPartyHelp(client, VENUE, 12, normalizeAvailability);
      assert.equal(upstream.length, 2);
    });

  it('a party no type takes: no type offered', async () => {
    const { client } = stackClient('spec');
    const help = await readPartyHelp(client, VENUE, 61, normalizeAvailability);
    assert.deepEqual(help.fits, []);
  });

  it('a dead end that is not about the party: no availability read; no profile kept is no contact, not an error', async () => {
    const { client, upstream } = stackClient('spec');
    const help = await readPartyHelp(client, VENUE, 0, normalizeAvailability);
    assert.deepEqual(help, { people: 0, fits: [], phone: null, email: null });
    assert.deepEqual(upstream, []);
  });
});

/** An answer for a type (`fitOf`) or a full check, from a spec-shaped wire payload. */
const answerOf = (validation: object, action = 'reject') => normalizeAvailability({ validation, action } as never);

describe('a type from its answer', () => {
  it('is an enquiry when its times say so, or when the answer does with no time listed', () => {
    const times = answerOf({ time: { suggestedValues: [{ value: '18:00', valid: true, action: 'enquire' }] } });
    assert.equal(fitOf('ph', 'Private Hire', times).enquiry, true);
    assert.equal(fitOf('ph', 'Private Hire', answerOf({}, 'enquire')).enquiry, true);
    const instant = answerOf({ time: { suggestedValues: [{ value: '18:00', valid: true, action: 'accept' }] } });
    assert.equal(fitOf('t', 'Table', instant).enquiry, false);
  });
});

describe('the choices a guest goes on with', () => {
  const fit: Fit = {
    id: 'ph',
    name: 'Private Hire',
    min: 10,
    max: 60,
    days: [4],
    dates: ['2026-12-03'],
    enquiry: true,
  };
  const friday = { date: '2026-12-04', time: '19:30', num_people: 12 };

  it('moving to a type keeps the date and time on a day it takes, and gives up both on a day it does not', () => {
    assert.deepEqual(movedChoices({ ...friday, date: '2026-12-03' }, fit), {
      type: 'ph',
      num_people: 12,
      date: '2026-12-03',
      time: '19:30',
    });
    assert.deepEqual(movedChoices(friday, fit), { type: 'ph', num_people: 12 });
  });

  const durations = (...values: [number, boolean][]) =>
    answerOf({ duration: { suggestedValues: values.map(([value, valid]) => ({ value, valid })) } });

  it('continuing as the new type carries the duration over only where the new type lists it as valid', () => {
    const choices = { type: 'ph', date: '2026-12-03', time: '19:00', num_people: 12 };
    assert.equal(carriedDuration({ type: 't', duration: 2 }, durations([3, true], [4, true])), undefined);
    assert.deepEqual(continuedChoices(choices, { type: 't', duration: 2 }, durations([3, true])), choices);
    assert.deepEqual(continuedChoices(choices, { type: 't', duration: 3 }, durations([3, true], [4, true])), {
      ...choices,
      duration: 3,
    });
    // Listed but not valid (past closing): not carried.
    assert.equal(carriedDuration({ duration: 5 }, durations([5, false])), undefined);
    // A duration the service already chose (the type's only one) stays.
    assert.deepEqual(continuedChoices({ ...choices, duration: 4 }, { duration: 2 }, durations([4, true])).duration, 4);
  });

  it('going back to change the party restores the type and duration it replaced, without the party size', () => {
    assert.deepEqual(
      restoredChoices({ type: 'ph', date: '2026-12-03', time: '19:00', num_people: 12 }, { type: 't', duration: 2 }),
      { type: 't', date: '2026-12-03', time: '19:00', duration: 2 },
    );
  });
});
