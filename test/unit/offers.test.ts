import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { badgeFor, offerApplies, sizeCondition } from '../../src/offers.js';
import type { WireOffer } from '../../src/api/types.js';
import seed from '../../proxy/sandbox/seed.json' with { type: 'json' };

const offers = seed.offers as unknown as WireOffer[];
const byId = (suffix: string) => offers.find((offer) => offer._id.endsWith(suffix))!;
/** The offers the demo venue shows on 16 March 2026 (visible, for partners). */
const visible = ['701', '702', '706'].map(byId);
const TABLE = '64a1f0c2e4b0a1b2c3d4e601';
const BRUNCH = '64a1f0c2e4b0a1b2c3d4e602';
const TUESDAY = '2026-03-17';
const SATURDAY = '2026-03-21';

describe('offer badges', () => {
  it('a 6+ offer marks nothing for a party of 2, and says its condition while the size is unknown', () => {
    const unknown = badgeFor(visible, { type: TABLE, date: TUESDAY, time: '13:00' });
    assert.deepEqual(unknown, {
      label: 'Offer',
      condition: '6+',
      name: 'Big group feast',
      ids: [byId('706')._id],
    });
    assert.equal(badgeFor(visible, { type: TABLE, date: TUESDAY, time: '13:00', num_people: 2 }), null);
    assert.deepEqual(badgeFor(visible, { type: TABLE, date: TUESDAY, time: '13:00', num_people: 6 }), {
      label: 'Offer',
      name: 'Big group feast',
      ids: [byId('706')._id],
    });
  });

  it('names every offer that may apply and shows the least demanding condition', () => {
    const badge = badgeFor(visible, { type: TABLE, date: TUESDAY, time: '17:30' }, 'Angebot');
    assert.equal(badge?.condition, '2–8');
    assert.equal(badge?.name, 'Two-for-one cocktails, Big group feast');
    assert.equal(
      badgeFor(visible, { type: TABLE, date: TUESDAY, time: '17:30', num_people: 2 })?.name,
      'Two-for-one cocktails',
    );
    assert.equal(
      badgeFor(visible, { type: TABLE, date: TUESDAY, time: '17:30', num_people: 9 })?.name,
      'Big group feast',
    );
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
    assert.equal(badgeFor([], { type: TABLE }), null);
  });

  it('words party-size conditions', () => {
    const withRules = (min: number | null, max: number | null) => ({
      _id: 'x',
      rules: { min_people: min, max_people: max },
    });
    assert.equal(sizeCondition(withRules(6, null)), '6+');
    assert.equal(sizeCondition(withRules(2, 8)), '2–8');
    assert.equal(sizeCondition(withRules(4, 4)), '4');
    assert.equal(sizeCondition(withRules(null, 4)), '≤4');
    assert.equal(sizeCondition(withRules(1, null)), null);
    assert.equal(sizeCondition(withRules(null, null)), null);
  });

  it('on the details step, the offers whose rules admit the full choices are the ones a badge promised', () => {
    const choices = { type: TABLE, date: TUESDAY, time: '17:30', duration: 120, num_people: 6 };
    const listed = (people: number) =>
      visible.filter((offer) => offerApplies(offer, { ...choices, num_people: people })).map((offer) => offer.title);
    assert.deepEqual(listed(6), ['Two-for-one cocktails', 'Big group feast']);
    assert.deepEqual(listed(2), ['Two-for-one cocktails']);
    for (const people of [2, 6, 9])
      assert.deepEqual(badgeFor(visible, { ...choices, num_people: people })?.name.split(', ') ?? [], listed(people));
  });
});
