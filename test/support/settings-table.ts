/**
 * The README's settings table, rendered from the settings registry (proxy/settings.ts), the one
 * place a setting's variable, flag, default, unit and doc are written. `npm run docs` rewrites the
 * table between `<!-- settings-table:start -->` and `<!-- settings-table:end -->`;
 * test/package/readme.test.ts fails when README and registry drift apart.
 *
 * Run: `node --import tsx test/support/settings-table.ts [--write | --check]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { settingsTable } from '../../proxy/settings.js';
import { README } from './api-tables.js';

export const START = '<!-- settings-table:start -->';
export const END = '<!-- settings-table:end -->';

/** The table as the README holds it between its markers, or null without them. */
export function settingsTableIn(readme: string): string | null {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start < 0 || end < start ? null : readme.slice(start + START.length, end).trim();
}

/** `readme` with its table rendered anew. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README has no ${START} … ${END} markers`);
  return `${readme.slice(0, start + START.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const readme = readFileSync(README, 'utf8');
  if (process.argv.includes('--write')) writeFileSync(README, withSettingsTable(readme));
  else if (settingsTableIn(readme) !== settingsTable().trim()) {
    console.error('README settings table is stale: run `npm run docs`');
    process.exit(1);
  }
}
