/**
 * The documentation site as a reader gets it: Eleventy builds docs/ (as `npm run docs:build` and
 * `npm start` do, here into a scratch folder), every page the navigation names exists and every
 * page is in the navigation, every link between pages and to their files lands on a file of the
 * site, each page has its Markdown beside it and is in `llms.txt`, and the theming page carries
 * the live widget and its script.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const nav = JSON.parse(readFileSync(`${root}docs/_data/nav.json`, 'utf8')) as { title: string; pages: string[] }[];
let site = '';

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) =>
    statSync(join(dir, prefix, name)).isDirectory() ? filesUnder(dir, `${prefix}${name}/`) : [`${prefix}${name}`],
  );
}

describe('the documentation site', () => {
  before(() => {
    site = mkdtempSync(join(tmpdir(), 'vb-docs-'));
    execFileSync('npx', ['eleventy', '--config=docs/eleventy.config.mjs', '--quiet', `--output=${site}`], {
      cwd: root,
      stdio: 'pipe',
    });
  });
  after(() => rmSync(site, { recursive: true, force: true }));

  it('has a page for every entry of the navigation, and every page is in it', () => {
    const listed = nav.flatMap((section) => section.pages).sort();
    const pages = filesUnder(site)
      .filter((file) => file.endsWith('/index.html') && file !== 'index.html')
      .map((file) => file.slice(0, -'/index.html'.length))
      .sort();
    assert.deepEqual(
      pages.filter((page) => !listed.includes(page)),
      [],
      'pages missing from the navigation',
    );
    assert.deepEqual(
      listed.filter((page) => !pages.includes(page)),
      [],
      'navigation entries without a page',
    );
  });

  it('links only to files of the site, from every page', () => {
    const broken: string[] = [];
    for (const file of filesUnder(site).filter((name) => name.endsWith('.html'))) {
      const html = readFileSync(join(site, file), 'utf8');
      for (const [, href] of html.matchAll(/(?:href|src)="([^"#?]*)/g)) {
        if (!href || /^(https?:|mailto:|tel:|data:)/.test(href) || href === '/widget.ts') continue;
        const url = new URL(href, `http://site/docs/${file}`);
        if (!url.pathname.startsWith('/docs/')) {
          broken.push(`${file} → ${href} (outside the site)`);
          continue;
        }
        const path = join(site, decodeURIComponent(url.pathname.slice('/docs/'.length)));
        if (!existsSync(url.pathname.endsWith('/') ? join(path, 'index.html') : path)) broken.push(`${file} → ${href}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('gives each page its Markdown, and lists them all in llms.txt', () => {
    const llms = readFileSync(join(site, 'llms.txt'), 'utf8');
    for (const page of nav.flatMap((section) => section.pages)) {
      const markdown = readFileSync(join(site, page, 'index.md'), 'utf8');
      assert.match(markdown, /^# /m, `${page}/index.md is the page's Markdown`);
      assert.ok(llms.includes(`(${page}/index.md)`), `llms.txt lists ${page}`);
    }
  });

  it('shows the widget live on the theming page, with the controls that theme it', () => {
    const html = readFileSync(join(site, 'developers/theming/index.html'), 'utf8');
    assert.match(html, /<script type="module" src="\/widget.ts"><\/script>/);
    assert.match(html, /<venue-booking id="themed" venue="[0-9a-f]{24}" api="\/api">/);
    assert.match(html, /<input type="color" name="--vb-accent"/);
    assert.ok(existsSync(join(site, 'assets/theming.js')));
  });
});
