/**
 * Bundle size: builds `dist/venue-booking.js` (the script-tag bundle, Lit and en-GB included) and
 * reports its gzip size against the 30 KiB budget, plus the on-demand chunks beside it (the locale
 * modules, the later steps: the party step's rare parts, the details form, the confirmation, the calendar links).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
const gzipped = (file: string) => gzipSync(readFileSync(`${root}dist/${file}`), { level: 9 }).length;

/** Which part of the bundle a source file belongs to. */
function groupOf(source: string): string {
  if (/node_modules\/(lit|lit-html|lit-element|@lit\/reactive-element)\//.test(source)) return 'lit';
  if (source.includes('node_modules/@lit/task/')) return '@lit/task';
  if (source.includes('node_modules/ky/')) return 'ky';
  if (source.includes('src/i18n/') || source.endsWith('src/api/pinned-import.ts')) return 'src/i18n (en-GB, loaders)';
  if (source.includes('src/parts/')) return 'src/parts (templates)';
  if (source.includes('src/controllers/')) return 'src/controllers (reads, locale, step focus, guest form)';
  if (source.endsWith('src/element/styles.ts')) return 'src/element/styles.ts';
  if (source.endsWith('src/venue-booking.ts')) return 'src/venue-booking.ts';
  return source.includes('node_modules/') ? 'other dependencies' : 'src (flow, api, dates)';
}

/**
 * What the bundle is made of: a second build with a source map (in a scratch folder, so dist/
 * gets no map), each minified byte given to the source it came from. Gzip is per part alone, so
 * the parts add up to a little more than the whole; and that build skips the second minifying pass
 * (vite.config.ts), whose map would not match, so the parts add up to a little more again.
 */
function composition(): { name: string; value: string }[] {
  const out = mkdtempSync(join(tmpdir(), 'vb-bundle-'));
  try {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--sourcemap', '--outDir', out], {
      cwd: root,
      stdio: 'ignore',
    });
    const code = readFileSync(join(out, 'venue-booking.js'), 'utf8');
    const map = new SourceMapConsumer(JSON.parse(readFileSync(join(out, 'venue-booking.js.map'), 'utf8')));
    const lines = code.split('\n');
    const parts = new Map<string, string[]>();
    let previous: { line: number; column: number; group: string } | null = null;
    const flush = (line: number, column: number) => {
      if (!previous) return;
      const text =
        previous.line === line
          ? lines[line - 1].slice(previous.column, column)
          : lines[previous.line - 1].slice(previous.column);
      parts.set(previous.group, [...(parts.get(previous.group) ?? []), text]);
    };
    map.eachMapping((mapping) => {
      flush(mapping.generatedLine, mapping.generatedColumn);
      previous = {
        line: mapping.generatedLine,
        column: mapping.generatedColumn,
        group: mapping.source ? groupOf(mapping.source) : 'unmapped (template and CSS text, glue)',
      };
    });
    flush(Number.MAX_SAFE_INTEGER, 0);
    return [...parts.entries()]
      .map(([name, texts]) => ({ name, bytes: gzipSync(texts.join(''), { level: 9 }).length }))
      .sort((a, b) => b.bytes - a.bytes)
      .map(({ name, bytes }) => ({ name: `  part: ${name} gzip alone`, value: kib(bytes) }));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Builds once and measures. */
export async function run(): Promise<{ name: string; value: string; goal?: string }[]> {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'ignore' });
  // dist/ is not emptied between builds (dist/lib lives there): take each chunk's newest build.
  const newest = new Map<string, string>();
  for (const file of readdirSync(`${root}dist`)) {
    const module = /^(fr|de|es|nl|later-steps)-[\w-]+\.js$/.exec(file)?.[1];
    if (!module) continue;
    const current = newest.get(module);
    if (!current || statSync(`${root}dist/${file}`).mtimeMs > statSync(`${root}dist/${current}`).mtimeMs)
      newest.set(module, file);
  }
  const chunks = [...newest.entries()].sort(([a], [b]) => a.localeCompare(b));
  return [
    { name: 'dist/venue-booking.js gzip (with en-GB)', value: kib(gzipped('venue-booking.js')), goal: '≤ 30 KiB' },
    ...composition(),
    ...chunks.map(([module, file]) => ({
      name: `${module === 'later-steps' ? 'later steps chunk (party step extras, details form, confirmation, calendar links)' : `locale chunk ${module}`} gzip (on demand)`,
      value: kib(gzipped(file)),
    })),
  ];
}
