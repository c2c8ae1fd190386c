/**
 * The venue profile in the venue-facing pages, through the real app: the studio's "Your venue"
 * form saved by a same-origin POST (a cross-site one refused), bad input shown again with what was
 * typed and each problem beside its field, every save logged without the contact in the line, the
 * saved look where the studio and the booking page start; the booking page's address, phone,
 * email, link preview tags and canonical address, its fallback with no link to itself, the
 * redirect of another public name, and this machine's other name working to "Book now".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProxyConfig } from '../../proxy/config.js';
import { StoreRecords } from '../../proxy/state/records.js';
import {
  GROUP,
  OTHER_VENUE,
  okScript,
  postJson,
  recordingProxy,
  TYPE,
  upstreamJson,
  validBooking,
  VENUE,
} from './support.js';
import type { Script } from './support.js';

const SCRIPT = new TextEncoder().encode(
  'customElements.define("venue-booking", class extends HTMLElement {});',
) as Uint8Array<ArrayBuffer>;
const STUDIO = 'http://localhost:8080';

/** The upstream's venues (names and a type) and the group's list. */
const venues: Script = (request, body) => {
  const url = new URL(request.url);
  const venue = (id: string, title: string) =>
    upstreamJson({
      venue: { _id: id, title, booking_types: [{ id: TYPE, name: 'Table', rules: { min_people: 2, max_people: 8 } }] },
    });
  if (url.pathname === `/v4/venues/${VENUE}`) return venue(VENUE, 'The Crown & <Anchor>');
  if (url.pathname === `/v4/venues/${OTHER_VENUE}`) return venue(OTHER_VENUE, 'The Cellar');
  if (url.pathname === '/v4/venues' && url.searchParams.get('venue_group') === GROUP)
    return upstreamJson({
      pages: [
        { _id: VENUE, title: 'The Crown & <Anchor>' },
        { _id: OTHER_VENUE, title: 'The Cellar' },
      ],
    });
  return okScript(request, body);
};

/** A proxy with the bundle, asked from this machine with no public URL (the studio's own origin is the request's). */
function pages(overrides: Partial<ProxyConfig> = {}) {
  const made = recordingProxy(
    { widgetScript: SCRIPT, peerAddress: () => '127.0.0.1', publicUrl: undefined, venueGroups: [GROUP], ...overrides },
    venues,
  );
  const get = (path: string, init: RequestInit = {}, at = STUDIO) =>
    made.proxy.fetch(new Request(`${at}${path}`, init));
  /** The studio's form as a browser posts it from the studio's own page (or `origin`'s). */
  const post = (fields: Record<string, string>, origin = STUDIO, extra: Record<string, string> = {}) =>
    get('/embed/profile', {
      method: 'POST',
      headers: {
        origin,
        'sec-fetch-site': origin === STUDIO ? 'same-origin' : 'cross-site',
        'content-type': 'application/x-www-form-urlencoded',
        ...extra,
      },
      body: new URLSearchParams(fields).toString(),
    });
  return { ...made, get, post };
}

const FORM = {
  venue: VENUE,
  studio: `venue=${VENUE}&theme=dark&accent=%237a1f2b&locale=fr`,
  phone: '+44 20 7946 0000',
  email: 'bookings@crown.example',
  address: '1 Quay Street\nBristol BS1 4DJ',
  'cancel-online': 'on',
  'hours-before': '24',
};

describe('the studio’s “Your venue”', () => {
  it('shows a form per venue chosen, labels tied to their fields, and that memory-only changes end with a restart', async () => {
    const { get } = pages();
    const html = await (await get(`/embed?group=${GROUP}`)).text();
    assert.match(html, /<h2 id="venue-title">Your venue<\/h2>/);
    for (const venue of [VENUE, OTHER_VENUE]) {
      assert.ok(
        html.includes(`<form class="venue-profile" id="profile-${venue}-form" method="post" action="embed/profile"`),
      );
      for (const field of ['phone', 'email', 'address', 'hours-before'])
        assert.ok(html.includes(`<label for="profile-${venue}-${field}">`), `${venue} ${field}`);
    }
    assert.match(html, /<h3 id="profile-[^"]+-title">The Crown &amp; &lt;Anchor&gt;<\/h3>/);
    assert.match(html, /Changes here last until the booking service restarts\./);
    assert.match(
      html,
      /<summary>For your web person<\/summary><p>To keep them, set <code>VENUE_BOOKING_DATA_FILE<\/code>/,
    );
    assert.match(html, /VENUE_BOOKING_REDIS_URL/);
  });

  it('saves a same-origin POST, comes back to the studio with its query and “Saved”, and logs it without the contact', async () => {
    const { get, post, logger } = pages();
    const saved = await post(FORM);
    assert.equal(saved.status, 303);
    const location = saved.headers.get('location')!;
    assert.equal(
      location,
      `../embed?venue=${VENUE}&theme=dark&accent=%237a1f2b&locale=fr&saved=${VENUE}#profile-${VENUE}-form`,
    );
    const profile = await (await get(`/api/venues/${VENUE}/profile`)).json();
    assert.equal(profile.phone, '+44 20 7946 0000');
    assert.equal(profile.address, '1 Quay Street\nBristol BS1 4DJ');
    assert.deepEqual(profile.cancellation, { online: true, hours_before: 24 });
    assert.deepEqual(
      profile.look,
      { theme: null, colours: {}, booking_type: null, locale: null },
      'the look only when asked',
    );
    const back = new URL(location, `${STUDIO}/embed/profile`);
    const studio = await (await get(`${back.pathname}${back.search}`)).text();
    assert.match(studio, /<p class="allowed" role="status">Saved\.<\/p>/);
    assert.ok(studio.includes('value="+44 20 7946 0000"'));
    assert.ok(studio.includes('>1 Quay Street\nBristol BS1 4DJ</textarea>'));
    const line = logger.lines.find((entry) => entry.msg === 'venue profile saved')!;
    assert.deepEqual(
      { venue: line.venue, by: line.by, set: line.set },
      { venue: VENUE, by: 'studio', set: 'phone,email,address' },
    );
    assert.doesNotMatch(JSON.stringify(logger.lines), /7946|crown\.example|Quay/);
  });

  it('refuses a cross-site POST, and a venue this proxy does not serve', async () => {
    const { get, post } = pages();
    const refused = await post(FORM, 'https://evil.example');
    assert.equal(refused.status, 403);
    assert.equal((await get(`/api/venues/${VENUE}/profile`)).status, 404, 'nothing saved');
    assert.equal((await post({ ...FORM, venue: '64a1f0c2e4b0a1b2c3d4e599' })).status, 404);
  });

  it('shows bad input again with what was typed, each problem beside its field, and keeps nothing', async () => {
    const { get, post } = pages();
    const answer = await post({ ...FORM, phone: 'call <us>', email: 'nope', 'hours-before': 'soon' });
    assert.equal(answer.status, 422);
    const html = await answer.text();
    assert.ok(html.includes(`value="call &lt;us&gt;"`), 'the phone as typed, escaped');
    assert.ok(html.includes('value="nope"'));
    assert.ok(html.includes('value="soon"'));
    assert.ok(html.includes('>1 Quay Street\nBristol BS1 4DJ</textarea>'), 'the address kept');
    assert.match(html, /name="cancel-online" checked/);
    assert.match(
      html,
      new RegExp(
        `id="profile-${VENUE}-phone" name="phone" value="call &lt;us&gt;" aria-describedby="profile-${VENUE}-phone-problem" aria-invalid="true".*?<p class="problem" id="profile-${VENUE}-phone-problem">Write the phone number with digits, spaces and \\+ only\\.</p>`,
      ),
    );
    assert.match(html, /id="profile-[^"]+-email-problem">Write an email address such as bookings@example\.com\./);
    assert.match(html, /id="profile-[^"]+-hours-before-problem">Choose a whole number of hours from 0 to 720\./);
    assert.match(html, /action="\.\.\/embed\/profile"/, 'the form posts again from where it is');
    assert.match(html, /<link rel="stylesheet" href="\.\.\/embed\/pages\.css">/);
    assert.ok(html.includes(`href="../embed?venue=${VENUE}&amp;theme=dark`), 'the way back keeps the studio’s query');
    assert.equal((await get(`/api/venues/${VENUE}/profile`)).status, 404, 'nothing saved');
  });

  it('says so when the store cannot keep the profile, and loses nothing typed', async () => {
    // A shared store that is down: reads find nothing, every write fails.
    const down = () => Promise.reject(new Error('connection refused'));
    const records = new StoreRecords({ all: down, set: down, add: down }, (op) => op(), Date.now);
    const { post } = pages({ records });
    const answer = await post({ ...FORM, 'use-look': 'on' });
    assert.equal(answer.status, 503);
    const html = await answer.text();
    assert.match(html, /role="alert">The booking service could not keep your details just now\./);
    assert.ok(html.includes('value="+44 20 7946 0000"'));
    assert.match(html, /name="use-look" checked/, 'the tick kept too');
  });

  it('keeps the studio’s look as the defaults when asked: the studio and the booking page start from it', async () => {
    const { get, post } = pages();
    assert.equal((await post({ ...FORM, 'use-look': 'on' })).status, 303);
    const profile = await (await get(`/api/venues/${VENUE}/profile`)).json();
    assert.deepEqual(profile.look, { theme: 'dark', colours: { accent: '#7a1f2b' }, booking_type: null, locale: 'fr' });
    const studio = await (await get('/embed')).text();
    assert.match(studio, /name="theme" value="dark" checked/);
    assert.match(studio, /id="colour-accent" name="accent" value="#7a1f2b">/);
    assert.match(studio, /<option value="fr" selected>/);
    const said = await (await get('/embed?theme=light&locale=en-GB')).text();
    assert.match(said, /name="theme" value="light" checked/, 'a query that says the look wins');
    assert.doesNotMatch(said, /id="colour-accent" name="accent" value="#7a1f2b">/);
    const page = await (await get(`/book/${VENUE}`)).text();
    assert.match(page, new RegExp(`<venue-booking venue="${VENUE}" api="../api" theme="dark" locale="fr">`));
    assert.match(page, /venue-booking \{ --vb-accent: #7a1f2b; \}/);
    const english = await (await get(`/book/${VENUE}?locale=en-GB`)).text();
    assert.match(english, /<html lang="en-GB">/);
    assert.match(english, /--vb-accent: #7a1f2b/, 'what the link leaves unsaid is the venue’s');
  });

  it('gives the snippet’s fallback the venue’s phone and email unless the studio’s phone field says another', async () => {
    const { get, post } = pages();
    await post(FORM);
    const snippet = (html: string) => /<textarea id="snippet"[^>]*>([^]*?)<\/textarea>/.exec(html)![1]!;
    const plain = snippet(await (await get(`/embed?venue=${VENUE}`)).text());
    assert.match(plain, /call &lt;a href=&quot;tel:\+442079460000&quot;&gt;\+44 20 7946 0000/);
    assert.match(plain, /email &lt;a href=&quot;mailto:bookings@crown\.example&quot;/);
    const own = snippet(await (await get(`/embed?venue=${VENUE}&phone=%2B44%20117%20496%200000`)).text());
    assert.match(own, /tel:\+441174960000/);
    assert.doesNotMatch(own, /tel:\+442079460000/);
  });
});

describe('the booking page and the profile', () => {
  it('shows the address, phone and email, link preview tags and its canonical address', async () => {
    const { get, post } = pages();
    await post(FORM);
    const html = await (await get(`/book/${VENUE}?locale=fr&utm_source=instagram`)).text();
    assert.match(html, /<address>1 Quay Street<br>Bristol BS1 4DJ<br>Téléphone: <a href="tel:\+442079460000">/);
    assert.match(html, /<a href="mailto:bookings@crown\.example">bookings@crown\.example<\/a>/);
    const canonical = `${STUDIO}/book/${VENUE}?locale=fr`;
    assert.ok(html.includes(`<link rel="canonical" href="${canonical}">`), 'no campaign tags in the one address');
    assert.ok(html.includes(`<meta property="og:url" content="${canonical}">`));
    assert.match(html, /<meta property="og:type" content="website">/);
    assert.match(html, /<meta property="og:title" content="Réserver chez The Crown &amp; &lt;Anchor&gt;">/);
    assert.match(html, /<meta property="og:description" content="Réservez une table chez The Crown/);
    assert.match(html, /<meta name="twitter:card" content="summary">/);
  });

  it('gives its fallback no phone or email, which the page shows above it, and never a link to the booking page itself', async () => {
    const { get, post } = pages();
    const fallback = (html: string) => /<venue-booking[^>]*>([^]*?)<\/venue-booking>/.exec(html)![1]!;
    await post({ ...FORM, address: '', email: '' });
    const shown = await (await get(`/book/${VENUE}`)).text();
    assert.match(fallback(shown), /To book a table, please get in touch with us\./);
    assert.equal(shown.match(/href="tel:/g)?.length, 1);
    assert.doesNotMatch(fallback(shown), /\/book\//);
  });

  it('writes its JSON-LD so that no venue name can end the script element', async () => {
    const { get } = pages();
    const html = await (await get(`/book/${VENUE}`)).text();
    const block = /<script type="application\/ld\+json">([^]*?)<\/script>/.exec(html)![1]!;
    assert.ok(block.includes('"name":"The Crown \\u0026 \\u003cAnchor\\u003e"'), block);
    assert.equal(JSON.parse(block).name, 'The Crown & <Anchor>');
  });

  it('lists each venue of a group with its own contact', async () => {
    const { get, post } = pages();
    await post(FORM);
    await post({ ...FORM, venue: OTHER_VENUE, phone: '+44 117 496 0000', email: '', address: '' });
    const html = await (await get(`/book/${GROUP}`)).text();
    assert.match(html, /<address><strong>The Crown &amp; &lt;Anchor&gt;<\/strong><br>1 Quay Street/);
    assert.match(html, /<address><strong>The Cellar<\/strong><br>Phone: <a href="tel:\+441174960000">/);
  });
});

describe('the booking page under another name', () => {
  const PUBLIC = { publicUrl: 'https://book.example' };

  it('redirects another public name to the public URL, its query kept', async () => {
    const { get } = pages(PUBLIC);
    const answer = await get(`/book/${VENUE}?locale=fr`, {}, 'http://www.book.example');
    assert.equal(answer.status, 308);
    assert.equal(answer.headers.get('location'), `https://book.example/book/${VENUE}?locale=fr`);
  });

  it('serves the page where a reverse proxy passes its own address for the Host, so nobody goes round in a loop', async () => {
    const { get } = pages(PUBLIC);
    for (const [at, headers] of [
      ['https://book.example', {}],
      ['http://book.example', {}],
      ['http://127.0.0.1:8787', {}],
      ['http://app:8787', {}],
      ['http://10.0.0.7:8787', {}],
      ['http://booking.internal', {}],
      ['http://upstream.example', { 'x-forwarded-host': 'book.example' }],
    ] as const) {
      const answer = await get(`/book/${VENUE}`, { headers }, at);
      assert.equal(answer.status, 200, at);
      assert.ok((await answer.text()).includes(`<link rel="canonical" href="https://book.example/book/${VENUE}">`), at);
    }
  });

  it('books under this machine’s other name: its widget’s api is the page’s own, which the origin rule counts as the proxy’s', async () => {
    // As `npm start` runs: the public URL derived from the port, at `localhost`.
    const { get } = pages({ publicUrl: 'http://localhost:8080', publicUrlDerived: true });
    const page = await (await get(`/book/${VENUE}`, {}, 'http://127.0.0.1:8080')).text();
    assert.match(page, /api="\.\.\/api"/);
    assert.match(page, /<script type="module" src="\.\.\/venue-booking\.js"/);
    const booked = await get(
      '/api/bookings',
      postJson(validBooking(), { origin: 'http://127.0.0.1:8080' }),
      'http://127.0.0.1:8080',
    );
    assert.notEqual(booked.status, 403, 'the page’s own origin under the other name is let in');
    assert.equal(booked.status, 200);
  });

  it('still refuses a foreign Host’s own origin', async () => {
    const { get } = pages(PUBLIC);
    const refused = await get(
      '/api/bookings',
      postJson(validBooking(), { origin: 'http://evil.example' }),
      'http://evil.example',
    );
    assert.equal(refused.status, 403);
  });
});
