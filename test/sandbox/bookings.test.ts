/** Issue 3 points 5 and 6: booking rules; bookings create, API-URL flow, update, areas, pre-orders. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, avail, bookingBody, CONFIRM, READONLY, setup, T, V1, V2, V3 } from './helpers.js';

const rules = (venue: string, q: string) => `/v4/venues/${venue}/booking-rules?${q}`;

describe('5. booking rules (§2.11, §4.5)', () => {
  it("reports the type's window, limits, notes and cut-off", async () => {
    const { post } = setup();
    const r = await post(rules(V3, `type=${T.kitchenTable}&date=2026-03-23`));
    assert.equal(r.status, 200);
    assert.deepEqual(r.payload, {
      bookings_from: '08:00',
      bookings_to: '20:30',
      booking_available: true,
      booking_notes: 'Same-day bookings close at 5pm; walk-ins always welcome.',
      max_duration: 120,
      min_people: 1,
      max_people: 6,
      bookings_shut: '17:00',
    });
  });

  it('omits unset values and reflects closed days', async () => {
    const { post } = setup();
    const r = await post(rules(V2, `type=${T.cocktailTable}&date=2026-03-30`));
    assert.equal(r.payload.booking_available, false);
    assert.match(r.payload.booking_notes, /closed on Mondays/);
    assert.equal('bookings_shut' in r.payload, false);
    const q = await post(rules(V1, `type=${T.table}&date=2026-03-23`));
    assert.equal(q.payload.max_duration, 180, 'the longest duration of the type when the venue sets none');
    assert.equal(q.payload.min_people, 2);
  });

  it('400 without type or date, or with bad ones', async () => {
    const { post } = setup();
    const r = await post(rules(V1, ''));
    assert.equal(r.status, 400);
    assert.deepEqual(r.payload.errors.map((e: any) => e.code).sort(), ['missing_date', 'missing_type']);
    assert.equal((await post(rules(V1, `type=${T.table}&date=tomorrow`))).status, 400);
    assert.equal((await post(rules(V1, `type=${T.cocktailTable}&date=2026-03-23`))).status, 400);
  });
});

describe('6. bookings — create (§4.2)', () => {
  it('stores every field and returns booking, bookingStatus and venue', async () => {
    const { post, get } = setup();
    const body = bookingBody({
      dob: '1990-05-01',
      notes: 'Birthday — candles please',
      offer: '64a1f0c2e4b0a1b2c3d4e706',
      num_people: 6,
      package: '64a1f0c2e4b0a1b2c3d4ed03',
      newsletter_signup: true,
      marketing_preferences: ['64a1f0c2e4b0a1b2c3d4e801'],
      custom_field_value: 'Highchair',
      date: '2026-03-24',
      time: '18:00',
      partner_source: 'google',
    });
    const r = await post('/v4/bookings', body);
    assert.equal(r.status, 200, JSON.stringify(r.payload));
    const b = r.payload.booking;
    assert.match(b._id, /^[0-9a-f]{24}$/);
    assert.match(b.reference, /^DMN-\d{11}$/);
    assert.equal(b.venue_id, V1);
    assert.equal(b.date, '2026-03-24T00:00:00');
    assert.equal(b.time, '18:00');
    assert.deepEqual(b.type, { guestlist: false, id: T.table, name: 'Table', private_hire: false });
    assert.equal(b.num_people, 6);
    assert.equal(b.notes, 'Birthday — candles please');
    assert.equal(b.offer, '64a1f0c2e4b0a1b2c3d4e706');
    assert.deepEqual(b.packages, ['64a1f0c2e4b0a1b2c3d4ed03']);
    assert.deepEqual(b.deposits, []);
    assert.equal(b.created_date, '2026-03-20T10:00:00');
    assert.equal(b.created_by, 'sandbox-widget');
    assert.equal(r.payload.bookingStatus, 'confirmed');
    assert.deepEqual(r.payload.venue, {
      _id: V1,
      type: 'restaurant-bar',
      title: 'Harbour & Vine Quayside',
      path: 'harbour-and-vine-quayside',
      page_type: 'venue',
    });
    // Stored: search finds it with the other fields.
    const s = await get(`/v4/bookings?booking_id=${0}`.replace('0', ''), ADMIN);
    assert.equal(s.status, 400, 'empty booking_id is a clear 400');
    const found = (
      await get(
        `/v4/bookings?email=test.guest@example.com&fields=reference,phone,duration,estimated_value,partner_source,status`,
        ADMIN,
      )
    ).payload.bookings[0];
    assert.deepEqual(found, {
      reference: b.reference,
      phone: '07700900999',
      duration: 120,
      estimated_value: 210,
      partner_source: 'google',
      status: 'complete',
    });
    // Consent recorded on the customer.
    const users = (await get('/v4/users?search=test.guest@example.com', ADMIN)).payload.users;
    assert.equal(users.length, 1);
    assert.equal(users[0].marketing_preferences[0].id, '64a1f0c2e4b0a1b2c3d4e801');
    assert.equal(users[0].marketing_preferences[0].opt_in_date, '2026-03-20T10:00:00');
    assert.ok(users[0].associated_venues.includes(V1));
  });

  it('an enquiry-only type is stored as an enquiry: bookingStatus received, status new', async () => {
    const { post, get } = setup();
    const r = await post(
      '/v4/bookings',
      bookingBody({ type: T.privateHire, num_people: 25, time: '18:00', duration: 240 }),
    );
    assert.equal(r.payload.bookingStatus, 'received');
    const s = await get(`/v4/bookings?email=test.guest@example.com&status=new`, ADMIN);
    assert.equal(s.payload.numFound, 1);
  });

  it('works without duration (fixed or first duration is used)', async () => {
    const { post, get } = setup();
    const r = await post('/v4/bookings', bookingBody({ duration: undefined }));
    assert.equal(r.status, 200);
    const s = await get(`/v4/bookings?email=test.guest@example.com&fields=duration`, ADMIN);
    assert.equal(s.payload.bookings[0].duration, 90);
  });

  it('clear 400s: each bad field is named, nothing is stored', async () => {
    const { post, sandbox } = setup();
    const before = sandbox.store.bookings.length;
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'Table' }, 'invalid_type'],
      [{ type: T.cocktailTable }, 'invalid_type'],
      [{ venue_id: '64a1f0c2e4b0a1b2c3d4eaaa' }, 'invalid_venue_id'],
      [{ num_people: 0 }, 'invalid_num_people'],
      [{ num_people: '2.5' }, 'invalid_num_people'],
      [{ date: '2026-13-01' }, 'invalid_date'],
      [{ date: '2026-03-01' }, 'date_passed'],
      [{ time: '25:00' }, 'invalid_time'],
      [{ duration: 'forever' }, 'invalid_duration'],
      [{ email: 'not-an-email' }, 'invalid_email'],
      [{ dob: '2099-01-01' }, 'invalid_dob'],
      [{ offer: '64a1f0c2e4b0a1b2c3d4e705' }, 'offer_not_available'],
      [{ offer: '64a1f0c2e4b0a1b2c3d4e704' }, 'offer_not_applicable'],
      [{ offer: '64a1f0c2e4b0a1b2c3d4e706', num_people: 2 }, 'offer_not_applicable'],
      [{ package: 'nope' }, 'invalid_package'],
      [{ newsletter_signup: 'maybe' }, 'invalid_newsletter_signup'],
      [{ marketing_preferences: ['64a1f0c2e4b0a1b2c3d4e803'] }, 'invalid_marketing_preferences'],
      [{ first_name: 'x'.repeat(500) }, 'invalid_first_name'],
      [{ source: undefined }, 'missing_source'],
      [{ first_name: '' }, 'missing_first_name'],
      [{ notes: { a: 1 } }, 'invalid_notes'],
    ];
    for (const [over, code] of cases) {
      const r = await post('/v4/bookings', bookingBody(over));
      assert.equal(r.status, 400, `${JSON.stringify(over)} → 400`);
      assert.ok(
        r.payload.errors.some((e: any) => e.code === code),
        `${JSON.stringify(over)} → ${code}, got ${JSON.stringify(r.payload.errors)}`,
      );
    }
    assert.equal(sandbox.store.bookings.length, before);
  });

  it('live dialect: no status, phone or created_by on the returned booking', async () => {
    const { post } = setup({ dialect: 'live' });
    const r = await post('/v4/bookings', bookingBody());
    assert.equal(r.status, 200);
    for (const k of ['status', 'phone', 'created_by']) assert.equal(k in r.payload.booking, false, k);
    assert.equal(r.payload.bookingStatus, 'confirmed');
    assert.match(r.payload.booking.reference, /^DMN-\d{11}$/);
  });

  it('references are unique', async () => {
    const { post } = setup();
    const refs = new Set();
    for (let i = 0; i < 20; i++)
      refs.add((await post('/v4/bookings', bookingBody({ time: '12:00' }))).payload.booking.reference);
    assert.equal(refs.size, 20);
  });
});

describe('6. bookings — the API-URL submission flow', () => {
  for (const dialect of ['spec', 'live'] as const) {
    it(`${dialect}: POST next.api with bookingDetails + guest fields stores the booking`, async () => {
      const { get, request } = setup({ dialect });
      const p = (
        await get(
          avail(V1, {
            type: T.table,
            num_people: 3,
            date: '2026-03-23',
            time: '19:30',
            duration: dialect === 'live' ? 150 : 2.5,
          }),
        )
      ).payload;
      assert.ok(p.next.api);
      const path = new URL(p.next.api).pathname;
      const r = await request(
        'POST',
        path,
        {
          ...p.bookingDetails,
          first_name: 'Ana',
          last_name: 'Lee',
          email: 'ana@example.com',
          phone: '+44 7700 900123',
        },
        {},
      );
      assert.equal(r.status, 200, JSON.stringify(r.payload));
      assert.equal(r.payload.bookingStatus, 'confirmed');
      const s = await get('/v4/bookings?email=ana@example.com&fields=duration,date,time,num_people', ADMIN);
      assert.deepEqual(s.payload.bookings[0], {
        duration: 150,
        date: '2026-03-23T00:00:00',
        time: '19:30',
        num_people: 3,
      });
    });
  }

  it('requires email and phone in that flow', async () => {
    const { get, post } = setup();
    const p = (await get(avail(V1, { type: T.table, num_people: 3, date: '2026-03-23', time: '19:30', duration: 2 })))
      .payload;
    const r = await post('/v4/bookings', { ...p.bookingDetails, first_name: 'Ana', last_name: 'Lee' });
    assert.equal(r.status, 400);
    assert.deepEqual(r.payload.errors.map((e: any) => e.code).sort(), ['missing_email', 'missing_phone']);
  });

  it('refuses a deposit or required pre-order type: the web URL must be used', async () => {
    const { get, post } = setup();
    const p = (
      await get(avail(V1, { type: T.brunch, num_people: 4, date: '2026-03-21', time: '11:00', duration: 1.5 }))
    ).payload;
    const r = await post('/v4/bookings', {
      ...p.bookingDetails,
      first_name: 'A',
      last_name: 'B',
      email: 'a@b.co',
      phone: '07700900000',
    });
    assert.equal(r.status, 400);
    assert.equal(r.payload.errors[0].code, 'web_required');
  });
});

describe('6. bookings — update (§4.3) and status transitions', () => {
  const id = '64a1f0c2e4b0a1b2c3d4f006'; // new private-hire enquiry on 20 March

  it('status=in_progress returns the full record with status_changed_date', async () => {
    const { post } = setup({ now: '2026-03-20T11:45:00Z' });
    const r = await post(`/v4/bookings/${id}`, { status: 'in_progress' }, ADMIN);
    assert.equal(r.status, 200);
    const b = r.payload.booking;
    assert.equal(b.status, 'in_progress');
    assert.equal(b.status_changed_date, '2026-03-20T11:45:00');
    assert.equal(b.last_updated, '2026-03-20T11:45:00');
    for (const k of [
      'booking_id',
      'assigned_to',
      'completed_by',
      'completed_date',
      'managed_by_venue',
      'invoiced',
      'reconciled',
      'walk_in',
      'venue_group',
      'region',
      'duration',
      'value',
    ]) {
      assert.ok(k in b, k);
    }
    assert.equal(typeof b.type.value, 'number');
    assert.equal(b.duration, 240);
  });

  it('finds a booking by its _id only: its booking_id or reference is 404', async () => {
    const { post } = setup();
    const r = await post(`/v4/bookings/${id}`, { notes: 'via _id' }, ADMIN);
    assert.equal(r.status, 200);
    assert.equal(r.payload.booking._id, id);
    for (const key of ['100006', 'DMN-10000047514'])
      assert.equal((await post(`/v4/bookings/${key}`, { notes: `via ${key}` }, ADMIN)).status, 404, key);
  });

  it('complete sets completed_by/completed_date; illegal moves are 400 and change nothing', async () => {
    const { post, sandbox } = setup();
    const done = await post(`/v4/bookings/${id}`, { status: 'complete' }, ADMIN);
    assert.equal(done.payload.booking.completed_by, 'sandbox-admin');
    assert.equal(done.payload.booking.completed_date, '2026-03-20T10:00:00');
    assert.equal((await post(`/v4/bookings/${id}`, { status: 'deleted' }, ADMIN)).status, 200);
    const bad = await post(`/v4/bookings/${id}`, { status: 'complete', num_people: 3 }, ADMIN);
    assert.equal(bad.status, 400);
    assert.equal(bad.payload.errors[0].code, 'invalid_transition');
    assert.equal(sandbox.store.findBooking(id)!.num_people, 30, 'a 400 applies nothing');
    assert.equal(
      (await post(`/v4/bookings/${id}`, { status: 'cancelled' }, ADMIN)).payload.errors[0].code,
      'invalid_status',
    );
    assert.equal(
      (await post('/v4/bookings/64a1f0c2e4b0a1b2c3d4f009', { status: 'complete' }, ADMIN)).status,
      200,
      'lost → complete (they came after all)',
    );
    const lost = await post('/v4/bookings/64a1f0c2e4b0a1b2c3d4f009', { status: 'lost' }, ADMIN);
    assert.equal(lost.status, 200, 'a past booking can be lost');
    assert.equal(lost.payload.booking.status, 'lost');
    assert.equal(
      (await post('/v4/bookings/64a1f0c2e4b0a1b2c3d4f014', { status: 'lost' }, ADMIN)).status,
      400,
      'a future one cannot',
    );
  });

  it('updates fields with validation; unknown fields are refused', async () => {
    const { post } = setup();
    const r = await post(
      `/v4/bookings/${id}`,
      {
        num_people: 32,
        time: '19:30',
        date: '2026-03-23',
        labels: ['64a1f0c2e4b0a1b2c3d4ec01'],
        follow_up: '2026-03-21T09:00:00',
        assigned_to: '64a1f0c2e4b0a1b2c3d4eb01',
        invoiced: 'true',
        email: 'new@example.com',
      },
      ADMIN,
    );
    assert.equal(r.status, 200, JSON.stringify(r.payload));
    const b = r.payload.booking;
    assert.equal(b.num_people, 32);
    assert.equal(b.date, '2026-03-23T00:00:00');
    assert.equal(b.invoiced, true);
    assert.equal(b.assigned_to, '64a1f0c2e4b0a1b2c3d4eb01');
    assert.equal(b.follow_up, '2026-03-21T09:00:00');
    assert.equal((await post(`/v4/bookings/${id}`, { colour: 'red' }, ADMIN)).payload.errors[0].code, 'unknown_field');
    assert.equal((await post(`/v4/bookings/${id}`, { assigned_to: '64a1f0c2e4b0a1b2c3d4ffff' }, ADMIN)).status, 400);
    assert.equal((await post(`/v4/bookings/${id}`, { labels: ['x'] }, ADMIN)).status, 400);
  });

  it('needs a capability that allows updates', async () => {
    const { post } = setup();
    assert.equal((await post(`/v4/bookings/${id}`, { status: 'in_progress' }, READONLY)).status, 403);
    assert.equal(
      (await post(`/v4/bookings/${id}`, { status: 'in_progress' }, CONFIRM)).status,
      200,
      'confirm_* may update',
    );
  });
});

describe('6. bookings — assigned areas (§4.4) and pre-orders (§2.6)', () => {
  const id = '64a1f0c2e4b0a1b2c3d4f001';

  it('GET lists areas; POST replaces them all', async () => {
    const { get, post } = setup();
    assert.deepEqual((await get(`/v4/bookings/${id}/areas`, ADMIN)).payload.areas, []);
    const first = await post(
      `/v4/bookings/${id}/areas`,
      { areas: ['64a1f0c2e4b0a1b2c3d4ee01', '64a1f0c2e4b0a1b2c3d4ee02'] },
      ADMIN,
    );
    assert.deepEqual(first.payload.areas, [
      { id: '64a1f0c2e4b0a1b2c3d4ee01', name: 'Table 1', zone: '64a1f0c2e4b0a1b2c3d4ef01' },
      { id: '64a1f0c2e4b0a1b2c3d4ee02', name: 'Table 2', zone: '64a1f0c2e4b0a1b2c3d4ef01' },
    ]);
    await post(`/v4/bookings/${id}/areas`, { areas: ['64a1f0c2e4b0a1b2c3d4ee04'] }, ADMIN);
    assert.deepEqual(
      (await get(`/v4/bookings/${id}/areas`, ADMIN)).payload.areas.map((a: any) => a.name),
      ['Window 4'],
    );
    assert.deepEqual((await post(`/v4/bookings/${id}/areas`, { areas: [] }, ADMIN)).payload.areas, []);
  });

  it('rejects unknown areas, areas of another venue and non-arrays without changing anything', async () => {
    const { get, post } = setup();
    await post(`/v4/bookings/${id}/areas`, { areas: ['64a1f0c2e4b0a1b2c3d4ee01'] }, ADMIN);
    for (const areas of [['64a1f0c2e4b0a1b2c3d4ee11'], ['nope'], 'ee01', [{ id: 1 }]]) {
      assert.equal((await post(`/v4/bookings/${id}/areas`, { areas }, ADMIN)).status, 400);
    }
    assert.deepEqual(
      (await get(`/v4/bookings/${id}/areas`, ADMIN)).payload.areas.map((a: any) => a.name),
      ['Table 1'],
    );
    assert.equal(
      (await post(`/v4/bookings/${id}/areas`, { areas: [] }, CONFIRM)).status,
      403,
      'replacing areas needs manage_*',
    );
  });

  it('pre-orders are on the record with the §2.6 shape', async () => {
    const { get } = setup();
    const p = (await get('/v4/bookings/64a1f0c2e4b0a1b2c3d4f008/preorders', ADMIN)).payload.preorders;
    assert.equal(p.length, 1);
    for (const k of [
      'id',
      'created_date',
      'name',
      'email',
      'items',
      'total_cost',
      'amount_paid',
      'service_charge_percentage',
      'service_charge_amount',
      'status',
      'source',
    ])
      assert.ok(k in p[0], k);
    for (const k of [
      'base_price',
      'options_price',
      'price',
      'discount_value',
      'total',
      'id',
      'description',
      'name',
      'plu',
      'sub_type',
      'surcharge',
      'type',
      'options_string',
      'quantity',
      'options',
    ])
      assert.ok(k in p[0].items[0], k);
    const s = (await get('/v4/bookings?has_preorders=true&fields=preorders,booking_id', ADMIN)).payload;
    assert.equal(s.numFound, 1);
    assert.equal(s.bookings[0].preorders[0].status, 'complete');
  });
});
