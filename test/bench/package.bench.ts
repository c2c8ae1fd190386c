/**
 * The package's own share of an install, beside the install of Lit: what `npm pack` would put in
 * `node_modules/venue-booking` (its unpacked size, from npm's own dry run of the built checkout),
 * and what Lit's packages take in this checkout's node_modules. Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MiB = 1024 * 1024;

/** Bytes of every file under `dir`. */
function bytesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name);
    return sum + (entry.isDirectory() ? bytesUnder(path) : statSync(path).size);
  }, 0);
}

/** What `npm pack` would ship of the built checkout: unpacked bytes, and the largest files. */
function packed(): { unpacked: number; largest: { path: string; size: number }[] } {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--dry-run', '--json'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out) as { unpackedSize: number; files: { path: string; size: number }[] }[];
  const largest = [...pack!.files].sort((a, b) => b.size - a.size).slice(0, 4);
  return { unpacked: pack!.unpackedSize, largest };
}

export async function run(): Promise<{ name: string; value: string; goal?: string }[]> {
  if (!existsSync(`${root}dist/venue-booking.js`) || !existsSync(`${root}dist/server/venue-booking-proxy.js`))
    return [{ name: 'package: its own share installed', value: 'not built: run `npm run build` first' }];
  const { unpacked, largest } = packed();
  const lit = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element'].reduce(
    (sum, name) => sum + bytesUnder(`${root}node_modules/${name}`),
    0,
  );
  const files = largest.map((file) => `${file.path} ${(file.size / MiB).toFixed(2)}`).join(', ');
  return [
    {
      name: 'package: its own share installed (npm pack, unpacked; largest files in MiB)',
      value: `${(unpacked / MiB).toFixed(2)} MiB (${files})`,
      goal: '≤ 3.5 MiB',
    },
    {
      name: 'package: beside it, the install of Lit (lit, lit-html, lit-element, @lit/reactive-element)',
      value: `${(lit / MiB).toFixed(2)} MiB`,
    },
  ];
}
