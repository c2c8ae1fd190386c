import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/client.js';
import type { Availability, FieldState, Suggestion } from '../../src/api/normalize.js';
import type { WireOffer } from '../../src/api/types.js';
import { parseSteps } from '../../src/state/booking-flow.js';
import { enGB } from '../../src/i18n/en-GB.js';
import {
  bookingSummary,
  describe as describeOption,
  format,
  offerBadge,
  offerNames,
  partyOf,
  partyOffers,
  problemText,
  readErrorText,
  siteRefusedWarning,
  submitErrorText,
  summaryItems,
  timeOffers,
  type OfferContext,
  type Wording,
} from '../../src/state/presenter.js';
import { venueIds, venueModel, venueName } from '../../src/venue/venue-model.js';
import { calendarEvent, confirmationLines, type Booked } from '../../src/parts/confirmation.js';
import { BOOKING_FIELDS } from '../../src/api/types.js';
import { enGBLater } from '../../src/i18n/en-GB-later.js';
import { durationMinutes } from '../../src/venue/format.js';
import { formatVenueDate } from '../../src/venue/venue-time.js';
import seed from '../../sandbox/seed.json' with { type: 'json' };

const wording: Wording = {
  strings: enGB,
  locale: 'en-GB',
  typeNames: new Map([['t1', 'Dinner']]),
  venues: [
    { _id: 'v1', title: 'The Anchor' },
    { _id: 'v2', path: 'the-crown_inn' },
  ],
};
const option = (value: string | number, valid: boolean): Suggestion => ({
  value,
  valid,
  label: null,
  message: null,
  action: null,
  offers: [],
  endTime: null,
});
const choices = { type: 't1', date: '2026-03-17', time: '19:00', duration: 90, num_people: 2 };

describe('presenter: how the widget words things', () => {
  it('formats each field for people, in venue time, never as a raw id where a name is known', () => {
    assert.equal(format(wording, 'date', '2026-03-17'), 'Tue 17 Mar');
    assert.equal(format(wording, 'time', '19:00'), '19:00');
    assert.equal(format(wording, 'num_people', 2), enGB.people(2));
    assert.equal(format(wording, 'duration', -1), enGB.untilClose);
    assert.equal(format(wording, 'type', 't1'), 'Dinner');
    assert.equal(format(wording, 'type', 't9'), 't9');
    assert.equal(format(wording, 'type', 't9', 'Brunch'), 'Brunch');
    assert.equal(format(wording, 'venue', 'v1'), 'The Anchor');
    assert.equal(format(wording, 'venue', 'v2'), 'The Crown Inn');
    assert.equal(format(wording, 'venue', 'v3'), 'v3');
  });

  it('describes an option: party sizes as numbers, a duration by its end, a refused value by its reason', () => {
    assert.deepEqual(describeOption(wording, 'num_people', option(2, true), undefined, null), {
      label: '2',
      detail: null,
      badge: null,
    });
    const duration = describeOption(wording, 'duration', option(90, true), '19:00', null);
    assert.equal(duration.detail, enGB.endsAt('20:30'));
    const refused = describeOption(wording, 'time', option('23:00', false), undefined, null);
    assert.equal(refused.detail, enGB.unavailable);
  });

  it('lists the summary (the picked venue first), the confirmation lines and the calendar entry', () => {
    const items = summaryItems(wording, parseSteps(''), { type: 't1', num_people: 2 }, 'v1');
    assert.deepEqual(
      items.map((item) => [item.field, item.value]),
      [
        ['venue', 'The Anchor'],
        ['type', 'Dinner'],
        ['num_people', enGB.people(2)],
      ],
    );
    // What `parts/flow.ts` gives the confirmation (in the later steps chunk) to build them.
    const booked: Booked = {
      strings: { ...enGB, ...enGBLater },
      reference: 'REF1',
      choices,
      venue: 'The Anchor',
      fields: BOOKING_FIELDS,
      format: (field, value) =>
        field === 'date' ? formatVenueDate(String(value), wording.locale) : format(wording, field, value),
      minutes: durationMinutes,
    };
    const lines = confirmationLines(booked);
    assert.deepEqual(lines[0], [enGB.fieldNames.venue, 'The Anchor']);
    assert.deepEqual(lines[1], [enGB.fieldNames.type, 'Dinner']);
    assert.equal(lines.length, 6);
    const event = calendarEvent(booked)!;
    assert.deepEqual(
      [event.title, event.minutes, event.location],
      [enGBLater.calendarTitle('The Anchor'), 90, 'The Anchor'],
    );
    assert.equal(calendarEvent({ ...booked, choices: { type: 't1' }, venue: '' }), null);
  });

  it('words problems and errors', () => {
    const problem = { field: 'time' as const, value: '19:00', reason: null, alternatives: [] };
    assert.equal(problemText(wording, problem), enGB.problem(enGB.fieldNames.time, '19:00'));
    assert.equal(readErrorText(enGB, new ApiError('timeout', 'slow')), enGB.errors.timeout);
    assert.equal(readErrorText(enGB, new ApiError('invalid', 'no')), enGB.errors.server);
    assert.equal(readErrorText(enGB, new Error('?')), enGB.errors.server);
    assert.equal(submitErrorText(enGB, null), null);
    assert.equal(submitErrorText(enGB, new ApiError('invalid', 'Phone?')), `${enGB.errors.invalid} Phone?`);
    assert.equal(submitErrorText(enGB, new ApiError('network', '')), enGB.errors.network);
    // The console's word to the site's owner names the origin and the proxy's setting that lets it in.
    const warning = siteRefusedWarning('https://pub.example');
    assert.match(warning, /https:\/\/pub\.example.*VENUE_BOOKING_ORIGINS/);
  });
});

describe('venue model', () => {
  it('reads the venue attribute, tells a picker from one venue, and names the venue from what is known', () => {
    assert.deepEqual(venueIds(' a, b ,,c'), ['a', 'b', 'c']);
    assert.equal(venueName({ _id: 'x', path: 'old-ship' }), 'Old Ship');
    const one = venueModel('a', '', { id: null, title: '' }, undefined, 'Record name');
    assert.deepEqual(one, { multi: false, current: 'a', name: 'Record name' });
    const list = [{ _id: 'b', title: 'Listed' }];
    const picker = venueModel('a,b', '', { id: 'b', title: '' }, list, undefined);
    assert.deepEqual([picker.multi, picker.current, picker.name], [true, 'b', 'Listed']);
    // The create response's (or saved) title wins; a group is a picker even before a pick.
    assert.equal(venueModel('a,b', '', { id: 'b', title: 'From booking' }, list, '').name, 'From booking');
    assert.deepEqual(venueModel('', 'g1', { id: null, title: '' }, undefined, undefined).current, '');
    assert.equal(venueModel('', 'g1', { id: null, title: '' }, undefined, undefined).multi, true);
  });
});

describe('booking summary', () => {
  it('names the venue, the choices and the offer of a booking, never the guest', () => {
    const choices = { type: 't1', date: '2026-03-20', time: '19:00', num_people: 2 };
    assert.deepEqual(bookingSummary('v1', choices, null), {
      venue_id: 'v1',
      type: 't1',
      date: '2026-03-20',
      time: '19:00',
      duration: undefined,
      num_people: 2,
    });
    assert.equal(bookingSummary('v1', choices, 'o1').offer, 'o1');
    assert.equal('offer' in bookingSummary('v1', choices, null), false);
  });
});

describe('presenter: offer badges and the offers named with a step', () => {
  const offers = seed.offers as unknown as WireOffer[];
  const byId = (suffix: string) => offers.find((offer) => offer._id.endsWith(suffix))!;
  /** Two-for-one cocktails (2–8 people) and Big group feast (6+), as the demo venue shows them on a Tuesday. */
  const visible = ['701', '702', '706'].map(byId);
  const TABLE = '64a1f0c2e4b0a1b2c3d4e601';
  const field = (suggestions: Suggestion[], min: number | null = null, max: number | null = null): FieldState => ({
    valid: true,
    errors: [],
    suggestions,
    min,
    max,
  });
  const answer = (fields: Availability['fields']): Availability => ({
    fields,
    action: 'accept',
    depositRequired: false,
    preordersAvailable: false,
    details: {},
    next: { api: null, web: null },
  });
  const context = (over: Partial<OfferContext> = {}): OfferContext => ({
    offers: visible,
    hideOffers: false,
    choices: { type: TABLE, date: '2026-03-17' },
    parties: new Map(),
    ...over,
  });

  it("finds a type's party sizes: read per type, else the answer's party rules for the chosen type, else unknown", () => {
    const sized = answer({ num_people: field([], 2, 8) });
    assert.equal(partyOf(context(), undefined, sized), null);
    assert.deepEqual(partyOf(context(), TABLE, sized), { min: 2, max: 8 });
    assert.equal(partyOf(context(), 'other', sized), null, "the answer's rules are the chosen type's only");
    assert.equal(partyOf(context(), TABLE, answer({ num_people: field([]) })), null);
    const read = context({ parties: new Map([['other', { min: 10, max: 60 }]]) });
    assert.deepEqual(partyOf(read, 'other', sized), { min: 10, max: 60 });
  });

  it('badges a value only where an offer can still apply with it, never when offers are hidden or the value refused', () => {
    const none = answer({});
    assert.deepEqual(offerBadge(wording, context(), 'time', option('13:00', true), none), {
      label: 'Big group feast',
      condition: '6+ people',
      name: 'Big group feast (6+ people)',
      ids: [byId('706')._id],
    });
    assert.equal(offerBadge(wording, context(), 'time', option('13:00', false), none), null);
    assert.equal(offerBadge(wording, context({ hideOffers: true }), 'time', option('13:00', true), none), null);
    // Within the sizes the type takes (10 to 60): the 6+ offer admits every one of them, so no condition.
    const hire = context({ parties: new Map([[TABLE, { min: 10, max: 60 }]]) });
    assert.equal(offerBadge(wording, hire, 'time', option('13:00', true), none)?.condition, undefined);
    const party = context({ choices: { type: TABLE, date: '2026-03-17', time: '13:00' } });
    assert.equal(offerBadge(wording, party, 'num_people', option(2, true), none), null);
    assert.equal(offerBadge(wording, party, 'num_people', option(6, true), none)?.name, 'Big group feast');
  });

  it('names offers with their sizes, the times that can carry one, and the party sizes an offer applies to', () => {
    assert.equal(offerNames(wording, [byId('706')], null), 'Big group feast (6+ people)');
    assert.equal(offerNames(wording, [byId('706')], { min: 10, max: 60 }), 'Big group feast');
    const times = [option('13:00', true), option('17:30', true), option('23:00', false)];
    // Each offer named once, with the first and last valid times it applies at.
    assert.deepEqual(timeOffers(wording, context(), times, answer({})), [
      'Offers at 17:30: Two-for-one cocktails (2–8 people)',
      'Offers at 13:00–17:30: Big group feast (6+ people)',
    ]);
    assert.deepEqual(timeOffers(wording, context(), [option('13:00', true)], answer({})), [
      'Offers at 13:00: Big group feast (6+ people)',
    ]);
    assert.deepEqual(timeOffers(wording, context({ hideOffers: true }), times, answer({})), []);
    const at = context({ choices: { type: TABLE, date: '2026-03-17', time: '13:00' } });
    const party = partyOffers(wording, at, answer({ num_people: field([], 1, 12) }));
    assert.deepEqual([party.qualifies(2), party.qualifies(6)], [false, true]);
    assert.equal(party.names, 'Big group feast (6–12 people)', "within the step's own range");
    const hidden = partyOffers(wording, { ...at, hideOffers: true }, answer({}));
    assert.deepEqual([hidden.qualifies(6), hidden.names], [false, '']);
  });
});
