/** "Bad input never crashes it and never corrupts stored data." Hostile and random input through HTTP. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, avail, bookingBody, setup, T, V1, type Res } from './helpers.js';
import { createSandbox } from '../../sandbox/app.js';

const WEIRD: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  NaN,
  '',
  ' ',
  '💥',
  '<script>',
  '../../etc',
  'a'.repeat(5000),
  [],
  [1, [2]],
  {},
  { $gt: '' },
  '2026-03-23T00:00:00',
  '-1',
  '0x10',
  '1e3',
];

function snapshot(sb: ReturnType<typeof setup>['sandbox']) {
  return JSON.stringify({
    b: sb.store.bookings,
    u: [...sb.store.users.values()],
    g: [...sb.store.groupUsers.values()],
  });
}

describe('robustness', () => {
  it('random values in every availability field never give a 5xx', async () => {
    const { get, post } = setup();
    let last: Res | undefined;
    for (const v of WEIRD) {
      for (const field of ['type', 'num_people', 'date', 'time', 'duration', 'getOffers', 'fields']) {
        const body = { type: T.table, num_people: 2, date: '2026-03-23', time: '19:00', duration: 2, [field]: v };
        const r = await post(`/v4/venues/${V1}/booking-availability`, body);
        assert.ok(r.status === 200 || r.status === 400, `${field}=${JSON.stringify(v)} → ${r.status}`);
        assert.ok(r.body && 'payload' in r.body);
        const g = await get(avail(V1, { [field]: typeof v === 'string' ? v : JSON.stringify(v) }));
        assert.ok(g.status === 200 || g.status === 400, `GET ${field}=${String(v)} → ${g.status}`);
        last = g;
      }
    }
    // The sandbox's own count of the requests it served this app (its rate-limit window), not a loop counter.
    const served = Number(last?.headers.get('x-ratelimit-limit')) - Number(last?.headers.get('x-ratelimit-remaining'));
    assert.ok(served > 200, `the sandbox served ${served} requests`);
  });

  it('__proto__ and constructor keys in raw JSON bodies pollute no prototype and no stored booking', async () => {
    const { request, sandbox } = setup();
    const hostileKeys = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},';
    /** Raw JSON text: a JavaScript object literal with `__proto__` would serialise to `{}` and test nothing. */
    const hostileJson = (fields: Record<string, unknown>) => hostileKeys + JSON.stringify(fields).slice(1);
    const send = (path: string, fields: Record<string, unknown>, app?: typeof ADMIN) =>
      request('POST', path, hostileJson(fields), { 'content-type': 'application/json' }, app);
    const parsed = JSON.parse(hostileJson({ notes: 'x' })) as Record<string, unknown>;
    assert.ok(Object.hasOwn(parsed, '__proto__') && Object.hasOwn(parsed, 'constructor'), 'the body carries the keys');
    try {
      const created = await send('/v4/bookings', bookingBody());
      assert.equal(created.status, 200, created.text);
      const id: string = created.payload.booking._id;
      const updated = await send(`/v4/bookings/${id}`, { notes: 'hostile update' }, ADMIN);
      assert.equal(updated.status, 200, updated.text);
      const checked = await send(`/v4/venues/${V1}/booking-availability`, { type: T.table, num_people: 2 });
      assert.equal(checked.status, 200, checked.text);
      const stored = sandbox.store.findBooking(id)!;
      assert.equal(stored.notes, 'hostile update');
      for (const [what, value] of [
        ['a fresh object', {}],
        ['the stored booking', stored],
        ['the created record', created.payload.booking],
        ['the updated record', updated.payload.booking],
      ] as const) {
        assert.equal((value as Record<string, unknown>).polluted, undefined, `${what} inherits "polluted"`);
      }
      assert.equal(Object.getPrototypeOf(stored), Object.prototype);
      for (const answer of [created, updated, checked]) assert.doesNotMatch(answer.text, /polluted/);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted; // so that one failure cannot spread
    }
  });

  it('random values in every booking field: 200 or 400, and a 400 stores nothing', async () => {
    const { post, sandbox } = setup();
    for (const v of WEIRD) {
      for (const field of Object.keys(
        bookingBody({
          offer: 'x',
          notes: 'x',
          dob: 'x',
          package: 'x',
          newsletter_signup: 'x',
          marketing_preferences: 'x',
          custom_field_value: 'x',
        }),
      )) {
        const before = snapshot(sandbox);
        const r = await post('/v4/bookings', bookingBody({ [field]: v }));
        assert.ok(
          r.status === 200 || r.status === 400,
          `${field}=${JSON.stringify(v)} → ${r.status} ${r.text.slice(0, 200)}`,
        );
        if (r.status === 400) assert.equal(snapshot(sandbox), before, `${field}=${JSON.stringify(v)} changed data`);
      }
    }
  });

  it('random update bodies never corrupt a booking', async () => {
    const { post, sandbox } = setup();
    const id = '64a1f0c2e4b0a1b2c3d4f001';
    for (const v of WEIRD) {
      for (const field of [
        'status',
        'num_people',
        'date',
        'time',
        'duration',
        'labels',
        'follow_up',
        'assigned_to',
        'invoiced',
        'value',
        'email',
      ]) {
        const before = JSON.stringify(sandbox.store.findBooking(id));
        const r = await post(`/v4/bookings/${id}`, { [field]: v }, ADMIN);
        assert.ok(r.status === 200 || r.status === 400, `${field}=${JSON.stringify(v)} → ${r.status}`);
        if (r.status === 400) assert.equal(JSON.stringify(sandbox.store.findBooking(id)), before);
      }
    }
    // The day index still finds the booking wherever its date moved.
    const b = sandbox.store.findBooking(id)!;
    assert.ok(sandbox.store.bookingsOn(b.venue_id, b.date).includes(b));
  });

  it('search, users, offers and web page survive hostile query strings', async () => {
    const { get, sandbox } = setup();
    const hostile = [
      '%00',
      '%E0%A4%A',
      '*',
      ' TO ',
      'TO TO TO',
      '1 TO 2 TO 3',
      '[object Object]',
      '%3Cscript%3E',
      'a'.repeat(3000),
    ];
    for (const h of hostile) {
      for (const path of [
        '/v4/bookings?date=',
        '/v4/bookings?num_people=',
        '/v4/bookings?query=',
        '/v4/bookings?sort=',
        '/v4/users?search=',
        `/v4/venues/${V1}/offers?date=`,
        `/v4/venues/${V1}?fields=`,
      ]) {
        const r = await get(path + h, ADMIN);
        assert.ok(r.status === 200 || r.status === 400, `${path}${h.slice(0, 20)} → ${r.status}`);
      }
      const page = await sandbox.fetch(
        new Request(
          `http://sandbox.test/book?venue_id=${V1}&type=${T.table}&num_people=${h}&date=${h}&time=${h}&return_url=${h}`,
        ),
      );
      assert.ok(page.status === 200 || page.status === 400);
      assert.doesNotMatch(await page.text(), /<script>/);
    }
  });

  it('odd requests: huge bodies, wrong content types, encoded paths', async () => {
    const { request } = setup();
    assert.equal(
      (await request('POST', '/v4/bookings', 'x'.repeat(1_100_000), { 'content-type': 'application/json' })).status,
      413,
    );
    assert.equal((await request('POST', '/v4/bookings', 'first_name=A', { 'content-type': 'text/plain' })).status, 400);
    assert.equal((await request('GET', '/v4/venues/%2e%2e%2fetc/booking-availability')).status, 404);
    assert.equal(
      (await request('GET', `/v4/venues/${V1}/booking-availability?type=${T.table}&__proto__=x&constructor=y`)).status,
      200,
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('createSandbox refuses a bad clock up front instead of failing per request', () => {
    assert.throws(() => createSandbox({ now: 'yesterday-ish' }), /now/);
  });

  it('two sandboxes share nothing', async () => {
    const a = setup();
    const b = setup();
    await a.post('/v4/bookings', bookingBody());
    assert.equal(a.sandbox.store.bookings.length, b.sandbox.store.bookings.length + 1);
  });
});

describe('isolation of computed caches', () => {
  it('a custom seed reusing the demo ids gets its own availability', async () => {
    const { default: seed } = await import('../../sandbox/seed.json', { with: { type: 'json' } });
    const demo = setup();
    assert.equal(
      (await demo.get(avail(V1, { type: T.expressLunch, date: '2026-03-23', num_people: 2, time: '12:00' }))).payload
        .valid,
      true,
    );
    const closed = structuredClone(seed) as any;
    closed.venues[0].opening_times.monday.status = false;
    const custom = setup({ seed: closed });
    const p = (await custom.get(avail(V1, { type: T.expressLunch, date: '2026-03-23', num_people: 2, time: '12:00' })))
      .payload;
    assert.equal(p.valid, false);
    assert.match(p.validation.date.errors[0].message, /closed on Mondays/);
  });
});
