/**
 * The README's tables rendered from the proxy's registries: the settings table from the settings
 * registry (proxy/settings/registry.ts) and the metrics table from the metrics catalogue
 * (proxy/core/metrics.ts), each the one place its facts are written. `npm run docs` rewrites them
 * between their `<!-- NAME:start -->` and `<!-- NAME:end -->` markers; test/package/readme.test.ts
 * fails when README and registry drift apart.
 *
 * Run: `node --import tsx scripts/settings-table.ts [--write | --check]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { metricsTable } from '../proxy/core/metrics.js';
import { settingsTable } from '../proxy/settings/render.js';
import { README } from './api-tables.js';

/** The generated tables, by marker name. */
export const GENERATED: Record<string, () => string> = {
  'settings-table': settingsTable,
  'metrics-table': metricsTable,
};

const markers = (name: string) => [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`] as const;

/** The table `name` as the README holds it between its markers, or null without them. */
export function generatedIn(readme: string, name: string): string | null {
  const [START, END] = markers(name);
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start < 0 || end < start ? null : readme.slice(start + START.length, end).trim();
}

/** The settings table as the README holds it. */
export const settingsTableIn = (readme: string) => generatedIn(readme, 'settings-table');

/** `readme` with every generated table rendered anew. */
export function withGenerated(readme: string): string {
  let text = readme;
  for (const [name, render] of Object.entries(GENERATED)) {
    const [START, END] = markers(name);
    const start = text.indexOf(START);
    const end = text.indexOf(END);
    if (start < 0 || end < start) throw new Error(`README has no ${START} … ${END} markers`);
    text = `${text.slice(0, start + START.length)}\n${render()}\n${text.slice(end)}`;
  }
  return text;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const readme = readFileSync(README, 'utf8');
  if (process.argv.includes('--write')) writeFileSync(README, withGenerated(readme));
  else if (withGenerated(readme) !== readme) {
    console.error('README generated tables are stale: run `npm run docs`');
    process.exit(1);
  }
}
