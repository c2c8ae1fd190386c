/**
 * The operators' tables rendered from the proxy's registries: the settings table
 * (docs/operators/settings.md) from the settings registry (proxy/settings/registry.ts) and the
 * metrics table (docs/operators/metrics.md) from the metrics catalogue (proxy/core/metrics.ts),
 * each the one place its facts are written. `npm run docs` rewrites them between their
 * `<!-- NAME:start -->` and `<!-- NAME:end -->` markers; test/package/docs.test.ts fails when a
 * page and its registry drift apart.
 *
 * Run: `node --import tsx scripts/settings-table.ts [--write | --check]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { metricsTable } from '../proxy/core/metrics.js';
import { settingsTable } from '../proxy/settings/render.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The generated tables, by marker name: the page each sits in, and how it is rendered. */
export const GENERATED: Record<string, { page: string; render: () => string }> = {
  'settings-table': { page: `${root}docs/operators/settings.md`, render: settingsTable },
  'metrics-table': { page: `${root}docs/operators/metrics.md`, render: metricsTable },
};

const markers = (name: string) => [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`] as const;

/** The table `name` as `text` holds it between its markers, or null without them. */
export function generatedIn(text: string, name: string): string | null {
  const [START, END] = markers(name);
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  return start < 0 || end < start ? null : text.slice(start + START.length, end).trim();
}

/** `text` with the table `name` rendered anew between its markers. */
export function withGenerated(text: string, name: string): string {
  const [START, END] = markers(name);
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${GENERATED[name]!.page} has no ${START} … ${END} markers`);
  return `${text.slice(0, start + START.length)}\n${GENERATED[name]!.render()}\n${text.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [name, { page }] of Object.entries(GENERATED)) {
    const text = readFileSync(page, 'utf8');
    if (process.argv.includes('--write')) writeFileSync(page, withGenerated(text, name));
    else if (withGenerated(text, name) !== text) {
      console.error(`${page}: the ${name} is stale: run \`npm run docs\``);
      process.exit(1);
    }
  }
}
