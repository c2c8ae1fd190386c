import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeAvailability, type Availability } from '../../src/api/normalize.js';
import { parseSteps } from '../../src/state/booking-flow.js';
import { prefillChoices, viewFor, type ReadState, type ViewState } from '../../src/state/view.js';

const order = parseSteps('');
const all = { type: 't', date: '2026-01-01', time: '19:00', duration: 90, num_people: 2 };
const web = 'https://book.example/venue';

const state = (patch: Partial<ViewState> = {}): ViewState => ({
  confirmed: false,
  multi: false,
  venue: null,
  editing: null,
  order,
  choices: {},
  venues: { status: 'complete', value: [] },
  extrasPending: false,
  ...patch,
});
const answer = (wire: Parameters<typeof normalizeAvailability>[0]): ReadState<Availability | null> => ({
  status: 'complete',
  value: normalizeAvailability(wire),
});
const types = answer({ validation: { type: { suggestedValues: [{ value: 't', valid: true }] } } });
const ready = answer({ action: 'accept', next: { api: '/api/bookings', web } });
const pending: ReadState<Availability | null> = { status: 'pending', value: undefined };

describe('viewFor: which view shows', () => {
  it('shows the confirmation once booked, whatever else is going on', () => {
    const view = viewFor(state({ confirmed: true, multi: true }), pending);
    assert.deepEqual([view.kind, view.step], ['confirmation', 'confirmation']);
  });

  it("holds the confirmation behind the placeholder while the later steps' code (calendar links) is on its way", () => {
    const view = viewFor(state({ confirmed: true, laterPending: true }), ready);
    assert.deepEqual([view.kind, view.step, view.frame], ['busy', null, 'none']);
    assert.equal(viewFor(state({ confirmed: true, laterPending: false }), ready).kind, 'confirmation');
    // Without it the confirmation still shows (without the links).
    assert.equal(viewFor(state({ confirmed: true, laterFailed: true }), ready).kind, 'confirmation');
  });

  it("holds the details form behind the placeholder while its code is on its way; without it, the venue's own way", () => {
    const waiting = viewFor(state({ order, choices: all, laterPending: true }), ready);
    assert.deepEqual([waiting.kind, waiting.frame], ['busy', 'flow']);
    assert.equal(viewFor(state({ order, choices: all }), ready).kind, 'details');
    const failed = viewFor(state({ order, choices: all, laterFailed: true }), ready);
    assert.deepEqual([failed.kind, failed.step], ['unavailable', 'unavailable']);
    // A hand-off to the booking site needs no form: it goes on.
    const away = answer({ action: 'accept', next: { web } });
    assert.equal(viewFor(state({ order, choices: all, laterFailed: true }), away).kind, 'redirect');
  });

  it('shows the venue picker first for several venues, a placeholder until the list arrives, or its error', () => {
    const list = { status: 'complete', value: [{ _id: 'a' }, { _id: 'b' }] } as const;
    assert.deepEqual(viewFor(state({ multi: true, venues: list }), types).kind, 'venues');
    assert.equal(viewFor(state({ multi: true, venues: list }), types).step, 'venue');
    const waiting = viewFor(state({ multi: true, venues: { status: 'pending', value: undefined } }), types);
    assert.deepEqual([waiting.kind, waiting.frame, waiting.step], ['busy', 'none', null]);
    const failed = viewFor(state({ multi: true, venues: { status: 'error', value: undefined, error: 'x' } }), types);
    assert.deepEqual(failed.kind === 'error' && [failed.during, failed.error], ['venues', 'x']);
    // A picked venue goes on to its steps, unless the guest went back to the picker.
    assert.equal(viewFor(state({ multi: true, venue: 'a', venues: list }), types).kind, 'step');
    assert.equal(viewFor(state({ multi: true, venue: 'a', editing: 'venue', venues: list }), types).kind, 'venues');
  });

  it('shows a placeholder while the answer is on its way, under the summary once one was asked for', () => {
    assert.deepEqual(viewFor(state(), { status: 'initial', value: undefined }), {
      kind: 'busy',
      step: null,
      frame: 'none',
    });
    assert.deepEqual(viewFor(state(), pending), { kind: 'busy', step: null, frame: 'summary' });
    // An older answer in hand is not shown while a newer one is on its way.
    assert.equal(viewFor(state(), { ...pending, value: types.value }).kind, 'busy');
  });

  it('keeps the type step, saying so, while the service gave a larger party another type than it replaced', () => {
    const moved = { type: 'ph', date: all.date, time: all.time, num_people: 12 };
    const view = viewFor(state({ choices: moved, replaced: { type: 't' } }), types);
    assert.deepEqual(view.kind === 'step' && [view.step, view.moved], ['type', true]);
    // The same type, no type kept aside, or the guest gone back to another step: the flow goes on.
    assert.deepEqual(viewFor(state({ choices: moved, replaced: { type: 'ph' } }), types).step, 'duration');
    assert.deepEqual(viewFor(state({ choices: moved, replaced: {} }), types).step, 'duration');
    const back = viewFor(state({ choices: moved, replaced: { type: 't' }, editing: 'date' }), types);
    assert.deepEqual(back.kind === 'step' && [back.step, back.moved], ['date', false]);
  });

  it('holds a dead end behind the placeholder while what it offers is on its way', () => {
    const view = viewFor(state({ choices: { num_people: 12 }, helpPending: true }), types);
    assert.deepEqual([view.kind, view.frame], ['busy', 'flow']);
  });

  it('shows a failed read with the summary, to retry the availability', () => {
    const view = viewFor(state(), { status: 'error', value: undefined, error: 'down' });
    assert.deepEqual(view, { kind: 'error', step: null, frame: 'summary', during: 'availability', error: 'down' });
  });

  it('shows nothing without an answer to show (no venue, or a read skipped)', () => {
    assert.deepEqual(viewFor(state(), { status: 'complete', value: null }), {
      kind: 'empty',
      step: null,
      frame: 'none',
    });
  });

  it('shows the next step, or the step the guest went back to', () => {
    const first = viewFor(state(), types);
    assert.deepEqual([first.kind, first.step, first.frame], ['step', 'type', 'flow']);
    assert.equal(viewFor(state({ choices: { type: 't' } }), types).step, 'date');
    assert.equal(viewFor(state({ choices: all, editing: 'time' }), ready).step, 'time');
    // Going back to the venue or the details is no booking step: the flow goes on.
    assert.equal(viewFor(state({ choices: all, editing: 'details' }), ready).kind, 'details');
  });

  it('waits for the offers and preferences before the details form', () => {
    const view = viewFor(state({ choices: all, extrasPending: true }), ready);
    assert.deepEqual(view, { kind: 'busy', step: null, frame: 'flow' });
  });

  it("waits for the venue's offers before the first step, as they come in the same round trip as its answer", () => {
    assert.deepEqual(viewFor(state({ extrasPending: true }), types), { kind: 'busy', step: null, frame: 'flow' });
    assert.deepEqual([viewFor(state({}), types).kind, viewFor(state({}), types).step], ['step', 'type']);
  });

  it('shows the details form, the hand-off, or the cannot-book step by how the booking can be sent', () => {
    const details = viewFor(state({ choices: all }), ready);
    assert.deepEqual([details.kind, details.step], ['details', 'details']);
    const depositAnswer = answer({ action: 'accept', depositRequired: true, next: { web } });
    const deposit = viewFor(state({ choices: all }), depositAnswer);
    assert.deepEqual(deposit, { kind: 'redirect', step: 'redirect', frame: 'flow', availability: depositAnswer.value });
    const siteAnswer = answer({ action: 'accept', next: { web } });
    const site = viewFor(state({ choices: all }), siteAnswer);
    assert.deepEqual(site, { kind: 'redirect', step: 'redirect', frame: 'flow', availability: siteAnswer.value });
    const none = viewFor(state({ choices: all }), answer({ action: 'accept', depositRequired: true, next: null }));
    assert.deepEqual(none, { kind: 'unavailable', step: 'unavailable', frame: 'flow' });
  });

  it('shows the refusal, with no step, when the service rejects complete choices', () => {
    const view = viewFor(state({ choices: all }), answer({ action: 'reject', next: { api: '/api/bookings', web } }));
    assert.deepEqual([view.kind, view.step, view.frame], ['reject', null, 'flow']);
  });
});

describe('prefill', () => {
  const attributes = { type: 't', date: '2026-01-01', time: '19:00', duration: 90, numPeople: 2 };
  it('turns the prefill attributes that changed into choices', () => {
    assert.deepEqual(
      prefillChoices(attributes, () => true),
      all,
    );
    assert.deepEqual(
      prefillChoices(attributes, (name) => name === 'date'),
      { date: '2026-01-01' },
    );
  });
  it('leaves empty values, a duration that is not a number and a party size the proxy refuses to the guest', () => {
    for (const numPeople of [0, 2.5, 5000, undefined])
      assert.deepEqual(
        prefillChoices({ type: '', date: '', time: '', duration: Number.NaN, numPeople }, () => true),
        {},
      );
  });
});
