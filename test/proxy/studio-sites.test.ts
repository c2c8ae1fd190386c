/**
 * "Allow this site" from the studio (`POST /embed/sites`), through the real app: a refused site is
 * let in at its very next call once the manager allows it, and refused again once removed; the
 * form is taken only from the studio's own page, behind the operator access; what is not a site,
 * an insecure one and a full list are refused in plain words; the web person's sites stay theirs;
 * and with Redis, a site allowed on one instance is let in by another.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ProxyConfig } from '../../proxy/config.js';
import { MAX_MANAGED_SITES } from '../../proxy/state/allowed-sites.js';
import { createRedisState } from '../../proxy/state/redis.js';
import type { SharedState } from '../../proxy/state/shared.js';
import { startRedis, until, type RedisServer } from '../support/redis.js';
import { memoryLogger, ORIGIN, recordingProxy, VENUE } from './support.js';

const STUDIO = 'http://localhost:8080';
const NEW_SITE = 'https://new-site.example';

/** A proxy whose operator pages open from this machine, as the studio's manager opens them. */
function studio(overrides: Partial<ProxyConfig> = {}) {
  const { proxy, logger } = recordingProxy({ publicUrl: undefined, peerAddress: () => '127.0.0.1', ...overrides });
  const at = (path: string, init: RequestInit = {}) => proxy.fetch(new Request(new URL(path, STUDIO), init));
  /** A widget's call from `site`. */
  const fromSite = (site: string) => at(`/api/venues/${VENUE}/offers`, { headers: { origin: site } });
  /** The studio's form, posted as the browser posts it from the studio's page (unless `headers` say otherwise). */
  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    at('/embed/sites', {
      method: 'POST',
      headers: { origin: STUDIO, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  /** Posts `fields`, follows the 303 as the browser does, and gives where it went and the studio's text. */
  const change = async (fields: Record<string, string>) => {
    const response = await post(fields);
    assert.equal(response.status, 303, await response.clone().text());
    const location = new URL(response.headers.get('location')!, `${STUDIO}/embed/sites`);
    const html = await (await at(location.pathname + location.search)).text();
    return { location, html, said: /<div id="site-change" role="status">(.*?)<\/div>/.exec(html)![1]! };
  };
  return { at, fromSite, post, change, logger };
}

describe('"Allow this site" from the studio', () => {
  test('a refused site is let in at its next call, and refused again once removed', async () => {
    const { fromSite, change, at, logger } = studio();
    assert.equal((await fromSite(NEW_SITE)).status, 403);
    const before = await (await at('/embed')).text();
    assert.match(before, /<td class="refused" data-label="Widget">Blocked<\/td>/);
    assert.match(before, /<form class="site-form" method="post" action="embed\/sites">/);
    assert.match(
      before,
      /aria-describedby="allow-warning">Allow this site<span class="visually-hidden">: https:\/\/new-site\.example<\/span>/,
    );

    const allowed = await change({ site: NEW_SITE, change: 'allow', back: `venue=${VENUE}&theme=dark` });
    // Back to the studio with the manager's choices, and what happened.
    assert.equal(allowed.location.pathname, '/embed');
    assert.equal(allowed.location.hash, '#sites');
    assert.equal(allowed.location.searchParams.get('venue'), VENUE);
    assert.equal(allowed.location.searchParams.get('theme'), 'dark');
    assert.match(allowed.said, /new-site\.example<\/code> may now show your booking widget/);
    assert.match(
      allowed.html,
      /<h3>Allowed by you<\/h3><ul class="sites"><li><code>https:\/\/new-site\.example<\/code>/,
    );
    assert.match(allowed.html, /value="remove" class="secondary">Remove/);
    assert.match(allowed.html, /<td class="allowed" data-label="Widget">Allowed now<\/td>/);
    assert.equal((await fromSite(NEW_SITE)).status, 200, 'let in at once');
    assert.ok(logger.lines.some((line) => line.msg === 'site allowed from the studio' && line.origin === NEW_SITE));

    const again = await change({ site: NEW_SITE, change: 'allow' });
    assert.match(again.said, /was already allowed/);

    const removed = await change({ site: NEW_SITE, change: 'remove' });
    assert.match(removed.said, /may no longer show your booking widget/);
    assert.match(removed.html, /None yet/);
    assert.equal((await fromSite(NEW_SITE)).status, 403);
    assert.ok(logger.lines.some((line) => line.msg === 'site removed from the studio' && line.origin === NEW_SITE));
  });

  test('takes the form only from the studio’s own page', async () => {
    const { post, fromSite } = studio();
    const fields = { site: NEW_SITE, change: 'allow' };
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example' },
      // A form posted from a page with no referrer names no origin: not provably the studio.
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ]) {
      const response = await post(fields, headers);
      assert.equal(response.status, 403, JSON.stringify(headers));
      assert.match(await response.text(), /Only this service’s own pages may send this form/);
    }
    const json = await post(fields, { 'content-type': 'application/json' });
    assert.equal(json.status, 415);
    const neither = await post({ site: NEW_SITE, change: 'delete-everything' });
    assert.equal(neither.status, 400);
    assert.match(await neither.text(), /Ask to allow or to remove a site/);
    assert.equal((await fromSite(NEW_SITE)).status, 403, 'nothing was allowed');
  });

  test('is behind the operator access, like the studio', async () => {
    const { post } = studio({ peerAddress: () => '203.0.113.9' });
    const response = await post({ site: NEW_SITE, change: 'allow' });
    assert.equal(response.status, 401);
  });

  test('refuses what is not a site, an insecure site and the web person’s sites, in plain words', async () => {
    const { change, fromSite, logger } = studio();
    for (const site of ['null', 'javascript:alert(1)', 'https://new-site.example/page', 'https://user@x.example', ''])
      assert.match((await change({ site, change: 'allow' })).said, /That is not a website’s address/, site);
    const insecure = await change({ site: 'http://shop.example', change: 'allow' });
    assert.match(insecure.said, /<code>http:\/\/shop\.example<\/code> is not a secure site/);
    assert.equal((await fromSite('http://shop.example')).status, 403);
    // This machine may be plain http (a site being built on a laptop).
    assert.match((await change({ site: 'http://127.0.0.1:5173', change: 'allow' })).said, /may now show/);
    assert.equal((await fromSite('http://127.0.0.1:5173')).status, 200);
    // Another spelling of a site is that site, kept in one spelling.
    assert.match(
      (await change({ site: 'HTTPS://Other.Example:443', change: 'allow' })).said,
      /<code>https:\/\/other\.example<\/code> may now show/,
    );
    const theirs = await change({ site: ORIGIN, change: 'remove' });
    assert.match(theirs.said, /allowed by your web person’s settings, so only they can change it/);
    assert.equal((await fromSite(ORIGIN)).status, 200);
    assert.match(
      (await change({ site: 'https://never.example', change: 'remove' })).said,
      /not one of the sites you allowed/,
    );
    assert.ok(
      logger.lines.some((line) => line.msg === 'site change from the studio not made' && line.change === 'not-secure'),
    );
  });

  test('refuses a site past the list’s maximum, and says how to make room', async () => {
    const { change, fromSite } = studio();
    for (let i = 0; i < MAX_MANAGED_SITES; i++)
      assert.match((await change({ site: `https://site-${i}.example`, change: 'allow' })).said, /may now show/);
    const full = await change({ site: NEW_SITE, change: 'allow' });
    assert.match(
      full.said,
      new RegExp(`You have allowed ${MAX_MANAGED_SITES} sites, the most this list holds\\. Remove one`),
    );
    assert.equal((await fromSite(NEW_SITE)).status, 403);
    await change({ site: 'https://site-0.example', change: 'remove' });
    assert.match((await change({ site: NEW_SITE, change: 'allow' })).said, /may now show/);
  });

  test('says only what the lists bear out, every value escaped', async () => {
    const { at } = studio();
    const forged = await (await at('/embed?site-change=allowed&site=https://evil.example')).text();
    assert.match(
      forged,
      /<div id="site-change" role="status"><\/div>/,
      'a site not on the lists is not said to be allowed',
    );
    const marked = await (await at('/embed?site-change=not-secure&site=%3Cimg%20src%3Dx%3E')).text();
    assert.doesNotMatch(marked, /<img src=x>|&lt;img/, 'what is not a site is not repeated');
    assert.match(marked, /<p class="problem">That site is not a secure site/);
    // Only the one spelling of a site is named.
    const other = await (await at('/embed?site-change=not-secure&site=HTTP://Shop.Example')).text();
    assert.match(other, /<p class="problem">That site is not a secure site/);
  });

  test('the studio names its origin on its forms’ POST: its referrer policy is same-origin', async () => {
    const { at } = studio();
    const response = await at('/embed');
    assert.equal(response.headers.get('referrer-policy'), 'same-origin');
    assert.match(await response.text(), /<meta name="referrer" content="same-origin">/);
  });
});

describe('"Allow this site" on two instances sharing Redis', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  const states: SharedState[] = [];
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await Promise.all(states.map((state) => state.close()));
    await redis.kill();
  });

  /** One instance on `prefix` with its own connection, as a separate process would have. */
  const instance = (prefix: string) => {
    const state = createRedisState({
      url: redis.url,
      prefix,
      timeoutMs: 200,
      ttlMs: 15_000,
      staleMs: 60_000,
      holdMs: 15_000,
      logger: memoryLogger(),
      now: Date.now,
    });
    states.push(state);
    return { state, ...studio({ state }) };
  };

  test('a site allowed on one instance is let in by the other, and removed from both', async () => {
    const prefix = `studio-sites-${process.pid}:`;
    const a = instance(prefix);
    const b = instance(prefix);
    await until(() => a.state.health() === 'ok' && b.state.health() === 'ok', 'both instances on Redis');
    assert.equal((await b.fromSite(NEW_SITE)).status, 403);
    assert.match((await a.change({ site: NEW_SITE, change: 'allow' })).said, /may now show/);
    assert.equal((await a.fromSite(NEW_SITE)).status, 200, 'at once where it was allowed');
    await until(async () => (await b.fromSite(NEW_SITE)).status === 200, 'the other instance lets it in');
    // The other instance's studio lists it as the manager's, removable there.
    assert.match((await b.change({ site: NEW_SITE, change: 'remove' })).said, /may no longer show/);
    await until(async () => (await a.fromSite(NEW_SITE)).status === 403, 'the first instance refuses it again');
  });
});
