/**
 * The booking page as Google reads it (issue 37, "Google"), through the real bin and its embedded
 * sandbox: its JSON-LD, checked against schema.org's vocabulary (test/support/schema-org.ts), names
 * the venue, its address and phone from the profile, and the page's own address as where it takes
 * reservations; the guest sees the phone once in the page; and the studio's "Put your booking page
 * on Google" step gives the link to paste and what Google asks of the page.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jsonLdOf, schemaProblems } from '../support/schema-org.js';
import { freePort, runBin } from './node-bin.js';
import { GROUP, OTHER_VENUE, VENUE } from './support.js';

/** The line the bin prints once it serves (the widget's, built or not). */
const STARTED = /(Add the widget|not built)[^\n]*\n/;

const PROFILE = {
  phone: '+44 117 496 0000',
  email: 'bookings@quayside.example',
  address: '1 Quay Street\nBristol BS1 4DJ',
};

describe('the booking page as Google reads it, through the real bin', () => {
  let base = '';
  let stop = () => {};
  before(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'vb-google-'));
    const profiles = join(folder, 'profiles.json');
    writeFileSync(profiles, JSON.stringify({ [VENUE]: PROFILE, [OTHER_VENUE]: { address: 'Under the arches' } }));
    const port = await freePort();
    const run = await runBin({ PORT: String(port), VENUE_BOOKING_PROFILES_FILE: profiles }, [], STARTED);
    assert.ok(run.code === null && STARTED.test(run.out), `the bin did not start: ${run.out}`);
    stop = run.stop;
    base = `http://localhost:${port}`;
  });
  after(() => stop());

  const page = async (path: string) => {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(response.status, 200);
    return { html: await response.text(), csp: response.headers.get('content-security-policy') ?? '' };
  };

  it('describes the venue in schema.org terms: its name, address, phone, and reservations at the page itself', async () => {
    const { html } = await page(`/book/${VENUE}?locale=fr&utm_source=google`);
    const found = jsonLdOf(html);
    assert.equal(found.length, 1, 'one JSON-LD block');
    const data = found[0] as Record<string, any>;
    assert.deepEqual(schemaProblems(data), []);
    const canonical = `${base}/book/${VENUE}?locale=fr`;
    assert.ok(html.includes(`<link rel="canonical" href="${canonical}">`));
    assert.equal(data['@type'], 'FoodEstablishment');
    assert.equal(data.name, 'Harbour & Vine Quayside');
    assert.equal(data.url, canonical);
    assert.equal(data.telephone, PROFILE.phone);
    assert.equal(data.email, PROFILE.email);
    assert.deepEqual(data.address, {
      '@type': 'PostalAddress',
      streetAddress: '1 Quay Street',
      addressLocality: 'Bristol',
      postalCode: 'BS1 4DJ',
      addressCountry: 'GB',
    });
    assert.equal(data.acceptsReservations, canonical, 'reservations at the page’s one address, no campaign tags');
    assert.equal(data.potentialAction['@type'], 'ReserveAction');
    assert.equal(data.potentialAction.target['@type'], 'EntryPoint');
    assert.equal(data.potentialAction.target.urlTemplate, canonical);
    assert.deepEqual(data.potentialAction.target.actionPlatform, [
      'https://schema.org/DesktopWebPlatform',
      'https://schema.org/MobileWebPlatform',
    ]);
  });

  it('passes what Lighthouse’s SEO audits check: status, title, description, lang, one canonical, crawlable and indexable', async () => {
    for (const [path, lang] of [
      [`/book/${VENUE}`, 'en-GB'],
      [`/book/${VENUE}?locale=fr`, 'fr'],
      [`/book/${GROUP}?locale=de`, 'de'],
    ] as const) {
      const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('x-robots-tag'), null, `${path}: no X-Robots-Tag`);
      const html = await response.text();
      assert.equal(/<html lang="([^"]+)">/.exec(html)?.[1], lang, `${path}: its language`);
      assert.deepEqual(Intl.getCanonicalLocales(lang), [lang], `${path}: a valid lang`);
      assert.match(html, /<title>[^<]+<\/title>/, `${path}: a title`);
      assert.match(html, /<meta name="description" content="[^"]{20,}">/, `${path}: a description`);
      assert.doesNotMatch(html, /<meta name="robots"/, `${path}: nothing keeps it out of the index`);
      assert.doesNotMatch(html, /hreflang=/, `${path}: no hreflang to get wrong`);
      const canonicals = [...html.matchAll(/<link rel="canonical" href="([^"]+)">/g)].map((match) => match[1]!);
      assert.equal(canonicals.length, 1, `${path}: one canonical`);
      assert.ok(
        URL.canParse(canonicals[0]!) && new URL(canonicals[0]!).pathname !== '/',
        `${path}: absolute, not the root`,
      );
      // Crawlable links: each anchor has an href a crawler can follow (no script, no empty one).
      for (const [anchor] of html.matchAll(/<a\b[^>]*>/g)) {
        const href = /\shref="([^"]*)"/.exec(anchor)?.[1];
        assert.ok(href && !/^javascript:/i.test(href), `${path}: ${anchor}`);
      }
    }
  });

  it('describes each venue of a group, an address it cannot split as its text', async () => {
    const { html } = await page(`/book/${GROUP}`);
    const data = jsonLdOf(html)[0] as { '@graph': Record<string, any>[] };
    assert.deepEqual(schemaProblems(data), []);
    const byName = Object.fromEntries(data['@graph'].map((node) => [node.name, node]));
    assert.equal(byName['Harbour & Vine Quayside']!.telephone, PROFILE.phone);
    assert.equal(byName['The Vine Cellar']!.address, 'Under the arches');
    assert.equal(byName['The Vine Cellar']!.telephone, undefined, 'no phone the venue did not give');
    for (const node of data['@graph']) assert.equal(node.acceptsReservations, `${base}/book/${GROUP}`);
  });

  it('shows the guest the address and the phone once, and keeps its strict CSP: the data block needs no script', async () => {
    const { html, csp } = await page(`/book/${VENUE}`);
    assert.match(html, /<address>1 Quay Street<br>Bristol BS1 4DJ<br>Phone: <a href="tel:\+441174960000">/);
    assert.equal(html.match(/href="tel:/g)?.length, 1, 'the phone once: the fallback does not repeat the page');
    assert.equal(html.match(/href="mailto:/g)?.length, 1, 'the email once');
    // Nothing allowed for it: no script at all without the widget built, else the widget's nonce only.
    assert.match(csp, /script-src (?:'none'|'self' 'nonce-[^']+')(?:;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline/);
  });
});

describe('the studio’s “Put your booking page on Google”, through the real bin', () => {
  /** The bin with `env`, until `stop()`; `studio(query)` is its studio's HTML. */
  async function studioBin(env: Record<string, string> = {}) {
    const port = await freePort();
    const run = await runBin({ PORT: String(port), ...env }, [], STARTED);
    assert.ok(run.code === null && STARTED.test(run.out), `the bin did not start: ${run.out}`);
    const studio = async (query: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/embed?${query}`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(response.status, 200);
      return response.text();
    };
    return { port, studio, stop: run.stop };
  }
  /** The Google step's part of the studio. */
  const stepOf = (html: string) => /<section aria-labelledby="google-title">([^]*?)<\/section>/.exec(html)?.[1] ?? '';
  const links = (step: string) => [...step.matchAll(/class="google-link" readonly value="([^"]+)"/g)].map((m) => m[1]);

  it('gives the link to paste into the Business Profile and what Google asks of the page', async () => {
    const bin = await studioBin({ VENUE_BOOKING_PUBLIC_URL: 'https://book.example' });
    try {
      const html = await bin.studio(`venue=${VENUE}&locale=fr`);
      assert.match(html, /<h2 id="google-title">Put your booking page on Google<\/h2>/);
      const step = stepOf(html);
      assert.deepEqual(links(step), [`https://book.example/book/${VENUE}?locale=fr`]);
      assert.match(step, /<label for="google-link-0">The link to paste<\/label>/);
      assert.match(step, /<em>Edit profile<\/em>/);
      assert.match(step, /<em>Bookings<\/em> or <em>Reservations<\/em>/);
      assert.match(step, /A page for this venue/);
      assert.match(step, /The booking can be finished there/);
      assert.match(step, /No sign-in/);
      assert.doesNotMatch(step, /Google cannot open/, 'a public address needs no warning');
    } finally {
      bin.stop();
    }
  });

  it('gives each venue of a group its own link, never the group’s, and says when the address is this computer’s', async () => {
    const bin = await studioBin();
    try {
      const step = stepOf(await bin.studio(`group=${GROUP}`));
      const given = links(step);
      assert.ok(given.length >= 2, step);
      for (const link of given) assert.match(link!, /\/book\/[0-9a-f]{24}$/);
      assert.ok(given.includes(`http://127.0.0.1:${bin.port}/book/${VENUE}`), given.join(' '));
      assert.ok(!given.some((link) => link!.includes(GROUP)), 'not the group’s page');
      assert.match(step, /<label for="google-link-0">The link for Harbour &amp; Vine Quayside<\/label>/);
      assert.match(step, /Google cannot open\. Your web person sets .*VENUE_BOOKING_PUBLIC_URL/);
    } finally {
      bin.stop();
    }
  });
});
