/**
 * The no-dead-ends walk over every day of the next two weeks (`dead-ends.walk.ts`), in Chromium
 * through web-test-runner, the real proxy and the real sandbox: how many screens a guest can reach
 * by the walk's paths, how many of them are dead ends (the goal: none), and how long it took. The
 * browser test `test/browser/dead-ends.test.ts` walks a sample of those days in every engine.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function run(): Promise<BenchRow[]> {
  const started = performance.now();
  const output = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/run.ts', '--browser', '--engine', 'chromium'], {
      cwd: root,
      env: { ...process.env, BROWSER_TEST_FILES: 'test/bench/dead-ends.walk.ts' },
    });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('close', () => resolve(text));
  });
  const minutes = (performance.now() - started) / 60_000;
  // One line per venue and day, in each of the runner's time zones.
  const walks = [...output.matchAll(/dead-ends walk: (\S+) (\S+) (\d+) screens (\[.*\])/g)];
  const screens = walks.reduce((sum, walk) => sum + Number(walk[3]), 0);
  const deadEnds = walks.flatMap((walk) => JSON.parse(walk[4]!) as string[]);
  const failed = /(\d+) passed, (\d+) failed/.exec(output);
  return [
    {
      name: 'no-dead-ends walk, every type of 3 venues × 14 days (Chromium): screens checked',
      value: `${screens} in ${walks.length} venue-days, ${minutes.toFixed(1)} min`,
    },
    {
      name: 'no-dead-ends walk: dead ends found (and walks that failed)',
      value: `${deadEnds.length}${failed ? ` (${failed[2]} failed)` : ' (the runner did not report)'}${deadEnds.length ? `: ${deadEnds.slice(0, 3).join('; ')}` : ''}`,
      goal: '0',
    },
  ];
}
