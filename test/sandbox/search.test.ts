/** Issue 3 point 7: booking search (§4.6) — filters, range grammar, sorts, projection, paging, notifications. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, qs, setup, T, V1, V2, V3 } from './helpers.js';

const ids = (r: any) => r.payload.bookings.map((b: any) => b.booking_id - 100000).sort((a: number, b: number) => a - b);
const find = async (params: Parameters<typeof qs>[0], opts = {}) => {
  const { get } = setup(opts);
  return get(`/v4/bookings?${qs({ limit: 100, ...params })}`, ADMIN);
};

describe('7. search — shape, paging, projection', () => {
  it('returns bookings, start and numFound with the §2.5 fields', async () => {
    const r = await find({});
    assert.equal(r.status, 200);
    assert.equal(r.payload.start, 0);
    assert.equal(r.payload.numFound, 13, 'default status filter is all = new, in_progress, complete');
    const b = r.payload.bookings[0];
    for (const k of [
      '_id',
      'admin_notes',
      'assigned_areas',
      'assigned_to',
      'booking_id',
      'comments',
      'created_by',
      'created_date',
      'date',
      'deposits',
      'duration',
      'email',
      'first_name',
      'last_name',
      'follow_up',
      'labels',
      'last_updated',
      'managed_by_venue',
      'num_people',
      'partner_source',
      'phone',
      'region',
      'source',
      'status',
      'time',
      'type',
      'user_id',
      'venue_group',
      'venue_id',
    ]) {
      assert.ok(k in b, k);
    }
    assert.equal(typeof b.type.name, 'string');
  });

  it('timestamps are UTC', async () => {
    const { get } = setup();
    const r = await get(`/v4/bookings?booking_id=100013&fields=created_date`, ADMIN);
    assert.deepEqual(r.payload.bookings, [{ created_date: '2026-03-15T19:00:00' }]);
    const summer = setup({ now: '2026-07-01T12:00:00Z' });
    await summer.post('/v4/bookings', {
      source: 'partner',
      first_name: 'S',
      last_name: 'U',
      email: 'su@example.com',
      venue_id: V3,
      type: T.kitchenTable,
      num_people: 2,
      date: '2026-07-02',
      time: '12:00',
    });
    const s = await summer.get('/v4/bookings?email=su@example.com&fields=created_date', ADMIN);
    assert.equal(s.payload.bookings[0].created_date, '2026-07-01T12:00:00', 'UTC, not BST 13:00');
  });

  it('start and limit page through results; default limit 30', async () => {
    const { get, post } = setup({ apps: [{ id: 'a', key: 'k', capabilities: 'all' }] });
    for (let i = 0; i < 40; i++) {
      await post('/v4/bookings', {
        source: 'partner',
        first_name: 'P',
        last_name: `N${i}`,
        email: 'pager@example.com',
        venue_id: V1,
        type: T.table,
        num_people: 2,
        date: '2026-04-01',
        time: '12:00',
        duration: 90,
      });
    }
    const all = await get('/v4/bookings?email=pager@example.com', { id: 'a', key: 'k' });
    assert.equal(all.payload.numFound, 40);
    assert.equal(all.payload.bookings.length, 30);
    const page = await get('/v4/bookings?email=pager@example.com&start=35&limit=10', { id: 'a', key: 'k' });
    assert.equal(page.payload.start, 35);
    assert.equal(page.payload.bookings.length, 5);
    assert.equal(page.payload.bookings[0].last_name, 'N35');
  });

  it('fields= projects, including estimated_value', async () => {
    const r = await find({ booking_id: 100001, fields: 'first_name,estimated_value,reference' });
    assert.deepEqual(r.payload.bookings, [
      { first_name: 'Olivia', estimated_value: 280, reference: 'DMN-10000007919' },
    ]);
  });
});

describe('7. search — filters', () => {
  it('status: single, several, all, include_rejected', async () => {
    assert.deepEqual(ids(await find({ status: 'new' })), [6, 12, 16]);
    assert.deepEqual(ids(await find({ status: 'in_progress,lost' })), [7, 9, 14]);
    assert.deepEqual(ids(await find({ status: 'rejected' })), [10]);
    assert.deepEqual(ids(await find({ status: 'deleted' })), [11]);
    assert.equal((await find({ status: 'all' })).payload.numFound, 13);
    assert.equal((await find({ status: 'include_rejected' })).payload.numFound, 14);
  });

  it('venue_id and type take comma-separated lists', async () => {
    assert.deepEqual(ids(await find({ venue_id: `${V2},${V3}` })), [13, 14, 15, 16]);
    assert.deepEqual(ids(await find({ type: `${T.brunch},${T.expressLunch}` })), [7, 8]);
  });

  it('booking_id, email (case-insensitive), phone, assigned_to', async () => {
    assert.deepEqual(ids(await find({ booking_id: '100004' })), [4]);
    assert.deepEqual(ids(await find({ email: 'Olivia.Smith@example.com' })), [1, 13]);
    assert.deepEqual(ids(await find({ phone: '07700 900011' })), [12]);
    assert.deepEqual(ids(await find({ assigned_to: '64a1f0c2e4b0a1b2c3d4eb02' })), [7]);
  });

  it('query: free text over name, email and company', async () => {
    assert.deepEqual(ids(await find({ query: 'amelia' })), [2, 14]);
    assert.deepEqual(ids(await find({ query: 'wright design' })), [15]);
    assert.deepEqual(ids(await find({ query: 'harry.thompson@' })), [12, 16]);
  });

  it('has_preorders, private_hire and labels', async () => {
    assert.deepEqual(ids(await find({ has_preorders: 'true' })), [8]);
    assert.equal((await find({ has_preorders: 'false' })).payload.numFound, 12);
    assert.deepEqual(ids(await find({ private_hire: 'true' })), [6]);
    assert.deepEqual(ids(await find({ labels: '64a1f0c2e4b0a1b2c3d4ec02' })), [1]);
    assert.deepEqual(
      ids(await find({ labels: '64a1f0c2e4b0a1b2c3d4ec02,64a1f0c2e4b0a1b2c3d4ec01' })),
      [],
      'all listed labels',
    );
  });

  it('num_people ranges: A TO B, open ends, single value', async () => {
    assert.deepEqual(ids(await find({ num_people: '1 TO 2' })), [7, 12, 15]);
    assert.deepEqual(ids(await find({ num_people: '10 TO *' })), [6]);
    assert.deepEqual(ids(await find({ num_people: '* TO 2' })), [7, 12, 15]);
    assert.deepEqual(ids(await find({ num_people: '6' })), [8, 14]);
    assert.equal((await find({ num_people: '*' })).payload.numFound, 13);
  });

  it('date ranges: a single date is that day; time omitted is midnight; * is open', async () => {
    assert.deepEqual(ids(await find({ date: '2026-03-20' })), [6, 7, 12, 13, 15]);
    assert.deepEqual(ids(await find({ date: '2026-03-22 TO *' })), [8, 14, 16]);
    assert.deepEqual(ids(await find({ date: '* TO 2026-03-20' })), [6, 7, 12, 13, 15]);
    assert.deepEqual(ids(await find({ date: '2026-03-21T00:00:00 TO 2026-03-22T00:00:00' })), [1, 2, 3, 4, 5, 8, 16]);
    assert.deepEqual(
      ids(await find({ date: '2026-03-21T12:00:00 TO 2026-03-22' })),
      [8, 16],
      'midnight of the 21st is before 12:00',
    );
  });

  it('created_date, last_updated and follow_up ranges compare timestamps', async () => {
    assert.deepEqual(ids(await find({ created_date: '2026-03-20' })), [6, 12]);
    assert.deepEqual(ids(await find({ created_date: '2026-03-20T08:00:00 TO *' })), [12]);
    assert.deepEqual(ids(await find({ created_date: '* TO 2026-03-02T11:00:00' })), [1, 2], 'bounds are inclusive');
    assert.deepEqual(
      ids(await find({ last_updated: '2026-03-19 TO 2026-03-20' })),
      [15],
      'a bound without time is midnight',
    );
    assert.deepEqual(ids(await find({ last_updated: '2026-03-19 TO 2026-03-20T23:59:59' })), [6, 12, 15]);
    assert.deepEqual(ids(await find({ follow_up: '2026-03-19' })), [7]);
  });

  it('start_time is the start; time is any moment the booking runs', async () => {
    assert.deepEqual(ids(await find({ start_time: '12:00 TO 13:00' })), [7, 12, 15, 16]);
    assert.deepEqual(ids(await find({ start_time: '* TO 11:00' })), [8]);
    assert.deepEqual(ids(await find({ start_time: '23:00 TO *' })), [13]);
    assert.deepEqual(ids(await find({ time: '21:30 TO 22:00' })), [5, 6]);
  });
});

describe('7. search — sorts', () => {
  const order = async (sort: string) =>
    (await find({ sort, fields: 'booking_id,date,time' })).payload.bookings.map((b: any) => b.booking_id - 100000);
  it('date_asc (default) and date_desc,time_desc', async () => {
    const asc = await order('date_asc');
    assert.deepEqual(asc, [15, 12, 7, 6, 13, 5, 1, 2, 3, 4, 8, 16, 14]);
    assert.deepEqual(
      asc,
      (await find({ fields: 'booking_id' })).payload.bookings.map((b: any) => b.booking_id - 100000),
    );
    assert.deepEqual(await order('date_desc,time_desc'), [...asc].reverse());
    const desc = await order('date_desc');
    assert.equal(desc[0], 14);
    assert.deepEqual(
      desc.slice(1, 3).sort((a: number, b: number) => a - b),
      [8, 16],
    );
  });
  it('created_date_asc / _desc and status_changed_date', async () => {
    const c = await order('created_date_asc');
    assert.deepEqual(c, [1, 2, 3, 4, 5, 8, 13, 14, 16, 7, 15, 6, 12]);
    assert.deepEqual(await order('created_date_desc'), [...c].reverse());
    const { get, post } = setup();
    await post('/v4/bookings/64a1f0c2e4b0a1b2c3d4f003', { status: 'in_progress' }, ADMIN);
    const s = await get('/v4/bookings?sort=status_changed_date&fields=booking_id&limit=1', ADMIN);
    assert.equal(s.payload.bookings[0].booking_id, 100003);
  });
});

describe('7. search — notifications', () => {
  const cases: [string, number[], Record<string, string>?][] = [
    ['follow_up', [7]],
    ['for_today', [6, 7, 12]],
    ['untaken_two_hours', [6, 16]],
    ['messages', [6]],
    ['customer_notes', [2]],
    ['packages_requested', [12]],
    ['deposit_authenticated', [8]],
    ['deposit_paid', [1]],
    ['customer_preorder_added', [8, 14]],
    ['customer_preorder_complete', [8]],
    ['email_delivery_failed', [12]],
    ['customer_change', [4]],
    ['customer_cancelled', [10], { status: 'rejected' }],
  ];
  for (const [value, expected, extra] of cases) {
    it(value, async () => assert.deepEqual(ids(await find({ notifications: value, ...extra })), expected));
  }
  it('customer_cancelled without status=rejected is a clear 400', async () => {
    const r = await find({ notifications: 'customer_cancelled' });
    assert.equal(r.status, 400);
    assert.match(r.payload.message, /status=rejected/);
  });
  it('untaken_two_hours depends on the clock', async () => {
    assert.deepEqual(
      ids(await find({ notifications: 'untaken_two_hours' }, { now: '2026-03-20T09:00:00Z' })),
      [16],
      '6 was received at 07:00, not over 2h before 09:00',
    );
  });
});

describe('7. search — bad parameters are 400s naming the field', () => {
  const bad: Record<string, string> = {
    status: 'pending',
    sort: 'name',
    start: '-1',
    limit: '0',
    num_people: 'lots',
    date: '2026-03-40',
    created_date: 'yesterday TO today',
    time: '25:00 TO *',
    notifications: 'everything',
    venue_id: 'abc',
    type: 'xyz',
    booking_id: 'DMN-1',
    email: 'nobody',
    has_preorders: 'maybe',
  };
  for (const [key, value] of Object.entries(bad)) {
    it(`${key}=${value}`, async () => {
      const r = await find({ [key]: value });
      assert.equal(r.status, 400);
      assert.ok(
        r.payload.errors.some((e: any) => e.fields.includes(key)),
        JSON.stringify(r.payload.errors),
      );
    });
  }
});
