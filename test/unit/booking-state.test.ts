import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/client.js';
import { normalizeAvailability } from '../../src/api/normalize.js';
import type { WireOffer } from '../../src/api/types.js';
import { parseSteps } from '../../src/state/booking-flow.js';
import { bookingRequest } from '../../src/state/booking-request.js';
import {
  apiBooking,
  initialState,
  savedBooking,
  savedChanged,
  transition,
  type BookingEvent,
  type BookingState,
} from '../../src/state/booking-state.js';

const order = parseSteps('');
const all = { type: 't', date: '2026-03-17', time: '19:00', duration: 90, num_people: 2 };
const problem = { field: 'time' as const, value: '19:00', reason: null, alternatives: ['20:00'] };
const confirmation = { reference: 'R1', status: 'confirmed' as const };
/** A booking answer without the proxy's manage link (and no change): the confirmation has neither. */
const unmanaged = { manage_url: undefined, previous: undefined };
const guest = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 7700 900123' };

/** A state: the initial one with `patch` over it. */
const state = (patch: Partial<BookingState> = {}): BookingState => ({ ...initialState(), ...patch });

/** An answer with one valid type, and the times 19:00 (refused) and 20:00. */
const timesRefused = normalizeAvailability({
  validation: {
    type: { valid: true, suggestedValues: [{ value: 't', label: 'Table', valid: true }] },
    time: {
      valid: false,
      suggestedValues: [
        { value: '19:00', valid: false },
        { value: '20:00', valid: true },
      ],
    },
  },
});
/** An answer whose date step has exactly one valid value. */
const oneDate = normalizeAvailability({
  validation: {
    type: { valid: true, suggestedValues: [{ value: 't', label: 'Table', valid: true }] },
    date: {
      suggestedValues: [
        { value: '2026-03-17', valid: true },
        { value: '2026-03-18', valid: false },
      ],
    },
  },
});

/** One row of the table: a state, an event, and the state expected after it (`same`: the very same object). */
interface Row {
  name: string;
  before: BookingState;
  event: BookingEvent;
  after: BookingState | 'same';
}

const chosen = state({
  choices: { ...all },
  problems: [problem],
  editing: 'time',
  ui: ui({ dayParts: { lunch: true } }),
});

function ui(patch: Partial<BookingState['ui']> = {}): BookingState['ui'] {
  return { ...initialState().ui, ...patch };
}

const ROWS: Row[] = [
  {
    name: 'choose a step value: later choices kept, problems and going back cleared, time groups reset',
    before: chosen,
    event: { type: 'choose', field: 'date', value: '2026-03-18' },
    after: { ...chosen, choices: { ...all, date: '2026-03-18' }, problems: [], editing: null, ui: ui() },
  },
  {
    name: 'choose a time: the time groups the guest opened stay as they are',
    before: chosen,
    event: { type: 'choose', field: 'time', value: '20:00' },
    after: { ...chosen, choices: { ...all, time: '20:00' }, problems: [], editing: null },
  },
  {
    name: 'switch venue: type, duration and offer go; date, time and party size carry over',
    before: state({ pick: { id: 'v1', title: 'One' }, choices: { ...all }, offer: 'o1', problems: [problem] }),
    event: { type: 'choose', field: 'venue', value: 'v2' },
    after: state({
      pick: { id: 'v2', title: '' },
      choices: { date: all.date, time: all.time, num_people: 2 },
      offer: null,
    }),
  },
  {
    name: 'pick the same venue again: the choices and offer stay',
    before: state({ pick: { id: 'v1', title: 'One' }, choices: { ...all }, offer: 'o1', editing: 'venue' }),
    event: { type: 'choose', field: 'venue', value: 'v1' },
    after: state({ pick: { id: 'v1', title: '' }, choices: { ...all }, offer: 'o1' }),
  },
  {
    name: 'choose an offer: nothing else changes',
    before: chosen,
    event: { type: 'choose', field: 'offer', value: 'o2' },
    after: { ...chosen, offer: 'o2' },
  },
  {
    name: 'go back to the date: the calendar focuses the chosen date',
    before: state({ choices: { ...all } }),
    event: { type: 'edit', field: 'date' },
    after: state({ choices: { ...all }, editing: 'date', ui: ui({ focusDate: all.date }) }),
  },
  {
    name: 'go back to the venue',
    before: state({ choices: { ...all } }),
    event: { type: 'edit', field: 'venue' },
    after: state({ choices: { ...all }, editing: 'venue' }),
  },
  {
    name: 'a larger party: its size is chosen, the type, its duration and the offer go (the type and duration kept aside), the date and time stay',
    before: { ...chosen, offer: 'o1', ui: ui({ larger: true }) },
    event: { type: 'larger-party', people: 20 },
    after: {
      ...chosen,
      choices: { date: all.date, time: all.time, num_people: 20 },
      problems: [],
      editing: null,
      offer: null,
      replaced: { type: all.type, duration: all.duration },
      ui: ui({ larger: false }),
    },
  },
  {
    name: 'a larger party again: what the first replaced stays aside',
    before: state({ choices: { date: all.date, num_people: 20 }, replaced: { type: 't', duration: 1.5 } }),
    event: { type: 'larger-party', people: 30 },
    after: state({ choices: { date: all.date, num_people: 30 }, replaced: { type: 't', duration: 1.5 } }),
  },
  {
    name: 'a type chosen settles a larger party: nothing is kept aside',
    before: state({ choices: { date: all.date, num_people: 20 }, replaced: { type: 't' } }),
    event: { type: 'choose', field: 'type', value: 'ph' },
    after: state({ choices: { date: all.date, num_people: 20, type: 'ph' } }),
  },
  {
    name: 'a date chosen keeps a larger party unsettled',
    before: state({ choices: { num_people: 20 }, replaced: { type: 't' } }),
    event: { type: 'choose', field: 'date', value: all.date },
    after: state({ choices: { num_people: 20, date: all.date }, replaced: { type: 't' } }),
  },
  {
    name: 'retype: the choices the guest settled on, nothing kept aside, problems, going back and the offer cleared',
    before: state({
      choices: { type: 'ph', num_people: 20 },
      replaced: { type: 't', duration: 1.5 },
      problems: [problem],
      editing: 'date',
      offer: 'o1',
    }),
    event: { type: 'retype', choices: { type: 't', duration: 1.5 } },
    after: state({ choices: { type: 't', duration: 1.5 } }),
  },
  {
    name: 'book again: the choices, offer and confirmation go; the venue and names stay',
    before: state({
      pick: { id: 'v1', title: 'One' },
      choices: { ...all },
      offer: 'o1',
      confirmation,
      arrival: 'restored',
      typeNames: new Map([['t', 'Table']]),
      replaced: { type: 't' },
    }),
    event: { type: 'again' },
    after: state({ pick: { id: 'v1', title: 'One' }, typeNames: new Map([['t', 'Table']]) }),
  },
  {
    name: "the steps' own state",
    before: state({ ui: ui({ dayParts: { lunch: true } }) }),
    event: { type: 'ui', ui: { larger: true } },
    after: state({ ui: ui({ dayParts: { lunch: true }, larger: true }) }),
  },
  {
    name: 'prefill before the first render: a restored choice wins',
    before: state({ choices: { date: '2026-03-18' } }),
    event: { type: 'prefill', choices: { date: '2026-03-17', num_people: 4 }, over: false },
    after: state({ choices: { date: '2026-03-18', num_people: 4 } }),
  },
  {
    name: 'prefill after it: the changed attribute wins',
    before: state({ choices: { date: '2026-03-18' } }),
    event: { type: 'prefill', choices: { date: '2026-03-17' }, over: true },
    after: state({ choices: { date: '2026-03-17' } }),
  },
  {
    name: 'no prefill: the same state',
    before: chosen,
    event: { type: 'prefill', choices: {}, over: true },
    after: 'same',
  },
  {
    name: "restore: the saved booking and its names; a kept confirmation is 'restored'",
    before: state(),
    event: {
      type: 'restore',
      back: null,
      saved: { venue: 'v1', choices: { ...all }, offer: 'o1', confirmation, names: { type: 'Table', venue: 'One' } },
    },
    after: state({
      pick: { id: 'v1', title: 'One' },
      choices: { ...all },
      offer: 'o1',
      confirmation,
      arrival: 'restored',
      typeNames: new Map([['t', 'Table']]),
    }),
  },
  {
    name: "restore a return from the booking site: its confirmation wins, 'returned'",
    before: state({ pick: { id: null, title: 'Known' } }),
    event: {
      type: 'restore',
      back: { reference: 'R2', status: 'enquiry' },
      saved: { venue: 'v1', choices: { ...all }, offer: null, confirmation, names: { venue: 'One' } },
    },
    after: state({
      pick: { id: 'v1', title: 'Known' },
      choices: { ...all },
      confirmation: { reference: 'R2', status: 'enquiry' },
      arrival: 'returned',
    }),
  },
  {
    name: 'restore while a confirmation shows: it stays, and is not announced again',
    before: state({ confirmation }),
    event: {
      type: 'restore',
      back: null,
      saved: { venue: null, choices: {}, offer: null, confirmation: { ...confirmation } },
    },
    after: state({ confirmation }),
  },
  {
    name: 'restore nothing',
    before: chosen,
    event: { type: 'restore', back: null, saved: null },
    after: chosen,
  },
  {
    name: 'a list of one venue: it is picked',
    before: state(),
    event: { type: 'venues', venues: [{ _id: 'v1' }] },
    after: state({ pick: { id: 'v1', title: '' } }),
  },
  {
    name: 'a list of two venues: the guest picks',
    before: state(),
    event: { type: 'venues', venues: [{ _id: 'v1' }, { _id: 'v2' }] },
    after: 'same',
  },
  {
    name: 'an answer that refuses a choice: it is cleared with its problem, nothing is auto-chosen; type names learnt',
    before: state({ choices: { type: 't', date: all.date, time: '19:00' } }),
    event: { type: 'answer', order, availability: timesRefused },
    after: state({
      choices: { type: 't', date: all.date },
      problems: [problem],
      typeNames: new Map([['t', 'Table']]),
    }),
  },
  {
    name: 'an answer with one valid value for the next step: it is chosen',
    before: state({ choices: { type: 't' }, problems: [problem] }),
    event: { type: 'answer', order, availability: oneDate },
    after: state({
      choices: { type: 't', date: '2026-03-17' },
      problems: [problem],
      typeNames: new Map([['t', 'Table']]),
    }),
  },
  {
    name: 'the answer in hand serves new choices: its single valid value is chosen',
    before: state({ choices: { type: 't' } }),
    event: { type: 'held', order, availability: oneDate },
    after: state({ choices: { type: 't', date: '2026-03-17' } }),
  },
  {
    name: 'the answer in hand, after a refusal: nothing is chosen',
    before: state({ choices: { type: 't' }, problems: [problem] }),
    event: { type: 'held', order, availability: oneDate },
    after: 'same',
  },
  {
    name: 'submit: sending, the last error gone',
    before: state({ submitError: new ApiError('network', 'x') }),
    event: { type: 'submit' },
    after: state({ submitting: true }),
  },
  {
    name: "booked, the service says 'confirmed': a confirmation, and the venue's name from the response",
    before: state({ pick: { id: 'v1', title: '' }, submitting: true }),
    event: {
      type: 'booked',
      created: { bookingStatus: 'Confirmed', booking: { reference: 'R3' }, venue: { title: 'One' } },
      instant: false,
    },
    after: state({
      pick: { id: 'v1', title: 'One' },
      confirmation: { reference: 'R3', status: 'confirmed', ...unmanaged },
    }),
  },
  {
    name: "booked, the service says 'received': an enquiry, even on an instant time",
    before: state({ pick: { id: 'v1', title: 'One' }, submitting: true }),
    event: { type: 'booked', created: { bookingStatus: 'received', booking: { reference: 'R4' } }, instant: true },
    after: state({
      pick: { id: 'v1', title: 'One' },
      confirmation: { reference: 'R4', status: 'enquiry', ...unmanaged },
    }),
  },
  {
    name: 'booked, the service says nothing: confirmed when the chosen time books at once',
    before: state({ submitting: true }),
    event: { type: 'booked', created: { booking: { reference: 'R5' } }, instant: true },
    after: state({ confirmation: { reference: 'R5', status: 'confirmed', ...unmanaged } }),
  },
  {
    name: 'booked, the service says nothing on an enquiry time: an enquiry',
    before: state({ submitting: true }),
    event: { type: 'booked', created: { booking: { reference: 'R6' } }, instant: false },
    after: state({ confirmation: { reference: 'R6', status: 'enquiry', ...unmanaged } }),
  },
  {
    name: 'the send failed: the error, and the button back',
    before: state({ submitting: true }),
    event: { type: 'failed', error: new ApiError('timeout', 'slow') },
    after: state({ submitError: new ApiError('timeout', 'slow') }),
  },
];

describe('transition: the booking state table', () => {
  for (const row of ROWS)
    it(row.name, () => {
      const after = transition(row.before, row.event);
      if (row.after === 'same') assert.equal(after, row.before);
      else assert.deepEqual(after, row.after);
    });

  it('covers every event type', () => {
    const covered = new Set(ROWS.map((row) => row.event.type));
    const every: BookingEvent['type'][] = [
      'choose',
      'edit',
      'larger-party',
      'retype',
      'again',
      'ui',
      'prefill',
      'restore',
      'venues',
      'answer',
      'held',
      'submit',
      'booked',
      'failed',
    ];
    assert.deepEqual([...covered].sort(), [...every].sort());
  });

  it('never changes the state it is given', () => {
    for (const row of ROWS) {
      const before = structuredClone({ ...row.before, submitError: null });
      transition(row.before, row.event);
      assert.deepEqual({ ...row.before, submitError: null }, before, row.name);
    }
  });
});

describe('what the state decides besides its transitions', () => {
  const offers = [
    { _id: 'big', title: 'Big group', rules: { min_people: 6 } },
    { _id: 'any', title: 'Any' },
  ] as WireOffer[];
  const ready = normalizeAvailability({
    action: 'accept',
    bookingDetails: { venue_id: 'v1', ...all },
    validation: { time: { suggestedValues: [{ value: '19:00', valid: true, action: 'enquire' }] } },
    next: { api: '/api/bookings', web: 'https://book.example/b' },
  });

  it('sends a picked offer only while its rules admit the choices', () => {
    const extras = { offers, partnerSource: 'site', request: bookingRequest };
    const admitted = apiBooking(state({ choices: { ...all }, offer: 'any' }), ready, 'v1', guest, extras);
    assert.equal(admitted?.body.offer, 'any');
    assert.equal(admitted?.body.partner_source, 'site');
    const refused = apiBooking(state({ choices: { ...all }, offer: 'big' }), ready, 'v1', guest, extras);
    assert.equal(refused?.body.offer, undefined);
  });

  it("says whether the chosen time books at once (here an enquiry time, on an 'accept' answer)", () => {
    const booking = apiBooking(state({ choices: { ...all } }), ready, 'v1', guest, {
      offers,
      partnerSource: '',
      request: bookingRequest,
    });
    assert.equal(booking?.instant, false);
    assert.equal(booking?.body.partner_source, undefined);
  });

  it('sends nothing through the API when the guest must finish on the booking site', () => {
    const deposit = normalizeAvailability({ action: 'accept', depositRequired: true, next: { web: 'https://b/' } });
    assert.equal(
      apiBooking(state({ choices: { ...all } }), deposit, 'v1', guest, {
        offers,
        partnerSource: '',
        request: bookingRequest,
      }),
      null,
    );
  });

  it('saves choices, offer, confirmation and display names, never the guest', () => {
    const booked = state({
      pick: { id: 'v1', title: '' },
      choices: { ...all },
      offer: 'any',
      confirmation,
      typeNames: new Map([['t', 'Table']]),
    });
    assert.deepEqual(savedBooking(booked, 'One'), {
      venue: 'v1',
      choices: { ...all },
      offer: 'any',
      confirmation,
      names: { type: 'Table', venue: 'One' },
    });
    assert.deepEqual(savedBooking(state(), '').names, { type: undefined, venue: undefined });
  });

  it('tells when what is saved changed', () => {
    const before = state({ choices: { ...all } });
    assert.equal(savedChanged(undefined, before), true);
    assert.equal(savedChanged(before, transition(before, { type: 'ui', ui: { larger: true } })), false);
    assert.equal(savedChanged(before, transition(before, { type: 'choose', field: 'offer', value: 'o' })), true);
  });
});
