/** Issue 3 point 4: availability computed from settings and stored bookings, both dialects. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { avail, bookingBody, IDS, setup, T, V1, V2, V3 } from './helpers.js';

const times = (p: any) => p.validation.time.suggestedValues.map((s: any) => s.value ?? s.time);
const timeItem = (p: any, t: string) => p.validation.time.suggestedValues.find((s: any) => (s.value ?? s.time) === t);
const dateItem = (p: any, d: string) => p.validation.date.suggestedValues.find((s: any) => (s.value ?? s.date) === d);

describe('4. availability — suggestions narrow as the spec says', () => {
  it("type alone: the type's start times on any date", async () => {
    const { get } = setup();
    const lunch = (await get(avail(V1, { type: T.expressLunch }))).payload;
    assert.deepEqual(times(lunch), [
      '12:00',
      '12:15',
      '12:30',
      '12:45',
      '13:00',
      '13:15',
      '13:30',
      '13:45',
      '14:00',
      '14:15',
      '14:30',
    ]);
    assert.ok(lunch.validation.time.suggestedValues.every((s: any) => s.valid && s.action === 'accept'));
    const table = (await get(avail(V1, { type: T.table }))).payload;
    assert.equal(times(table)[0], '12:00');
    assert.equal(times(table).at(-1), '21:30');
    assert.equal(times(table).length, 39);
  });

  it("type and date: that date's times, with closing time limiting them", async () => {
    const { get } = setup();
    // Sunday 22 March: open 10:00–22:00; the shortest Table duration is 90 minutes.
    const p = (await get(avail(V1, { type: T.table, date: '2026-03-22', num_people: 2 }))).payload;
    assert.equal(timeItem(p, '20:30').valid, true);
    const late = timeItem(p, '20:45');
    assert.equal(late.valid, false);
    assert.equal(late.action, 'reject');
    assert.match(late.message, /closing time \(22:00\)/);
    // With a 3-hour duration the last start is 19:00.
    const long = (await get(avail(V1, { type: T.table, date: '2026-03-22', num_people: 2, duration: 180 }))).payload;
    assert.equal(timeItem(long, '19:00').valid, true);
    assert.equal(timeItem(long, '19:15').valid, false);
  });

  it('every suggestion item has value (spec dialect); time items carry action', async () => {
    const { get } = setup();
    const p = (await get(avail(V1, { type: T.table, date: '2026-03-23', num_people: 2 }))).payload;
    for (const f of ['type', 'num_people', 'date', 'time', 'duration']) {
      for (const s of p.validation[f].suggestedValues) {
        assert.ok('value' in s, `${f} item has value`);
        assert.equal(typeof s.valid, 'boolean');
        assert.ok('message' in s);
      }
    }
    assert.ok(
      p.validation.time.suggestedValues.every((s: any) =>
        ['accept', 'enquire', 'may_enquire', 'reject'].includes(s.action),
      ),
    );
    assert.deepEqual(p.validation.type.suggestedValues[0].value, {
      id: T.table,
      name: 'Table',
      guestlist: false,
      private_hire: false,
    });
  });

  it('times that have passed today are rejected with a message', async () => {
    const { get } = setup(); // 10:00 on Friday 20 March
    const p = (await get(avail(V3, { type: T.kitchenTable, date: '2026-03-20', num_people: 2 }))).payload;
    assert.equal(timeItem(p, '09:30').valid, false);
    assert.match(timeItem(p, '09:30').message, /passed/);
    assert.equal(timeItem(p, '10:30').valid, true);
  });
});

describe('4. availability — type rules', () => {
  it('days: a weekend-only type is invalid on a Friday, with a message', async () => {
    const { get } = setup();
    const p = (await get(avail(V1, { type: T.brunch, date: '2026-03-20', num_people: 2, time: '11:00', duration: 90 })))
      .payload;
    assert.equal(p.validation.date.valid, false);
    assert.match(p.validation.date.errors[0].message, /Saturdays, Sundays only/);
    assert.equal(p.action, 'reject');
    assert.equal(p.valid, false);
    assert.equal(dateItem(p, '2026-03-21').valid, true);
    assert.equal(dateItem(p, '2026-03-20').valid, false);
    assert.equal(p.next, undefined);
  });

  it('min/max people: rules object and invalid party sizes with a reason', async () => {
    const { get } = setup();
    const p = (await get(avail(V1, { type: T.table, num_people: 12 }))).payload;
    assert.deepEqual(p.validation.num_people.rules, { min: 2, max: 8 });
    assert.equal(p.validation.num_people.valid, false);
    assert.match(p.validation.num_people.errors[0].message, /2 to 8 people/);
    const one = p.validation.num_people.suggestedValues.find((s: any) => s.value === 1);
    assert.equal(one.valid, false);
    // Rules are null when unset (the cellar sets no venue-wide limits).
    const cellar = (await get(avail(V2, { fields: 'num_people' }))).payload;
    assert.deepEqual(cellar.validation.num_people.rules, { min: null, max: null });
    // The type suggestion says why a type does not fit the party.
    const ph = (await get(avail(V1, { num_people: 4, fields: 'type' }))).payload.validation.type.suggestedValues.find(
      (s: any) => s.value.id === T.privateHire,
    );
    assert.equal(ph.valid, false);
    assert.match(ph.message, /10 to 60 people/);
  });

  it('durations: a choice is required; a fixed duration is filled in', async () => {
    const { get } = setup();
    const choice = (await get(avail(V1, { type: T.table, num_people: 2, date: '2026-03-23', time: '19:00' }))).payload;
    assert.equal(choice.validation.duration.valid, false);
    assert.equal(choice.validation.duration.errors[0].code, 'missing_duration');
    assert.deepEqual(
      choice.validation.duration.suggestedValues.map((s: any) => s.value),
      [1.5, 2, 2.5, 3],
    );
    assert.deepEqual(
      choice.validation.duration.suggestedValues.map((s: any) => s.endTime),
      ['20:30', '21:00', '21:30', '22:00'],
    );
    const fixed = (await get(avail(V1, { type: T.expressLunch, num_people: 2, date: '2026-03-23', time: '12:30' })))
      .payload;
    assert.equal(fixed.valid, true);
    assert.equal(fixed.action, 'accept');
    assert.equal(fixed.bookingDetails.duration, 1);
    assert.deepEqual(
      fixed.validation.duration.suggestedValues.map((s: any) => s.label),
      ['1 hour'],
    );
    const wrong = (
      await get(avail(V1, { type: T.expressLunch, num_people: 2, date: '2026-03-23', time: '12:30', duration: 2 }))
    ).payload;
    assert.equal(wrong.validation.duration.valid, false);
    assert.match(wrong.validation.duration.errors[0].message, /lasts 1 hour/);
  });

  it('until close: duration -1 ends at closing time', async () => {
    const { get } = setup();
    const p = (await get(avail(V1, { type: T.bar, num_people: 2, date: '2026-03-23', time: '20:00' }))).payload;
    assert.equal(p.valid, true);
    assert.equal(p.bookingDetails.duration, -1);
    assert.equal(p.validation.duration.suggestedValues[0].label, 'Until close');
    assert.equal(p.validation.duration.suggestedValues[0].endTime, '23:00');
  });

  it('enquiry-only private hire: action enquire, on private-hire days only', async () => {
    const { get } = setup();
    const q = { type: T.privateHire, num_people: 20, date: '2026-03-23', time: '18:00', duration: 3 };
    const p = (await get(avail(V1, q))).payload;
    assert.equal(p.valid, true);
    assert.equal(p.action, 'enquire');
    assert.equal(timeItem(p, '18:00').action, 'enquire');
    assert.ok(p.next.api && p.next.web);
    // Friday has no private hire at the Quayside.
    const fri = (await get(avail(V1, { ...q, date: '2026-03-27' }))).payload;
    assert.equal(fri.validation.date.valid, false);
    assert.match(fri.validation.date.errors[0].message, /Private hire is not available on Fridays/);
  });

  it('deposit: depositRequired and next has only the web URL', async () => {
    const { get } = setup();
    const p = (
      await get(avail(V1, { type: T.brunch, num_people: 4, date: '2026-03-21', time: '11:00', duration: 1.5 }))
    ).payload;
    assert.equal(p.valid, true);
    assert.equal(p.depositRequired, true);
    assert.equal(p.preordersAvailable, true);
    assert.deepEqual(Object.keys(p.next), ['web']);
  });

  it('pre-orders: required → web only; optional → web and api', async () => {
    const { get } = setup();
    const mc = (await get(avail(V2, { type: T.masterclass, num_people: 6, date: '2026-03-27', time: '18:00' })))
      .payload;
    assert.equal(mc.valid, true);
    assert.equal(mc.preordersAvailable, true);
    assert.equal(mc.depositRequired, false);
    assert.deepEqual(Object.keys(mc.next), ['web']);
    const roast = (await get(avail(V3, { type: T.sundayRoast, num_people: 4, date: '2026-03-22', time: '13:00' })))
      .payload;
    assert.equal(roast.valid, true);
    assert.equal(roast.preordersAvailable, true);
    assert.deepEqual(Object.keys(roast.next).sort(), ['api', 'web']);
  });
});

describe('4. availability — venue settings', () => {
  it('opening times per weekday: closed days carry a message', async () => {
    const { get } = setup();
    const p = (await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-03-30' }))).payload;
    assert.equal(p.validation.date.valid, false);
    assert.match(p.validation.date.errors[0].message, /closed on Mondays/);
    assert.equal(dateItem(p, '2026-03-30').valid, false);
  });

  it('closing after midnight: times run past 00:00 in order, limited by the close', async () => {
    const { get } = setup();
    // Friday: open 17:00–02:00; window 17:00–01:00.
    const fri = (await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-03-27', duration: 120 })))
      .payload;
    assert.deepEqual(times(fri).slice(-4), ['23:30', '00:00', '00:30', '01:00']);
    assert.equal(timeItem(fri, '00:00').valid, true);
    assert.equal(timeItem(fri, '00:30').valid, false);
    // Tuesday: closes 00:30, so 00:30 and 01:00 are not start times at all.
    const tue = (await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-03-31' }))).payload;
    assert.equal(times(tue).at(-1), '00:00');
    // A time past midnight is accepted for the business day and ends next morning.
    const late = (
      await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-03-27', time: '00:00', duration: 120 }))
    ).payload;
    assert.equal(late.valid, true);
    assert.equal(late.validation.duration.suggestedValues[0].endTime, '02:00');
  });

  it('unavailable date range: invalid with its message', async () => {
    const { get } = setup();
    const p = (
      await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-03-24', time: '19:00', duration: 120 }))
    ).payload;
    assert.equal(p.validation.date.valid, false);
    assert.equal(p.validation.date.errors[0].message, 'Closed for refurbishment — back on Friday 27 March.');
    assert.equal(p.validation.date.errors[0].code, 'date_unavailable');
    assert.equal(dateItem(p, '2026-03-25').message, 'Closed for refurbishment — back on Friday 27 March.');
    assert.equal(dateItem(p, '2026-03-27').valid, true);
  });

  it('bookings_shut: same-day bookings close at the cut-off', async () => {
    const before = setup({ now: '2026-03-20T16:30:00Z' });
    const ok = (
      await before.get(
        avail(V3, { type: T.kitchenTable, num_people: 2, date: '2026-03-20', time: '19:00', duration: 60 }),
      )
    ).payload;
    assert.equal(ok.valid, true);
    const after = setup({ now: '2026-03-20T17:05:00Z' });
    const p = (
      await after.get(
        avail(V3, { type: T.kitchenTable, num_people: 2, date: '2026-03-20', time: '19:00', duration: 60 }),
      )
    ).payload;
    assert.equal(p.valid, false);
    assert.equal(p.action, 'reject');
    assert.match(p.validation.time.errors[0].message, /closed at 17:00/);
    assert.match(dateItem(p, '2026-03-20').message, /closed at 17:00/);
    assert.equal(dateItem(p, '2026-03-21').valid, true);
  });

  it('dates in the past and malformed values are invalid with a reason', async () => {
    const { get } = setup();
    const p = (
      await get(avail(V1, { type: T.table, num_people: 'two', date: '2026-02-30', time: '7pm', duration: 'long' }))
    ).payload;
    assert.equal(p.valid, false);
    assert.equal(p.validation.num_people.errors[0].code, 'invalid_num_people');
    assert.equal(p.validation.date.errors[0].code, 'invalid_date');
    assert.equal(p.validation.time.errors[0].code, 'invalid_time');
    assert.equal(p.validation.duration.errors[0].code, 'invalid_duration');
    const past = (await get(avail(V1, { type: T.table, date: '2026-03-19' }))).payload;
    assert.equal(past.validation.date.errors[0].code, 'date_passed');
    const unknownType = (await get(avail(V1, { type: '64a1f0c2e4b0a1b2c3d4e699' }))).payload;
    assert.equal(unknownType.validation.type.errors[0].code, 'invalid_type');
  });
});

describe('4. availability — capacity against stored bookings', () => {
  it('a full slot gives may_enquire (seeded Saturday evening)', async () => {
    const { get } = setup();
    const p = (await get(avail(V1, { type: T.table, num_people: 2, date: '2026-03-21', time: '19:00', duration: 1.5 })))
      .payload;
    assert.equal(p.valid, true);
    assert.equal(p.action, 'may_enquire');
    assert.ok(p.next.web && p.next.api, 'the guest may still submit an enquiry');
    assert.equal(timeItem(p, '19:00').action, 'may_enquire');
    assert.equal(timeItem(p, '14:00').action, 'accept');
  });

  it('bookings made through the API fill a slot; rejected ones free it', async () => {
    const { get, post } = setup({ apps: [{ id: 'all', key: 'k', capabilities: 'all' }] });
    const q = { type: T.expressLunch, num_people: 4, date: '2026-03-23', time: '12:00' };
    assert.equal((await get(avail(V1, q))).payload.action, 'accept');
    const refs = [];
    for (let i = 0; i < 5; i++) {
      const r = await post(
        '/v4/bookings',
        bookingBody({ type: T.expressLunch, num_people: 4, time: '12:00', duration: undefined }),
      );
      assert.equal(r.status, 200);
      assert.equal(r.payload.bookingStatus, 'confirmed');
      refs.push(r.payload.booking.reference);
    }
    const full = (await get(avail(V1, q))).payload;
    assert.equal(full.action, 'may_enquire');
    assert.equal(timeItem(full, '12:45').action, 'may_enquire', 'overlaps 12:00–13:00');
    assert.equal(timeItem(full, '13:00').action, 'accept', 'ends are exclusive');
    // A sixth booking is stored as an enquiry (received), not confirmed.
    const sixth = await post(
      '/v4/bookings',
      bookingBody({ type: T.expressLunch, num_people: 4, time: '12:00', duration: undefined }),
    );
    assert.equal(sixth.payload.bookingStatus, 'received');
    // Rejecting one frees the slot again.
    const search = await get(`/v4/bookings?email=test.guest@example.com&limit=1`, { id: 'all', key: 'k' });
    const id = search.payload.bookings[0]._id;
    assert.equal((await post(`/v4/bookings/${id}`, { status: 'rejected' }, { id: 'all', key: 'k' })).status, 200);
    assert.equal((await get(avail(V1, q))).payload.action, 'accept');
  });
});

describe('4. availability — offers, next, bookingDetails, inputs', () => {
  it('getOffers=true adds offer ids under type, time and duration', async () => {
    const { get } = setup();
    const p = (
      await get(
        avail(V1, { type: T.table, num_people: 2, date: '2026-03-27', time: '18:00', duration: 2, getOffers: true }),
      )
    ).payload;
    assert.ok(timeItem(p, '18:00').offers.includes('64a1f0c2e4b0a1b2c3d4e701'), 'two-for-one weekdays 17–19');
    assert.ok(!timeItem(p, '19:30').offers.includes('64a1f0c2e4b0a1b2c3d4e701'), 'to bounds the start');
    assert.ok(p.validation.type.suggestedValues.every((s: any) => Array.isArray(s.offers)));
    assert.ok(p.validation.duration.suggestedValues.every((s: any) => Array.isArray(s.offers)));
    const all = p.validation.type.suggestedValues.flatMap((s: any) => s.offers);
    assert.ok(!all.includes('64a1f0c2e4b0a1b2c3d4e705'), 'marketplace-only offers never apply to API bookings');
    assert.ok(!all.includes('64a1f0c2e4b0a1b2c3d4e703'), 'not yet visible');
    // Without getOffers there are no offers arrays.
    const plain = (await get(avail(V1, { type: T.table, date: '2026-03-27' }))).payload;
    assert.equal(timeItem(plain, '18:00').offers, undefined);
    // Type-restricted offer only under its type.
    const brunch = (
      await get(avail(V1, { num_people: 2, date: '2026-03-21', time: '11:00', getOffers: 'true', fields: 'type' }))
    ).payload;
    const byId = Object.fromEntries(brunch.validation.type.suggestedValues.map((s: any) => [s.value.id, s.offers]));
    assert.ok(byId[T.brunch].includes('64a1f0c2e4b0a1b2c3d4e702'));
    assert.ok(!byId[T.table].includes('64a1f0c2e4b0a1b2c3d4e702'));
  });

  it('next holds the web URL (query ready for &return_url) and the API URL under publicUrl', async () => {
    const { get } = setup({ publicUrl: 'https://shop.example/sandbox/' });
    const p = (await get(avail(V1, { type: T.table, num_people: 2, date: '2026-03-23', time: '19:00', duration: 2 })))
      .payload;
    assert.equal(p.next.api, 'https://shop.example/sandbox/v4/bookings');
    const web = new URL(p.next.web);
    assert.equal(web.origin + web.pathname, 'https://shop.example/sandbox/book');
    assert.equal(web.searchParams.get('venue_id'), V1);
    assert.equal(web.searchParams.get('venue_group'), IDS.group);
    assert.equal(web.searchParams.get('type'), T.table);
    assert.equal(web.searchParams.get('time'), '19:00');
    assert.equal(web.searchParams.get('duration'), '120', 'the booking site uses minutes');
    assert.deepEqual(p.bookingDetails, {
      venue_id: V1,
      venue_group: IDS.group,
      type: T.table,
      num_people: 2,
      date: '2026-03-23',
      time: '19:00',
      duration: 2,
    });
  });

  it('bookingDetails holds only the fields accepted so far; no next while incomplete', async () => {
    const { get } = setup();
    const p = (await get(avail(V1, { type: T.table, num_people: 20, date: '2026-03-23' }))).payload;
    assert.deepEqual(p.bookingDetails, { venue_id: V1, venue_group: IDS.group, type: T.table, date: '2026-03-23' });
    assert.equal(p.next, undefined);
    assert.equal(p.action, 'reject', 'an invalid value rejects');
    const partial = (await get(avail(V1, { type: T.table, num_people: 2 }))).payload;
    assert.equal(partial.action, 'accept', 'spec dialect: prospective action of the type while incomplete');
    assert.equal(partial.valid, false);
  });

  it('POST JSON gives the same result as GET; repeated parameters take the last value', async () => {
    const { get, post } = setup();
    const q = { type: T.table, num_people: 2, date: '2026-03-23', time: '19:00', duration: 2 };
    const viaGet = (await get(avail(V1, q))).payload;
    const viaPost = (await post(`/v4/venues/${V1}/booking-availability`, q)).payload;
    assert.deepEqual(viaPost, viaGet);
    const repeated = (await get(avail(V1, { ...q, num_people: [5, 2] }))).payload;
    assert.equal(repeated.bookingDetails.num_people, 2);
    const form = await setup().request(
      'POST',
      `/v4/venues/${V1}/booking-availability`,
      new URLSearchParams(q as any).toString(),
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    assert.deepEqual(form.payload, viaGet);
  });

  it('fields= computes only the named fields', async () => {
    const { get } = setup();
    const p = (
      await get(avail(V1, { type: T.table, num_people: 2, date: '2026-03-23', time: '19:00', fields: 'time' }))
    ).payload;
    assert.deepEqual(Object.keys(p.validation), ['time']);
    assert.equal(p.valid, true, 'valid covers only the computed fields (duration is missing but not computed)');
    assert.equal(p.next, undefined, 'still not submittable without a duration');
    const two = (await get(avail(V1, { type: T.table, fields: 'date,num_people' }))).payload;
    assert.deepEqual(Object.keys(two.validation).sort(), ['date', 'num_people']);
    assert.equal((await get(avail(V1, { fields: 'nonsense' }))).status, 400);
  });
});

describe('4. availability — live dialect (real-api-notes.md)', () => {
  it('uses time/date keys, type value objects, null messages, minutes and T00:00:00 dates', async () => {
    const { get } = setup({ dialect: 'live' });
    const p = (
      await get(avail(V1, { type: T.table, num_people: '2', date: '2026-03-23', time: '19:00', duration: 120 }))
    ).payload;
    const t = p.validation.time.suggestedValues[0];
    assert.deepEqual(Object.keys(t).sort(), ['action', 'message', 'time', 'valid']);
    assert.equal(t.message, null);
    assert.match(t.time, /^\d{2}:\d{2}$/);
    const d = p.validation.date.suggestedValues[0];
    assert.deepEqual(Object.keys(d).sort(), ['date', 'message', 'valid']);
    const type = p.validation.type.suggestedValues[0];
    assert.deepEqual(type.value, {
      id: T.table,
      name: 'Table',
      guestlist: false,
      privateHire: false,
      autoconfirmable: true,
      availableLinkedTypes: [T.bar],
    });
    assert.deepEqual(type.errors, []);
    const dur = p.validation.duration.suggestedValues.map((s: any) => s.value);
    assert.deepEqual(dur, [90, 120, 150, 180]);
    assert.equal(p.bookingDetails.date, '2026-03-23T00:00:00');
    assert.equal(p.bookingDetails.num_people, 2);
    assert.equal(p.bookingDetails.duration, 120);
    assert.deepEqual(p.bookingDetails.payments, []);
    assert.equal(p.action, 'accept');
    assert.equal(p.next.api, 'http://localhost:8787/v4/bookings');
    assert.match(p.next.web, /&source$/);
    assert.ok(p.validation.time.suggestedValues.every((s: any) => !('value' in s)));
  });

  it('action stays reject until every field is present', async () => {
    const { get } = setup({ dialect: 'live' });
    assert.equal((await get(avail(V1, { type: T.table, num_people: 2, date: '2026-03-23' }))).payload.action, 'reject');
    assert.equal(
      (await get(avail(V1, { type: T.table, num_people: 2, date: '2026-03-23', time: '19:00' }))).payload.action,
      'reject',
    );
    const missing = (await get(avail(V1, { num_people: 2, date: '2026-03-23', time: '19:00', duration: 120 }))).payload;
    assert.equal(missing.action, 'reject');
    assert.deepEqual(missing.validation.type.errors[0], {
      code: 'missing_type',
      message: 'Type is required',
      fields: ['type'],
    });
  });

  it('a type name instead of its id is a 400', async () => {
    const { get } = setup({ dialect: 'live' });
    const res = await get(avail(V1, { type: 'Table' }));
    assert.equal(res.status, 400);
    assert.equal(res.payload.errors[0].code, 'invalid_type');
  });

  it('re-sending the live bookingDetails (T00:00:00 date) is accepted', async () => {
    const { get } = setup({ dialect: 'live' });
    const first = (
      await get(avail(V1, { type: T.table, num_people: 2, date: '2026-03-23', time: '19:00', duration: 120 }))
    ).payload;
    const again = (
      await get(
        avail(V1, { ...first.bookingDetails, payments: undefined, venue_id: undefined, venue_group: undefined }),
      )
    ).payload;
    assert.equal(again.valid, true);
  });
});

describe('4. availability — London time and DST', () => {
  it('spring forward (2026-03-29): the skipped hour has no start times and the night is an hour shorter', async () => {
    const { get } = setup({ now: '2026-03-20T10:00:00Z' });
    // Saturday 28 March, business day running into Sunday 29 March 01:00 GMT → 02:00 BST.
    const dst = (await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-03-28', duration: 120 })))
      .payload;
    assert.ok(times(dst).includes('00:30'));
    assert.ok(!times(dst).includes('01:00'), '01:00 does not exist on 29 March');
    assert.equal(timeItem(dst, '23:00').valid, true);
    assert.equal(timeItem(dst, '23:30').valid, false, 'would end at 02:30 BST, past the 02:00 close');
    const normal = (await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-03-21', duration: 120 })))
      .payload;
    assert.ok(times(normal).includes('01:00'));
    assert.equal(timeItem(normal, '23:30').valid, true);
    assert.equal(timeItem(normal, '00:00').valid, true);
    const end = (await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-03-28', time: '23:00' })))
      .payload;
    assert.equal(end.validation.duration.suggestedValues.find((s: any) => s.value === 2).endTime, '02:00');
  });

  it('on 2026-03-29 itself "now" is BST: 11:30Z is 12:30 in London', async () => {
    const { get } = setup({ now: '2026-03-29T11:30:00Z' });
    const p = (await get(avail(V1, { type: T.table, num_people: 2, date: '2026-03-29', duration: 90 }))).payload;
    assert.equal(timeItem(p, '12:15').valid, false);
    assert.equal(timeItem(p, '12:45').valid, true);
    const res = await get(avail(V1, { fields: 'type' }));
    assert.equal(res.body.requestTime, '2026-03-29T12:30:00');
  });

  it('fall back (2026-10-25): the repeated hour gives the late night an extra hour', async () => {
    const { get } = setup({ now: '2026-10-01T10:00:00Z' });
    const dst = (await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-10-24', duration: 180 })))
      .payload;
    assert.equal(times(dst).filter((t: string) => t === '01:00').length, 1, 'the repeated 01:00 is listed once');
    assert.equal(timeItem(dst, '00:00').valid, true, '00:00 BST + 3 h = 02:00 GMT, the close');
    const normal = (await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-10-17', duration: 180 })))
      .payload;
    assert.equal(timeItem(normal, '00:00').valid, false);
    const end = (await get(avail(V2, { type: T.cocktailTable, num_people: 2, date: '2026-10-24', time: '23:30' })))
      .payload;
    assert.equal(end.validation.duration.suggestedValues.find((s: any) => s.value === 3).endTime, '01:30');
  });

  it("today is London's today across the UTC midnight boundary", async () => {
    const { get } = setup({ now: '2026-06-15T23:30:00Z' }); // 00:30 on 16 June in London
    const p = (await get(avail(V3, { type: T.kitchenTable, num_people: 2 }))).payload;
    assert.equal(p.validation.date.suggestedValues[0].value, '2026-06-16');
    const past = (await get(avail(V3, { type: T.kitchenTable, date: '2026-06-15' }))).payload;
    assert.equal(past.validation.date.errors[0].code, 'date_passed');
    const winter = setup({ now: '2026-01-15T23:30:00Z' });
    const w = (await winter.get(avail(V3, { type: T.kitchenTable, num_people: 2 }))).payload;
    assert.equal(w.validation.date.suggestedValues[0].value, '2026-01-15', 'GMT: still the 15th');
  });
});
