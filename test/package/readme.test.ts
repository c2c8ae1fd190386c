/**
 * The README stays in step with what it documents: the API tables with the Custom Elements
 * Manifest (both read from the element's JSDoc), the strict CSP line with the policy the demo is
 * served and tested with, the gallery table with the pages in demo/, and the supported browsers
 * with the bundle's build target. When one fails, the fix
 * is `npm run docs` (tables) or editing the README, never editing the test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STRICT_CSP } from '../../demo/csp-policy.js';
import { SUPPORTED_BROWSERS } from '../../vite.config.js';
import { analyze, renderTables, tablesIn, README } from '../../scripts/api-tables.js';
import { settingsTable } from '../../proxy/settings/render.js';
import { generatedIn, settingsTableIn } from '../../scripts/settings-table.js';
import { metricsTable } from '../../proxy/core/metrics.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(README, 'utf8');

/** The text of a README `## ` section, heading included. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}`);
  assert.ok(start >= 0, `README has a "## ${title}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('README.md', () => {
  it('has the API tables of custom-elements.json (run `npm run docs` after changing the JSDoc)', async () => {
    const tables = renderTables(await analyze());
    const current = tablesIn(readme);
    assert.ok(current !== null, 'README has the <!-- api-tables:start/end --> markers');
    assert.ok(section('The element').includes(tables.trim().split('\n')[0]!), 'the tables sit in "## The element"');
    assert.equal(current, tables.trim(), 'README API tables are stale: run `npm run docs`');
  });

  it('has the settings table of the settings registry (run `npm run docs` after changing proxy/settings/registry.ts)', () => {
    const current = settingsTableIn(readme);
    assert.ok(current !== null, 'README has the <!-- settings-table:start/end --> markers');
    assert.ok(section('The proxy').split('### Settings')[1]?.includes(current!), 'the table sits in "### Settings"');
    assert.equal(current, settingsTable().trim(), 'README settings table is stale: run `npm run docs`');
  });

  it('has the metrics table of the metrics catalogue (run `npm run docs` after changing proxy/core/metrics.ts)', () => {
    const current = generatedIn(readme, 'metrics-table');
    assert.ok(current !== null, 'README has the <!-- metrics-table:start/end --> markers');
    assert.equal(current, metricsTable().trim(), 'README metrics table is stale: run `npm run docs`');
  });

  it('quotes the exact strict CSP the demo is served and tested with', () => {
    assert.ok(section('Strict Content-Security-Policy').includes(`Content-Security-Policy: ${STRICT_CSP}\n`));
  });

  it('lists every demo page in the gallery table, and no page that does not exist', () => {
    const pages = readdirSync(`${root}demo`)
      .filter((name) => name.endsWith('.html'))
      .sort();
    const listed = [...section('Demo gallery').matchAll(/^\| `([\w-]+\.html)` \|/gm)].map((match) => match[1]).sort();
    assert.deepEqual(listed, pages);
  });

  it('states the browsers the script-tag bundle is built for', () => {
    const names: Record<string, string> = { chrome: 'Chrome', edge: 'Edge', firefox: 'Firefox', safari: 'Safari' };
    const supported = section('Embed it').split('### Supported browsers')[1] ?? '';
    for (const target of SUPPORTED_BROWSERS) {
      const [, browser, version] = /^([a-z]+)([\d.]+)$/.exec(target)!;
      assert.ok(supported.includes(`${names[browser!]} ${version}`), `"Supported browsers" names ${target}`);
    }
  });

  it('names both bins and shows the two set-up commands', () => {
    const bins = Object.keys(JSON.parse(readFileSync(`${root}package.json`, 'utf8')).bin as Record<string, string>);
    for (const bin of bins) assert.ok(readme.includes(bin), `README names ${bin}`);
    assert.ok(section('Two commands').includes('npm install && npm start'));
    assert.ok(section('Two commands').includes('npm test'));
  });
});
