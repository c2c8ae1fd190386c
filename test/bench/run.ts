/**
 * `npm run bench`: runs every `test/bench/*.bench.ts` (each exports `run()` returning rows) and
 * prints one table with the machine it ran on. Benchmarks measure; they never fail a build, so
 * the figures live here and in the README, never in timed test assertions.
 */
import { readdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** One measured figure. */
export interface BenchRow {
  name: string;
  value: string;
  goal?: string;
}

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort();

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `Machine: ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}\n`,
);
console.log('| Benchmark | Result | Goal |\n|---|---|---|');
for (const file of files) {
  const module = (await import(pathToFileURL(`${dir}${file}`).href)) as { run: () => Promise<BenchRow[]> };
  for (const row of await module.run()) console.log(`| ${row.name} | ${row.value} | ${row.goal ?? ''} |`);
}
