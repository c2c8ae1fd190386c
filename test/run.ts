/**
 * `npm test`: every test, then one closing line `N passed, N failed` summed over every runner and
 * browser engine.
 *
 * 1. Node tests (`test/{unit,sandbox,proxy,package}/**\/*.test.ts`) with node:test and tsx, with the
 *    host in Auckland (unless TZ is set) so that nothing can lean on the machine being in London.
 * 2. Browser tests (`test/browser/**\/*.test.ts`) with web-test-runner, once per engine: Chromium,
 *    Firefox and WebKit (see test/web-test-runner.config.mjs), one engine after the other.
 *
 * `npm test -- --node` or `-- --browser` runs one side only; `-- --engine firefox` (or
 * `BROWSER_ENGINES=firefox`) runs the browser tests in the engines named (comma-separated). Exits
 * non-zero on any failure, and when a runner crashes before reporting (counted as one failure,
 * never as zero tests).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const NODE_DIRS = ['test/unit', 'test/sandbox', 'test/proxy', 'test/package', 'test/wordpress'];

interface Totals {
  passed: number;
  failed: number;
}

function findTests(dir: string): string[] {
  const absolute = join(root, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((name) => {
    const path = join(absolute, name);
    if (statSync(path).isDirectory()) return findTests(relative(root, path));
    return name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(1));
  });
}

/** Reads `# pass N` / `# fail N` from node:test's TAP summary. */
function tapTotals(file: string): Totals | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const pass = /^# pass (\d+)$/m.exec(text);
  const fail = /^# fail (\d+)$/m.exec(text);
  return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : null;
}

async function nodeTests(work: string): Promise<Totals> {
  const files = NODE_DIRS.flatMap(findTests).sort();
  if (files.length === 0) return { passed: 0, failed: 0 };
  const tap = join(work, 'node.tap');
  const code = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=2',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { TZ: process.env.TZ ?? 'Pacific/Auckland' },
  ); // far from London: host-zone slips show up
  const totals = tapTotals(tap) ?? { passed: 0, failed: 1 };
  if (code !== 0 && totals.failed === 0) totals.failed = 1;
  return totals;
}

/** The browser engines of the suite, in the order they run. */
const ENGINES = ['chromium', 'firefox', 'webkit'];

/** The engines asked for by `--engine a,b` (or `--engine=a,b`, or BROWSER_ENGINES), else all of them. */
function chosenEngines(): string[] {
  const index = process.argv.findIndex((arg) => arg === '--engine' || arg.startsWith('--engine='));
  const named =
    index < 0 ? process.env.BROWSER_ENGINES : (process.argv[index].split('=')[1] ?? process.argv[index + 1]);
  if (!named) return ENGINES;
  const engines = named.split(',').map((name) => name.trim().toLowerCase());
  const unknown = engines.filter((name) => !ENGINES.includes(name));
  if (unknown.length) throw new Error(`Unknown engine ${unknown.join(', ')}: expected ${ENGINES.join(', ')}`);
  return engines;
}

/** One web-test-runner run in one engine; its reporter writes the counts to a file. */
async function browserTests(work: string, engine: string): Promise<Totals> {
  const results = join(work, `browser-${engine}.json`);
  const bin = join(root, 'node_modules/@web/test-runner/dist/bin.js');
  const start = performance.now();
  const code = await run(process.execPath, ['--import', 'tsx', bin, '--config', 'test/web-test-runner.config.mjs'], {
    BROWSER_ENGINE: engine,
    BROWSER_RESULTS_FILE: results,
  });
  const totals: Totals = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : { passed: 0, failed: 1 };
  if (code !== 0 && totals.failed === 0) totals.failed = 1;
  const minutes = ((performance.now() - start) / 60_000).toFixed(1);
  console.log(`\nBrowser tests in ${engine}: ${totals.passed} passed and ${totals.failed} failed in ${minutes} min`);
  return totals;
}

const only = process.argv.find((arg) => arg === '--node' || arg === '--browser');
const engines = chosenEngines();
const work = mkdtempSync(join(tmpdir(), 'venue-booking-test-'));
const sides: Totals[] = [];
if (only !== '--browser') sides.push(await nodeTests(work));
if (only !== '--node' && findTests('test/browser').length > 0)
  for (const engine of engines) sides.push(await browserTests(work, engine));
const passed = sides.reduce((sum, side) => sum + side.passed, 0);
const failed = sides.reduce((sum, side) => sum + side.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
