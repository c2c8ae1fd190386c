/** Issue 3 points 8 and 9: offers (§2.9, §4.8) and venues (§4.9, §2.10). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, IDS, KITCHEN, OUTSIDER, setup, T, V1, V2, V3 } from './helpers.js';

const O = (n: string) => `64a1f0c2e4b0a1b2c3d4e7${n}`;
const offerIds = async (query = '', now?: string) => {
  const { get } = setup(now ? { now } : {});
  const r = await get(`/v4/venues/${V1}/offers${query ? `?${query}` : ''}`);
  assert.equal(r.status, 200);
  return r.payload.map((o: any) => o._id).sort();
};

describe('8. offers — the four visibility rules in London time', () => {
  it('without parameters returns all visible offers', async () => {
    // 01: from in the past, no to. 02: both set, now between. 03: from in the future. 04: no from, to in the past.
    // 05: neither set. 06: no from, to in the future.
    assert.deepEqual(await offerIds(), [O('01'), O('02'), O('05'), O('06')]);
  });
  it('both set: visible only between them', async () => {
    assert.ok(!(await offerIds('', '2026-02-28T23:00:00Z')).includes(O('02')));
    assert.ok((await offerIds('', '2026-03-01T00:00:00Z')).includes(O('02')));
  });
  it('visible_from in the future becomes visible at London midnight (BST)', async () => {
    // visible_from 2026-05-15T00:00:00 London = 2026-05-14T23:00:00Z.
    assert.ok(!(await offerIds('', '2026-05-14T22:59:59Z')).includes(O('03')));
    assert.ok((await offerIds('', '2026-05-14T23:00:00Z')).includes(O('03')));
  });
  it('no visible_from and visible_to: visible until visible_to', async () => {
    assert.ok((await offerIds('', '2026-02-28T23:59:00Z')).includes(O('04')));
    assert.ok(!(await offerIds('', '2026-03-01T00:00:00Z')).includes(O('04')));
  });
  it('returns the §2.9 shape', async () => {
    const { get } = setup();
    const o = (await get(`/v4/venues/${V1}/offers`)).payload.find((x: any) => x._id === O('02'));
    for (const k of [
      '_id',
      'page_id',
      'page_status',
      'page_can_book',
      'region_id',
      'title',
      'type_of_offer',
      'type_of_venue',
      'availability',
      'description',
      'start_date',
      'expiry_date',
      'visible_from',
      'visible_to',
      'rules',
      'restrict_offer_to_types',
      'booking_types',
    ])
      assert.ok(k in o, k);
    for (const d of ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
      assert.deepEqual(Object.keys(o.rules[d]).sort(), ['available', 'from', 'to']);
    const plain = (await get(`/v4/venues/${V1}/offers`)).payload.find((x: any) => x._id === O('01'));
    assert.equal('booking_types' in plain, false, 'booking_types only when restricted');
  });
});

describe('8. offers — rule matching and availability values', () => {
  it('party size: min_people excludes smaller parties', async () => {
    assert.ok(!(await offerIds('num_people=4')).includes(O('06')));
    assert.ok((await offerIds('num_people=6')).includes(O('06')));
    assert.ok(!(await offerIds('num_people=9')).includes(O('01')), 'max_people 8');
  });
  it('day rules: available days, and to bounds the start time', async () => {
    assert.ok((await offerIds('date=2026-03-27&time=17:00')).includes(O('01')));
    assert.ok((await offerIds('date=2026-03-27&time=19:00')).includes(O('01')), 'to is inclusive for the start');
    assert.ok(!(await offerIds('date=2026-03-27&time=19:15')).includes(O('01')));
    assert.ok(!(await offerIds('date=2026-03-28&time=18:00')).includes(O('01')), 'not on Saturdays');
    assert.ok(
      (await offerIds('date=2026-03-27&time=18:30&duration=3')).includes(O('01')),
      'running past to is still returned',
    );
  });
  it('start and expiry dates bound the booking date', async () => {
    assert.ok(!(await offerIds('date=2027-01-04')).includes(O('01')));
  });
  it('restrict_offer_to_types: kept without type, filtered with a type', async () => {
    assert.ok((await offerIds()).includes(O('02')));
    assert.ok((await offerIds(`type=${T.brunch}`)).includes(O('02')));
    assert.ok(!(await offerIds(`type=${T.table}`)).includes(O('02')));
    assert.ok((await offerIds(`type=${T.table}`)).includes(O('01')));
  });
  it('availability values: "" (all), partner, and a marketplace brand', async () => {
    const { get } = setup();
    const list = (await get(`/v4/venues/${V1}/offers`)).payload;
    const byId = Object.fromEntries(list.map((o: any) => [o._id, o.availability]));
    assert.equal(byId[O('01')], '');
    assert.equal(byId[O('02')], 'partner');
    assert.equal(byId[O('05')], 'marketplace');
  });
  it('bad parameters are 400s', async () => {
    const { get } = setup();
    for (const q of ['num_people=x', 'date=31-12-2026', 'time=7pm', 'type=nope', 'duration=abc']) {
      assert.equal((await get(`/v4/venues/${V1}/offers?${q}`)).status, 400, q);
    }
  });
});

describe('9. venues', () => {
  it('lists the pages of a venue group', async () => {
    const { get } = setup();
    const r = await get(`/v4/venues?venue_group=${IDS.group}`);
    assert.deepEqual(r.payload.pages, [
      { _id: V1, path: 'harbour-and-vine-quayside' },
      { _id: V2, path: 'the-vine-cellar' },
      { _id: V3, path: 'harbour-kitchen' },
    ]);
  });
  it('with no filter lists every venue the app may see', async () => {
    const { get } = setup();
    assert.deepEqual(
      (await get('/v4/venues', KITCHEN)).payload.pages.map((p: any) => p._id),
      [V3],
    );
    assert.equal((await get('/v4/venues', ADMIN)).payload.pages.length, 3);
    assert.deepEqual((await get('/v4/venues', OUTSIDER)).payload.pages, []);
    assert.equal((await get(`/v4/venues?venue_group=${IDS.group}`, OUTSIDER)).status, 403);
    assert.equal((await get('/v4/venues?venue_group=64a1f0c2e4b0a1b2c3d4e5ff')).status, 404);
    assert.equal((await get('/v4/venues?venue_group=abc')).status, 400);
  });
  it('fields= returns each §2.10 setting', async () => {
    const { get } = setup();
    const all = [
      'booking_labels',
      'booking_stages',
      'customer_labels',
      'booking_types',
      'bookable_areas',
      'bookable_area_zones',
      'packages',
      'preorder_menus',
      'opening_times',
      'booking_unavailable',
    ];
    for (const f of all) {
      const r = await get(`/v4/venues/${V1}?fields=${f}`);
      assert.equal(r.status, 200, f);
      assert.ok(f in r.payload.venue, f);
      assert.ok(!all.filter((x) => x !== f).some((x) => x in r.payload.venue), `${f} alone`);
    }
    const types = (await get(`/v4/venues/${V1}?fields=booking_types`)).payload.venue.booking_types;
    assert.deepEqual(types[0], { id: T.table, name: 'Table' });
    const ot = (await get(`/v4/venues/${V2}?fields=opening_times`)).payload.venue.opening_times;
    assert.deepEqual(ot.friday, { status: true, open: '17:00', close: '02:00', private_hire: false });
    assert.equal(ot.monday.status, false);
    const un = (await get(`/v4/venues/${V2}?fields=booking_unavailable`)).payload.venue.booking_unavailable[0];
    assert.deepEqual(Object.keys(un).sort(), [
      'close_admin',
      'id',
      'unavailable_from',
      'unavailable_message',
      'unavailable_to',
    ]);
    const pk = (await get(`/v4/venues/${V1}?fields=packages`)).payload.venue.packages[0];
    assert.deepEqual(Object.keys(pk).sort(), ['description', 'diet_types', 'id', 'name', 'price', 'sub_type', 'type']);
    const cl = (await get(`/v4/venues/${V1}?fields=customer_labels`)).payload.venue.customer_labels[0];
    assert.deepEqual(Object.keys(cl).sort(), ['colour', 'id', 'label', 'type']);
    const several = (await get(`/v4/venues/${V1}?fields=bookable_areas,bookable_area_zones`)).payload.venue;
    assert.equal(several.bookable_areas[0].zone, several.bookable_area_zones[0].id);
    assert.equal((await get(`/v4/venues/${V1}?fields=secrets`)).status, 400);
  });
  it('group-settable settings are inherited by venues and readable with the group id', async () => {
    const { get } = setup();
    const labels = (await get(`/v4/venues/${V3}?fields=booking_labels`)).payload.venue.booking_labels;
    assert.deepEqual(
      labels.map((l: any) => l.label),
      ['VIP', 'Birthday', 'Allergy'],
    );
    const g = await get(`/v4/venues/${IDS.group}?fields=packages,booking_stages`);
    assert.equal(g.status, 200);
    assert.equal(g.payload.venue_group.packages.length, 3);
    assert.equal(g.payload.venue_group.booking_stages.length, 2);
    assert.equal('opening_times' in g.payload.venue_group, false);
    assert.equal(
      (await get(`/v4/venues/${IDS.group}?fields=opening_times`)).status,
      400,
      'opening_times is not settable at group level',
    );
    // The cellar's own menu plus the group's.
    const menus = (await get(`/v4/venues/${V2}?fields=preorder_menus`)).payload.venue.preorder_menus;
    assert.deepEqual(
      menus.map((m: any) => m.name),
      ['Brunch pre-order menu', 'Masterclass snacks'],
    );
  });
  it('unknown venue 404, other group 403', async () => {
    const { get } = setup();
    assert.equal((await get('/v4/venues/64a1f0c2e4b0a1b2c3d4e5aa')).status, 404);
    assert.equal((await get(`/v4/venues/${V1}`, OUTSIDER)).status, 403);
  });
});

describe('10. marketing preferences of a venue (§4.7, §2.7)', () => {
  it("lists the group's and the venue's own preferences", async () => {
    const { get } = setup();
    const q = (await get(`/v4/venues/${V1}/marketing-preferences`)).payload.marketing_preferences;
    assert.deepEqual(
      q.map((m: any) => m.name),
      ['Harbour & Vine news', 'Events and tastings'],
    );
    assert.deepEqual(Object.keys(q[0]).sort(), ['created_date', 'description', 'id', 'name']);
    const k = (await get(`/v4/venues/${V3}/marketing-preferences`)).payload.marketing_preferences;
    assert.equal(k.length, 3);
    const g = (await get(`/v4/venues/${IDS.group}/marketing-preferences`)).payload.marketing_preferences;
    assert.equal(g.length, 2);
  });
});
