/**
 * The README's recipe for a partner's Node tests: Mock Service Worker (`msw`'s `http.all`) serves
 * the sandbox's Fetch handler where the partner's client expects the booking service, and a plain
 * `fetch` client is tested against it, state and all. This file is the recipe, as the README shows it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox, SANDBOX_APP } from '../../sandbox/index.js'; // a partner writes 'venue-booking/sandbox'

// The partner's code under test: a tiny client of the live service, with a timeout on every call.
const BASE = 'https://api.booking-service.example/v4';
const AUTH = { authorization: `${SANDBOX_APP.id}:${SANDBOX_APP.key}` };
async function availability(venue: string, query: Record<string, string>) {
  const response = await fetch(`${BASE}/venues/${venue}/booking-availability?${new URLSearchParams(query)}`, {
    headers: AUTH,
    signal: AbortSignal.timeout(5000),
  });
  return { status: response.status, body: await response.json() };
}
async function book(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`${BASE}/bookings`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  return { status: response.status, text: await response.text() };
}

// The recipe: one sandbox, one catch-all handler.
const sandbox = createSandbox({ now: '2026-03-20T10:00:00Z' });
const server = setupServer(http.all(`${BASE}/*`, ({ request }) => sandbox.fetch(request)));
before(() => server.listen({ onUnhandledFrame: 'error' }));
after(() => server.close());

const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const TABLE = '64a1f0c2e4b0a1b2c3d4e601';
const guest = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '07700900123',
  source: 'partner',
};

describe('the msw recipe', () => {
  it("serves the sandbox to a plain fetch client, with the sandbox's state", async () => {
    const slot = { type: TABLE, num_people: '2', date: '2026-03-23', time: '19:00', duration: '2' };
    const before = await availability(VENUE, slot);
    assert.equal(before.status, 200);
    assert.equal(before.body.payload.action, 'accept');

    const created = await book({ ...guest, venue_id: VENUE, ...slot, num_people: 2, duration: 120 });
    assert.equal(created.status, 200, created.text);
    assert.equal(JSON.parse(created.text).payload.bookingStatus, 'confirmed');
    // The journal tells the test what its client sent.
    const [sent] = sandbox.journal.list({ method: 'POST', path: '/v4/bookings' });
    assert.equal(sent!.params!.first_name, 'Ada');
  });

  it('lets a test pick a scenario per request: the lost answer a client must not book twice on', async () => {
    const lost = await book(
      { ...guest, venue_id: VENUE, type: TABLE, num_people: 2, date: '2026-03-24', time: '19:00' },
      { prefer: 'scenario=answer-lost' },
    );
    assert.equal(lost.status, 504);
    assert.equal(sandbox.journal.list({ method: 'POST', path: '/v4/bookings' }).at(-1)!.lostStatus, 200);
  });
});
