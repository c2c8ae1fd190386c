import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { badgeFor, offerApplies, overlap, sizeCondition, type PartyRange } from '../../src/venue/offers.js';
import { enGB } from '../../src/i18n/en-GB.js';
import type { WireOffer } from '../../src/api/types.js';
import seed from '../../sandbox/seed.json' with { type: 'json' };

const offers = seed.offers as unknown as WireOffer[];
const byId = (suffix: string) => offers.find((offer) => offer._id.endsWith(suffix))!;
/** The offers the demo venue shows on 16 March 2026 (visible, for partners). */
const visible = ['701', '702', '706'].map(byId);
const TABLE = '64a1f0c2e4b0a1b2c3d4e601';
const BRUNCH = '64a1f0c2e4b0a1b2c3d4e602';
const TUESDAY = '2026-03-17';
const SATURDAY = '2026-03-21';

/** The badge words of the English strings. */
const WORDS = { offer: enGB.offer, people: (range: PartyRange) => enGB.peopleRange(range.min, range.max) };
const PRIVATE_HIRE = { min: 10, max: 60 };
const TABLE_SIZES = { min: 2, max: 8 };

describe('offer badges', () => {
  it('a 6+ offer marks nothing for a party of 2, and says its condition in people while the size is unknown', () => {
    const unknown = badgeFor(visible, { type: TABLE, date: TUESDAY, time: '13:00' }, WORDS);
    assert.deepEqual(unknown, {
      label: 'Big group feast',
      condition: '6+ people',
      name: 'Big group feast (6+ people)',
      ids: [byId('706')._id],
    });
    assert.equal(badgeFor(visible, { type: TABLE, date: TUESDAY, time: '13:00', num_people: 2 }, WORDS), null);
    assert.deepEqual(badgeFor(visible, { type: TABLE, date: TUESDAY, time: '13:00', num_people: 6 }, WORDS), {
      label: 'Big group feast',
      name: 'Big group feast',
      ids: [byId('706')._id],
    });
  });

  it('several offers: the word, every offer with its sizes in the name, and the least demanding range', () => {
    const badge = badgeFor(visible, { type: TABLE, date: TUESDAY, time: '17:30' }, { ...WORDS, offer: 'Angebot' });
    assert.equal(badge?.label, 'Angebot');
    assert.equal(badge?.condition, '2–8 people');
    assert.equal(badge?.name, 'Two-for-one cocktails (2–8 people), Big group feast (6+ people)');
    assert.equal(
      badgeFor(visible, { type: TABLE, date: TUESDAY, time: '17:30', num_people: 2 }, WORDS)?.name,
      'Two-for-one cocktails',
    );
    assert.equal(
      badgeFor(visible, { type: TABLE, date: TUESDAY, time: '17:30', num_people: 9 }, WORDS)?.name,
      'Big group feast',
    );
  });

  it('within the sizes a type takes: no offer that admits none of them, ranges cut to the type', () => {
    const choices = { date: TUESDAY, time: '17:30' };
    // Private Hire takes 10 to 60: the 2–8 offer cannot apply; the 6+ one applies from 10, which is every party it takes.
    const hire = badgeFor(visible, { ...choices, type: 'hire' }, WORDS, PRIVATE_HIRE);
    assert.deepEqual(hire, { label: 'Big group feast', name: 'Big group feast', ids: [byId('706')._id] });
    // Table takes 2 to 8: the 2–8 offer covers every party, the 6+ one reads 6–8.
    const table = badgeFor(visible, { ...choices, type: TABLE }, WORDS, TABLE_SIZES);
    assert.equal(table?.name, 'Two-for-one cocktails, Big group feast (6–8 people)');
    assert.equal(table?.condition, undefined);
    // An offer for 2 to 8 people alone shows no badge on a type for 10 to 60.
    assert.equal(badgeFor([byId('701')], { ...choices, type: 'hire' }, WORDS, PRIVATE_HIRE), null);
    assert.deepEqual(overlap({ min: 2, max: 8 }, { min: 10, max: null }), null);
    assert.deepEqual(overlap({ min: null, max: 8 }, { min: 6, max: null }), { min: 6, max: 8 });
  });

  it('follows weekdays, start-time ranges (the end bounds the start), dates and booking types', () => {
    const cocktails = byId('701');
    assert.equal(offerApplies(cocktails, { date: TUESDAY, time: '19:00' }), true, 'the end bounds the start time');
    assert.equal(offerApplies(cocktails, { date: TUESDAY, time: '19:01' }), false);
    assert.equal(offerApplies(cocktails, { date: TUESDAY, time: '16:59' }), false);
    assert.equal(offerApplies(cocktails, { date: SATURDAY }), false, 'not on Saturdays');
    assert.equal(offerApplies(cocktails, { date: '2027-01-05' }), false, 'after expiry');
    assert.equal(offerApplies(cocktails, {}), true);
    const bubbles = byId('702');
    assert.equal(offerApplies(bubbles, { type: TABLE }), false, 'limited to brunch');
    assert.equal(offerApplies(bubbles, { type: BRUNCH, date: SATURDAY, time: '11:00' }), true);
    assert.equal(offerApplies(bubbles, { type: BRUNCH, date: '2026-02-28' }), false, 'before it starts');
    assert.equal(offerApplies({ ...bubbles, booking_types: [{ id: BRUNCH }] }, { type: BRUNCH }), true);
    assert.equal(offerApplies(byId('705'), {}), false, 'marketplace offers are not this client’s');
    assert.equal(offerApplies({ _id: 'bare', title: 'Bare' }, { date: TUESDAY, time: '03:00', num_people: 40 }), true);
    assert.equal(badgeFor([], { type: TABLE }, WORDS), null);
  });

  it('words party-size conditions in people, within the sizes a type takes', () => {
    const withRules = (min: number | null, max: number | null) => ({
      _id: 'x',
      rules: { min_people: min, max_people: max },
    });
    const words = (offer: WireOffer, party: PartyRange | null = null) => {
      const range = sizeCondition(offer, party);
      return range && WORDS.people(range);
    };
    assert.equal(words(withRules(6, null)), '6+ people');
    assert.equal(words(withRules(2, 8)), '2–8 people');
    assert.equal(words(withRules(4, 4)), '4 people');
    assert.equal(words(withRules(null, 4)), 'up to 4 people');
    assert.equal(words(withRules(1, null)), null);
    assert.equal(words(withRules(null, null)), null);
    assert.equal(words(withRules(2, 8), TABLE_SIZES), null, 'every party the type takes');
    assert.equal(words(withRules(6, null), TABLE_SIZES), '6–8 people');
  });

  it('on the details step, the offers whose rules admit the full choices are the ones a badge promised', () => {
    const choices = { type: TABLE, date: TUESDAY, time: '17:30', duration: 120, num_people: 6 };
    const listed = (people: number) =>
      visible.filter((offer) => offerApplies(offer, { ...choices, num_people: people })).map((offer) => offer.title);
    assert.deepEqual(listed(6), ['Two-for-one cocktails', 'Big group feast']);
    assert.deepEqual(listed(2), ['Two-for-one cocktails']);
    for (const people of [2, 6, 9])
      assert.deepEqual(
        badgeFor(visible, { ...choices, num_people: people }, WORDS)?.name.split(', ') ?? [],
        listed(people),
      );
  });
});
