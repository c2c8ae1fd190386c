/**
 * The WordPress plugin on a real WordPress: Debian's `wordpress` package (6.1) on PHP's built-in
 * server, over a MariaDB of the test's own (a temporary data folder, a socket, no network), with the
 * real proxy bin on its embedded sandbox allowing the site, and Chromium as the visitor.
 *
 * The plugin is the zip the embed studio links to after choosing two venues, the dark theme and a
 * colour; `php -l` passes on each of its PHP files. An Administrator uploads and activates it,
 * opens its settings from the "Settings" link on its row, and finds the studio's choices there: both
 * venues by name, the theme, the colour, and the studio's own contrast warning in its words, worked
 * out by the plugin on the values WordPress holds (saved, and redrawn as they change). "Check this
 * site" asks the proxy; for a site it does not let in, it names the studio's "Allow this site".
 * An Author (no `unfiltered_html`: the site sets DISALLOW_UNFILTERED_HTML, as a multisite network
 * does for everyone but super admins) publishes a post with the shortcode and one with the block,
 * and a guest books a table on each; the studio's raw snippet, published by the same Author, loses
 * its tags (what the plugin is for). The fallback speaks the widget's language. With one venue in
 * the settings, the block offers its booking types by name. An Editor changes only a title and the
 * widget stays. Attribute
 * values that try to end their quotes stay text. An Author's shortcode names a return address on
 * this site only and no partner source: those are the settings page's (`manage_options`), as is the
 * proxy's address, https but on this machine. Deleting the plugin removes its settings.
 *
 * Skipped, saying why, where PHP, MariaDB, WordPress or Chromium are not installed (`.ci/run`
 * installs them).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { build, stop } from 'esbuild';
import { unzipSync } from 'fflate';
import { chromium, type Browser, type Page } from 'playwright';
import { CHROMIUM_ARGS, findChromium } from '../support/browser.mjs';
import { freePort } from '../support/redis.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const WORDPRESS = '/usr/share/wordpress';
const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const OTHER_VENUE = '64a1f0c2e4b0a1b2c3d4e502';

/** The first program of `names` found on PATH or in the sbin folders, or null. */
function program(...names: string[]): string | null {
  const folders = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin'];
  for (const name of names) for (const folder of folders) if (existsSync(join(folder, name))) return join(folder, name);
  return null;
}

/** Why this test cannot run here, or undefined. */
function missing(): string | undefined {
  const lacking = [
    program('php') ? '' : 'php (php-cli)',
    program('mariadb-install-db') && program('mariadbd', 'mysqld') ? '' : 'MariaDB (mariadb-server)',
    existsSync(`${WORDPRESS}/wp-settings.php`) ? '' : 'WordPress (wordpress)',
  ].filter(Boolean);
  try {
    findChromium();
  } catch {
    lacking.push('Chromium (chromium)');
  }
  return lacking.length
    ? `needs ${lacking.join(', ')}: apt-get install wordpress mariadb-server php-cli php-mysql chromium`
    : undefined;
}
const skip = missing();

const work = mkdtempSync(join(tmpdir(), 'venue-booking-wp-'));
const site = join(work, 'site');
const socket = join(work, 'mysql.sock');
const children: ChildProcess[] = [];
let wpUrl = '';
let proxyUrl = '';
let browser: Browser;

/** Runs a program to its end; its output, or a thrown Error with everything it said. */
function run(command: string, args: string[], env: Record<string, string> = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Starts a long-running program and waits until `ready()` says so (within 60 s). */
async function start(command: string, args: string[], env: Record<string, string>, ready: () => Promise<boolean>) {
  // A process group of its own: PHP's server forks workers, which are stopped with it.
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}):\n${output}`);
    if (await ready().catch(() => false)) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${command} did not start within 60 s:\n${output}`);
}

/** Whether a Unix socket accepts a connection. */
function accepts(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => (probe.destroy(), resolve(true)));
    probe.once('error', () => resolve(false));
  });
}

/** A MariaDB of the test's own: a fresh data folder, a socket, no network. */
async function startMariaDb(): Promise<void> {
  const data = join(work, 'mysql');
  const user = `--user=${userInfo().username}`;
  run(program('mariadb-install-db')!, [
    '--no-defaults',
    `--datadir=${data}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
    user,
  ]);
  await start(
    program('mariadbd', 'mysqld')!,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${socket}`,
      '--skip-networking',
      `--pid-file=${join(work, 'mysql.pid')}`,
      '--innodb-buffer-pool-size=16M',
      user,
    ],
    {},
    () => accepts(socket),
  );
}

/**
 * The site's folder: Debian's WordPress linked in, with a wp-config.php of its own (the test
 * database; plugins and uploads in the folder; no outside HTTP) in place of Debian's, which reads
 * /etc/wordpress. PHP resolves links in `__DIR__`, so ABSPATH is set before WordPress loads.
 */
function makeSite(): void {
  mkdirSync(join(site, 'wp-content/plugins'), { recursive: true });
  mkdirSync(join(site, 'wp-content/uploads'));
  symlinkSync(`${WORDPRESS}/wp-content/themes`, join(site, 'wp-content/themes'));
  for (const name of readdirSync(WORDPRESS))
    if (name !== 'wp-config.php' && name !== 'wp-content') symlinkSync(join(WORDPRESS, name), join(site, name));
  const keys = ['AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE']
    .flatMap((name) => [`${name}_KEY`, `${name}_SALT`])
    .map((name) => `define('${name}', '${Math.random().toString(36).slice(2)}${name}');`)
    .join('\n');
  writeFileSync(
    join(site, 'wp-config.php'),
    `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:${socket}');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
${keys}
$table_prefix = 'wp_';
define('WP_HOME', '${wpUrl}');
define('WP_SITEURL', '${wpUrl}');
define('WP_CONTENT_DIR', '${site}/wp-content');
define('WP_CONTENT_URL', '${wpUrl}/wp-content');
define('FS_METHOD', 'direct');
define('DISALLOW_UNFILTERED_HTML', true);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_DEBUG', true);
define('WP_DEBUG_DISPLAY', false);
define('WP_DEBUG_LOG', '${work}/debug.log');
require_once ABSPATH . 'wp-settings.php';
`,
  );
  writeFileSync(join(work, 'prepend.php'), `<?php define('ABSPATH', '${site}/');\n`);
}

const wpEnv = () => ({ WP_TEST_SITE: site, WP_TEST_URL: wpUrl, WP_TEST_SOCKET: socket });

/** Runs a test/wordpress/wp.php command; its JSON answer. */
function wp(...args: string[]): any {
  return JSON.parse(run('php', [join(root, 'test/wordpress/wp.php'), ...args], wpEnv()));
}

/** Publishes a post as `login`; its id and stored content. */
function publish(login: string, title: string, content: string): { id: number; content: string } {
  const file = join(work, `post-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(file, content);
  return wp('post', login, title, file);
}

/** The widget as one module (its locale modules inlined), in a folder of its own, as stacks.ts builds it. */
async function buildWidget(): Promise<string> {
  const folder = join(work, 'widget');
  mkdirSync(folder);
  await build({
    entryPoints: [join(root, 'src/index.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    outfile: join(folder, 'venue-booking.js'),
    logLevel: 'silent',
  });
  // esbuild's service process would keep this test's process alive after its last test.
  await stop();
  return pathToFileURL(`${folder}/`).href;
}

/** Logs `login` in through wp-login.php. */
async function logIn(page: Page, login: string): Promise<void> {
  await page.goto(`${wpUrl}/wp-login.php`);
  await page.fill('#user_login', login);
  await page.fill('#user_pass', `${login}-password`);
  await Promise.all([page.waitForURL(/wp-admin/), page.click('#wp-submit')]);
}

/** The step the widget on `page` shows: a field's step, `details`, `confirmation`, or null while loading. */
function shownStep(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const shadow = document.querySelector('venue-booking')?.shadowRoot;
    if (!shadow) return null;
    if (shadow.querySelector('[part~="confirmation"]')) return 'confirmation';
    if (shadow.querySelector('[part~="form"]')) return 'details';
    return shadow.querySelector<HTMLElement>('[part~="step"][data-step]')?.dataset.step ?? null;
  });
}

/** Waits for a step other than `not`; returns it. */
async function nextStep(page: Page, not: string | null = null): Promise<string> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    const step = await shownStep(page);
    if (step && step !== not) return step;
    await page.waitForTimeout(100);
  }
  throw new Error(`the widget showed no step after ${not} within 20 s`);
}

/**
 * Clicks the first open choice of the widget's step (opening "More" or a folded time group first),
 * as test/support/widget-page.ts does. A string: tsx would name the functions of a callback with a
 * helper that the page does not have.
 */
const CHOOSE_FIRST_OPEN = `(() => {
  const shadow = document.querySelector('venue-booking').shadowRoot;
  const open = (button) => !button.disabled && button.getAttribute('aria-disabled') !== 'true';
  const options = () => [...shadow.querySelectorAll('[part~="step"] [part~="option"], [part~="step"] [part~="day"]')];
  if (!options().some(open)) shadow.querySelector('[data-more]')?.click();
  const choice = options().find(open);
  const region = choice.closest('[hidden]');
  if (region) shadow.querySelector('[aria-controls="' + region.id + '"]').click();
  choice.click();
})()`;

/** Books a table with the widget on `page` as a guest would (first open choice of each step); the reference. */
async function bookTable(page: Page): Promise<string> {
  let step = await nextStep(page);
  for (let guard = 0; step !== 'details' && guard < 12; guard++) {
    await page.evaluate(CHOOSE_FIRST_OPEN);
    step = await nextStep(page, step);
  }
  const form = 'venue-booking [part~="form"]';
  await page.fill(`${form} [name="first_name"]`, 'Ada');
  await page.fill(`${form} [name="last_name"]`, 'Lovelace');
  await page.fill(`${form} [name="email"]`, `ada-${Date.now()}@example.com`);
  await page.fill(`${form} [name="phone"]`, '+44 7700 900123');
  for (const box of await page.locator(`${form} input[type="checkbox"][required]`).all()) await box.check();
  await page.click('venue-booking [part~="submit"]');
  const reference = page.locator('venue-booking [part~="confirmation"] .reference');
  await reference.waitFor({ timeout: 20_000 });
  return (await reference.textContent())!.trim();
}

/** The attributes of every `<venue-booking>` on `page`, and whether a planted script ran. */
function elementsOn(page: Page): Promise<{ attributes: Record<string, string>[]; pwned: boolean }> {
  return page.evaluate(() => ({
    attributes: [...document.querySelectorAll('venue-booking')].map((element) =>
      Object.fromEntries([...element.attributes].map((attribute) => [attribute.name, attribute.value])),
    ),
    pwned: 'pwned' in window,
  }));
}

/** The studio's choices the plugin is downloaded with: two venues, dark, the red. */
const STUDIO_CHOICES = `venue=${VENUE}&venue=${OTHER_VENUE}&theme=dark&accent=%238b1f3a`;

/** The embed studio's contrast warnings for a query: the words WordPress must say too. */
async function studioWarnings(query: string): Promise<string[]> {
  const html = await (await fetch(`${proxyUrl}/embed?${query}`)).text();
  const part = /<div id="contrast" role="status">([\s\S]*?)<\/div>/.exec(html)![1]!;
  return [...part.matchAll(/<p class="warning">([^<]*)<\/p>/g)].map((match) =>
    match[1]!.replace(/&amp;/g, '&').replace(/&#39;/g, "'").trim(),
  );
}

/** The contrast warnings of the settings page as WordPress sends it (before any script runs). */
async function contrastOnPage(page: Page): Promise<string[]> {
  const html = await (await page.request.get(`${wpUrl}/wp-admin/options-general.php?page=venue-booking`)).text();
  const part = /<div id="venue-booking-contrast"[^>]*>([\s\S]*?)<\/div>/.exec(html)![1]!;
  return [...part.matchAll(/<p>([^<]*)<\/p>/g)].map((match) =>
    match[1]!
      .replace(/&amp;/g, '&')
      .replace(/&#039;/g, "'")
      .trim(),
  );
}

describe('the WordPress plugin on a real WordPress', { skip, timeout: 300_000 }, () => {
  const posts: Record<string, number> = {};
  let zip: Uint8Array;

  before(async () => {
    const [wpPort, proxyPort] = [await freePort(), await freePort()];
    wpUrl = `http://127.0.0.1:${wpPort}`;
    proxyUrl = `http://127.0.0.1:${proxyPort}`;
    await startMariaDb();
    makeSite();
    const users = wp('setup');
    assert.equal(users.author_unfiltered, false, 'the Author may not post unfiltered HTML');
    assert.equal(users.editor_unfiltered, false, 'nor may the Editor, as on a multisite network');
    await start(
      'php',
      ['-S', `127.0.0.1:${wpPort}`, '-t', site, '-d', `auto_prepend_file=${join(work, 'prepend.php')}`],
      { PHP_CLI_SERVER_WORKERS: '4' },
      async () => (await fetch(`${wpUrl}/wp-login.php`)).ok,
    );
    const widget = await buildWidget();
    await start(
      process.execPath,
      ['--import', 'tsx', join(root, 'test/wordpress/proxy-main.ts')],
      { PORT: String(proxyPort), VENUE_BOOKING_ORIGINS: wpUrl, TEST_WIDGET_DIR: widget },
      async () => (await fetch(`${proxyUrl}/healthz`)).ok,
    );
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    for (const child of children.reverse()) {
      if (child.exitCode !== null) continue;
      const exited = once(child, 'exit');
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  test('the zip comes from the studio’s link after choosing two venues, dark and a colour; php -l passes on its PHP files', async () => {
    const studio = await (await fetch(`${proxyUrl}/embed?${STUDIO_CHOICES}`)).text();
    const link = /<a id="wordpress-plugin" href="([^"]+)"/.exec(studio)![1]!.replace(/&amp;/g, '&');
    const response = await fetch(link);
    assert.equal(response.status, 200);
    zip = new Uint8Array(await response.arrayBuffer());
    writeFileSync(join(work, 'venue-booking.zip'), zip);
    const files = Object.entries(unzipSync(zip)).filter(([path]) => path.endsWith('.php'));
    assert.ok(files.length >= 7, `PHP files: ${files.map(([path]) => path).join(', ')}`);
    for (const [path, bytes] of files) {
      const file = join(work, 'lint', path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, bytes);
      assert.match(run('php', ['-l', file]), /No syntax errors detected/, path);
    }
    assert.match(run('php', ['-l', join(root, 'test/wordpress/wp.php')]), /No syntax errors detected/);
  });

  test('an Administrator uploads and activates it; its row’s "Settings" link opens the studio’s choices by name', async () => {
    const page = await browser.newPage();
    await logIn(page, 'admin');
    await page.goto(`${wpUrl}/wp-admin/plugin-install.php?tab=upload`);
    await page.setInputFiles('#pluginzip', join(work, 'venue-booking.zip'));
    await Promise.all([page.waitForURL(/update\.php/), page.click('#install-plugin-submit')]);
    assert.match((await page.textContent('body')) ?? '', /Plugin installed successfully/);
    await Promise.all([page.waitForURL(/plugins\.php/), page.click('a.button-primary:has-text("Activate Plugin")')]);
    assert.match((await page.textContent('#message')) ?? '', /Plugin activated/);
    const settings = page.locator('tr[data-plugin="venue-booking/venue-booking.php"] .row-actions a', {
      hasText: /^Settings$/,
    });
    assert.equal(await settings.getAttribute('href'), `${wpUrl}/wp-admin/options-general.php?page=venue-booking`);
    await Promise.all([page.waitForURL(/page=venue-booking/), settings.click()]);
    assert.equal(await page.inputValue('#venue-booking-proxy'), proxyUrl);
    assert.match(await page.inputValue('#venue-booking-integrity'), /^sha384-/);
    const venues = await page.$$eval('#venue-booking-venues label', (labels) =>
      labels.map((label) => [label.textContent!.trim(), label.querySelector('input')!.checked]),
    );
    // Every venue the proxy books for, by name; the two the studio ticked, ticked.
    assert.deepEqual(venues, [
      ['Harbour & Vine Quayside', true],
      ['The Vine Cellar', true],
      ['Harbour Kitchen', false],
    ]);
    assert.doesNotMatch((await page.textContent('.wrap')) ?? '', new RegExp(VENUE), 'no venue by its id');
    assert.equal(await page.inputValue('#venue-booking-theme'), 'dark');
    assert.equal(await page.inputValue('#venue-booking-accent'), '#8b1f3a');
    // The studio's own words for the same choices, shown by WordPress on the values it holds.
    assert.deepEqual(await contrastOnPage(page), await studioWarnings(STUDIO_CHOICES));
    assert.match((await contrastOnPage(page)).join(), /dark theme: the main colour against the background .* 1\.96:1/);
    await page.click('#venue-booking-check');
    await page.waitForFunction(() =>
      /Good|Not yet|did not answer/.test(document.querySelector('#venue-booking-check-result')!.textContent!),
    );
    assert.match((await page.textContent('#venue-booking-check-result')) ?? '', new RegExp(`Good: .*\\(${wpUrl}\\)`));
    // A site the proxy does not let in is sent to the studio's "Allow this site", not to a setting.
    await page.evaluate(() =>
      (window as any).jQuery('#venue-booking-check').data('origin', 'https://not-allowed.example'),
    );
    await page.click('#venue-booking-check');
    await page.waitForFunction(() =>
      /Not yet/.test(document.querySelector('#venue-booking-check-result')!.textContent!),
    );
    const notYet = (await page.textContent('#venue-booking-check-result'))!;
    assert.match(notYet, /press “Allow this site” beside this address/);
    assert.doesNotMatch(notYet, /VENUE_BOOKING_ORIGINS|restart/);
    assert.equal(await page.getAttribute('#venue-booking-check-result a', 'href'), `${proxyUrl}/embed`);
    await page.close();
  });

  test('the settings run the studio’s contrast check on the colours WordPress holds, saved and as they change', async () => {
    const page = await browser.newPage();
    await logIn(page, 'admin');
    await page.goto(`${wpUrl}/wp-admin/options-general.php?page=venue-booking`);
    const fill = (values: Record<string, string>) =>
      page.evaluate((values) => {
        for (const [name, value] of Object.entries(values))
          (document.querySelector(`#venue-booking-${name}`) as HTMLInputElement).value = value;
      }, values);
    await fill({ theme: 'auto', accent: '#8b1f3a', accent_text: '#0b1a26' });
    await Promise.all([page.waitForURL(/settings-updated=true/), page.click('#submit')]);
    const saved = await studioWarnings(`venue=${VENUE}&theme=auto&accent=%238b1f3a&accent-text=%230b1a26`);
    assert.equal(saved.length, 3, saved.join('\n'));
    assert.deepEqual(await contrastOnPage(page), saved, 'as the server renders it');
    assert.ok(saved.some((text) => /dark theme: the text on the booking button .* 1\.98:1/.test(text)));
    // The theme changed in the form, not saved: the script redraws the same words.
    await page.selectOption('#venue-booking-theme', 'light');
    await page.waitForFunction(() => document.querySelectorAll('#venue-booking-contrast p').length === 1);
    assert.deepEqual(
      await page.$$eval('#venue-booking-contrast p', (lines) => lines.map((line) => line.textContent!.trim())),
      await studioWarnings(`venue=${VENUE}&theme=light&accent=%238b1f3a&accent-text=%230b1a26`),
    );
    await fill({ theme: 'light', accent: '#8b1f3a', accent_text: '' });
    await Promise.all([page.waitForURL(/settings-updated=true/), page.click('#submit')]);
    assert.deepEqual(await contrastOnPage(page), [], 'white is chosen on the red, readable in the light theme');
    const venues = await page.$$eval('#venue-booking-venues input', (boxes) =>
      boxes.map((box) => (box as HTMLInputElement).checked),
    );
    assert.deepEqual(venues, [true, true, false], 'saving keeps the venues ticked');
    await page.close();
  });

  test('an Author publishes the shortcode and the block; the studio’s raw snippet loses its tags', () => {
    const shortcode = publish(
      'author',
      'Book with the shortcode',
      `<!-- wp:paragraph --><p>Book here:</p><!-- /wp:paragraph -->
<!-- wp:shortcode -->[venue_booking venue="${VENUE}" theme="dark"]<!-- /wp:shortcode -->`,
    );
    assert.match(shortcode.content, /\[venue_booking venue="64a1f0c2e4b0a1b2c3d4e501" theme="dark"\]/);
    posts.shortcode = shortcode.id;
    const block = publish(
      'author',
      'Book with the block',
      `<!-- wp:venue-booking/widget {"venue":"${OTHER_VENUE}","mode":"inline","locale":"en-GB"} /-->`,
    );
    assert.match(block.content, /wp:venue-booking\/widget/);
    posts.block = block.id;
    const raw = publish(
      'author',
      'Book with the snippet',
      `<!-- wp:html --><script type="module" src="${proxyUrl}/venue-booking.js"></script>
<venue-booking venue="${VENUE}" api="${proxyUrl}/api"><p>To book a table, please get in touch with us.</p></venue-booking><!-- /wp:html -->`,
    );
    assert.doesNotMatch(raw.content, /<script|<venue-booking/, 'WordPress strips what an Author pastes');
  });

  for (const kind of ['shortcode', 'block'] as const) {
    test(`a guest books a table on the post with the ${kind}`, async () => {
      const page = await browser.newPage();
      await page.goto(`${wpUrl}/?p=${posts[kind]}`);
      const script = page.locator('script[src$="/venue-booking.js"]');
      assert.equal(await script.count(), 1);
      assert.equal(await script.getAttribute('type'), 'module');
      assert.match((await script.getAttribute('integrity')) ?? '', /^sha384-/);
      assert.equal(await script.getAttribute('crossorigin'), 'anonymous');
      assert.match(await bookTable(page), /\S/);
      await page.close();
    });
  }

  test('the fallback speaks the widget’s language and keeps the settings’ look', async () => {
    const post = publish(
      'author',
      'En français',
      `<!-- wp:shortcode -->[venue_booking locale="fr"]<!-- /wp:shortcode -->`,
    );
    const html = await (await fetch(`${wpUrl}/?p=${post.id}`)).text();
    const element = /<venue-booking [^>]*>([\s\S]*?)<\/venue-booking>/.exec(html)!;
    assert.match(element[0], /locale="fr"/);
    assert.match(
      element[1]!,
      new RegExp(
        `^<p>Pour réserver, <a href="${proxyUrl}/book/${VENUE}\\?locale=fr&#038;accent=%238b1f3a">rendez-vous sur notre page de réservation</a>\\.</p>$`,
      ),
    );
  });

  test('an Author places the block with one venue in the settings: the booking type is offered by name', async () => {
    const admin = await browser.newPage();
    await logIn(admin, 'admin');
    await admin.goto(`${wpUrl}/wp-admin/options-general.php?page=venue-booking`);
    await admin.uncheck('#venue-booking-venues input[value="' + OTHER_VENUE + '"]');
    await Promise.all([admin.waitForURL(/settings-updated=true/), admin.click('#submit')]);
    await admin.close();

    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await logIn(page, 'author');
    await page.goto(`${wpUrl}/wp-admin/post-new.php`);
    await page.waitForFunction(() => (window as any).wp?.blocks?.getBlockType('venue-booking/widget'));
    await page.evaluate(() => {
      const { blocks, data } = (window as any).wp;
      data.dispatch('core/edit-post').toggleFeature?.('welcomeGuide');
      data.dispatch('core/block-editor').insertBlocks(blocks.createBlock('venue-booking/widget'));
    });
    await page.keyboard.press('Escape');
    const venue = page.locator('.block-editor-block-inspector select').first();
    const type = page.locator('.block-editor-block-inspector select').nth(1);
    const attributes = () =>
      page.evaluate(() => (window as any).wp.data.select('core/block-editor').getBlocks()[0].attributes);
    // "As in the settings", the one venue there: its types, by name.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.block-editor-block-inspector option')].some(
        (option) => option.textContent === 'Table',
      ),
    );
    assert.equal(await venue.inputValue(), '');
    assert.equal(await type.isDisabled(), false);
    await type.selectOption({ label: 'Table' });
    assert.deepEqual([(await attributes()).venue, (await attributes()).type], ['', '64a1f0c2e4b0a1b2c3d4e601']);
    await page
      .locator(`.wp-block-venue-booking-widget venue-booking[venue="${VENUE}"][type="64a1f0c2e4b0a1b2c3d4e601"]`)
      .waitFor();
    // A venue chosen by name, then its type.
    await venue.selectOption({ label: 'Harbour & Vine Quayside' });
    await type.selectOption({ label: 'Table' });
    assert.equal((await attributes()).venue, VENUE);
    assert.equal((await attributes()).type, '64a1f0c2e4b0a1b2c3d4e601');
    // The preview is the server's rendering, with the widget's script loaded in the editor.
    await page.locator('.wp-block-venue-booking-widget venue-booking[type="64a1f0c2e4b0a1b2c3d4e601"]').waitFor();
    assert.deepEqual(failures, []);
    await page.close();
  });

  test('a page without the widget loads no widget script', async () => {
    const page = await browser.newPage();
    await page.goto(`${wpUrl}/?p=1`);
    assert.equal(await page.locator('script[src*="venue-booking"]').count(), 0);
    await page.close();
  });

  test('an Editor changes only the title: the post keeps the block and the widget still shows', async () => {
    const before = wp('show', String(posts.block));
    const after = wp('retitle', 'editor', String(posts.block), 'Book a table with us');
    assert.equal(after.content, before.content);
    const page = await browser.newPage();
    await page.goto(`${wpUrl}/?p=${posts.block}`);
    assert.equal(await page.title().then((title) => title.startsWith('Book a table with us')), true);
    assert.notEqual(await nextStep(page), null);
    await page.close();
  });

  test('the proxy’s address must be https (http only on this machine), as the settings say', async () => {
    const page = await browser.newPage();
    await logIn(page, 'admin');
    await page.goto(`${wpUrl}/wp-admin/options-general.php?page=venue-booking`);
    const save = async (address: string) => {
      await page.fill('#venue-booking-proxy', address);
      await Promise.all([page.waitForURL(/settings-updated=true/), page.click('#submit')]);
      const error = page.locator('#setting-error-proxy');
      return (await error.count()) ? (await error.textContent())!.trim() : '';
    };
    try {
      assert.match(await save('http://booking.example'), /must start with https:\/\//);
      assert.equal(await page.inputValue('#venue-booking-proxy'), proxyUrl, 'the address saved before stays');
      assert.equal(await save('https://booking.example'), '');
      assert.equal(await page.inputValue('#venue-booking-proxy'), 'https://booking.example');
    } finally {
      assert.equal(await save(proxyUrl), '', 'http on this machine (127.0.0.1) is accepted');
      assert.equal(await page.inputValue('#venue-booking-proxy'), proxyUrl);
      await page.close();
    }
  });

  test('an Author’s shortcode sends guests back to this site only, and sets no partner source', async () => {
    const post = publish(
      'author',
      'Where guests return',
      [
        `[venue_booking venue="${VENUE}" return-url="https://evil.example/collect" return-method="get" partner-source="x"]`,
        `[venue_booking venue="${VENUE}" return-url="${wpUrl.replace('127.0.0.1', '127.0.0.1@evil.example')}/collect"]`,
        `[venue_booking venue="${VENUE}" return-url="https://127.0.0.1.evil.example/collect"]`,
        `[venue_booking venue="${VENUE}" return-url="${wpUrl}/thanks?from=booking" return-method="get"]`,
      ]
        .map((shortcode) => `<!-- wp:shortcode -->${shortcode}<!-- /wp:shortcode -->`)
        .join('\n'),
    );
    const shown = async () => {
      const page = await browser.newPage();
      await page.goto(`${wpUrl}/?p=${post.id}`);
      const { attributes } = await elementsOn(page);
      await page.close();
      return attributes.map((element) => [element['return-url'], element['partner-source']]);
    };
    assert.deepEqual(await shown(), [
      [undefined, undefined],
      [undefined, undefined],
      [undefined, undefined],
      [`${wpUrl}/thanks?from=booking`, undefined],
    ]);

    // Someone who may manage options sets both in the settings: every widget without its own
    // return address on this site takes them.
    const admin = await browser.newPage();
    await logIn(admin, 'admin');
    await admin.goto(`${wpUrl}/wp-admin/options-general.php?page=venue-booking`);
    await admin.fill('#venue-booking-return_url', 'https://partner.example/back');
    await admin.fill('#venue-booking-partner_source', 'Harbour " onfocus="window.pwned=1" x="');
    await Promise.all([admin.waitForURL(/settings-updated=true/), admin.click('#submit')]);
    await admin.close();
    const partner = 'Harbour " onfocus="window.pwned=1" x="';
    assert.deepEqual(await shown(), [
      ['https://partner.example/back', partner],
      ['https://partner.example/back', partner],
      ['https://partner.example/back', partner],
      [`${wpUrl}/thanks?from=booking`, partner],
    ]);
  });

  test('attribute values that try to end their quotes stay text', async () => {
    const breakout = `" onfocus="window.pwned=1" autofocus x="`;
    const post = publish(
      'author',
      'Tricks',
      `<!-- wp:shortcode -->[venue_booking venue="${VENUE}" partner-source='${breakout}' type="x&quot; onclick=&quot;window.pwned=1" date='2026-01-01"><script>window.pwned=1</script>']<!-- /wp:shortcode -->
<!-- wp:venue-booking/widget {"venue":"\\u0022 onmouseover=\\u0022window.pwned=1","type":"\\u0022\\u003e\\u003cimg src=x onerror=window.pwned=1\\u003e","locale":"' onfocus='window.pwned=1"} /-->`,
    );
    const page = await browser.newPage();
    await page.goto(`${wpUrl}/?p=${post.id}`);
    await page.waitForFunction(() => customElements.get('venue-booking') !== undefined);
    await page.waitForTimeout(500);
    const { attributes, pwned } = await elementsOn(page);
    assert.equal(pwned, false);
    assert.equal(attributes.length, 2);
    const allowed = new Set([
      'api',
      'venue',
      'venue-group',
      'partner-source',
      'return-url',
      'theme',
      'mode',
      'locale',
      'type',
    ]);
    for (const element of attributes)
      assert.deepEqual(
        Object.keys(element).filter((name) => !allowed.has(name)),
        [],
        JSON.stringify(element),
      );
    assert.equal(
      attributes[0]!['partner-source'],
      'Harbour " onfocus="window.pwned=1" x="',
      'the settings’ partner source, not the post’s, stays one attribute, as text',
    );
    assert.equal(attributes[0]!.type, undefined, 'a type of the wrong shape is left out');
    assert.equal(attributes[1]!.venue, VENUE, 'a venue of the wrong shape falls back to the settings');
    assert.equal(await page.locator('img[src="x"], script:has-text("pwned")').count(), 0);
    await page.close();
  });

  test('deleting the plugin removes its settings (uninstall.php)', () => {
    assert.deepEqual(wp('uninstall'), { before: 1, deleted: true, after: 0, folder: false });
  });

  test('WordPress logged no notice, warning or misuse of its API from the plugin', () => {
    const log = join(work, 'debug.log');
    const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n') : [];
    assert.deepEqual(
      lines.filter((line) => /venue[-_]booking|doing_it_wrong|incorrectly/i.test(line)),
      [],
    );
  });
});
