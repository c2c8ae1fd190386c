/**
 * The return bridge's default target: the page the guest left from, on an origin the proxy serves,
 * with only the reference and status added (personal data posted to it never reaches a URL); the
 * probe that tells the widget a bridge exists costs no upstream call. A GET return lands the same
 * way, drops whatever else its query holds, and where it cannot land shows a readable page.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Metrics, total } from '../../proxy/core/metrics.js';
import { configFromEnv } from '../../proxy/env.js';
import { HANDOFF_TTL_S } from '../../proxy/api/handoff.js';
import { CLAIMS_PER_KIND, MemoryState } from '../../proxy/state/memory.js';
import type { ProxyConfig } from '../../proxy/app.js';
import { freePort, runBin } from './node-bin.js';
import {
  BASE,
  FOREIGN_VENUE,
  ORIGIN,
  OTHER_VENUE,
  recordingProxy,
  upstreamJson,
  VENUE,
  type Script,
} from './support.js';

/** Resolves once `ready` holds (polled), or fails after two seconds. */
async function until(ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready(); waited += 20) {
    assert.ok(waited < 2000, 'timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A Saturday two weeks or more ahead (the embedded sandbox serves brunch then). */
const SATURDAY = (() => {
  const day = new Date(Date.now() + 14 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((6 - day.getUTCDay() + 7) % 7));
  return day.toISOString().slice(0, 10);
})();
/** A brunch for two (the sandbox seed's deposit type): its availability hands the guest to the booking site. */
const HANDED_OFF = `type=64a1f0c2e4b0a1b2c3d4e602&date=${SATURDAY}&time=10:30&num_people=2&duration=120`;

const SECRET = 'a-return-secret-0123456789abcdef0123';

/** An upstream whose availability answers hand off (a deposit, `next` with only `web`). */
const handOffScript: Script = () =>
  upstreamJson({
    valid: true,
    action: 'accept',
    depositRequired: true,
    next: { web: 'https://book.example/book?venue_id=x' },
  });

/** A proxy over an upstream whose availability answers hand off. */
const bridgeProxy = (overrides: Partial<ProxyConfig> = {}) => recordingProxy(overrides, handOffScript);

/** A hand-off id, as the widget gets it once its booking's availability hands the guest off. */
async function handoffOf(
  send: (path: string, init?: RequestInit) => Promise<Response>,
  venue = OTHER_VENUE,
  origin = ORIGIN,
): Promise<string> {
  const response = await send(`/api/venues/${venue}/handoff?${HANDED_OFF}`, { headers: { origin } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { payload: { handoff: string } }).payload.handoff;
}

/** The upstream calls besides the hand-off's availability read: a return itself makes none. */
const beyondHandOff = (calls: { url: string }[]) => calls.filter((call) => !call.url.includes('/booking-availability'));

const RETURNED =
  'reference=DMN-12345678901&status=complete&first_name=Ada&last_name=Lovelace&email=ada%40example.com&phone=07700900123';
const post = (path: string, origin = 'https://book.example'): RequestInit & { path: string } => ({
  path,
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
  body: RETURNED,
});

describe('return bridge', () => {
  it('GET /api/return answers the methods on offer, and no hand-off id, without calling the upstream', async () => {
    const { send, calls } = bridgeProxy();
    for (const headers of [{ origin: ORIGIN }, {}] as Record<string, string>[]) {
      const response = await send('/api/return', { headers });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { payload: Record<string, unknown> };
      assert.deepEqual(body.payload, { methods: ['post', 'get'] }, 'the probe proves nothing');
    }
    const response = await send('/api/return', { headers: { origin: ORIGIN } });
    assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(calls.length, 0);
  });

  it('issues a hand-off id only where the booking’s availability hands the guest off, bound to its venue', async () => {
    const booked = recordingProxy();
    const refused = await booked.send(`/api/venues/${OTHER_VENUE}/handoff?${HANDED_OFF}`, {
      headers: { origin: ORIGIN },
    });
    assert.equal(refused.status, 409, 'the service books these details itself: nothing is handed off');
    const refusal = (await refused.json()) as { payload: { handoff?: string; errors: { code: string }[] } };
    assert.equal(refusal.payload.handoff, undefined);
    assert.equal(refusal.payload.errors[0]!.code, 'no_handoff');
    const unknown = await booked.send(`/api/venues/${FOREIGN_VENUE}/handoff?${HANDED_OFF}`);
    assert.equal(unknown.status, 404, 'a venue not served here gets none');
    const invalid = await booked.send(`/api/venues/${OTHER_VENUE}/handoff?num_people=zero`);
    assert.equal(invalid.status, 400);

    const metrics = new Metrics();
    const { send } = bridgeProxy({ metrics });
    const forVenue = await handoffOf(send, VENUE);
    const other = await send(
      getReturn({ venue: OTHER_VENUE, page: leftFrom, handoff: forVenue, reference: 'DMN-1', status: 'complete' }),
    );
    assert.equal(other.status, 200, 'an id of one venue proves no return for another');
    assert.match(await other.text(), /will confirm your booking by email/);
    const own = await send(
      getReturn({ venue: VENUE, page: leftFrom, handoff: forVenue, reference: 'DMN-1', status: 'complete' }),
    );
    assert.equal(own.status, 303);
    const snapshot = await metrics.snapshot();
    assert.equal(total(snapshot, 'bookings_total', { outcome: 'handed_off' }), 1);
    assert.equal(total(snapshot, 'bookings_total', { outcome: 'unproven_return' }), 1);
  });

  for (const [name, page] of [
    ['a configured origin', `${ORIGIN}/book?table=1&vb_return=w1`],
    ['the proxy’s own origin', `${BASE}/venue?vb_return=w1`],
  ] as const) {
    it(`defaults to the page the guest left from, on ${name}, with only reference and status added`, async () => {
      const { send, calls, logger } = bridgeProxy();
      // A stale return on the page the guest left from is replaced, never kept.
      const left = `${page}&email=old%40example.com&reference=OLD#step`;
      const handoff = await handoffOf(send);
      const { path, ...init } = post(
        `/api/return?venue=${OTHER_VENUE}&page=${encodeURIComponent(left)}&handoff=${handoff}`,
      );
      const response = await send(path, init);
      assert.equal(response.status, 303);
      const location = new URL(response.headers.get('location')!);
      assert.equal(location.origin + location.pathname, new URL(page).origin + new URL(page).pathname);
      assert.equal(location.searchParams.get('vb_return'), 'w1');
      assert.equal(location.searchParams.get('reference'), 'DMN-12345678901');
      assert.equal(location.searchParams.get('status'), 'complete');
      assert.equal(location.hash, '');
      for (const secret of ['Ada', 'Lovelace', 'ada@', 'ada%40', '07700900123', 'old'])
        assert.ok(!location.href.includes(secret), `${secret} in ${location.href}`);
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
      assert.deepEqual(beyondHandOff(calls), []);
      assert.ok(!JSON.stringify(logger.lines).includes('Lovelace'), 'no personal data in the logs');
    });
  }

  it('takes the POST from a no-referrer booking page (Origin: null), and that opaque origin nowhere else', async () => {
    const { send, calls } = bridgeProxy();
    const handoff = await handoffOf(send);
    const { path, ...init } = post(
      `/api/return?venue=${OTHER_VENUE}&page=${encodeURIComponent(`${ORIGIN}/book?vb_return=w1`)}&handoff=${handoff}`,
      'null',
    );
    const response = await send(path, init);
    assert.equal(response.status, 303);
    assert.equal(new URL(response.headers.get('location')!).searchParams.get('reference'), 'DMN-12345678901');
    const read = await send(`/api/venues/${VENUE}/offers`, { headers: { origin: 'null' } });
    assert.equal(read.status, 403);
    assert.deepEqual(beyondHandOff(calls), []);
  });

  it('with the bridge off, the probe and the hand-off say 404 and only configured pages are targets', async () => {
    const { send } = bridgeProxy({ returnBridge: false });
    assert.equal((await send('/api/return', { headers: { origin: ORIGIN } })).status, 404);
    assert.equal(
      (await send(`/api/venues/${VENUE}/handoff?${HANDED_OFF}`, { headers: { origin: ORIGIN } })).status,
      404,
    );
    const left = post(`/api/return?venue=${OTHER_VENUE}&page=${encodeURIComponent(`${ORIGIN}/book`)}`);
    assert.equal((await send(left.path, left)).status, 404);
    // A return to a configured page without a hand-off id proves nothing: the page, not a landing.
    const configured = post(`/api/return?venue=${VENUE}`);
    const unproven = await send(configured.path, configured);
    assert.equal(unproven.status, 200);
    assert.match(await unproven.text(), /The booking site will confirm your booking by email/);
  });

  it('a configured page still wins over the page the widget names', async () => {
    const { send } = bridgeProxy();
    const handoff = await handoffOf(send, VENUE);
    const { path, ...init } = post(
      `/api/return?venue=${VENUE}&page=${encodeURIComponent(`${ORIGIN}/elsewhere`)}&handoff=${handoff}`,
    );
    const response = await send(path, init);
    assert.equal(response.status, 303);
    assert.match(response.headers.get('location')!, /^https:\/\/venue\.example\/thanks\?reference=/);
  });
});

/** The guest's details some booking sites still put on a GET return, and their encoded forms. */
const GUEST = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '07700900123' };
const GUEST_FORMS = Object.values(GUEST).flatMap((value) => [
  value,
  encodeURIComponent(value),
  new URLSearchParams({ x: value }).toString().slice(2),
]);
const getReturn = (values: Record<string, string>) => `/api/return?${new URLSearchParams(values)}`;
const leftFrom = `${ORIGIN}/book?table=1&vb_return=w1`;
/** A top-level navigation from a booking site that names itself to nobody (no Origin, no Referer). */
const NAVIGATION = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

function assertNoGuestData(text: string, where: string) {
  for (const form of GUEST_FORMS) assert.ok(!text.includes(form), `${form} in ${where}: ${text.slice(0, 300)}`);
}

describe('the GET return', () => {
  for (const [name, extra] of [
    ['with the guest’s details in its query', GUEST],
    ['with only the reference and the status', {}],
  ] as const) {
    it(`${name}: 303 to the page the guest left, with only reference and status, whoever navigates`, async () => {
      const { send, calls, logger } = bridgeProxy();
      const path = getReturn({
        venue: OTHER_VENUE,
        page: leftFrom,
        lang: 'en-GB',
        handoff: await handoffOf(send),
        reference: 'DMN-12345678901',
        status: 'complete',
        ...extra,
      });
      const navigations: Record<string, string>[] = [NAVIGATION, { referer: 'https://book.other.example/' }, {}];
      for (const headers of navigations) {
        const response = await send(path, { headers });
        assert.equal(response.status, 303, JSON.stringify(headers));
        const location = new URL(response.headers.get('location')!);
        assert.equal(location.origin + location.pathname, `${ORIGIN}/book`);
        assert.deepEqual(
          [...location.searchParams],
          [
            ['table', '1'],
            ['vb_return', 'w1'],
            ['reference', 'DMN-12345678901'],
            ['status', 'complete'],
          ],
        );
        assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
        assert.equal(response.headers.get('cache-control'), 'no-store');
      }
      assert.deepEqual(beyondHandOff(calls), []);
      assertNoGuestData(JSON.stringify(logger.lines), 'the log');
      assert.ok(logger.lines.some((line) => line.msg === 'booking returned' && line.landed === true));
    });
  }

  it('goes where the POST goes: a configured page wins over the page named', async () => {
    const { send } = bridgeProxy();
    const handoff = await handoffOf(send, VENUE);
    const response = await send(
      getReturn({ venue: VENUE, page: `${ORIGIN}/elsewhere`, handoff, reference: 'DMN-1', status: 'in_progress' }),
    );
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), 'https://venue.example/thanks?reference=DMN-1&status=in_progress');
  });

  it('a status it cannot read is dropped (the widget then shows an enquiry), never copied', async () => {
    const { send } = bridgeProxy();
    const handoff = await handoffOf(send, VENUE);
    const response = await send(
      `/api/return?venue=${VENUE}&handoff=${handoff}&reference=DMN-1&status=complete%0d%0aSet-Cookie:%20x=1`,
      { headers: NAVIGATION },
    );
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), 'https://venue.example/thanks?reference=DMN-1');
    assert.equal(response.headers.get('set-cookie'), null);
  });

  it('through the Node entry, nothing of the guest reaches its output, request lines included', async () => {
    const port = await freePort();
    const run = await runBin({ PORT: String(port) }, [], /(Add the widget|not built)[^\n]*\n/);
    try {
      // The embedded stack's own origin (its public URL) names `localhost`.
      const base = `http://localhost:${port}`;
      const handoff = await handoffOf((path, init) => fetch(`${base}${path}`, init), VENUE, base);
      const response = await fetch(
        `${base}${getReturn({ venue: VENUE, page: `${base}/venue?vb_return=w1`, handoff, reference: 'DMN-1', status: 'complete', ...GUEST })}`,
        { redirect: 'manual', headers: NAVIGATION },
      );
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), `${base}/venue?vb_return=w1&reference=DMN-1&status=complete`);
      await until(() => run.output().includes('"msg":"booking returned"'));
      assert.match(run.output(), /"msg":"booking returned"[^\n]*"landed":true/);
      assertNoGuestData(run.output(), 'the Node entry’s output');
    } finally {
      run.stop();
    }
  });

  describe('where it cannot land: a readable page, never JSON', () => {
    /**
     * An id for a venue this proxy no longer serves: issued by an instance (the same secret) that
     * served it when the guest left.
     */
    const foreignHandoff = () =>
      handoffOf(bridgeProxy({ returnSecret: SECRET, venues: [FOREIGN_VENUE] }).send, FOREIGN_VENUE);
    const page = async (response: Response) => {
      assert.match(response.headers.get('content-type')!, /^text\/html; charset=utf-8$/);
      const html = await response.text();
      assert.doesNotMatch(html, /<script|"payload"/);
      return html;
    };

    it('an unknown venue and a page on no allowed origin: the reference in the widget’s language, no link', async () => {
      const { send, calls, logger } = bridgeProxy({ returnSecret: SECRET });
      const response = await send(
        getReturn({
          venue: FOREIGN_VENUE,
          page: 'https://evil.example/landing',
          lang: 'fr',
          handoff: await foreignHandoff(),
          reference: 'DMN-12345678901',
          status: 'complete',
          ...GUEST,
        }),
        { headers: { ...NAVIGATION, 'accept-language': 'de-DE,de;q=0.9' } },
      );
      assert.equal(response.status, 200);
      const html = await page(response);
      assert.match(html, /<html lang="fr">/);
      assert.match(html, /<h1>Réservation confirmée<\/h1>/);
      assert.match(html, /<strong>DMN-12345678901<\/strong>/);
      assert.doesNotMatch(html, /<a |evil\.example/);
      assertNoGuestData(html, 'the page');
      assertNoGuestData(JSON.stringify(logger.lines), 'the log');
      assert.ok(!JSON.stringify(logger.lines).includes(FOREIGN_VENUE), 'an unserved venue id is not logged');
      assert.deepEqual(beyondHandOff(calls), []);
    });

    it('an unknown venue on an allowed page: a link back that shows the booking there', async () => {
      const { send } = bridgeProxy({ returnSecret: SECRET });
      const handoff = await foreignHandoff();
      const response = await send(
        getReturn({ venue: FOREIGN_VENUE, page: leftFrom, handoff, reference: 'DMN-1', status: 'in_progress' }),
        { headers: { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' } },
      );
      assert.equal(response.status, 200);
      const html = await page(response);
      assert.match(html, /<html lang="nl">/);
      assert.match(html, /<h1>Aanvraag ontvangen<\/h1>/);
      assert.ok(
        html.includes(
          `<a href="https://venue.example/book?table=1&#38;vb_return=w1&#38;reference=DMN-1&#38;status=in_progress">Terug naar venue.example</a>`,
        ),
        html,
      );
    });

    it('no usable reference: 400, what to expect instead, and the venue’s page without values', async () => {
      const { send } = bridgeProxy();
      for (const reference of ['', '<script>alert(1)</script>']) {
        const response = await send(getReturn({ venue: OTHER_VENUE, page: leftFrom, reference, ...GUEST }));
        assert.equal(response.status, 400);
        const html = await page(response);
        assert.match(html, /<html lang="en-GB">/);
        assert.match(html, /sent no booking reference/);
        assert.match(
          html,
          /<a href="https:\/\/venue\.example\/book\?table=1&#38;vb_return=w1">Back to venue\.example<\/a>/,
        );
        assert.doesNotMatch(html, /alert/);
      }
    });

    it('pages that are no http(s) page of an allowed origin get no link', async () => {
      const { send } = bridgeProxy();
      for (const left of ['javascript:alert(1)', 'data:text/html,<p>x</p>', `https://u:p@${new URL(ORIGIN).host}/x`]) {
        const response = await send(getReturn({ venue: OTHER_VENUE, page: left, reference: 'DMN-1', status: 'x' }));
        assert.equal(response.status, 200);
        assert.doesNotMatch(await page(response), /<a /);
      }
    });

    it('its CSP allows its one stylesheet by hash and nothing else', async () => {
      const { send } = bridgeProxy();
      const response = await send(getReturn({ venue: FOREIGN_VENUE, reference: 'DMN-1', status: 'complete' }));
      const html = await page(response);
      const style = /<style>([^<]*)<\/style>/.exec(html)![1]!;
      const digest = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(style))).toString(
        'base64',
      );
      assert.equal(
        response.headers.get('content-security-policy'),
        `default-src 'none'; style-src 'sha256-${digest}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      );
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('cache-control'), 'no-store');
    });

    it('with the bridge off, only configured pages are landed on', async () => {
      const { send } = bridgeProxy({ returnBridge: false });
      // The probe is off: these returns carry no hand-off id and confirm nothing; the configured
      // page is still the way back.
      const off = await send(getReturn({ venue: OTHER_VENUE, page: leftFrom, reference: 'DMN-1', status: 'complete' }));
      assert.equal(off.status, 200);
      assert.doesNotMatch(await page(off), /Booking confirmed|<a /);
      const configured = await send(getReturn({ venue: VENUE, reference: 'DMN-1', status: 'complete' }));
      assert.equal(configured.status, 200);
      assert.match(await page(configured), /<a href="https:\/\/venue\.example\/thanks">/);
    });
  });
});

describe('returns that prove themselves (issue 24, finding 3)', () => {
  const counted = async (metrics: Metrics, outcome: string) =>
    total(await metrics.snapshot(), 'bookings_total', { outcome });

  it('50 returns without a hand-off id count no booking, apart, and /status carries none of them', async () => {
    const metrics = new Metrics();
    const { send } = bridgeProxy({ metrics, peerAddress: () => '127.0.0.1' });
    for (let i = 0; i < 50; i++) {
      const response = await send(`/api/return?reference=FAKE${i}`);
      assert.equal(response.status, 200);
      assert.match(await response.text(), /The booking site will confirm your booking by email/);
    }
    assert.equal(await counted(metrics, 'handed_off'), 0);
    assert.equal(await counted(metrics, 'unproven_return'), 50);
    const status = await (await send('http://localhost:8080/status')).text();
    // Shown apart, in plain words (pages/status.ts OUTCOMES).
    assert.match(status, /without proof \(not counted as bookings\)<\/th><td>50<\/td>/);
  });

  it('a forged confirmation says “confirmed” in no language and shows no reference', async () => {
    const { send } = bridgeProxy();
    const words = {
      en: 'will confirm your booking by email',
      fr: 'par e-mail',
      de: 'per E-Mail',
      es: 'por correo',
      nl: 'per e-mail',
    };
    for (const [lang, byEmail] of Object.entries(words)) {
      const response = await send(`/api/return?reference=FORGED-X&status=complete&lang=${lang}`);
      const html = await response.text();
      assert.ok(html.includes(byEmail), `${lang}: ${html}`);
      assert.doesNotMatch(html, /FORGED-X|confirm(ed|ée)|bestätigt<|confirmada|bevestigd</, lang);
    }
    // With the guest's page known, the way back is offered without a reference or a status.
    const html = await (
      await send(getReturn({ venue: OTHER_VENUE, page: leftFrom, reference: 'FORGED-X', status: 'complete' }))
    ).text();
    assert.ok(html.includes('<a href="https://venue.example/book?table=1&#38;vb_return=w1">'), html);
  });

  it('forged, tampered, foreign, expired and reused ids prove nothing; the same return twice counts once', async () => {
    let now = Date.UTC(2030, 0, 1, 12);
    const metrics = new Metrics();
    const { send } = bridgeProxy({ metrics, now: () => now });
    const other = bridgeProxy();
    const valid = await handoffOf(send);
    const tampered = `${valid.slice(0, -2)}${valid.endsWith('AA') ? 'BB' : 'AA'}`;
    const ret = (handoff: string, reference: string) =>
      send(getReturn({ venue: OTHER_VENUE, page: leftFrom, handoff, reference, status: 'complete' }));
    for (const handoff of ['', 'abc', tampered, await handoffOf(other.send)])
      assert.equal((await ret(handoff, 'DMN-1')).status, 200, handoff);
    assert.equal((await ret(valid, 'DMN-1')).status, 303);
    assert.equal((await ret(valid, 'DMN-1')).status, 303, 'the same return again still lands');
    assert.equal((await ret(valid, 'DMN-2')).status, 200, 'one hand-off, one booking');
    assert.equal(await counted(metrics, 'handed_off'), 1);
    assert.equal(await counted(metrics, 'unproven_return'), 5);
    const late = await handoffOf(send);
    now += (HANDOFF_TTL_S + 1) * 1000;
    assert.equal((await ret(late, 'DMN-3')).status, 200, 'expired');
  });

  it('a POST return without a valid id lands on the page, not on the venue’s page', async () => {
    const { send } = bridgeProxy();
    const { path, ...init } = post(`/api/return?venue=${OTHER_VENUE}&page=${encodeURIComponent(leftFrom)}&handoff=x`);
    const response = await send(path, init);
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.match(html, /will confirm your booking by email/);
    assert.doesNotMatch(html, /DMN-12345678901|Lovelace/);
  });

  it('a configured secret makes every instance accept the others’ ids; the hand-off is never cached', async () => {
    const secret = SECRET;
    const a = bridgeProxy({ returnSecret: secret });
    const b = bridgeProxy({ returnSecret: secret });
    const probe = await a.send(`/api/venues/${OTHER_VENUE}/handoff?${HANDED_OFF}`, { headers: { origin: ORIGIN } });
    assert.equal(probe.headers.get('cache-control'), 'no-store');
    const handoff = ((await probe.json()) as { payload: { handoff: string } }).payload.handoff;
    assert.ok(!handoff.includes(secret));
    const landed = await b.send(getReturn({ venue: OTHER_VENUE, page: leftFrom, handoff, reference: 'DMN-1' }));
    assert.equal(landed.status, 303);
    assert.throws(() => configFromEnv({ VENUE_BOOKING_RETURN_SECRET: 'short' }), /VENUE_BOOKING_RETURN_SECRET must be/);
    assert.equal(configFromEnv({ VENUE_BOOKING_RETURN_SECRET: secret }).settings.returnSecret, secret);
  });
});

describe(
  'hand-off ids only for real hand-offs (issue 34, finding 1), through the Node entry',
  { timeout: 60_000 },
  () => {
    it('the probe gives none; the hand-off only for a booking the service hands off, for its venue only', async () => {
      const port = await freePort();
      const run = await runBin({ PORT: String(port) }, [], /(Add the widget|not built)[^\n]*\n/);
      try {
        const base = `http://localhost:${port}`;
        const send = (path: string, init?: RequestInit) => fetch(`${base}${path}`, { redirect: 'manual', ...init });
        // Anyone may probe, with no Origin: the methods only, nothing that proves a return.
        const probe = (await (await send('/api/return')).json()) as { payload: Record<string, unknown> };
        assert.deepEqual(probe.payload, { methods: ['post', 'get'] });
        // A table for two is booked through the API: no hand-off, no id.
        const table = HANDED_OFF.replace('e602', 'e601').replace('10:30', '19:00');
        const booked = await send(`/api/venues/${VENUE}/handoff?${table}`, { headers: { origin: base } });
        assert.equal(booked.status, 409);
        const handoff = await handoffOf(send, VENUE, base);
        // The made-up return of the issue: another venue's return proves nothing with this id.
        const madeUp = await send(
          getReturn({ venue: OTHER_VENUE, reference: 'MADEUP1', status: 'complete', handoff }),
          { headers: NAVIGATION },
        );
        assert.equal(madeUp.status, 200);
        assert.doesNotMatch(await madeUp.text(), /Booking confirmed|MADEUP1/);
        const real = await send(
          getReturn({ venue: VENUE, page: `${base}/venue`, reference: 'DMN-1', status: 'complete', handoff }),
          { headers: NAVIGATION },
        );
        assert.equal(real.status, 303);
        const metrics = await (await send('/metrics')).text();
        assert.match(metrics, /^venue_booking_bookings_total\{outcome="handed_off"\} 1$/m);
        assert.match(metrics, /^venue_booking_bookings_total\{outcome="unproven_return"\} 1$/m);
        assert.doesNotMatch(run.output(), /VENUE_BOOKING_RETURN_SECRET/, 'no return key, no warning about it');
      } finally {
        run.stop();
      }
    });

    it('with a return key and no shared store, it warns at start that a return counts once per instance (finding 4)', async () => {
      const port = await freePort();
      const env = { PORT: String(port), VENUE_BOOKING_RETURN_SECRET: SECRET };
      const run = await runBin(env, [], /(Add the widget|not built)[^\n]*\n/);
      try {
        const warning = run
          .output()
          .split('\n')
          .find((line) => line.includes('VENUE_BOOKING_RETURN_SECRET'));
        assert.ok(warning, run.output());
        const { level, msg } = JSON.parse(warning) as { level: string; msg: string };
        assert.equal(level, 'warn');
        assert.match(msg, /once per instance and again after a restart; set VENUE_BOOKING_REDIS_URL/);
        assert.ok(!run.output().includes(SECRET), 'the key itself is never written');
      } finally {
        run.stop();
      }
    });
  },
);

describe('the memory state keeps the signing key apart from the claims (issue 34, finding 3)', () => {
  it('twice the claims it keeps, a minute apart, and an id given out before still lands', async () => {
    let now = Date.UTC(2030, 0, 1, 12);
    const { send, proxy } = bridgeProxy({ now: () => now });
    const first = await handoffOf(send);
    // Every return with a valid id claims its nonce: more of them than the state keeps, twice, the
    // key read again in between (once a minute, when an id is signed).
    for (const round of [1, 2]) {
      for (let i = 0; i <= CLAIMS_PER_KIND; i++)
        await proxy.state.claim(`handoff:flood${round}x${i}`, 'DMN-0 x', 3_600_000);
      now += 61_000;
      await handoffOf(send);
    }
    const back = await send(
      getReturn({ venue: OTHER_VENUE, page: leftFrom, handoff: first, reference: 'DMN-1', status: 'complete' }),
    );
    assert.equal(back.status, 303, 'the guest lands, counted: not "by email"');
  });

  it('bounds claims by kind, and drops the expired ones before the oldest', async () => {
    let now = Date.UTC(2030, 0, 1, 12);
    const state = new MemoryState({ ttlMs: 1000, staleMs: 0, now: () => now });
    await state.claim('ref:DMN-1', 'key-a', 24 * 3_600_000);
    await state.claim('handoff:kept', 'DMN-2 a', 24 * 3_600_000);
    for (let i = 0; i < CLAIMS_PER_KIND - 1; i++) await state.claim(`handoff:short${i}`, 'DMN-3 a', 1000);
    now += 2000;
    for (let i = 0; i < 10; i++) await state.claim(`handoff:late${i}`, 'DMN-4 a', 24 * 3_600_000);
    assert.equal(
      await state.claim('handoff:kept', 'DMN-2 b', 24 * 3_600_000),
      'DMN-2 a',
      'the oldest, unexpired, is kept',
    );
    assert.equal(await state.claim('ref:DMN-1', 'key-b', 24 * 3_600_000), 'key-a', 'another kind is untouched');
    for (let i = 0; i <= CLAIMS_PER_KIND; i++) await state.claim(`handoff:more${i}`, 'DMN-5 a', 24 * 3_600_000);
    assert.equal(
      await state.claim('ref:DMN-1', 'key-c', 24 * 3_600_000),
      'key-a',
      'a flood of one kind evicts no other',
    );
  });
});

describe('the return page’s words', () => {
  it('name the booking as the widget does, in each of its languages', async () => {
    const { RETURN_PAGE_STRINGS } = await import('../../proxy/pages/return-page.js');
    const { enGB } = await import('../../src/i18n/en-GB.js');
    const widget: Record<string, typeof enGB> = { en: enGB };
    for (const language of ['fr', 'de', 'es', 'nl'])
      widget[language] = ((await import(`../../src/i18n/${language}.ts`)) as { strings: typeof enGB }).strings;
    assert.deepEqual(Object.keys(RETURN_PAGE_STRINGS).sort(), Object.keys(widget).sort());
    for (const [language, strings] of Object.entries(RETURN_PAGE_STRINGS)) {
      const own = widget[language]!;
      assert.deepEqual(
        [strings.confirmedTitle, strings.enquiryTitle, strings.reference],
        [own.confirmedTitle, own.enquiryTitle, own.reference],
        language,
      );
    }
  });
});
