/**
 * The WordPress plugin's sources (proxy/pages/wordpress/venue-booking/: PHP, block.json, plain JavaScript, the
 * readme) as one TypeScript module, proxy/pages/wordpress/wordpress-files.ts, which the proxy zips on
 * request. A module of strings runs everywhere the proxy does (Node from source through tsx, the
 * built bins, a Worker) with no loader of its own; the build (`npm run build:server`) rewrites it, and
 * test/proxy/wordpress-plugin.test.ts fails while it differs from the sources.
 *
 * Run: `node --import tsx scripts/wordpress-files.ts [--write | --check]`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Where the plugin's folder `venue-booking/` lives; its files go into the zip by their path from here. */
export const SOURCES = join(root, 'proxy/pages/wordpress');
/** The plugin's folder itself (beside it are the zip's route and this generator's module, not part of it). */
const PLUGIN = join(SOURCES, 'venue-booking');
/** The generated module. */
export const MODULE = join(root, 'proxy/pages/wordpress/wordpress-files.ts');

/** Every file under `dir`, by its path relative to SOURCES, in a stable order. */
export function sourceFiles(dir = PLUGIN): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(files, sourceFiles(path));
    else files[relative(SOURCES, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

/** The module's text for `files`. */
export async function moduleText(files: Record<string, string>): Promise<string> {
  const text = `/**
 * Generated from proxy/pages/wordpress/venue-booking/ by the build (scripts/wordpress-files.ts): edit
 * the sources there, not this file. The WordPress plugin's files by their path in the zip.
 */
export const WORDPRESS_FILES: Readonly<Record<string, string>> = ${JSON.stringify(files, null, 2)};
`;
  return format(text, { parser: 'typescript', printWidth: 120, singleQuote: true, trailingComma: 'all' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await moduleText(sourceFiles());
  if (process.argv[2] === '--check') {
    if (readFileSync(MODULE, 'utf8') !== text) {
      console.error(
        'proxy/pages/wordpress/wordpress-files.ts differs from proxy/pages/wordpress/venue-booking/: run `npm run build`',
      );
      process.exit(1);
    }
  } else writeFileSync(MODULE, text);
}
