/**
 * Guests manage their own bookings (issue 36), through the proxy and the real sandbox (nothing of
 * ours mocked): the booking answer's `manage_url`, `GET /api/manage/:token`, the cancel (the
 * sandbox then holds `rejected`; again: `already`), the one 404 of a tampered, expired or another
 * venue's token, the venue's window and an App ID without the capability (refused, with the
 * venue's phone), the manage page's cancel form (same origin only), a change (the new booking
 * first, the old one cancelled once, however often the change is retried), and neither an `_id`
 * nor a token in any answer or log line.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createStack } from '../../proxy/stack.js';
import { Metrics, total } from '../../proxy/core/metrics.js';
import type { ProxyConfig } from '../../proxy/app.js';
import { fetchWithProof, memoryLogger, ORIGIN, postJson, TYPE, VENUE } from './support.js';
import { freePort, runBin } from './node-bin.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from '../support/redis.js';

const ORIGIN_URL = 'http://localhost:5173';
const DATE = '2030-06-04'; // a Tuesday, a month after the sandbox's clock
const PHONE = '+44 20 7946 0000';
const SECRET = 'a-manage-secret-0123456789abcdef0123';
const OPERATOR = 'op-token-0123456789abcdef';

type Envelope<T = Record<string, any>> = { payload: T; status: number };

/** A stack whose proxy runs on a clock the test moves (`at`), the sandbox on its own fixed one. */
function stackFor(proxy: Partial<ProxyConfig> = {}, upstream?: Parameters<typeof createStack>[0]['upstream']) {
  const logger = memoryLogger();
  const clock = { now: Date.parse('2030-05-01T09:00:00Z') };
  const metrics = new Metrics();
  const stack = createStack({
    origin: ORIGIN_URL,
    sandbox: { dialect: 'spec', now: '2030-05-01T10:00:00' },
    proxy: {
      logger,
      origins: [ORIGIN],
      now: () => clock.now,
      manageSecret: SECRET,
      operatorPages: { token: OPERATOR },
      metrics,
      profileSeed: { [VENUE]: { phone: PHONE, cancellation: { online: true, hours_before: 24 } } },
      ...proxy,
    },
    ...(upstream ? { upstream } : {}),
  });
  const send = (path: string, init: RequestInit = {}) => fetchWithProof(stack, `${ORIGIN_URL}${path}`, init);
  const json = async <T = Record<string, any>>(path: string, init?: RequestInit) => {
    const response = await send(path, init);
    return { response, body: (await response.json()) as Envelope<T> };
  };
  /** An operator's page (`/metrics`, `/status`), with the operator's token. */
  const operator = async (path: string) =>
    (
      await stack.fetch(new Request(`${ORIGIN_URL}${path}`, { headers: { authorization: `Bearer ${OPERATOR}` } }))
    ).text();
  /** How often guests did `action` with `outcome`. */
  const counted = async (action: string, outcome: string) =>
    total(await metrics.snapshot(), 'guest_manage_total', { action, outcome });
  return { stack, send, json, logger, clock, operator, counted };
}

type Stack = ReturnType<typeof stackFor>;

/** A valid time for two on DATE, as the widget would find it. */
async function freeTime(json: Stack['json'], skip: string[] = []): Promise<string> {
  const first = await json(`/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=${DATE}&num_people=2`);
  const times = first.body.payload.validation.time.suggestedValues as {
    value?: string;
    time?: string;
    valid: boolean;
  }[];
  return times.map((item) => item.time ?? item.value!).find((time, i) => times[i]!.valid && !skip.includes(time))!;
}

/** The details of a booking for two at `time`. */
const detailsAt = (time: string, extra: Record<string, unknown> = {}) => ({
  venue_id: VENUE,
  type: TYPE,
  date: DATE,
  time,
  num_people: 2,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  ...extra,
});

/** Books a table for two; the answer's payload and the token of its manage link. */
async function book(s: Stack, skip: string[] = []) {
  const time = await freeTime(s.json, skip);
  const { response, body } = await s.json(
    '/api/bookings',
    postJson(detailsAt(time), { 'idempotency-key': `book-${crypto.randomUUID()}` }),
  );
  assert.equal(response.status, 200, JSON.stringify(body));
  const url = body.payload.manage_url as string;
  assert.ok(url, 'the booking answer carries its manage link');
  const token = new URL(url).pathname.split('/').pop()!;
  return { payload: body.payload, url, token, time, text: JSON.stringify(body) };
}

/** The sandbox's record of a booking, by its reference. */
const stored = (s: Stack, reference: string) => s.stack.sandbox.store.bookings.find((b) => b.reference === reference)!;

/** Nothing the proxy wrote or answered names a booking's `_id` or a manage token. */
function assertNothingLeaks(s: Stack, texts: string[], ids: string[], tokens: string[]): void {
  const logged = JSON.stringify(s.logger.lines);
  for (const secret of [...ids, ...tokens]) {
    assert.ok(
      !logged.includes(secret),
      `the log names ${secret.slice(0, 12)}…: ${logged.slice(Math.max(0, logged.indexOf(secret) - 300), logged.indexOf(secret) + 60)}`,
    );
    for (const text of texts) assert.ok(!text.includes(secret) || tokens.includes(secret), `an answer names an _id`);
  }
}

describe('a guest manages a booking through its link (issue 36)', () => {
  test('book, read, cancel (the sandbox holds rejected), cancel again: already', async () => {
    const s = stackFor();
    const booked = await book(s);
    const record = stored(s, booked.payload.booking.reference);
    assert.equal(record.status, 'complete');
    assert.equal(new URL(booked.url).origin, ORIGIN_URL, 'an absolute link on the proxy’s public address');
    assert.match(new URL(booked.url).pathname, /^\/manage\/[A-Za-z0-9_-]{40,}$/);
    assert.ok(!booked.text.includes(record._id), 'the booking answer has no _id');
    assert.ok(!booked.token.includes(record._id), 'the token does not carry the _id readably');

    const view = await s.json(`/api/manage/${booked.token}`);
    assert.equal(view.response.status, 200, JSON.stringify(view.body));
    assert.equal(view.response.headers.get('referrer-policy'), 'no-referrer');
    const { booking, phone, cancel, change } = view.body.payload;
    assert.deepEqual(
      { ...booking, venue_name: typeof booking.venue_name },
      {
        venue_id: VENUE,
        venue_name: 'string',
        reference: record.reference,
        type: TYPE,
        type_name: booking.type_name,
        date: DATE,
        time: booked.time,
        duration: booking.duration,
        people: 2,
        status: 'complete',
        deposit_paid: false,
      },
    );
    assert.equal(phone, PHONE);
    assert.equal(cancel.allowed, true);
    assert.equal(change.allowed, true);
    assert.ok(!JSON.stringify(view.body).includes('ada@example.com'), 'no personal data');
    assert.ok(!JSON.stringify(view.body).includes(booked.token), 'the envelope’s url names no token');

    const cancelled = await s.json(`/api/manage/${booked.token}/cancel`, postJson({}, { origin: ORIGIN }));
    assert.equal(cancelled.response.status, 200, JSON.stringify(cancelled.body));
    assert.deepEqual(cancelled.body.payload, { reference: record.reference, status: 'rejected', already: false });
    assert.equal(stored(s, record.reference).status, 'rejected');
    assert.ok(stored(s, record.reference).status_changed_date, 'the sandbox set status_changed_date');

    const again = await s.json(`/api/manage/${booked.token}/cancel`, postJson({}, { origin: ORIGIN }));
    assert.equal(again.response.status, 200);
    assert.equal(again.body.payload.already, true);
    const after = await s.json(`/api/manage/${booked.token}`);
    assert.equal(after.body.payload.booking.status, 'rejected', 'asked of the service, not remembered');
    assert.deepEqual(after.body.payload.cancel, { allowed: false, reason: 'status' });

    assert.equal(await s.counted('cancel', 'ok'), 1);
    assert.equal(await s.counted('cancel', 'already'), 1);
    assert.equal(await s.counted('view', 'ok'), 2);
    const status = await s.operator('/status');
    assert.ok(status.includes(`<td>Cancelled</td><td>${record.reference}</td>`), 'the status page lists it');
    assertNothingLeaks(
      s,
      [booked.text, JSON.stringify(view.body), JSON.stringify(cancelled.body), status],
      [record._id],
      [booked.token],
    );
    assert.ok(
      s.logger.lines.some((line) => line.path === '/api/manage/:token/cancel'),
      'the request line names the route, not the token',
    );
  });

  test('a tampered, an expired and another venue’s token all get the same 404', async () => {
    const s = stackFor();
    const booked = await book(s);
    const flipped = booked.token.slice(0, 20) + (booked.token[20] === 'A' ? 'B' : 'A') + booked.token.slice(21);
    const tampered = await s.json(`/api/manage/${flipped}`);
    // Another proxy with the same key that does not serve this venue.
    const other = stackFor({ venues: ['64a1f0c2e4b0a1b2c3d4e503'], venueGroups: [] });
    const foreign = await other.json(`/api/manage/${booked.token}`);
    // Past the day after the booking.
    s.clock.now = Date.parse(`2030-06-06T00:30:00Z`);
    const expired = await s.json(`/api/manage/${booked.token}`);
    const cancelExpired = await s.json(`/api/manage/${booked.token}/cancel`, postJson({}, { origin: ORIGIN }));
    for (const answer of [tampered, foreign, expired, cancelExpired]) {
      assert.equal(answer.response.status, 404, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.payload, tampered.body.payload);
    }
    assert.equal(stored(s, booked.payload.booking.reference).status, 'complete', 'nothing cancelled');
    const page = await s.send(`/manage/${flipped}`);
    assert.equal(page.status, 404);
    assert.match(await page.text(), /not valid any more/);

    // Per token: a link asked for 30 times in 10 minutes (since the clock moved: the page once, the
    // API 29 times) is refused the next time, whatever the client’s own limit; another token is not.
    for (let i = 0; i < 29; i++) await s.send(`/api/manage/${flipped}`);
    assert.equal((await s.send(`/api/manage/${flipped}`)).status, 429);
    assert.equal((await s.send(`/api/manage/${flipped.slice(1)}A`)).status, 404);
  });

  test('inside the venue’s window, and with a key that may not manage bookings: refused, with the phone', async () => {
    const s = stackFor();
    const booked = await book(s);
    s.clock.now = Date.parse(`${DATE}T${booked.time}:00Z`) - 3 * 3_600_000; // three hours before (BST: four)
    const view = await s.json(`/api/manage/${booked.token}`);
    assert.equal(view.body.payload.cancel.allowed, false);
    assert.equal(view.body.payload.cancel.reason, 'window');
    const refused = await s.json(`/api/manage/${booked.token}/cancel`, postJson({}, { origin: ORIGIN }));
    assert.equal(refused.response.status, 409);
    assert.equal(refused.body.payload.details.reason, 'window');
    assert.equal(refused.body.payload.details.phone, PHONE);
    assert.match(refused.body.payload.message, new RegExp(`call the venue on \\${PHONE}`));
    assert.equal(stored(s, booked.payload.booking.reference).status, 'complete');

    // A key without the capability to manage the venue's bookings (the sandbox's `cannot-manage`):
    // it books, reads and confirms, and the sandbox refuses its cancel (403).
    const readOnly = stackFor({}, (sandbox) => (request) => {
      const headers = new Headers(request.headers);
      headers.set('prefer', 'scenario=cannot-manage');
      return sandbox.fetch(new Request(request, { headers }));
    });
    const other = await book(readOnly);
    const denied = await readOnly.json(`/api/manage/${other.token}/cancel`, postJson({}, { origin: ORIGIN }));
    assert.equal(denied.response.status, 403, JSON.stringify(denied.body));
    assert.equal(denied.body.payload.details.reason, 'capability');
    assert.match(denied.body.payload.message, /call the venue/);
    assert.equal(stored(readOnly, other.payload.booking.reference).status, 'complete');
    const later = await readOnly.json(`/api/manage/${other.token}`);
    assert.deepEqual(later.body.payload.cancel, { allowed: false, reason: 'capability' });
  });

  test('a venue without a phone: "contact the venue" only where the guest cannot act online', async () => {
    const contact = /Please contact the venue\./;
    const own = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };
    const online = stackFor({ profileSeed: { [VENUE]: { cancellation: { online: true, hours_before: 24 } } } });
    const booked = await book(online);
    assert.doesNotMatch(await (await online.send(`/manage/${booked.token}`)).text(), contact, 'cancellable online');
    const cancelled = await online.send(`/manage/${booked.token}`, {
      method: 'POST',
      headers: own,
      body: 'confirm=yes',
    });
    const html = await cancelled.text();
    assert.match(html, /Your booking is cancelled\./);
    assert.doesNotMatch(html, contact, 'cancelled');

    const byPhone = stackFor({ profileSeed: { [VENUE]: { cancellation: { online: false } } } });
    const other = await book(byPhone);
    const refused = await (await byPhone.send(`/manage/${other.token}`)).text();
    assert.match(refused, /This venue takes changes and cancellations by phone\./);
    assert.match(refused, contact, 'refused online: the venue is the way');
  });

  test('the manage page: no-script cancel with a confirm step, refused from another site’s form', async () => {
    const s = stackFor();
    const booked = await book(s);
    const page = await s.send(`/manage/${booked.token}`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.match(page.headers.get('x-robots-tag') ?? '', /noindex/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'none'/);
    const html = await page.text();
    assert.ok(html.includes(booked.payload.booking.reference));
    assert.ok(html.includes(`href="${booked.token}/change"`), 'the change link');
    assert.ok(html.includes(`href="${booked.token}?step=cancel"`), 'the cancel step');
    const confirm = await (await s.send(`/manage/${booked.token}?step=cancel`)).text();
    assert.match(confirm, /<form method="post" action="[^"]+">/);

    const form = (headers: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: 'confirm=yes',
    });
    const crossSite = await s.send(
      `/manage/${booked.token}`,
      form({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }),
    );
    assert.equal(crossSite.status, 403);
    const noSignals = await s.send(`/manage/${booked.token}`, form({ origin: 'null' }));
    assert.equal(noSignals.status, 403, 'an opaque origin without Sec-Fetch-Site is refused');
    assert.equal(stored(s, booked.payload.booking.reference).status, 'complete', 'a cross-site form cancels nothing');

    // The browser's own POST from the page (no-referrer: Origin null, Sec-Fetch-Site same-origin).
    const own = await s.send(`/manage/${booked.token}`, form({ 'sec-fetch-site': 'same-origin', origin: 'null' }));
    assert.equal(own.status, 200);
    assert.match(await own.text(), /Your booking is cancelled\./);
    assert.equal(stored(s, booked.payload.booking.reference).status, 'rejected');

    // The method allow-list admits exactly these writes: the page's form, the API's cancel.
    for (const [method, path] of [
      ['POST', `/api/manage/${booked.token}`],
      ['GET', `/api/manage/${booked.token}/cancel`],
      ['DELETE', `/api/manage/${booked.token}`],
      ['PUT', `/manage/${booked.token}`],
      ['POST', `/manage/${booked.token}/change`],
    ] as const)
      assert.equal((await s.send(path, { method })).status, 405, `${method} ${path}`);

    const french = await (await s.send(`/manage/${booked.token}?locale=fr`)).text();
    assert.match(french, /<html lang="fr"/);
    assert.match(french, /Annulée/);
    assert.ok(!JSON.stringify(s.logger.lines).includes(booked.token), 'no token in a log line');
  });

  test('the change page embeds the widget prefilled, replacing the booking', async () => {
    const s = stackFor({ widgetScript: new TextEncoder().encode('/* widget */') as Uint8Array<ArrayBuffer> });
    const booked = await book(s);
    const page = await s.send(`/manage/${booked.token}/change`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(
      html,
      new RegExp(
        `<venue-booking venue="${VENUE}" api="../../api" locale="en-GB" type="${TYPE}" date="${DATE}" time="${booked.time}" num-people="2"`,
      ),
    );
    assert.ok(html.includes(`replaces="${booked.token}"`));
    assert.match(html, /src="..\/..\/venue-booking.js"/);
  });

  test('a change books the new booking, then cancels the old one once, however often it is sent', async () => {
    const s = stackFor();
    const booked = await book(s);
    const time = await freeTime(s.json, [booked.time]);
    const before = s.stack.sandbox.store.bookings.length;
    const key = `change-${crypto.randomUUID()}`;
    const change = () =>
      s.json('/api/bookings', postJson(detailsAt(time, { replaces: booked.token }), { 'idempotency-key': key }));
    const first = await change();
    assert.equal(first.response.status, 200, JSON.stringify(first.body));
    const reference = first.body.payload.booking.reference as string;
    assert.notEqual(reference, booked.payload.booking.reference);
    assert.deepEqual(first.body.payload.replaced, { reference: booked.payload.booking.reference });
    assert.match(first.body.payload.manage_url, /\/manage\/[A-Za-z0-9_-]{40,}$/);
    assert.notEqual(first.body.payload.manage_url, booked.url);
    assert.equal(stored(s, reference).status, 'complete');
    assert.equal(stored(s, booked.payload.booking.reference).status, 'rejected');

    // The guest's retries (a reload, a lost answer, concurrently): nothing booked or cancelled twice.
    const again = await Promise.all([change(), change(), change()]);
    for (const answer of again) {
      assert.equal(answer.response.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.payload.booking.reference, reference);
      assert.deepEqual(answer.body.payload.replaced, { reference: booked.payload.booking.reference });
    }
    assert.equal(s.stack.sandbox.store.bookings.length, before + 1, 'exactly one new booking');
    assert.equal(await s.counted('change', 'ok'), 1);

    // The old token can change nothing more under another key; the new one manages the new booking.
    const reuse = await s.json(
      '/api/bookings',
      postJson(detailsAt(time, { replaces: booked.token, num_people: 3 }), { 'idempotency-key': `x-${key}` }),
    );
    assert.equal(reuse.response.status, 409, JSON.stringify(reuse.body));
    assert.equal(reuse.body.payload.stored, false);
    assert.equal(s.stack.sandbox.store.bookings.length, before + 1);
  });

  test('a change whose old booking the service will not cancel: the new one stands, the answer names the old', async () => {
    // A key without the capability to manage bookings (the sandbox's `cannot-manage`) books, and the
    // change's cancel of the old booking is refused (403): both bookings stand, and the answer says so.
    const s = stackFor({}, (sandbox) => (request) => {
      const headers = new Headers(request.headers);
      headers.set('prefer', 'scenario=cannot-manage');
      return sandbox.fetch(new Request(request, { headers }));
    });
    const booked = await book(s);
    const time = await freeTime(s.json, [booked.time]);
    const key = `kept-${crypto.randomUUID()}`;
    const change = () =>
      s.json('/api/bookings', postJson(detailsAt(time, { replaces: booked.token }), { 'idempotency-key': key }));
    const first = await change();
    assert.equal(first.response.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.payload.replaced, undefined);
    assert.deepEqual(first.body.payload.replace_refused, {
      reference: booked.payload.booking.reference,
      reason: 'capability',
      phone: PHONE,
    });
    const reference = first.body.payload.booking.reference as string;
    assert.equal(stored(s, reference).status, 'complete');
    assert.equal(stored(s, booked.payload.booking.reference).status, 'complete', 'the old booking stands');
    const again = await change();
    assert.equal(again.body.payload.booking.reference, reference, 'a retry books nothing more');
    assert.equal(again.body.payload.replace_refused.reference, booked.payload.booking.reference);
  });

  test('the venue’s webhook hears of a cancel and of a change once each, with nothing personal', async () => {
    const received: Record<string, unknown>[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(JSON.parse(body) as Record<string, unknown>);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const s = stackFor({
        webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        webhookSecret: 'whsec-0123456789abcdef-0123456789abcdef',
        webhookRetryDelaysMs: [0, 0],
      });
      const cancelled = await book(s);
      const cancel = () => s.json(`/api/manage/${cancelled.token}/cancel`, postJson({}, { origin: ORIGIN }));
      assert.equal((await cancel()).response.status, 200);
      assert.equal((await cancel()).body.payload.already, true);
      const changed = await book(s, [cancelled.time]);
      const time = await freeTime(s.json, [cancelled.time, changed.time]);
      const change = await s.json(
        '/api/bookings',
        postJson(detailsAt(time, { replaces: changed.token }), { 'idempotency-key': `hook-${crypto.randomUUID()}` }),
      );
      assert.equal(change.response.status, 200, JSON.stringify(change.body));
      await until(async () => received.length >= 2, 'both events delivered', 10_000);
      assert.deepEqual(
        received.map((event) => {
          const data = event.data as Record<string, unknown>;
          return [event.type, data.reference, data.new_reference];
        }),
        [
          ['booking.cancelled', cancelled.payload.booking.reference, undefined],
          ['booking.changed', changed.payload.booking.reference, change.body.payload.booking.reference],
        ],
      );
      assert.ok(!JSON.stringify(received).includes('ada@example.com'), 'nothing personal');
      assert.ok(!JSON.stringify(received).includes('Lovelace'), 'nothing personal');
    } finally {
      receiver.close();
    }
  });

  test('a change of another venue’s booking, or without an Idempotency-Key, is refused before booking', async () => {
    const s = stackFor();
    const booked = await book(s);
    const before = s.stack.sandbox.store.bookings.length;
    const time = await freeTime(s.json, [booked.time]);
    const noKey = await s.json('/api/bookings', postJson(detailsAt(time, { replaces: booked.token })));
    assert.equal(noKey.response.status, 400);
    const otherVenue = await s.json(
      '/api/bookings',
      postJson(detailsAt(time, { replaces: booked.token, venue_id: '64a1f0c2e4b0a1b2c3d4e502' }), {
        'idempotency-key': `v-${crypto.randomUUID()}`,
      }),
    );
    assert.equal(otherVenue.response.status, 404);
    assert.equal(otherVenue.body.payload.stored, false);
    assert.equal(s.stack.sandbox.store.bookings.length, before, 'nothing booked');
  });
});

describe('the start warns when manage links end with the process', () => {
  test('live, with neither a manage key nor a shared store: warned; with a key: not', async () => {
    const live = {
      VENUE_BOOKING_APP_ID: 'app',
      VENUE_BOOKING_API_KEY: 'key-0123456789',
      VENUE_BOOKING_UPSTREAM: 'http://127.0.0.1:9/v4',
      VENUE_BOOKING_VENUES: VENUE,
      VENUE_BOOKING_BOOKING_SITE: 'https://book.example/book',
    };
    for (const [extra, warned] of [
      [{}, true],
      [{ VENUE_BOOKING_MANAGE_SECRET: SECRET }, false],
    ] as const) {
      const run = await runBin(
        { PORT: String(await freePort()), ...live, ...extra },
        [],
        /(Add the widget|not built)[^\n]*\n/,
      );
      try {
        const warning = run
          .output()
          .split('\n')
          .find((line) => line.includes('VENUE_BOOKING_MANAGE_SECRET'));
        assert.equal(Boolean(warning), warned, run.output());
        if (warning) assert.equal((JSON.parse(warning) as { level: string }).level, 'warn');
        assert.ok(!run.output().includes(SECRET), 'the key itself is never written');
      } finally {
        run.stop();
      }
    }
  });
});
