/**
 * Bundle size: builds `dist/venue-booking.js` (the script-tag bundle, Lit and en-GB included) and
 * reports its gzip size against the 30 KiB budget, plus the on-demand locale chunks beside it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../..', import.meta.url));

const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
const gzipped = (file: string) => gzipSync(readFileSync(`${root}dist/${file}`), { level: 9 }).length;

/** Builds once and measures. */
export async function run(): Promise<{ name: string; value: string; goal?: string }[]> {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'ignore' });
  // dist/ is not emptied between builds (dist/lib lives there): take each locale's newest chunk.
  const newest = new Map<string, string>();
  for (const file of readdirSync(`${root}dist`).filter((name) => /^(fr|de|es|nl)-.*\.js$/.test(name))) {
    const locale = file.split('-')[0];
    const current = newest.get(locale);
    if (!current || statSync(`${root}dist/${file}`).mtimeMs > statSync(`${root}dist/${current}`).mtimeMs)
      newest.set(locale, file);
  }
  const locales = [...newest.values()].sort();
  return [
    { name: 'dist/venue-booking.js gzip (with en-GB)', value: kib(gzipped('venue-booking.js')), goal: '≤ 30 KiB' },
    ...locales.map((file) => ({
      name: `locale chunk ${file.split('-')[0]} gzip (on demand)`,
      value: kib(gzipped(file)),
    })),
  ];
}
