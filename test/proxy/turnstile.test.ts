/**
 * Cloudflare Turnstile, the bot check's optional layer (issue 34, part 2), through the real proxy
 * app against a local stand-in of siteverify that answers as Cloudflare documents (`success`,
 * `error-codes`, `challenge_ts`, `hostname`, `action`, `cdata`): a valid token books; a reused
 * one, another page's, another action's or a refused one gets the decoy and nothing reaches the
 * upstream; a siteverify down, slow or answering no JSON refuses the booking plainly (`503`);
 * the secret is in no answer and no log line. The verify URL is a `ProxyConfig` field no operator
 * sets, so the proxy is built here rather than run as the bin.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { after, describe, test } from 'node:test';
import { Metrics } from '../../proxy/core/metrics.js';
import { configFromEnv, ConfigError } from '../../proxy/env.js';
import { freePort } from './node-bin.js';
import { ORIGIN, postJson, recordingProxy, validBooking, VENUE } from './support.js';

const SITE_KEY = '1x00000000000000000000AA';
const SECRET = '0x4AAAAAAA-turnstile-secret-never-shown';
const HOST = new URL(ORIGIN).hostname;

/** What the stand-in was sent: each siteverify form, as fields. */
const forms: Record<string, string>[] = [];
const spent = new Set<string>();
/** Requests the stand-in holds unanswered (the slow case), ended after the tests. */
const held: (() => void)[] = [];

/** Cloudflare's answer to `token`: the test names the case in the token. */
function verdictOf(token: string): Record<string, unknown> | null {
  const ok = {
    success: true,
    'error-codes': [],
    challenge_ts: new Date().toISOString(),
    hostname: HOST,
    action: 'booking',
    cdata: '',
  };
  if (token.startsWith('slow')) return null;
  if (spent.has(token)) return { success: false, 'error-codes': ['timeout-or-duplicate'] };
  spent.add(token);
  if (token.startsWith('ok')) return ok;
  if (token.startsWith('host')) return { ...ok, hostname: 'elsewhere.example' };
  if (token.startsWith('action')) return { ...ok, action: 'login' };
  return { success: false, 'error-codes': ['invalid-input-response'] };
}

const bodyOf = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => resolve(text));
  });

// Listening before the describes build their proxies with its URL.
const server: Server = createServer(async (request, response) => {
  const form = Object.fromEntries(new URLSearchParams(await bodyOf(request)));
  forms.push(form);
  if (form.response!.startsWith('html')) {
    response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    return;
  }
  const verdict = verdictOf(form.response!);
  if (!verdict) return void held.push(() => response.destroy());
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(verdict));
});
const port = await freePort();
await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
const verifyUrl = `http://127.0.0.1:${port}/turnstile/v0/siteverify`;
after(() => {
  for (const end of held) end();
  server.close();
});

let minute = 0;
/** A proxy with Turnstile set against the stand-in (or `url`), and its way to book with `token`. */
function turnstileProxy(url?: string) {
  const metrics = new Metrics();
  const proxy = recordingProxy({
    metrics,
    turnstileSiteKey: SITE_KEY,
    turnstileSecret: SECRET,
    turnstileVerifyUrl: url ?? verifyUrl,
  });
  const book = async (token: string | undefined, key = `key-turnstile-${minute}`) => {
    const time = `${17 + Math.floor(minute / 4)}:${String(15 * (minute++ % 4)).padStart(2, '0')}`;
    const response = await proxy.send(
      '/api/bookings',
      postJson(validBooking({ time, ...(token === undefined ? {} : { turnstile: token }) }), {
        origin: ORIGIN,
        'idempotency-key': key,
      }),
    );
    const text = await response.text();
    assert.ok(!text.includes(SECRET), 'the secret is in an answer');
    return { status: response.status, body: JSON.parse(text) as any };
  };
  const upstreamBookings = () => proxy.calls.filter((call) => call.method === 'POST').length;
  /** `bot_checks_total` by outcome. */
  const checks = async () =>
    Object.fromEntries(((await metrics.snapshot()).bot_checks_total ?? []).map((s) => [s.labels.outcome, s.value]));
  return { ...proxy, book, upstreamBookings, checks };
}

describe('Turnstile, when its site key and secret are set', () => {
  const proxy = turnstileProxy();
  after(() => {
    for (const line of proxy.logger.lines) assert.ok(!JSON.stringify(line).includes(SECRET), 'the secret is logged');
  });

  test('the challenge answer carries the site key, the script and the action; never the secret', async () => {
    const response = await proxy.sendAsIs(`/api/venues/${VENUE}/challenge`, { headers: { origin: ORIGIN } });
    const text = await response.text();
    assert.ok(!text.includes(SECRET));
    assert.deepEqual(JSON.parse(text).payload.turnstile, {
      siteKey: SITE_KEY,
      script: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
      action: 'booking',
    });
  });

  test('a valid token books, verified once with the secret and the key; the same key retried is the same booking', async () => {
    const sent = forms.length;
    const booked = await proxy.book('ok-1', 'key-turnstile-ok-1');
    assert.equal(booked.status, 200, JSON.stringify(booked.body));
    assert.equal(proxy.upstreamBookings(), 1);
    assert.equal(forms.length, sent + 1);
    assert.equal(forms.at(-1)!.secret, SECRET);
    assert.equal(forms.at(-1)!.response, 'ok-1');
    assert.equal(forms.at(-1)!.idempotency_key, 'key-turnstile-ok-1');
    const response = await proxy.send(
      '/api/bookings',
      postJson(validBooking({ time: '17:00', turnstile: 'ok-1' }), {
        origin: ORIGIN,
        'idempotency-key': 'key-turnstile-ok-1',
      }),
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('idempotent-replayed'), 'true');
    assert.equal(proxy.upstreamBookings(), 1);
    assert.equal(forms.length, sent + 1, 'the retry is not verified again');
  });

  test('a token reused, missing, refused, of another page or another action gets the decoy; nothing is booked', async () => {
    const before = proxy.upstreamBookings();
    await proxy.book('ok-2');
    const cases: [string, string | undefined][] = [
      ['reused under another key', 'ok-2'],
      ['missing', undefined],
      ['refused', 'bad-1'],
      ['another page', 'host-1'],
      ['another action', 'action-1'],
    ];
    for (const [name, token] of cases) {
      const decoy = await proxy.book(token);
      assert.equal(decoy.status, 200, `${name}: ${JSON.stringify(decoy.body)}`);
      assert.match(decoy.body.payload.booking.reference, /^DMN-\d{11}$/, name);
    }
    assert.equal(proxy.upstreamBookings(), before + 1, 'only the valid token booked');
    const checks = await proxy.checks();
    assert.equal(checks.turnstile_replayed, 1);
    assert.equal(checks.turnstile_missing, 1);
    assert.equal(checks.turnstile_failed, 3);
  });

  test('a token Cloudflare has seen (timeout-or-duplicate) gets the decoy even where the claim is forgotten', async () => {
    const before = proxy.upstreamBookings();
    const other = turnstileProxy();
    assert.equal((await other.book('ok-3')).status, 200);
    const again = await proxy.book('ok-3');
    assert.match(again.body.payload.booking.reference, /^DMN-\d{11}$/);
    assert.equal(proxy.upstreamBookings(), before);
  });
});

describe('Turnstile fails closed', () => {
  test('siteverify down, answering no JSON or too slow: 503 bot_check_unavailable, nothing booked, secret unsaid', async () => {
    const down = turnstileProxy(`http://127.0.0.1:${await freePort()}/siteverify`);
    const here = turnstileProxy();
    for (const [name, proxy, token] of [
      ['down', down, 'ok-down'],
      ['not JSON', here, 'html-1'],
      ['slow', here, 'slow-1'],
    ] as const) {
      const refused = await proxy.book(token);
      assert.equal(refused.status, 503, `${name}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.payload.stored, false, name);
      assert.equal(refused.body.payload.errors[0].code, 'bot_check_unavailable', name);
      assert.equal(proxy.upstreamBookings(), 0, name);
      for (const line of proxy.logger.lines) assert.ok(!JSON.stringify(line).includes(SECRET), `${name}: logged`);
    }
    assert.equal((await here.checks()).turnstile_unavailable, 2);
  });
});

describe('Turnstile settings', () => {
  test('one of the site key and the secret alone is refused at start, the secret never echoed', () => {
    for (const env of [{ VENUE_BOOKING_TURNSTILE_SITE_KEY: SITE_KEY }, { VENUE_BOOKING_TURNSTILE_SECRET: SECRET }]) {
      assert.throws(
        () => configFromEnv(env),
        (error: Error) =>
          error instanceof ConfigError &&
          /VENUE_BOOKING_TURNSTILE_SITE_KEY and VENUE_BOOKING_TURNSTILE_SECRET/.test(error.message) &&
          !error.message.includes(SECRET),
      );
    }
    assert.equal(
      configFromEnv({ VENUE_BOOKING_TURNSTILE_SITE_KEY: SITE_KEY, VENUE_BOOKING_TURNSTILE_SECRET: SECRET }).settings
        .turnstileSecret,
      SECRET,
    );
  });
});
