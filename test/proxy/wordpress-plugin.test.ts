/**
 * The WordPress plugin as the proxy hands it out (`/embed/wordpress-plugin.zip`): the plugin's
 * sources zipped by fflate, `defaults.php` pre-filled with this proxy's address, the chosen venue or
 * group and the script's integrity hash; a bad choice refused in the service's envelope; behind the
 * studio's door. And `/site-check`, which the plugin's settings page asks. The plugin itself runs
 * on a real WordPress in test/wordpress/.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { integrityOf } from '../../proxy/core/encoding.js';
import { defaultsFile, phpString } from '../../proxy/pages/wordpress/wordpress.js';
import { MODULE, moduleText, sourceFiles } from '../../scripts/wordpress-files.js';
import { GROUP, ORIGIN, OTHER_VENUE, recordingProxy, VENUE } from './support.js';

const SCRIPT = new TextEncoder().encode('customElements.define("venue-booking", class {});') as Uint8Array<ArrayBuffer>;

/** A proxy serving the widget, with no public URL, asked from `peer` (this machine by default). */
function pluginProxy(overrides: Parameters<typeof recordingProxy>[0] = {}, peer = '127.0.0.1') {
  const { proxy, calls } = recordingProxy({
    widgetScript: SCRIPT,
    venueGroups: [GROUP],
    peerAddress: () => peer,
    publicUrl: undefined,
    ...overrides,
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    proxy.fetch(new Request(`http://127.0.0.1:8080${path}`, { headers }));
  return { get, calls };
}

/** The zip's files by path, as text. */
async function unzipped(response: Response): Promise<Record<string, string>> {
  const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
  return Object.fromEntries(Object.entries(files).map(([path, bytes]) => [path, strFromU8(bytes)]));
}

describe('the WordPress plugin download', () => {
  test('is generated from proxy/pages/wordpress/venue-booking/ (run `npm run build:server` after editing the sources)', async () => {
    assert.equal(readFileSync(MODULE, 'utf8'), await moduleText(sourceFiles()));
  });

  test('zips the folder venue-booking/ with defaults.php pre-filled for the venue, this address and the hash', async () => {
    const { get, calls } = pluginProxy();
    const response = await get(`/embed/wordpress-plugin.zip?venue=${VENUE}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/zip');
    assert.match(response.headers.get('content-disposition') ?? '', /attachment; filename="venue-booking\.zip"/);
    const files = await unzipped(response);
    const sources = sourceFiles();
    assert.deepEqual(Object.keys(files).sort(), Object.keys(sources).sort());
    assert.ok(Object.keys(files).every((path) => path.startsWith('venue-booking/')));
    assert.ok(files['venue-booking/venue-booking.php']!.includes('Plugin Name:       Venue Booking'));
    for (const [path, text] of Object.entries(sources))
      if (path !== 'venue-booking/defaults.php') assert.equal(files[path], text, path);
    const defaults = files['venue-booking/defaults.php']!;
    assert.match(defaults, /'proxy' => 'http:\/\/127\.0\.0\.1:8080',/);
    assert.match(defaults, new RegExp(`'venues' => '${VENUE}',`));
    assert.match(defaults, /'group' => '',/);
    assert.ok(defaults.includes(`'integrity' => '${await integrityOf(SCRIPT)}',`));
    assert.equal(calls.length, 0, 'a configured venue costs no upstream call');
  });

  test('names several venues, or a group, and the configured public address (or the loopback one opened)', async () => {
    const { get } = pluginProxy({ publicUrl: 'https://booking.example/proxy' });
    const several = await unzipped(await get(`/embed/wordpress-plugin.zip?venue=${VENUE}&venue=${OTHER_VENUE}`));
    assert.match(several['venue-booking/defaults.php']!, new RegExp(`'venues' => '${VENUE},${OTHER_VENUE}',`));
    assert.match(several['venue-booking/defaults.php']!, /'proxy' => 'https:\/\/booking\.example\/proxy',/);
    const group = await unzipped(await get(`/embed/wordpress-plugin.zip?group=${GROUP}`));
    const local = pluginProxy({ publicUrl: 'http://localhost:8080/stack' });
    const opened = await unzipped(await local.get(`/embed/wordpress-plugin.zip?venue=${VENUE}`));
    assert.match(
      opened['venue-booking/defaults.php']!,
      /'proxy' => 'http:\/\/127\.0\.0\.1:8080\/stack',/,
      'a loopback address gives way to the one the studio was opened at',
    );
    assert.match(group['venue-booking/defaults.php']!, new RegExp(`'group' => '${GROUP}',`));
    assert.match(group['venue-booking/defaults.php']!, /'venues' => '',/);
  });

  test('refuses a venue or group this proxy does not serve, none, or both, in the service’s envelope', async () => {
    const { get } = pluginProxy();
    const cases: [string, number, string][] = [
      ['venue=64a1f0c2e4b0a1b2c3d4e599', 404, 'unknown_venue'],
      [`venue=${VENUE}&venue=x'%3B%20phpinfo()%3B%20'`, 404, 'unknown_venue'],
      ['group=64a1f0c2e4b0a1b2c3d4e5ff', 404, 'unknown_venue_group'],
      ['', 400, 'missing_parameter'],
      [`venue=${VENUE}&group=${GROUP}`, 400, 'invalid_parameter'],
    ];
    for (const [query, status, code] of cases) {
      const response = await get(`/embed/wordpress-plugin.zip?${query}`);
      assert.equal(response.status, status, query);
      const body = await response.json();
      assert.equal(body.status, status, query);
      assert.equal(body.payload.errors[0].code, code, query);
    }
  });

  test('is for the operator, as the studio is: another machine without the token gets 401', async () => {
    const { get } = pluginProxy({}, '198.51.100.4');
    const response = await get(`/embed/wordpress-plugin.zip?venue=${VENUE}`);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('content-type')?.startsWith('application/zip'), false);
  });

  test('writes values into PHP strings that cannot end them', () => {
    assert.equal(phpString(`a'b\\c`), `'a\\'b\\\\c'`);
    const file = defaultsFile({ proxy: `https://x.example/'.die()`, venues: 'v', group: '', integrity: '' });
    assert.ok(file.includes(`'proxy' => 'https://x.example/\\'.die()',`));
    assert.ok(file.startsWith('<?php') && file.includes("defined( 'ABSPATH' ) || exit;"));
  });
});

describe('the site check', () => {
  test('says whether the origin rule lets a site in, with the script’s hash, readable from any site', async () => {
    const { get, calls } = pluginProxy();
    const allowed = await get(`/site-check?origin=${encodeURIComponent(ORIGIN)}`, { origin: 'https://other.example' });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual((await allowed.json()).payload, {
      origin: ORIGIN,
      allowed: true,
      integrity: await integrityOf(SCRIPT),
    });
    const refused = await get('/site-check', { origin: 'https://other.example' });
    assert.equal(refused.status, 200);
    assert.deepEqual((await refused.json()).payload.allowed, false);
    assert.equal((await (await get('/site-check?origin=http://127.0.0.1:8080')).json()).payload.allowed, true);
    assert.equal(calls.length, 0, 'no upstream call');
  });

  test('refuses what is not an origin', async () => {
    const { get } = pluginProxy();
    for (const origin of ['https://venue.example/page', 'javascript:alert(1)', 'x'.repeat(300), '']) {
      const response = await get(`/site-check?origin=${encodeURIComponent(origin)}`);
      assert.equal(response.status, 400, origin);
      assert.equal((await response.json()).payload.errors[0].fields[0], 'origin');
    }
    assert.equal((await get('/site-check')).status, 400, 'no origin named, none sent');
  });
});
