/**
 * The embed studio and the status page as the proxy renders them: choices checked against what
 * the proxy allows (and what is not, left out and said), everything escaped, one snippet with the
 * integrity hash, a preconnect and the fallback inside, a strict CSP whose nonce is the only way a
 * script runs, no upstream call and no fetch of what a user typed; the sites that loaded the widget
 * recently, refused ones with the setting that fixes them; and the status page's figures.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ProxyConfig } from '../../proxy/config.js';
import { Metrics } from '../../proxy/core/metrics.js';
import { integrityOf } from '../../proxy/core/encoding.js';
import { contrastRatio, contrastWarnings, readableOn } from '../../proxy/pages/colours.js';
import { elementOf, fallbackOf, styleRuleOf, widgetSnippet } from '../../proxy/pages/snippet.js';
import { studioChoices, type StudioOffer } from '../../proxy/pages/studio-form.js';
import { studioClient, studioScript } from '../../proxy/pages/studio-client.js';
import { configFromEnv } from '../../proxy/env.js';
import { MAX_ORIGINS, RecentOrigins } from '../../proxy/state/recent-origins.js';
import { freePort, runBin } from './node-bin.js';
import {
  okScript,
  ORIGIN,
  OTHER_VENUE,
  postJson,
  recordingProxy,
  TYPE,
  upstreamJson,
  VENUE,
  type Script,
} from './support.js';

const SCRIPT = new TextEncoder().encode(
  'customElements.define("venue-booking", class extends HTMLElement {});',
) as Uint8Array<ArrayBuffer>;
const TABLE = { id: TYPE, name: 'Table', minPeople: 2, maxPeople: 8 };
const OFFER: StudioOffer = {
  venues: [
    { id: VENUE, title: 'Harbour', types: [TABLE] },
    {
      id: OTHER_VENUE,
      title: 'Cellar',
      types: [{ id: 'cellar-party', name: 'Cellar Party', minPeople: 15, maxPeople: 50 }],
    },
  ],
  groups: [{ id: '64a1f0c2e4b0a1b2c3d4e500', venues: [{ id: VENUE, title: 'Harbour' }] }],
};
const TODAY = '2026-11-27';

/** The venue record the upstream gives: a name and one booking type. */
const venueScript: Script = (request, body) =>
  new URL(request.url).pathname === `/v4/venues/${VENUE}`
    ? upstreamJson({
        venue: {
          _id: VENUE,
          title: 'The Crown & <Anchor>',
          booking_types: [{ id: TYPE, name: 'Table', rules: { min_people: 2, max_people: 8 } }],
        },
      })
    : okScript(request, body);

/** A proxy with the widget bundle and no public URL, asked from this machine (`local`). */
function studioProxy(script?: Script, overrides: Partial<ProxyConfig> = {}) {
  const metrics = new Metrics();
  const { proxy, calls } = recordingProxy(
    {
      widgetScript: SCRIPT,
      peerAddress: () => '127.0.0.1',
      metrics,
      publicUrl: undefined,
      ...overrides,
    },
    script,
  );
  const local = (path: string, at: string | RequestInit = 'http://localhost:8080', init: RequestInit = {}) =>
    typeof at === 'string'
      ? proxy.fetch(new Request(`${at}${path}`, init))
      : proxy.fetch(new Request(`http://localhost:8080${path}`, at));
  return { local, calls, metrics };
}

describe('the studio’s choices', () => {
  test('keep what the proxy allows and the venue takes, and name what they leave out', () => {
    const query = new URLSearchParams(
      'venue=64a1f0c2e4b0a1b2c3d4e502&venue=64a1f0c2e4b0a1b2c3d4e599&mode=popup&theme=neon&locale=fr&accent=%23AB12CD&text=red&steps=date,type,time,num_people&num-people=20&date=2030-02-30&time=19:30&link=javascript:alert(1)&phone=%2B44%2020%207946%200000',
    );
    const { choices, problems } = studioChoices(query, OFFER, TODAY);
    assert.deepEqual(choices.venues, [OTHER_VENUE]);
    assert.equal(choices.mode, 'popup');
    assert.equal(choices.theme, 'light');
    assert.equal(choices.locale, 'fr');
    assert.deepEqual(choices.colours, { accent: '#ab12cd' });
    assert.equal(choices.steps, 'date,type,time,num_people');
    assert.equal(choices.numPeople, 20, 'the Cellar takes parties of 15 to 50');
    assert.equal(choices.date, null);
    assert.equal(choices.time, '19:30');
    assert.equal(choices.link, null);
    assert.equal(choices.phone, '+44 20 7946 0000');
    assert.deepEqual(problems.map((problem) => problem.split(':')[0]).sort(), [
      'Day',
      'Text',
      'Theme',
      'Venue',
      'Your booking page',
    ]);
  });

  test('take a booking type only by the id of one the chosen venue offers, and a party size it takes', () => {
    const typed = studioChoices(new URLSearchParams(`venue=${VENUE}&type=Table&num-people=2`), OFFER, TODAY);
    assert.equal(typed.choices.type, null, 'a name typed as the id is refused');
    assert.deepEqual(typed.problems, ['Booking type: not one of the choices']);
    const other = studioChoices(new URLSearchParams(`venue=${VENUE}&type=cellar-party`), OFFER, TODAY);
    assert.equal(other.choices.type, null, 'another venue’s type is refused');
    const right = studioChoices(new URLSearchParams(`venue=${VENUE}&type=${TYPE}&num-people=9`), OFFER, TODAY);
    assert.equal(right.choices.type, TYPE);
    assert.equal(right.choices.numPeople, null);
    assert.deepEqual(right.problems, ['Party size: from 2 to 8 for this choice']);
    const past = studioChoices(new URLSearchParams(`venue=${VENUE}&date=2026-11-26`), OFFER, TODAY);
    assert.deepEqual(past.problems, ['Day: a date from today on']);
    const group = studioChoices(new URLSearchParams(`group=64a1f0c2e4b0a1b2c3d4e500&type=${TYPE}`), OFFER, TODAY);
    assert.equal(group.choices.type, TYPE, 'a group offers its venues’ types');
  });

  test('make one snippet: preconnect, preload, the script with its integrity, the colours, the element with its fallback', async () => {
    const { choices } = studioChoices(
      new URLSearchParams(`venue=${VENUE}&accent=%23112233&link=https://venue.example/book&num-people=2`),
      OFFER,
      TODAY,
    );
    const integrity = await integrityOf(SCRIPT);
    const base = 'https://book.example.com';
    assert.equal(
      widgetSnippet(`${base}/venue-booking.js`, integrity, [
        styleRuleOf(choices.colours)!,
        elementOf(choices, `${base}/api`, fallbackOf(choices, `${base}/book/${VENUE}`)),
      ]),
      [
        '<link rel="preconnect" href="https://book.example.com" crossorigin>',
        `<link rel="modulepreload" href="https://book.example.com/venue-booking.js" integrity="${integrity}" crossorigin="anonymous">`,
        `<script type="module" src="https://book.example.com/venue-booking.js" integrity="${integrity}" crossorigin="anonymous"></script>`,
        '<style>venue-booking { --vb-accent: #112233; }</style>',
        `<venue-booking venue="${VENUE}" api="https://book.example.com/api" num-people="2">`,
        '  <p>Please <a href="https://venue.example/book">book on our booking page</a>.</p>',
        '</venue-booking>',
      ].join('\n'),
    );
    // Without a page of the venue's own, the fallback points to its booking page here.
    assert.equal(
      fallbackOf({ link: null, phone: null, locale: 'en-GB' }, `${base}/book/${VENUE}`),
      `<p>Please <a href="${base}/book/${VENUE}">book on our booking page</a>.</p>`,
    );
  });

  test('says the fallback in the widget’s language: the snippet’s, the booking page’s', async () => {
    const page = 'https://book.example.com/book/x';
    assert.equal(
      fallbackOf({ link: null, phone: '+44 20 7946 0000', locale: 'fr' }, page),
      `<p>Pour réserver, <a href="${page}">rendez-vous sur notre page de réservation</a> ou appelez le <a href="tel:+442079460000">+44 20 7946 0000</a>.</p>`,
    );
    assert.equal(
      fallbackOf({ link: null, phone: '030 1234 5678', locale: 'de' }, null),
      '<p>Bitte rufen Sie uns unter <a href="tel:03012345678">030 1234 5678</a> an.</p>',
    );
    assert.equal(
      fallbackOf({ link: null, phone: null, locale: 'nl' }, null),
      '<p>Neem contact met ons op om een tafel te reserveren.</p>',
    );
    const { local } = studioProxy(venueScript);
    const html = await (await local(`/embed?venue=${VENUE}&locale=es&phone=%2B34%20912%20345%20678`)).text();
    assert.ok(
      html.includes(
        '&lt;p&gt;Para reservar, &lt;a href=&quot;http://localhost:8080/book/64a1f0c2e4b0a1b2c3d4e501?locale=es&quot;&gt;visite nuestra página de reservas&lt;/a&gt; o llame al &lt;a href=&quot;tel:+34912345678&quot;&gt;+34 912 345 678&lt;/a&gt;.&lt;/p&gt;',
      ),
      'the snippet’s fallback in Spanish',
    );
  });
});

describe('the contrast check', () => {
  test('computes WCAG ratios and warns on the issue’s dark #8b1f3a, in the theme it is shown in', () => {
    assert.equal(contrastRatio('#000000', '#ffffff').toFixed(2), '21.00');
    assert.equal(contrastRatio('#0b1a26', '#8b1f3a').toFixed(2), '1.98');
    assert.equal(readableOn('#8b1f3a'), '#ffffff');
    assert.equal(readableOn('#8cc4ec'), '#000000');
    assert.deepEqual(contrastWarnings({}, 'auto'), [], 'the defaults pass in both themes');
    const dark = contrastWarnings({ accent: '#8b1f3a' }, 'dark');
    assert.deepEqual(
      dark.map((warning) => [warning.theme, warning.ratio.toFixed(2), warning.needed]),
      [['dark', '1.96', 3]],
    );
    assert.deepEqual(contrastWarnings({ accent: '#8b1f3a' }, 'light'), [], 'readable in the light theme');
    const text = contrastWarnings({ accent: '#8b1f3a', 'accent-text': '#0b1a26' }, 'auto');
    assert.deepEqual(
      text.map((warning) => [warning.theme, warning.what.split(' ')[1], warning.ratio.toFixed(2)]),
      [
        ['light', 'text', '1.98'],
        ['dark', 'text', '1.98'],
        ['dark', 'main', '1.96'],
      ],
    );
  });
});

describe('the studio’s script', () => {
  test('is served as its own function’s source, which uses nothing but the browser’s globals', () => {
    const script = studioScript();
    assert.ok(script.includes(`(${studioClient.toString()})();`));
    // It parses as a script on its own (a missing import would be a free name at run time, which
    // the browser tests catch; a syntax slip is caught here).
    assert.doesNotThrow(() => new Function(script));
    assert.doesNotMatch(script, /\bimport\b|\brequire\(/);
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
    const { local } = studioProxy(venueScript);
    const html = await (await local('/embed')).text();
    assert.match(html, new RegExp(`value="${VENUE}" checked> The Crown &amp; &lt;Anchor&gt;</label>`));
    assert.match(html, new RegExp(`value="${OTHER_VENUE}"> A venue \\(its name cannot be read right now\\)</label>`));
    // Its booking types by name, in a select: never a box to type an id into.
    assert.match(
      html,
      new RegExp(
        `<select name="type"><option value="" selected>Let the guest choose</option><option value="${TYPE}">Table</option></select>`,
      ),
    );
    assert.doesNotMatch(html, /<input type="text" name="type"/);
    assert.match(html, /<input type="number" name="num-people" min="2" max="8"/);
    // Not the sandbox: no practice banner, and the preview is said to book for real.
    assert.doesNotMatch(html, /Practice mode/);
    assert.match(html, /it books for real/);
  });

  test('says practice mode on the sandbox, and warns on colours that are hard to read', async () => {
    const { local } = studioProxy(venueScript, { practice: true });
    const html = await (await local(`/embed?venue=${VENUE}&theme=dark&accent=%238b1f3a`)).text();
    assert.match(html, /<p class="practice" role="note">Practice mode: bookings here are not real\./);
    assert.doesNotMatch(html, /books for real|bookings made there are real/);
    assert.match(
      html,
      /<div id="contrast" role="status"><p class="warning">Hard to read in the dark theme: the main colour against the background \(the outline that shows where the keyboard is, the chosen day\) has a contrast of 1\.96:1/,
    );
    const fine = await (await local(`/embed?venue=${VENUE}&theme=light&accent=%238b1f3a`)).text();
    assert.match(fine, /<div id="contrast" role="status"><\/div>/);
  });

  test('names the address it was opened at, unless a public address is configured', async () => {
    const derived = studioProxy(venueScript, { publicUrl: 'http://localhost:8787', publicUrlDerived: true });
    const opened = await (await derived.local('/embed', 'http://127.0.0.1:8787')).text();
    assert.match(opened, /src=&quot;http:\/\/127\.0\.0\.1:8787\/venue-booking\.js&quot;/);
    assert.doesNotMatch(opened, /localhost:8787/);
    const configured = studioProxy(venueScript, { publicUrl: 'https://book.example.com' });
    const html = await (await configured.local('/embed', 'http://127.0.0.1:8787')).text();
    assert.match(html, /src=&quot;https:\/\/book\.example\.com\/venue-booking\.js&quot;/);
    assert.match(html, /href="https:\/\/book\.example\.com\/book\/64a1f0c2e4b0a1b2c3d4e501"/);
    assert.match(
      html,
      /href="https:\/\/book\.example\.com\/embed\/wordpress-plugin\.zip\?venue=64a1f0c2e4b0a1b2c3d4e501"/,
    );
    assert.match(
      html,
      /<svg role="img" aria-label="QR code of https:\/\/book\.example\.com\/book\/64a1f0c2e4b0a1b2c3d4e501\?via=qr"/,
    );
  });

  test('escapes what a user typed, wherever it lands', async () => {
    const { local } = studioProxy();
    const html = await (
      await local('/embed?phone=%2B44%20%3Cb%3E&link=https://venue.example/%22%3E%3Cscript%3Ealert(1)%3C/script%3E')
    ).text();
    assert.doesNotMatch(html, /<script>alert|"><script/);
    assert.match(html, /https:\/\/venue\.example\/%22%3E%3Cscript%3Ealert\(1\)%3C\/script%3E/);
  });

  test('lists the sites that loaded the widget, by page views: a refused one with the setting that lets it in', async () => {
    const { local } = studioProxy();
    // One page view each (the script), whatever the calls its page makes after.
    await local('/venue-booking.js', { headers: { origin: 'https://new-site.example' } });
    await local('/venue-booking.js', { headers: { origin: ORIGIN } });
    assert.equal(
      (await local(`/api/venues/${VENUE}/offers`, { headers: { origin: 'https://new-site.example' } })).status,
      403,
    );
    assert.equal((await local(`/api/venues/${VENUE}/offers`, { headers: { origin: ORIGIN } })).status, 200);
    assert.equal((await local(`/api/venues/${VENUE}`, { headers: { origin: ORIGIN } })).status, 200);
    await local('/api/bookings', postJson({}, { origin: '<img src=x>' }));
    const html = await (await local('/embed')).text();
    const table = /<table id="origins-table"[^>]*>[\s\S]*?<\/table>/.exec(html)![0];
    const rows = [
      ...table.matchAll(
        /<tr><th scope="row"><code>([^<]+)<\/code><\/th><td class="(\w+)" data-label="Widget">[^<]+<\/td><td data-label="Page views">(\d+)<\/td>/g,
      ),
    ].map((match) => [match[1], match[2], Number(match[3])]);
    assert.deepEqual(rows, [
      [ORIGIN, 'allowed', 1],
      ['https://new-site.example', 'refused', 1],
    ]);
    assert.match(table, /<th scope="col">Page views<\/th>/);
    assert.match(table, /VENUE_BOOKING_ORIGINS=https:\/\/venue\.example,https:\/\/new-site\.example/);
    assert.doesNotMatch(html, /<img src=x>/);
  });

  test('speaks plain words: the engineering terms only under “For your web person”', async () => {
    const { local } = studioProxy(venueScript);
    await local(`/api/venues/${VENUE}/offers`, { headers: { origin: 'https://new-site.example' } });
    await local(`/api/venues/${VENUE}/offers`, { headers: { origin: 'http://insecure.example' } });
    const html = await (await local(`/embed?venue=${VENUE}&theme=dark&accent=%238b1f3a&accent-text=%230b1a26`)).text();
    const folded = [...html.matchAll(/<details><summary>For your web person<\/summary>[\s\S]*?<\/details>/g)];
    assert.ok(folded.length >= 3, 'the snippet, the setting and the insecure site’s setting are folded away');
    assert.match(folded.map((match) => match[0]).join(''), /HTML snippet[\s\S]*VENUE_BOOKING_ORIGINS=/);
    // What a manager reads: the page's text, without the folded parts, the code itself and the script.
    const read = html
      .replace(/<details>[\s\S]*?<\/details>/g, ' ')
      .replace(/<(textarea|script)\b[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      // Addresses are not words (the booking link's query names the colours).
      .replace(/https?:\/\/\S+/g, ' ');
    for (const word of [
      /snippet/i,
      /proxy/i,
      /accent/i,
      /focus ring/i,
      /chosen values/i,
      /container/i,
      /\.ics/i,
      /claim/i,
    ])
      assert.doesNotMatch(read, word);
    assert.match(read, /The code to paste into your site/);
    assert.match(read, /the outline that shows where the keyboard is/);
    // WordPress Authors cannot create pages: the step says what each role can do.
    assert.doesNotMatch(read, /On any page/);
    assert.match(read, /Authors can do this in their own posts; a new page needs an Editor or an Administrator/);
  });

  test('keeps a bounded list, the most recent first', () => {
    let now = 0;
    const origins = new RecentOrigins(() => ++now);
    for (let i = 0; i < MAX_ORIGINS + 10; i++) origins.note(`https://site-${i}.example`, false, true);
    origins.note('https://site-20.example', true);
    origins.note('not an origin', true, true);
    origins.note(`https://${'a'.repeat(300)}.example`, true, true);
    const list = origins.list();
    assert.equal(list.length, MAX_ORIGINS);
    assert.deepEqual(list[0], {
      origin: 'https://site-20.example',
      allowed: true,
      views: 1,
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
    const table = /<table id="origins-table"[^>]*>[\s\S]*?<\/table>/.exec(html)![0];
    return [
      ...table.matchAll(
        /<tr><th scope="row"><code>([^<]+)<\/code><\/th><td class="(\w+)" data-label="Widget">[^<]+<\/td><td data-label="Page views">(\d+)<\/td>/g,
      ),
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
    for (const origin of ['HTTPS://VENUE.EXAMPLE', 'https://venue.example:443', 'https://Venue.Example']) {
      assert.equal((await local('/venue-booking.js', { headers: { origin } })).status, 200, origin);
      assert.equal((await local(`/api/venues/${VENUE}/offers`, { headers: { origin } })).status, 200, origin);
    }
    const html = await (await local('/embed')).text();
    assert.deepEqual(rowsOf(html), [[ORIGIN, 'allowed', 3]]);
    assert.match(
      html,
      /Each site is named by what its request said about itself, so a site here may never have shown your widget/,
    );
  });

  test('forged refused origins never push out an allowed one', async () => {
    const { local } = studioProxy();
    await local('/venue-booking.js', { headers: { origin: ORIGIN } });
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
    const table = /<table id="origins-table"[^>]*>[\s\S]*?<\/table>/.exec(html)![0];
    const lines = [...table.matchAll(/<code>(VENUE_BOOKING_ORIGINS=[^<]+)<\/code>/g)].map((match) => match[1]!);
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
    const figure = (id: string) => new RegExp(`id="${id}">[^<]+</h3><p class="figure">([^<]+)</p>`).exec(html)?.[1];
    // No quota reported by this upstream: the budget's count (5000 less the one call).
    assert.equal(figure('calls'), '4,999');
    assert.equal(figure('carried'), '1,999', 'at 2.5 calls a booking until one is made');
    assert.equal(figure('hits'), '66.7 %');
    // Plain words: no raw label, no proxy terms; and which service it books on.
    assert.match(
      html,
      /<th scope="row">Widgets on sites that are not allowed \(see the booking widget page\)<\/th><td>1<\/td>/,
    );
    assert.doesNotMatch(html, /forbidden_origin|Upstream calls left|Bookings they carry|Prometheus/);
    assert.match(html, /Shared memory between servers: <strong>kept on this server only/);
    assert.match(html, /Connected to the live booking service: bookings here are real\./);
    assert.match(html, /<meta name="description" content="[^"]+">/);
  });

  test('says practice mode on the sandbox', async () => {
    const html = await (await studioProxy(undefined, { practice: true }).local('/status')).text();
    assert.match(
      html,
      /Practice mode: this server books on a practice copy of the booking service\. Bookings here are not real\./,
    );
    assert.doesNotMatch(html, /bookings here are real/);
  });
});

describe('GET /book/<id>', () => {
  test('the venue’s booking page: its name, the language and colours of the link, the widget inline, open to anyone', async () => {
    const { proxy } = recordingProxy({ widgetScript: SCRIPT, metrics: new Metrics() }, venueScript);
    const response = await proxy.fetch(
      new Request(`http://proxy.test/book/${VENUE}?locale=fr&theme=dark&accent=%23112233&accent-text=%23zzz`),
    );
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy')!;
    const [, scriptNonce] = /script-src 'self' 'nonce-([^']+)'/.exec(csp)!;
    const [, styleNonce] = /style-src 'self' 'nonce-([^']+)'/.exec(csp)!;
    const html = await response.text();
    assert.match(html, /^<!doctype html><html lang="fr">/);
    assert.match(html, /<title>Réserver chez The Crown &amp; &lt;Anchor&gt;<\/title>/);
    assert.match(
      html,
      /<meta name="description" content="Réservez une table chez The Crown &amp; &lt;Anchor&gt; en ligne/,
    );
    assert.match(html, /<h1>Réserver chez The Crown &amp; &lt;Anchor&gt;<\/h1>/);
    assert.match(html, new RegExp(`<venue-booking venue="${VENUE}" api="../api" theme="dark" locale="fr">`));
    assert.ok(html.includes(`<style nonce="${styleNonce}">`), 'the colours in the page’s one style element');
    assert.match(html, /venue-booking \{ --vb-accent: #112233; \}/);
    assert.doesNotMatch(html, /#zzz/, 'what is not a colour is left out');
    assert.ok(html.includes(`nonce="${scriptNonce}"></script>`));
    assert.doesNotMatch(html, /Practice mode|Mode d’essai/);
  });

  test('its stylesheet and QR code are open to anyone; an unknown or refused id gets a 404 page', async () => {
    const { proxy } = recordingProxy({ widgetScript: SCRIPT, practice: true }, venueScript);
    const get = (path: string) => proxy.fetch(new Request(`http://proxy.test${path}`));
    assert.equal((await get('/book/style.css')).status, 200);
    const qr = await get(`/book/${VENUE}/qr.svg?locale=fr`);
    assert.equal(qr.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
    assert.match(
      await qr.text(),
      /aria-label="QR code of http:\/\/proxy\.test\/book\/64a1f0c2e4b0a1b2c3d4e501\?locale=fr&amp;via=qr"/,
    );
    for (const id of ['64a1f0c2e4b0a1b2c3d4e599', 'nope']) {
      const missing = await get(`/book/${id}?locale=de`);
      assert.equal(missing.status, 404, id);
      assert.equal(missing.headers.get('content-type'), 'text/html; charset=utf-8');
      const html = await missing.text();
      assert.match(html, /<html lang="de">/);
      assert.match(html, /<h1>Hier gibt es keine Reservierungsseite<\/h1>/);
      assert.equal((await get(`/book/${id}/qr.svg`)).status, 404);
    }
    const practice = await (await get(`/book/${VENUE}`)).text();
    assert.match(practice, /<p class="practice" role="note">Practice mode: bookings here are not real\.<\/p>/);
  });
});

describe('compression', () => {
  test('HTML and JSON go gzipped to a client that accepts it, and as they are to one that does not', async () => {
    const { local } = studioProxy(venueScript);
    for (const path of ['/embed', '/status', `/book/${VENUE}`, `/api/venues/${VENUE}`]) {
      const plain = await local(path);
      const body = await plain.text();
      assert.equal(plain.headers.get('content-encoding'), null, path);
      const zipped = await local(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(zipped.headers.get('content-encoding'), 'gzip', path);
      assert.match(zipped.headers.get('vary') ?? '', /accept-encoding/i, path);
      const bytes = new Uint8Array(await zipped.arrayBuffer());
      const unzipped = await new Response(
        new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')),
      ).text();
      // The same page (a fresh nonce, the preview's fresh journey and the status page's timings aside), fewer bytes.
      const same = (text: string) =>
        text
          .replace(/nonce(?:-|=")[^"']+/g, '')
          .replace(/preview-[0-9a-f]{12}-/g, '')
          .replace(/[\d.]+ ms\b/g, '');
      assert.equal(same(unzipped), same(body), path);
      if (body.length > 2000)
        assert.ok(bytes.byteLength < body.length / 2, `${path}: ${bytes.byteLength} of ${body.length}`);
    }
  });
});
