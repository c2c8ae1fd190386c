/** Issue 18: scenarios per request (`Prefer: scenario=…`) or for the whole sandbox (option, seed). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSandbox } from '../../sandbox/app.js';
import defaultSeed from '../../sandbox/seed.json' with { type: 'json' };
import type { Seed } from '../../sandbox/types.js';
import { ADMIN, avail, bookingBody, setup, T, V1 } from './helpers.js';

const complete = { type: T.table, num_people: 2, date: '2026-03-23', time: '19:00', duration: 2 };
const prefer = (value: string) => ({ prefer: value });

describe('scenarios', () => {
  it('fully-booked: every start time may only take an enquiry, and a booking is stored as one', async () => {
    const { request, sandbox } = setup();
    const a = await request('GET', avail(V1, complete), undefined, prefer('scenario=fully-booked'));
    assert.equal(a.status, 200);
    assert.equal(a.headers.get('preference-applied'), 'scenario=fully-booked');
    assert.equal(a.payload.action, 'may_enquire');
    const open = a.payload.validation.time.suggestedValues.filter((s: any) => s.valid);
    assert.ok(open.length > 0 && open.every((s: any) => s.action === 'may_enquire'));
    const b = await request('POST', '/v4/bookings', bookingBody(), prefer('scenario=fully-booked'));
    assert.equal(b.payload.bookingStatus, 'received');
    assert.equal(sandbox.store.findBooking(b.payload.booking._id)!.status, 'new');
    // Without the header the same request is confirmed: the scenario changed nothing in the data.
    const plain = await request('POST', '/v4/bookings', bookingBody({ time: '20:00' }));
    assert.equal(plain.payload.bookingStatus, 'confirmed');
    assert.equal(plain.headers.get('preference-applied'), null);
  });

  it('deposit-required: depositRequired, next.web only, the API URL refused, the hosted page asks for it', async () => {
    const { request } = setup();
    const a = await request('GET', avail(V1, complete), undefined, prefer('scenario=deposit-required'));
    assert.equal(a.payload.depositRequired, true);
    assert.ok(a.payload.next.web);
    assert.equal(a.payload.next.api, undefined);
    const viaApi = { ...bookingBody(), venue_group: '64a1f0c2e4b0a1b2c3d4e500' };
    const b = await request('POST', '/v4/bookings', viaApi, prefer('scenario=deposit-required'));
    assert.equal(b.status, 400);
    assert.equal(b.payload.errors[0].code, 'web_required');

    const sandboxWide = setup({ scenario: 'deposit-required' });
    const next = (await sandboxWide.get(avail(V1, complete))).payload.next;
    const page = await sandboxWide.sandbox.fetch(new Request(`http://sandbox.test/book${new URL(next.web).search}`));
    assert.match(await page.text(), /A deposit of <strong>£20\.00<\/strong>/);
  });

  it('card-check: depositRequired and next.web only, and the policy states the card check and the most a no-show costs', async () => {
    const { request } = setup();
    const a = await request('GET', avail(V1, complete), undefined, prefer('scenario=card-check'));
    assert.equal(a.payload.depositRequired, true);
    assert.equal(a.payload.next.api, undefined);
    const rules = `/v4/venues/${V1}/booking-rules?type=${T.table}&date=2026-03-23`;
    const notes = (await request('GET', rules, undefined, prefer('scenario=card-check'))).payload.booking_notes;
    assert.match(
      notes,
      /Card details are checked when you book \(£0, not a charge\); a no-show may be charged up to £20 a person\./,
    );
    assert.doesNotMatch((await request('GET', rules)).payload.booking_notes, /Card details|deposit/);
  });

  it('a type with a deposit states it a person in its booking-rules policy (booking_notes)', async () => {
    const { get } = setup();
    const notes = (await get(`/v4/venues/${V1}/booking-rules?type=${T.brunch}&date=2026-03-21`)).payload.booking_notes;
    assert.match(notes, /A deposit of £10 a person is taken when you book\./);
  });

  it('enquiry-only: the action is enquire and a booking is received', async () => {
    const { request } = setup();
    const a = await request('GET', avail(V1, complete), undefined, prefer('scenario=enquiry-only'));
    assert.equal(a.payload.action, 'enquire');
    const b = await request('POST', '/v4/bookings', bookingBody(), prefer('scenario=enquiry-only'));
    assert.equal(b.payload.bookingStatus, 'received');
  });

  it('rate-limited: 429 with Retry-After and nothing applied', async () => {
    const { request, sandbox } = setup();
    const before = sandbox.store.bookings.length;
    const r = await request('POST', '/v4/bookings', bookingBody(), prefer('scenario=rate-limited'));
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '30');
    assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
    assert.match(r.payload.message, /Rate limit/);
    assert.equal(sandbox.store.bookings.length, before);
  });

  it('unavailable: 503 with Retry-After and nothing applied', async () => {
    const { request, sandbox } = setup();
    const before = sandbox.store.bookings.length;
    const r = await request('POST', '/v4/bookings', bookingBody(), prefer('scenario=unavailable'));
    assert.equal(r.status, 503);
    assert.equal(r.headers.get('retry-after'), '30');
    assert.equal(sandbox.store.bookings.length, before);
  });

  it('slow: the answer waits the added latency (latency=<ms> sets it)', async () => {
    const { request } = setup();
    const started = performance.now();
    const r = await request('GET', avail(V1, { type: T.table }), undefined, prefer('scenario=slow, latency=300'));
    assert.equal(r.status, 200);
    assert.ok(performance.now() - started >= 290, 'at least the latency asked for');
    assert.equal(r.headers.get('preference-applied'), 'scenario=slow, latency=300');
    const quick = performance.now();
    await request('GET', avail(V1, { type: T.table }));
    assert.ok(performance.now() - quick < 290, 'no latency without the scenario');
  });

  it('answer-lost: the booking is stored but the client gets a gateway page', async () => {
    const { request, sandbox } = setup();
    const before = sandbox.store.bookings.length;
    const r = await request('POST', '/v4/bookings', bookingBody(), prefer('scenario=answer-lost'));
    assert.equal(r.status, 504);
    assert.match(r.headers.get('content-type')!, /text\/html/);
    assert.equal(r.body, undefined, 'not the service JSON');
    assert.equal(sandbox.store.bookings.length, before + 1, 'the booking was stored');
    const found = await request('GET', '/v4/bookings?query=Guest&date=2026-03-23', undefined, {}, ADMIN);
    assert.equal(found.payload.numFound, 1, 'a client that looks it up finds it');
    const [entry] = sandbox.journal.list({ method: 'POST', path: '/v4/bookings' });
    assert.equal(entry!.status, 504);
    assert.equal(entry!.lostStatus, 200);
  });

  it('a sandbox-wide scenario (option or seed) applies to every request that names none; a header overrides it', async () => {
    const { get, request } = setup({ scenario: 'enquiry-only' });
    assert.equal((await get(avail(V1, complete))).payload.action, 'enquire');
    const other = await request('GET', avail(V1, complete), undefined, prefer('scenario=fully-booked'));
    assert.equal(other.payload.action, 'may_enquire');

    const seed = { ...(defaultSeed as unknown as Seed), scenario: 'fully-booked' };
    const seeded = setup({ seed });
    assert.equal((await seeded.get(avail(V1, complete))).payload.action, 'may_enquire');
  });

  it('refuses an unknown scenario or latency with a clear 400, and a bad option up front', async () => {
    const { request } = setup();
    const r = await request('GET', avail(V1), undefined, prefer('scenario=on-fire'));
    assert.equal(r.status, 400);
    assert.equal(r.payload.errors[0].code, 'invalid_scenario');
    assert.match(r.payload.message, /fully-booked/);
    const l = await request('GET', avail(V1), undefined, prefer('latency=forever'));
    assert.equal(l.payload.errors[0].code, 'invalid_latency');
    assert.throws(() => createSandbox({ scenario: 'on-fire' as never }), /scenario/);
    assert.throws(() => createSandbox({ latency: -1 }), /latency/);
  });
});
