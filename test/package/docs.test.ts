/**
 * The docs stay in step with what they document: the element's tables with the Custom Elements
 * Manifest (both read from the element's JSDoc), the settings and metrics tables with their
 * registries, the strict CSP line with the policy the demo is served and tested with, the gallery
 * table with the pages in demo/, the supported browsers with the bundle's build target; and the
 * README stays a short front door (at most 200 lines, the two commands, both bins, a link to each
 * reader's part). When one fails, the fix is `npm run docs` (tables) or editing the page, never
 * editing the test. The site built from these pages is tested in docs-site.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STRICT_CSP } from '../../demo/csp-policy.js';
import { SUPPORTED_BROWSERS } from '../../vite.config.js';
import { analyze, renderTables, tablesIn, ELEMENT_PAGE } from '../../scripts/api-tables.js';
import { settingsTable } from '../../proxy/settings/render.js';
import { GENERATED, generatedIn } from '../../scripts/settings-table.js';
import { metricsTable } from '../../proxy/core/metrics.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const page = (path: string) => readFileSync(`${root}docs/${path}`, 'utf8');
const readme = readFileSync(`${root}README.md`, 'utf8');

/** The text of a page's `## ` section, heading included. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}`);
  assert.ok(start >= 0, `the page has a "## ${title}" section`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('the docs', () => {
  it('have the element’s tables of custom-elements.json (run `npm run docs` after changing the JSDoc)', async () => {
    const current = tablesIn(readFileSync(ELEMENT_PAGE, 'utf8'));
    assert.ok(current !== null, 'docs/reference/element.md has the <!-- api-tables:start/end --> markers');
    assert.equal(current, renderTables(await analyze()).trim(), 'the element’s tables are stale: run `npm run docs`');
  });

  it('have the settings table of the settings registry (run `npm run docs` after changing proxy/settings/registry.ts)', () => {
    const current = generatedIn(readFileSync(GENERATED['settings-table']!.page, 'utf8'), 'settings-table');
    assert.ok(current !== null, 'docs/operators/settings.md has the <!-- settings-table:start/end --> markers');
    assert.equal(current, settingsTable().trim(), 'the settings table is stale: run `npm run docs`');
  });

  it('have the metrics table of the metrics catalogue (run `npm run docs` after changing proxy/core/metrics.ts)', () => {
    const current = generatedIn(readFileSync(GENERATED['metrics-table']!.page, 'utf8'), 'metrics-table');
    assert.ok(current !== null, 'docs/operators/metrics.md has the <!-- metrics-table:start/end --> markers');
    assert.equal(current, metricsTable().trim(), 'the metrics table is stale: run `npm run docs`');
  });

  it('quote the exact strict CSP the demo is served and tested with', () => {
    assert.ok(page('developers/csp.md').includes(`Content-Security-Policy: ${STRICT_CSP}\n`));
  });

  it('list every demo page in the gallery table, and no page that does not exist', () => {
    const pages = readdirSync(`${root}demo`)
      .filter((name) => name.endsWith('.html'))
      .sort();
    const listed = [...page('developers/demo.md').matchAll(/^\| `([\w-]+\.html)` \|/gm)]
      .map((match) => match[1])
      .sort();
    assert.deepEqual(listed, pages);
  });

  it('state the browsers the script-tag bundle is built for', () => {
    const names: Record<string, string> = { chrome: 'Chrome', edge: 'Edge', firefox: 'Firefox', safari: 'Safari' };
    const supported = section(page('developers/quick-start.md'), 'Supported browsers');
    for (const target of SUPPORTED_BROWSERS) {
      const [, browser, version] = /^([a-z]+)([\d.]+)$/.exec(target)!;
      assert.ok(supported.includes(`${names[browser!]} ${version}`), `"Supported browsers" names ${target}`);
    }
  });

  it('link only to pages that exist (Markdown links between pages, as the site serves them)', () => {
    const missing: string[] = [];
    for (const dir of ['venues', 'developers', 'operators', 'reference', 'contributing']) {
      for (const name of readdirSync(`${root}docs/${dir}`).filter((file) => file.endsWith('.md'))) {
        for (const [, target] of page(`${dir}/${name}`).matchAll(/\]\((\.\.\/[^)#\s]*)/g)) {
          const path = new URL(target!, `file:///docs/${dir}/${name.replace(/\.md$/, '')}/`).pathname.slice(1);
          const file = path.endsWith('/') ? `${path.slice(0, -1)}.md` : path;
          if (!existsSync(`${root}${file}`) && !existsSync(`${root}${path}index.md`))
            missing.push(`${dir}/${name} → ${target}`);
        }
      }
    }
    assert.deepEqual(missing, []);
  });
});

describe('README.md', () => {
  it('is a short front door: at most 200 lines', () => {
    assert.ok(readme.split('\n').length <= 200, `README has ${readme.split('\n').length} lines`);
  });

  it('names both bins, shows the two commands and links each reader to their part of the docs', () => {
    const bins = Object.keys(JSON.parse(readFileSync(`${root}package.json`, 'utf8')).bin as Record<string, string>);
    for (const bin of bins) assert.ok(readme.includes(bin), `README names ${bin}`);
    assert.ok(readme.includes('npm install && npm start'));
    assert.ok(readme.includes('npm test'));
    for (const part of ['docs/venues/', 'docs/developers/', 'docs/operators/', 'docs/reference/'])
      assert.ok(readme.includes(part), `README links to ${part}`);
  });

  it('links only to files that exist', () => {
    const targets = [...readme.matchAll(/\]\(((?:docs|proxy|sandbox)\/[^)#\s]*)/g)].map((match) => match[1]!);
    assert.ok(targets.length > 10, 'the README links to the docs');
    assert.deepEqual(
      targets.filter((target) => !existsSync(`${root}${target}`)),
      [],
    );
  });
});
