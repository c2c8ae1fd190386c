/** Issue 3 point 10: venue-group users (§4.10), event guests (§4.11), customer users (§4.12). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, IDS, KITCHEN, READONLY, setup, V1, V3 } from './helpers.js';

const G = IDS.group;
const users = `/v4/venue-groups/${G}/users`;

describe('10. venue-group users', () => {
  it('adds, edits and removes a user', async () => {
    const { post, del } = setup();
    const add = await post(
      users,
      {
        email: 'new.host@harbourandvine.example',
        first_name: 'Nia',
        last_name: 'Hale',
        capabilities: [`access_venue_bookings_${V1}`],
      },
      ADMIN,
    );
    assert.equal(add.status, 200, JSON.stringify(add.payload));
    const u = add.payload.user;
    assert.match(u._id, /^[0-9a-f]{24}$/);
    assert.deepEqual(u.capabilities, [`access_venue_bookings_${V1}`]);
    const edit = await post(
      `${users}/${u._id}`,
      { capabilities: [`manage_venue_group_bookings_${G}`, `view_venue_customers_${V3}`] },
      ADMIN,
    );
    assert.equal(edit.status, 200);
    assert.deepEqual(edit.payload.user.capabilities, [
      `manage_venue_group_bookings_${G}`,
      `view_venue_customers_${V3}`,
    ]);
    assert.equal(edit.payload.user.first_name, 'Nia');
    assert.equal((await del(`${users}/${u._id}`, ADMIN)).status, 200);
    assert.equal((await del(`${users}/${u._id}`, ADMIN)).status, 404);
  });

  it('rejects malformed capability strings and ids outside the group', async () => {
    const { post, sandbox } = setup();
    const before = sandbox.store.groupUsers.size;
    const bad: [unknown, string][] = [
      [['manage_everything'], 'invalid_capabilities'],
      [[`access_venue_bookings_${V1.toUpperCase()}`], 'invalid_capabilities'],
      [[`access_venue_bookings_${V1}x`], 'invalid_capabilities'],
      [[`superuser_${V1}`], 'invalid_capabilities'],
      [[`access_venue_bookings_64a1f0c2e4b0a1b2c3d4ffff`], 'capability_outside_group'],
      [[`manage_venue_group_bookings_64a1f0c2e4b0a1b2c3d4ffff`], 'capability_outside_group'],
      [[`access_venue_group_bookings_${V1}`], 'capability_outside_group'],
      ['access_venue_bookings', 'invalid_capabilities'],
      [[42], 'invalid_capabilities'],
    ];
    for (const [capabilities, code] of bad) {
      const r = await post(users, { email: 'x@example.com', capabilities }, ADMIN);
      assert.equal(r.status, 400, JSON.stringify(capabilities));
      assert.equal(r.payload.errors[0].code, code, JSON.stringify(capabilities));
    }
    assert.equal((await post(users, { first_name: 'No email' }, ADMIN)).payload.errors[0].code, 'missing_email');
    assert.equal(
      (await post(users, { email: 'manager@harbourandvine.example' }, ADMIN)).payload.errors[0].code,
      'user_exists',
    );
    assert.equal(sandbox.store.groupUsers.size, before, 'nothing stored');
    // Editing with a bad capability changes nothing.
    const id = '64a1f0c2e4b0a1b2c3d4eb02';
    assert.equal((await post(`${users}/${id}`, { capabilities: ['bogus'] }, ADMIN)).status, 400);
    assert.deepEqual(sandbox.store.groupUsers.get(id)!.capabilities, [`confirm_venue_bookings_${V1}`]);
  });

  it('needs a permission-managing capability; venue managers only grant their venue', async () => {
    const { post } = setup();
    assert.equal((await post(users, { email: 'a@example.com' }, READONLY)).status, 403);
    assert.equal((await post(users, { email: 'a@example.com' })).status, 403, 'the widget app');
    assert.equal(
      (await post(users, { email: 'a@example.com', capabilities: [`manage_venue_bookings_${V3}`] }, KITCHEN)).status,
      200,
    );
    assert.equal(
      (await post(users, { email: 'b@example.com', capabilities: [`manage_venue_bookings_${V1}`] }, KITCHEN)).status,
      403,
    );
    assert.equal(
      (await post('/v4/venue-groups/64a1f0c2e4b0a1b2c3d4e5ff/users', { email: 'a@example.com' }, ADMIN)).status,
      404,
    );
    assert.equal(
      (await post(`${users}/64a1f0c2e4b0a1b2c3d4e901`, { first_name: 'X' }, ADMIN)).status,
      404,
      'a customer is not a group user',
    );
  });
});

describe('10. event guests and tickets', () => {
  const path = `/v4/events/${IDS.event}/guests`;
  it('lists the guests of an occurrence with their tickets', async () => {
    const { get } = setup();
    const r = await get(`${path}?occurrence=2026-03-27`, ADMIN);
    assert.equal(r.status, 200);
    const guests = r.payload.guests;
    assert.equal(guests.length, 3);
    const g = guests[0];
    for (const k of [
      'rep_commission',
      'discount',
      'unitPrice',
      'checkedInGuests',
      'numPeople',
      'phone',
      'repId',
      'source',
      'comments',
      'email',
      'purchaseId',
      'purchaseRef',
      'subType',
      'subTypeName',
      'firstName',
      'lastName',
      'purchaseCheckoutQuestions',
      'productItems',
      'checkedInTickets',
      'ticketList',
      'checkedIn',
    ])
      assert.ok(k in g, k);
    assert.equal(typeof g.phone, 'string');
    assert.equal(g.ticketList.length, g.numPeople);
    for (const k of [
      '_id',
      'ticket_ref',
      'reference',
      'checked_in',
      'checked_in_by',
      'guest_name',
      'guest_email',
      'refunded',
      'item_id',
      'item_name',
      'sub_type_id',
      'sub_type_name',
    ])
      assert.ok(k in g.ticketList[0], k);
    assert.equal(g.ticketList[0].item_id, IDS.event);
    assert.equal(guests[2].checkedIn, true, 'fully checked in');
    assert.equal(guests[1].checkedIn, false);
    assert.equal((await get(`${path}?occurrence=2026-04-24`, ADMIN)).payload.guests.length, 1);
  });
  it('400 without a valid occurrence, 404 for unknown events and dates', async () => {
    const { get } = setup();
    assert.equal((await get(path, ADMIN)).status, 400);
    assert.equal((await get(`${path}?occurrence=27/03/2026`, ADMIN)).status, 400);
    assert.equal((await get(`${path}?occurrence=2026-03-28`, ADMIN)).status, 404);
    assert.equal((await get('/v4/events/64a1f0c2e4b0a1b2c3d4ec99/guests?occurrence=2026-03-27', ADMIN)).status, 404);
    assert.equal((await get(`${path}?occurrence=2026-03-27`, KITCHEN)).status, 403, "another venue's event");
  });
});

describe('10. customer users', () => {
  it('GET one user; 404 when unknown; fields projection', async () => {
    const { get } = setup();
    const u = (await get('/v4/users/64a1f0c2e4b0a1b2c3d4e901', ADMIN)).payload;
    for (const k of [
      '_id',
      'created_date',
      'last_updated',
      'first_name',
      'last_name',
      'email',
      'phone',
      'status',
      'wishlist',
      'associated_venues',
      'marketing_preferences',
    ])
      assert.ok(k in u, k);
    assert.equal(u.company, 'Quayside Studios');
    assert.equal(
      'gender' in (await get('/v4/users/64a1f0c2e4b0a1b2c3d4e902', ADMIN)).payload,
      false,
      'optional fields only when data exists',
    );
    assert.equal((await get('/v4/users/64a1f0c2e4b0a1b2c3d4e9ff', ADMIN)).status, 404);
    assert.deepEqual((await get('/v4/users/64a1f0c2e4b0a1b2c3d4e901?fields=email,last_name', ADMIN)).payload, {
      _id: '64a1f0c2e4b0a1b2c3d4e901',
      email: 'olivia.smith@example.com',
      last_name: 'Smith',
    });
  });

  it('searches email, phone and last name, sorted by last name by default', async () => {
    const { get } = setup();
    const byName = (await get('/v4/users/?search=patel', ADMIN)).payload;
    assert.deepEqual(
      byName.users.map((u: any) => u.first_name),
      ['Freya'],
    );
    assert.equal(byName.numFound, 1);
    assert.equal(byName.start, 0);
    assert.deepEqual(
      (await get('/v4/users?search=07700900003', ADMIN)).payload.users.map((u: any) => u.last_name),
      ['Brown'],
    );
    assert.deepEqual(
      (await get('/v4/users?search=leo.davies@example.com', ADMIN)).payload.users.map((u: any) => u.first_name),
      ['Leo'],
    );
    const all = (await get('/v4/users?search=example.com', ADMIN)).payload.users.map((u: any) => u.last_name);
    assert.deepEqual(all, [...all].sort());
    const desc = (await get('/v4/users?search=example.com&sort=-last_name', ADMIN)).payload.users.map(
      (u: any) => u.last_name,
    );
    assert.deepEqual(desc, [...all].reverse());
    const byFirst = (await get('/v4/users?search=example.com&sort=first_name&fields=first_name', ADMIN)).payload.users;
    assert.equal(byFirst[0].first_name, 'Amelia');
    assert.deepEqual(Object.keys(byFirst[0]).sort(), ['_id', 'first_name']);
    assert.deepEqual((await get('/v4/users?search=nobody-at-all', ADMIN)).payload.users, []);
  });

  it('pages of at most 30 with start', async () => {
    const { get, post } = setup();
    for (let i = 0; i < 35; i++) {
      await post('/v4/bookings', {
        source: 'partner',
        first_name: 'Page',
        last_name: `Zz${String(i).padStart(2, '0')}`,
        email: `page${i}@paging.example`,
        venue_id: V1,
        type: '64a1f0c2e4b0a1b2c3d4e601',
        num_people: 2,
        date: '2026-04-01',
        time: '12:00',
      });
    }
    const first = (await get('/v4/users?search=paging.example', ADMIN)).payload;
    assert.equal(first.numFound, 35);
    assert.equal(first.users.length, 30);
    const second = (await get('/v4/users?search=paging.example&start=30', ADMIN)).payload;
    assert.deepEqual(
      second.users.map((u: any) => u.last_name),
      ['Zz30', 'Zz31', 'Zz32', 'Zz33', 'Zz34'],
    );
    assert.equal((await get('/v4/users?search=paging.example&limit=31', ADMIN)).status, 400);
  });

  it('output=csv: CSV rows, no sorting, needs download permission', async () => {
    const { get } = setup();
    const r = await get('/v4/users?search=example.com&output=csv&fields=email,last_name', ADMIN);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /text\/csv/);
    assert.ok(r.headers.get('x-ratelimit-limit'));
    const lines = r.text.trim().split('\r\n');
    assert.equal(lines[0], '_id,email,last_name');
    assert.equal(lines.length, 13);
    assert.equal((await get('/v4/users?output=csv&sort=last_name', ADMIN)).status, 400);
    assert.equal((await get('/v4/users?output=csv', KITCHEN)).status, 403, 'view but not download');
  });

  it('CSV neutralises formulas and quotes', async () => {
    const { get, post } = setup();
    await post('/v4/users/64a1f0c2e4b0a1b2c3d4e901', { company: '=HYPERLINK("http://evil")' }, ADMIN);
    const r = await get('/v4/users?search=olivia.smith&output=csv&fields=company', ADMIN);
    assert.equal(r.text.trim().split('\r\n')[1], '64a1f0c2e4b0a1b2c3d4e901,"\'=HYPERLINK(""http://evil"")"');
  });

  it('updates a user; unknown or bad fields are 400 and change nothing', async () => {
    const { get, post } = setup({ now: '2026-03-20T12:00:00Z' });
    const r = await post(
      '/v4/users/64a1f0c2e4b0a1b2c3d4e902',
      { phone: '07700900555', company: 'Jones Ltd', marketing_permission: 'true' },
      ADMIN,
    );
    assert.equal(r.status, 200);
    assert.equal(r.payload.company, 'Jones Ltd');
    assert.equal(r.payload.marketing_permission, true);
    assert.equal(r.payload.last_updated, '2026-03-20T12:00:00');
    const bad = await post('/v4/users/64a1f0c2e4b0a1b2c3d4e902', { email: 'nope', status: 'banned' }, ADMIN);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.payload.errors.map((e: any) => e.code).sort(), ['invalid_email', 'unknown_field']);
    assert.equal((await get('/v4/users/64a1f0c2e4b0a1b2c3d4e902', ADMIN)).payload.email, 'amelia.jones@example.com');
  });

  it('marketing preferences: opt in and out with booleans or strings, dates set', async () => {
    const { post } = setup({ now: '2026-03-20T15:30:00Z' });
    const path = '/v4/users/64a1f0c2e4b0a1b2c3d4e901/marketing-preferences';
    const r = await post(
      path,
      {
        marketing_preferences: [
          { id: '64a1f0c2e4b0a1b2c3d4e801', opt_in: 'false' },
          { id: '64a1f0c2e4b0a1b2c3d4e802', opt_in: true },
        ],
      },
      ADMIN,
    );
    assert.equal(r.status, 200);
    const prefs = Object.fromEntries(r.payload.marketing_preferences.map((p: any) => [p.id, p]));
    assert.deepEqual(prefs['64a1f0c2e4b0a1b2c3d4e801'], {
      id: '64a1f0c2e4b0a1b2c3d4e801',
      opt_in_date: '2025-06-01T10:00:00',
      opt_out_date: '2026-03-20T15:30:00',
    });
    assert.deepEqual(prefs['64a1f0c2e4b0a1b2c3d4e802'], {
      id: '64a1f0c2e4b0a1b2c3d4e802',
      opt_in_date: '2026-03-20T15:30:00',
      opt_out_date: null,
    });
    const again = await post(
      path,
      { marketing_preferences: [{ id: '64a1f0c2e4b0a1b2c3d4e801', opt_in: 'true' }] },
      ADMIN,
    );
    const p801 = again.payload.marketing_preferences.find((p: any) => p.id === '64a1f0c2e4b0a1b2c3d4e801');
    assert.equal(p801.opt_out_date, null);
    assert.equal(p801.opt_in_date, '2026-03-20T15:30:00');
    for (const body of [
      {},
      { marketing_preferences: 'yes' },
      { marketing_preferences: [{ id: 'x', opt_in: true }] },
      { marketing_preferences: [{ id: '64a1f0c2e4b0a1b2c3d4e801', opt_in: 'perhaps' }] },
    ]) {
      assert.equal((await post(path, body, ADMIN)).status, 400, JSON.stringify(body));
    }
  });
});
