/**
 * The embed studio and the status page as the proxy renders them: choices checked against what
 * the proxy allows (and what is not, left out and said), everything escaped, one snippet with the
 * integrity hash, a preconnect and the fallback inside, a strict CSP whose nonce is the only way a
 * script runs, no upstream call and no fetch of what a user typed; the sites that loaded the widget
 * recently, refused ones with the setting that fixes them; and the status page's figures.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Metrics } from '../../proxy/core/metrics.js';
import { integrityOf } from '../../proxy/routes/script.js';
import { snippetOf, studioChoices } from '../../proxy/routes/studio.js';
import { configFromEnv } from '../../proxy/env.js';
import { MAX_ORIGINS, RecentOrigins } from '../../proxy/state/recent-origins.js';
import { freePort, runBin } from './node-bin.js';
import {
  okScript,
  ORIGIN,
  OTHER_VENUE,
  postJson,
  recordingProxy,
  upstreamJson,
  VENUE,
  type Script,
} from './support.js';

const SCRIPT = new TextEncoder().encode(
  'customElements.define("venue-booking", class extends HTMLElement {});',
) as Uint8Array<ArrayBuffer>;
const OFFER = { venues: [VENUE, OTHER_VENUE], groups: ['64a1f0c2e4b0a1b2c3d4e500'] };

/** A proxy with the widget bundle and no public URL, asked from this machine (`local`). */
function studioProxy(script?: Script) {
  const metrics = new Metrics();
  const { proxy, calls } = recordingProxy(
    {
      widgetScript: SCRIPT,
      peerAddress: () => '127.0.0.1',
      metrics,
      publicUrl: undefined,
    },
    script,
  );
  const local = (path: string, init: RequestInit = {}) =>
    proxy.fetch(new Request(`http://localhost:8080${path}`, init));
  return { local, calls, metrics };
}

describe('the studio’s choices', () => {
  test('keep what the proxy allows, and name what they leave out', () => {
    const query = new URLSearchParams(
      'venue=64a1f0c2e4b0a1b2c3d4e502&venue=64a1f0c2e4b0a1b2c3d4e599&mode=popup&theme=neon&locale=fr&accent=%23AB12CD&text=red&steps=date,type,time,num_people&num-people=4&date=2030-02-30x&time=19:30&link=javascript:alert(1)&phone=%2B44%2020%207946%200000',
    );
    const { choices, problems } = studioChoices(query, OFFER);
    assert.deepEqual(choices.venues, [OTHER_VENUE]);
    assert.equal(choices.mode, 'popup');
    assert.equal(choices.theme, 'light');
    assert.equal(choices.locale, 'fr');
    assert.deepEqual(choices.colours, { accent: '#ab12cd' });
    assert.equal(choices.steps, 'date,type,time,num_people');
    assert.equal(choices.numPeople, 4);
    assert.equal(choices.date, null);
    assert.equal(choices.time, '19:30');
    assert.equal(choices.link, null);
    assert.equal(choices.phone, '+44 20 7946 0000');
    assert.deepEqual(problems.map((problem) => problem.split(':')[0]).sort(), [
      'date',
      'link',
      'text',
      'theme',
      'venue',
    ]);
  });

  test('make one snippet: preconnect, the script with its integrity, the colours, the element with its fallback', async () => {
    const { choices } = studioChoices(
      new URLSearchParams(
        'venue=64a1f0c2e4b0a1b2c3d4e501&accent=%23112233&link=https://venue.example/book&num-people=2',
      ),
      OFFER,
    );
    const integrity = await integrityOf(SCRIPT);
    assert.equal(
      snippetOf(choices, 'https://book.example.com', integrity),
      [
        '<link rel="preconnect" href="https://book.example.com" crossorigin>',
        `<script type="module" src="https://book.example.com/venue-booking.js" integrity="${integrity}" crossorigin="anonymous"></script>`,
        '<style>venue-booking { --vb-accent: #112233; }</style>',
        `<venue-booking venue="${VENUE}" api="https://book.example.com/api" num-people="2">`,
        '  <p>Please <a href="https://venue.example/book">book on our booking page</a>.</p>',
        '</venue-booking>',
      ].join('\n'),
    );
  });
});

describe('GET /embed', () => {
  test('a strict CSP: every script has a src and the answer’s nonce, no inline style; no call but the venues’ names', async () => {
    const { local, calls } = studioProxy();
    const response = await local('/embed?link=http://upstream.internal/v4/steal&venue=64a1f0c2e4b0a1b2c3d4e501');
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-/);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    assert.equal(scripts.length, 2, 'the widget and the studio');
    for (const tag of scripts) {
      assert.match(tag, / src="[^"]+"/);
      assert.ok(tag.includes(`nonce="${nonce}"`), tag);
    }
    assert.doesNotMatch(html, /<script>|\sstyle="|<style/, 'nothing inline');
    // What the preview does not show: the widget takes the font of the page it is on.
    assert.match(html, /on your site the widget takes your page’s font/);
    assert.match(html, new RegExp(`integrity="${(await integrityOf(SCRIPT)).replace(/[+/]/g, '\\$&')}"`));
    // The studio reads the venues' names (once an hour), and never what a user typed.
    assert.deepEqual(
      calls.map((call) => new URL(call.url).pathname),
      [`/v4/venues/${VENUE}`, `/v4/venues/${OTHER_VENUE}`],
    );
    const again0 = calls.length;
    await local('/embed?link=http://upstream.internal/v4/steal');
    assert.equal(calls.length, again0, 'the names come from the cache');
    // A second answer gets a fresh nonce.
    const again = (await local('/embed')).headers.get('content-security-policy')!;
    assert.notEqual(/'nonce-([^']+)'/.exec(again)![1], nonce);
  });

  test("names the proxy's venues as the upstream does, escaped", async () => {
    const { local } = studioProxy((request, body) =>
      new URL(request.url).pathname === `/v4/venues/${VENUE}`
        ? upstreamJson({ venue: { _id: VENUE, title: 'The Crown & <Anchor>' } })
        : okScript(request, body),
    );
    const html = await (await local('/embed')).text();
    assert.match(html, new RegExp(`value="${VENUE}" checked> The Crown &amp; &lt;Anchor&gt; <code>${VENUE}</code>`));
    assert.match(html, new RegExp(`value="${OTHER_VENUE}"> Venue <code>${OTHER_VENUE}</code>`));
  });

  test('escapes what a user typed, wherever it lands', async () => {
    const { local } = studioProxy();
    const html = await (
      await local('/embed?phone=%2B44%20%3Cb%3E&link=https://venue.example/%22%3E%3Cscript%3Ealert(1)%3C/script%3E')
    ).text();
    assert.doesNotMatch(html, /<script>alert|"><script/);
    assert.match(html, /https:\/\/venue\.example\/%22%3E%3Cscript%3Ealert\(1\)%3C\/script%3E/);
  });

  test('lists the sites that loaded the widget: a refused one with the setting that lets it in', async () => {
    const { local } = studioProxy();
    await local('/venue-booking.js', { headers: { origin: 'https://new-site.example' } });
    assert.equal(
      (await local(`/api/venues/${VENUE}/offers`, { headers: { origin: 'https://new-site.example' } })).status,
      403,
    );
    assert.equal((await local(`/api/venues/${VENUE}/offers`, { headers: { origin: ORIGIN } })).status, 200);
    await local('/api/bookings', postJson({}, { origin: '<img src=x>' }));
    const html = await (await local('/embed')).text();
    const table = /<table id="origins-table">[\s\S]*?<\/table>/.exec(html)![0];
    const rows = [
      ...table.matchAll(/<tr><th scope="row"><code>([^<]+)<\/code><\/th><td class="(\w+)">\w+<\/td><td>(\d+)<\/td>/g),
    ].map((match) => [match[1], match[2], Number(match[3])]);
    assert.deepEqual(rows, [
      [ORIGIN, 'allowed', 1],
      ['https://new-site.example', 'refused', 2],
    ]);
    assert.match(table, /VENUE_BOOKING_ORIGINS=https:\/\/venue\.example,https:\/\/new-site\.example/);
    assert.doesNotMatch(html, /<img src=x>/);
  });

  test('keeps a bounded list, the most recent first', () => {
    let now = 0;
    const origins = new RecentOrigins(() => ++now);
    for (let i = 0; i < MAX_ORIGINS + 10; i++) origins.note(`https://site-${i}.example`, false);
    origins.note('https://site-20.example', true);
    origins.note('not an origin', true);
    origins.note(`https://${'a'.repeat(300)}.example`, true);
    const list = origins.list();
    assert.equal(list.length, MAX_ORIGINS);
    assert.deepEqual(list[0], {
      origin: 'https://site-20.example',
      allowed: true,
      requests: 2,
      firstSeen: 21,
      lastSeen: MAX_ORIGINS + 11,
    });
    // The ten seen first are forgotten.
    assert.equal(list.at(-1)!.origin, 'https://site-10.example');
  });
});

describe('an honest site list (issue 24, finding 2)', { timeout: 120_000 }, () => {
  /** The site list's rows: origin, kind, requests. */
  const rowsOf = (html: string) => {
    const table = /<table id="origins-table">[\s\S]*?<\/table>/.exec(html)![0];
    return [
      ...table.matchAll(/<tr><th scope="row"><code>([^<]+)<\/code><\/th><td class="(\w+)">\w+<\/td><td>(\d+)<\/td>/g),
    ].map((match) => [match[1], match[2], Number(match[3])] as const);
  };

  test('the settings take any spelling of an origin and keep the canonical one', () => {
    const { settings } = configFromEnv({
      VENUE_BOOKING_ORIGINS:
        'HTTPS://Venue.Example:443/, http://shop.example:80,https://venue.example,https://bücher.example',
    });
    assert.deepEqual(settings.origins, [
      'https://venue.example',
      'http://shop.example',
      'https://xn--bcher-kva.example',
    ]);
    for (const bad of ['https://venue.example/path', 'ftp://venue.example', 'https://user@venue.example', 'null'])
      assert.throws(() => configFromEnv({ VENUE_BOOKING_ORIGINS: bad }), /is not an origin/, bad);
  });

  test('another spelling of an allowed origin is that origin: allowed, listed once, canonical', async () => {
    const { local } = studioProxy();
    for (const origin of ['HTTPS://VENUE.EXAMPLE', 'https://venue.example:443', 'https://Venue.Example'])
      assert.equal((await local(`/api/venues/${VENUE}/offers`, { headers: { origin } })).status, 200, origin);
    const html = await (await local('/embed')).text();
    assert.deepEqual(rowsOf(html), [[ORIGIN, 'allowed', 3]]);
    assert.match(html, /an entry is a claim, not proof of a visit/);
  });

  test('forged refused origins never push out an allowed one', async () => {
    const { local } = studioProxy();
    await local(`/api/venues/${VENUE}/offers`, { headers: { origin: ORIGIN } });
    for (let i = 0; i < MAX_ORIGINS * 2; i++)
      await local(`/api/venues/${VENUE}/offers`, { headers: { origin: `https://forged-${i}.example` } });
    const rows = rowsOf(await (await local('/embed')).text());
    assert.deepEqual(
      rows.find(([origin]) => origin === ORIGIN),
      [ORIGIN, 'allowed', 1],
    );
    assert.equal(rows.filter(([, kind]) => kind === 'refused').length, MAX_ORIGINS);
  });

  test('every suggested settings line starts the proxy (the real bin, started with it)', async () => {
    const { local } = studioProxy();
    const claimed = [
      'HTTP://Evil.Example:80',
      'https://bücher.example',
      'http://[::1]:8080',
      'https://trailing.example.',
    ];
    for (const origin of claimed) await local(`/api/venues/${VENUE}/offers`, { headers: { origin } });
    const html = await (await local('/embed')).text();
    assert.deepEqual(
      rowsOf(html).map(([origin]) => origin),
      ['https://trailing.example.', 'http://[::1]:8080', 'https://xn--bcher-kva.example', 'http://evil.example'],
    );
    const lines = [...html.matchAll(/<code>(VENUE_BOOKING_ORIGINS=[^<]+)<\/code>/g)].map((match) => match[1]!);
    assert.equal(lines.length, claimed.length);
    const started = await Promise.all(
      lines.map(async (line) => {
        const port = await freePort();
        const value = line.slice(line.indexOf('=') + 1);
        const run = await runBin(
          { PORT: String(port), VENUE_BOOKING_ORIGINS: value },
          [],
          /(Add the widget|not built)[^\n]*\n/,
        );
        run.stop();
        return { line, code: run.code, out: run.out };
      }),
    );
    for (const { line, code, out } of started) {
      assert.equal(code, null, `${line}: ${out}`);
      assert.doesNotMatch(out, /is not an origin/, line);
    }
  });
});

describe('GET /status', () => {
  test('calls left, the bookings they carry, the hit ratio and refusals by reason', async () => {
    const { local } = studioProxy();
    await local(`/api/venues/${VENUE}/offers`);
    await local(`/api/venues/${VENUE}/offers`);
    await local(`/api/venues/${VENUE}/offers`);
    await local(`/api/venues/${VENUE}/offers`, { headers: { origin: 'https://nope.example' } });
    const response = await local('/status');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-security-policy')!, /script-src 'none'/);
    const html = await response.text();
    const figure = (id: string) => new RegExp(`id="${id}">[^<]+</h2><p class="figure">([^<]+)</p>`).exec(html)?.[1];
    // No quota reported by this upstream: the budget's count (5000 less the one call).
    assert.equal(figure('calls'), '4,999');
    assert.equal(figure('carried'), '1,999', 'at 2.5 calls a booking until one is made');
    assert.equal(figure('hits'), '66.7 %');
    assert.match(html, /<th scope="row">forbidden_origin<\/th><td>1<\/td>/);
    assert.match(html, /Shared store: <strong>in this process/);
  });
});
