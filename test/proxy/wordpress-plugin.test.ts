/**
 * The WordPress plugin as the proxy hands it out (`/embed/wordpress-plugin.zip`): the plugin's
 * sources zipped by fflate, `defaults.php` pre-filled with this proxy's address, the chosen venues
 * or group, the script's integrity hash, the studio's look, language, booking type and fallback, and
 * the venues' names; `words.php` with the fallback's words of every language; a bad choice refused
 * in the service's envelope; behind the studio's door. And `/site-check`, which the plugin's
 * settings page asks. PHP's CLI reads back what the proxy writes (any address), and runs
 * uninstall.php on a network of more than 100 sites. The plugin itself runs on a real WordPress in
 * test/wordpress/.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { integrityOf } from '../../proxy/core/encoding.js';
import { AA_NON_TEXT, AA_TEXT, CONTRAST_WORDS, THEME_DEFAULTS } from '../../proxy/pages/colours.js';
import { defaultsFile, phpString } from '../../proxy/pages/wordpress/wordpress.js';
import { PAGE_LANGUAGES } from '../../proxy/pages/words/index.js';
import { MODULE, moduleText, sourceFiles } from '../../scripts/wordpress-files.js';
import { until } from '../support/redis.js';
import {
  GROUP,
  okScript,
  ORIGIN,
  OTHER_VENUE,
  recordingProxy,
  TYPE,
  upstreamJson,
  VENUE,
  type Script,
} from './support.js';

const SCRIPT = new TextEncoder().encode('customElements.define("venue-booking", class {});') as Uint8Array<ArrayBuffer>;

/** The venue records and the group's list the upstream gives: names, and a booking type each. */
const venueScript: Script = (request, body) => {
  const url = new URL(request.url);
  const venue = (id: string, title: string, type: string, name: string) =>
    upstreamJson({ venue: { _id: id, title, booking_types: [{ id: type, name }] } });
  if (url.pathname === `/v4/venues/${VENUE}`) return venue(VENUE, 'Harbour & Vine Quayside', TYPE, 'Table');
  if (url.pathname === `/v4/venues/${OTHER_VENUE}`) return venue(OTHER_VENUE, "The Cellar's Bar", 'cellar', 'Party');
  if (url.pathname === '/v4/venues' && url.searchParams.get('venue_group') === GROUP)
    return upstreamJson({ pages: [{ _id: VENUE, title: 'Harbour & Vine Quayside' }], total: 1 });
  return okScript(request, body);
};

/** A proxy serving the widget, with no public URL, asked from `peer` (this machine by default). */
function pluginProxy(overrides: Parameters<typeof recordingProxy>[0] = {}, peer = '127.0.0.1') {
  const { proxy, calls } = recordingProxy(
    {
      widgetScript: SCRIPT,
      venueGroups: [GROUP],
      peerAddress: () => peer,
      publicUrl: undefined,
      ...overrides,
    },
    venueScript,
  );
  const get = (path: string, headers: Record<string, string> = {}) =>
    proxy.fetch(new Request(`http://127.0.0.1:8080${path}`, { headers }));
  return { get, calls };
}

/** Why PHP's CLI cannot check the generated PHP here, or undefined. */
const noPhp = spawnSync('php', ['-v'], { timeout: 10_000 }).status === 0 ? undefined : 'needs php (php-cli)';

/**
 * Runs a generated `defaults.php` through PHP's CLI: `php -l`'s verdict, and the array the file
 * returns as PHP reads it (JSON), as WordPress would load it (ABSPATH defined).
 */
function phpReads(file: string): { lint: string; values: Record<string, unknown> } {
  const folder = mkdtempSync(join(tmpdir(), 'venue-booking-php-'));
  try {
    const path = join(folder, 'defaults.php');
    writeFileSync(path, file);
    const php = (args: string[]) => spawnSync('php', args, { encoding: 'utf8', timeout: 20_000 });
    const lint = php(['-l', path]);
    const read = php([
      '-r',
      `define('ABSPATH', '/'); function __($text, $domain) { return $text; } echo json_encode(include $argv[1]);`,
      path,
    ]);
    return { lint: lint.stdout + lint.stderr, values: read.status === 0 ? JSON.parse(read.stdout) : {} };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
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
      if (!['venue-booking/defaults.php', 'venue-booking/words.php', 'venue-booking/admin/contrast.php'].includes(path))
        assert.equal(files[path], text, path);
    const defaults = files['venue-booking/defaults.php']!;
    assert.match(defaults, /'proxy' => 'http:\/\/127\.0\.0\.1:8080',/);
    assert.match(defaults, new RegExp(`'venues' => '${VENUE}',`));
    assert.match(defaults, /'group' => '',/);
    assert.ok(defaults.includes(`'integrity' => '${await integrityOf(SCRIPT)}',`));
    assert.match(defaults, /'theme' => 'light',\n\t'locale' => '',\n\t'type' => '',\n\t'accent' => '',/);
    assert.ok(
      defaults.includes(
        `'names' => array(\n\t\t'${VENUE}' => 'Harbour & Vine Quayside',\n\t\t'${OTHER_VENUE}' => 'The Cellar\\'s Bar',\n\t),`,
      ),
      'every venue of this proxy by name, so the settings offer them by name',
    );
    assert.ok(defaults.includes(`'types' => array(\n\t\t'${TYPE}' => 'Table',\n\t),`));
    const venueReads = calls.filter((call) => /\/v4\/venues\/\w+$/.test(new URL(call.url).pathname));
    assert.equal(venueReads.length, 2, 'the names are read through the cache, once a venue');
    const first = calls.length;
    await get(`/embed/wordpress-plugin.zip?venue=${VENUE}`);
    assert.equal(calls.length, first, 'a second download reads the cache');
  });

  test('carries the studio’s choices: every venue ticked, the look, language, type and fallback', async () => {
    const { get } = pluginProxy();
    const studio = await (
      await get(
        `/embed?venue=${VENUE}&venue=${OTHER_VENUE}&theme=dark&locale=fr&accent=%238B1F3A&background=%23101010&type=${TYPE}&link=https://venue.example/book&phone=%2B44%2020%207946%200000`,
      )
    ).text();
    const href = /<a id="wordpress-plugin" href="([^"]+)"/.exec(studio)![1]!.replace(/&amp;/g, '&');
    assert.equal(
      href,
      `http://127.0.0.1:8080/embed/wordpress-plugin.zip?venue=${VENUE}%2C${OTHER_VENUE}&theme=dark&locale=fr&accent=%238b1f3a&background=%23101010&type=${TYPE}&link=https%3A%2F%2Fvenue.example%2Fbook&phone=%2B44+20+7946+0000`,
    );
    const defaults = (await unzipped(await get(href.replace('http://127.0.0.1:8080', ''))))[
      'venue-booking/defaults.php'
    ]!;
    for (const [name, value] of [
      ['venues', `${VENUE},${OTHER_VENUE}`],
      ['theme', 'dark'],
      ['locale', 'fr'],
      ['type', TYPE],
      ['accent', '#8b1f3a'],
      ['accent_text', ''],
      ['background', '#101010'],
      ['link', 'https://venue.example/book'],
      ['phone', '+44 20 7946 0000'],
    ])
      assert.ok(defaults.includes(`\t'${name}' => '${value}',\n`), `${name} => ${value}`);
    assert.ok(
      defaults.includes(
        `'types' => array(\n\t\t'${TYPE}' => 'Table (Harbour & Vine Quayside)',\n\t\t'cellar' => 'Party (The Cellar\\'s Bar)',\n\t),`,
      ),
      'the types of every venue ticked, named with their venue',
    );
  });

  test('starts from the venue profile where the studio’s link chose nothing', async () => {
    const { get } = pluginProxy({
      profileSeed: {
        [VENUE]: { phone: '+44 20 7946 1234', look: { theme: 'dark', colours: { accent: '#7a1f2b' }, locale: 'de' } },
      },
    });
    // The seed is kept in the background at start: wait until the profile is served.
    await until(async () => (await get(`/api/venues/${VENUE}/profile`)).status === 200, 'the seeded profile');
    const defaults = (await unzipped(await get(`/embed/wordpress-plugin.zip?venue=${VENUE}&background=%23101010`)))[
      'venue-booking/defaults.php'
    ]!;
    for (const [name, value] of [
      ['theme', 'dark'],
      ['locale', 'de'],
      ['accent', '#7a1f2b'],
      ['background', '#101010'],
      ['phone', '+44 20 7946 1234'],
    ])
      assert.ok(defaults.includes(`\t'${name}' => '${value}',\n`), `${name} => ${value}`);
  });

  test('writes the fallback’s words of every language the widget speaks into words.php', async () => {
    const { get } = pluginProxy();
    const words = (await unzipped(await get(`/embed/wordpress-plugin.zip?venue=${VENUE}`)))['venue-booking/words.php']!;
    assert.ok(words.startsWith('<?php') && words.includes("defined( 'ABSPATH' ) || exit;"));
    for (const [language, page] of PAGE_LANGUAGES)
      for (const [name, text] of Object.entries(page.fallback))
        assert.ok(words.includes(`\t\t${phpString(name)} => ${phpString(text)},\n`), `${language} ${name}`);
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
    const cases: [string, number, string, string?][] = [
      ['venue=64a1f0c2e4b0a1b2c3d4e599', 404, 'unknown_venue'],
      [`venue=${VENUE}&venue=x'%3B%20phpinfo()%3B%20'`, 404, 'unknown_venue'],
      ['group=64a1f0c2e4b0a1b2c3d4e5ff', 404, 'unknown_venue_group'],
      ['', 400, 'missing_parameter'],
      [`venue=${VENUE}&group=${GROUP}`, 400, 'invalid_parameter'],
      [`venue=${VENUE}&theme=neon`, 400, 'invalid_parameter', 'theme'],
      [`venue=${VENUE}&accent=red&locale=xx`, 400, 'invalid_parameter', 'locale,accent'],
      [`venue=${VENUE}&type=cellar`, 400, 'invalid_parameter', 'type'],
      [`venue=${VENUE}&link=javascript:alert(1)&phone=call%20me`, 400, 'invalid_parameter', 'link,phone'],
    ];
    for (const [query, status, code, fields] of cases) {
      const response = await get(`/embed/wordpress-plugin.zip?${query}`);
      assert.equal(response.status, status, query);
      const body = await response.json();
      assert.equal(body.status, status, query);
      assert.equal(body.payload.errors[0].code, code, query);
      if (fields)
        assert.equal(
          body.payload.errors.map((error: { fields: string[] }) => error.fields[0]).join(','),
          fields,
          query,
        );
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
    const file = defaultsFile({ proxy: `https://x.example/'.die()`, names: { "a'": "b\\'" } });
    assert.ok(file.includes(`'proxy' => 'https://x.example/\\'.die()',`));
    assert.ok(file.includes(`'a\\'' => 'b\\\\\\'',`));
    assert.ok(file.startsWith('<?php') && file.includes("defined( 'ABSPATH' ) || exit;"));
  });

  // `$&` and `` $` `` are replacement patterns of String.replace: in the proxy's address (a Host
  // with the operator token, or the public URL) they once put PHP's own text into defaults.php,
  // which then failed to parse: a fatal error on every page of the site.
  const hostile = "https://booking.example/a$&b$`c$'d'e\\f\\";
  test(
    'writes an address with $&, $`, a quote and backslashes into defaults.php as PHP reads it back',
    { skip: noPhp },
    () => {
      const { lint, values } = phpReads(defaultsFile({ proxy: hostile, names: { [hostile]: hostile } }));
      assert.match(lint, /No syntax errors detected/);
      assert.equal(values.proxy, hostile);
      assert.deepEqual(values.names, { [hostile]: hostile });
    },
  );

  test(
    'the downloaded defaults.php for such a public address parses, and holds the address as configured',
    { skip: noPhp },
    async () => {
      const { get } = pluginProxy({ publicUrl: hostile });
      const response = await get(`/embed/wordpress-plugin.zip?venue=${VENUE}`);
      assert.equal(response.status, 200);
      const { lint, values } = phpReads((await unzipped(response))['venue-booking/defaults.php']!);
      assert.match(lint, /No syntax errors detected/);
      assert.equal(values.proxy, hostile.replace(/\/+$/, ''));
      assert.equal(values.venues, VENUE);
    },
  );
});

describe('the plugin’s settings, one list', () => {
  // widget.php takes the settings' names and defaults from defaults.php alone: every download
  // must list all of them, the studio's choices in place of the defaults they set.
  test('every download’s defaults.php lists every setting of the source’s, in its order', { skip: noPhp }, async () => {
    const source = phpReads(sourceFiles()['venue-booking/defaults.php']!).values;
    const { get } = pluginProxy();
    const response = await get(`/embed/wordpress-plugin.zip?venue=${VENUE}&theme=dark`);
    const downloaded = phpReads((await unzipped(response))['venue-booking/defaults.php']!).values;
    assert.deepEqual(Object.keys(downloaded), Object.keys(source));
    assert.equal(downloaded.theme, 'dark');
    assert.equal(downloaded.return_url, source.return_url);
    assert.throws(() => defaultsFile({ colour: 'red' }), /defaults\.php lists no colour/);
  });
});

describe('the plugin’s contrast check, one source', () => {
  // The studio's check (proxy/pages/colours.ts) is the one source of the widget's colours, the
  // contrast each pair needs and the words: the download's admin/contrast.php carries them, and
  // the settings page's PHP and script read them from there, holding none of their own.
  test(
    'the download’s contrast.php holds colours.ts’s colours, needs and words, as the source’s does',
    { skip: noPhp },
    async () => {
      const { get } = pluginProxy();
      const files = await unzipped(await get(`/embed/wordpress-plugin.zip?venue=${VENUE}`));
      const theme = (name: 'light' | 'dark') => ({
        accent: THEME_DEFAULTS[name].accent,
        accent_text: THEME_DEFAULTS[name].accentText,
        background: THEME_DEFAULTS[name].surface,
      });
      const expected = {
        themes: { light: theme('light'), dark: theme('dark') },
        checks: {
          text: { needed: AA_TEXT, ...CONTRAST_WORDS.text },
          outline: { needed: AA_NON_TEXT, ...CONTRAST_WORDS.outline },
        },
        sentence: CONTRAST_WORDS.sentence,
      };
      assert.deepEqual(phpReads(files['venue-booking/admin/contrast.php']!).values, expected);
      assert.deepEqual(phpReads(sourceFiles()['venue-booking/admin/contrast.php']!).values, expected);
      // Words for WordPress's translators, as the rest of the plugin's: each in `__()` with its domain.
      for (const words of [CONTRAST_WORDS.sentence, CONTRAST_WORDS.text.what, CONTRAST_WORDS.outline.dark])
        assert.ok(files['venue-booking/admin/contrast.php']!.includes(`__( '${words}', 'venue-booking' )`), words);
      for (const path of ['admin/settings.php', 'admin/settings.js', 'widget.php']) {
        const text = files[`venue-booking/${path}`]!;
        for (const words of [CONTRAST_WORDS.text.what, CONTRAST_WORDS.outline.dark, 'Hard to read', '#1f5f8b', '4.5'])
          assert.ok(!text.includes(words), `${path} repeats ${words}`);
      }
    },
  );
});

describe('the plugin’s uninstall.php, run by PHP’s CLI', () => {
  // A real multisite network of more than 100 sites is costly to build in the WordPress test; this
  // runs the plugin's own file against stand-ins of the four functions it calls. `get_sites` keeps
  // WordPress 6.1's defaults (wp-includes/class-wp-site-query.php: `number` 100, `offset` none,
  // an empty `number` for no limit), so a call that leaves `number` out sees the first 100 only.
  const STUBS = `<?php
define( 'WP_UNINSTALL_PLUGIN', 'venue-booking/venue-booking.php' );
$network = range( 1, 250 );
$deleted = array();
function is_multisite() { return true; }
function get_sites( $args = array() ) {
	global $network;
	$args  = array_merge( array( 'number' => 100, 'offset' => '', 'fields' => '' ), $args );
	$found = array_slice( $network, absint( $args['offset'] ), absint( $args['number'] ) ?: null );
	return 'ids' === $args['fields'] ? $found : array_map( function ( $id ) { return (object) array( 'blog_id' => (string) $id ); }, $found );
}
function absint( $value ) { return abs( (int) $value ); }
function delete_blog_option( $site, $name ) { global $deleted; $deleted[] = array( $site, $name ); return true; }
function delete_option( $name ) { throw new Exception( 'a network deletes per site' ); }
include $argv[1];
echo json_encode( $deleted );
`;

  test('deletes the option on every site of a network, past the first 100', { skip: noPhp }, () => {
    const folder = mkdtempSync(join(tmpdir(), 'venue-booking-php-'));
    try {
      writeFileSync(join(folder, 'uninstall.php'), sourceFiles()['venue-booking/uninstall.php']!);
      writeFileSync(join(folder, 'stubs.php'), STUBS);
      const run = spawnSync('php', [join(folder, 'stubs.php'), join(folder, 'uninstall.php')], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      assert.equal(run.status, 0, run.stderr);
      const deleted: [number, string][] = JSON.parse(run.stdout);
      assert.deepEqual(
        deleted.map(([site]) => Number(site)),
        Array.from({ length: 250 }, (_, index) => index + 1),
      );
      assert.ok(deleted.every(([, name]) => name === 'venue_booking'));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
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
