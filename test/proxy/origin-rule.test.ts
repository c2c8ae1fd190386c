/**
 * One origin rule for reads and writes, and the proxy's own origin never taken from a Host header
 * outside local development.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { memoryLogger, ORIGIN, postJson, recordingProxy, validBooking, VENUE } from './support.js';

const READ = `/api/venues/${VENUE}/booking-availability?num_people=2`;
type Body = { payload: { message: string; errors: { code: string; message: string }[] } };

describe('one origin rule for reads and writes', () => {
  test('a foreign page is refused at its first read (Referer, no Origin), naming VENUE_BOOKING_ORIGINS', async () => {
    const { send, calls, logger } = recordingProxy();
    const response = await send(READ, { headers: { referer: 'http://localhost:5173/book.html?x=1' } });
    assert.equal(response.status, 403);
    const { payload } = (await response.json()) as Body;
    assert.equal(payload.errors[0]?.code, 'forbidden_origin');
    assert.match(payload.errors[0]!.message, /VENUE_BOOKING_ORIGINS/);
    assert.equal(calls.length, 0);
    const line = logger.lines.find((entry) => /VENUE_BOOKING_ORIGINS/.test(entry.msg));
    assert.equal(line?.origin, 'http://localhost:5173');
  });

  test('reads and writes from a configured page pass, by Origin or by Referer', async () => {
    const { send } = recordingProxy();
    assert.equal((await send(READ, { headers: { referer: `${ORIGIN}/book` } })).status, 200);
    assert.equal((await send(READ, { headers: { origin: ORIGIN } })).status, 200);
    const booking = await send('/api/bookings', postJson(validBooking(), { origin: ORIGIN }));
    assert.notEqual(booking.status, 403);
  });

  test('a browser that hides its cross-site page is refused; no browser headers at all pass (servers, curl)', async () => {
    const { send } = recordingProxy();
    assert.equal((await send(READ, { headers: { 'sec-fetch-site': 'cross-site' } })).status, 403);
    assert.equal((await send(READ, { headers: { 'sec-fetch-site': 'same-origin' } })).status, 200);
    assert.equal((await send(READ)).status, 200);
  });
});

describe("the proxy's own origin", () => {
  test('without a public URL, a spoofed Host with a matching Origin is refused (421), not trusted', async () => {
    const logger = memoryLogger();
    const { proxy, calls } = recordingProxy({ publicUrl: undefined, logger });
    const response = await proxy.fetch(
      new Request(`http://evil.example${READ}`, { headers: { host: 'evil.example', origin: 'http://evil.example' } }),
    );
    assert.equal(response.status, 421);
    const text = await response.text();
    assert.doesNotMatch(text, /evil\.example/);
    assert.match(text, /VENUE_BOOKING_PUBLIC_URL/);
    assert.equal(calls.length, 0);
    assert.ok(logger.lines.some((line) => /VENUE_BOOKING_PUBLIC_URL/.test(line.msg)));
  });

  test('a scanner repeating a refused request is logged once a minute, then with how many were left out', async () => {
    const logger = memoryLogger();
    let now = Date.parse('2026-11-28T12:00:00Z');
    const { proxy } = recordingProxy({ publicUrl: undefined, logger, now: () => now });
    const scan = () => proxy.fetch(new Request(`http://evil.example${READ}`, { headers: { host: 'evil.example' } }));
    const said = () => logger.lines.filter((line) => /VENUE_BOOKING_PUBLIC_URL/.test(line.msg));
    for (let i = 0; i < 50; i++) assert.equal((await scan()).status, 421);
    assert.equal(said().length, 1);
    now += 61_000;
    await scan();
    assert.equal(said().length, 2);
    assert.equal(said()[1]!.repeated, 49);
  });

  test('without a public URL, local development on a loopback host works, next.api on that host', async () => {
    const { proxy } = recordingProxy({ publicUrl: undefined });
    const response = await proxy.fetch(
      new Request(`http://localhost:8080${READ}`, { headers: { origin: 'http://localhost:8080' } }),
    );
    assert.equal(response.status, 200);
    const body = (await response.json()) as { payload: { next: { api: string } } };
    assert.equal(body.payload.next.api, 'http://localhost:8080/api/bookings');
  });

  test('with a public URL, a spoofed Host changes nothing: its Origin is foreign, next.api stays ours', async () => {
    const { proxy } = recordingProxy({ publicUrl: 'https://proxy.example' });
    const spoofed = await proxy.fetch(
      new Request(`http://evil.example${READ}`, { headers: { origin: 'http://evil.example' } }),
    );
    assert.equal(spoofed.status, 403);
    const plain = await proxy.fetch(new Request(`http://evil.example${READ}`));
    const body = (await plain.json()) as { payload: { next: { api: string } } };
    assert.equal(body.payload.next.api, 'https://proxy.example/api/bookings');
  });
});
