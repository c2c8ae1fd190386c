/**
 * The widget's main-thread cost on a phone, as Lighthouse 12 measures it (mobile default: a
 * simulated 4× CPU slowdown and slow 4G), on a plain venue page with and without the proxy's
 * snippet, side by side in one run: runs alternate between the two pages (A, B, A, B, …), so a
 * machine busy with something else weighs on both alike, and each figure is the median of `RUNS`.
 * The widget's cost is the difference in total blocking time; its own tasks are those Lighthouse
 * attributes to the proxy's origin (the script and its chunks): the longest of them, and their
 * boot-up (evaluation and compile). Accessibility is that of the page with the widget.
 *
 * Lighthouse is pinned (`npx lighthouse@12.2.3`) and drives the same Chromium as the tests
 * (`CHROME_PATH`, Debian's `/usr/bin/chromium` here), headless.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findChromium } from '../support/browser.mjs';
import { venueSite } from './built-widget.js';
import type { BenchRow } from './run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const LIGHTHOUSE = 'lighthouse@12.2.3';
const run$ = promisify(execFile);

/** A plain venue page: some text, and (with the widget) the snippet the proxy prints and the element. */
function venuePage(widget: { snippet: string; api: string } | null): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>The Harbour &amp; Vine</title>
${widget?.snippet ?? ''}
<style>body{font:1rem/1.5 Georgia,serif;margin:0 auto;max-width:40rem;padding:1rem;color:#222}</style></head>
<body><header><h1>The Harbour &amp; Vine</h1></header><main>
<p>Seasonal plates by the water, open every day for lunch and dinner.</p>
<h2>Book a table</h2>
${widget ? `<venue-booking venue="${VENUE}" api="${widget.api}"><p>Call us on <a href="tel:+442079460000">020 7946 0000</a>.</p></venue-booking>` : '<p>Call us on <a href="tel:+442079460000">020 7946 0000</a>.</p>'}
<h2>Find us</h2><p>1 Quayside, London.</p></main></body></html>`;
}

/** What one Lighthouse run found. */
interface Found {
  tbt: number;
  /** The longest task attributed to the widget's origin, in ms (0: none long enough to list). */
  longest: number;
  /** The longest task of the page, whatever Lighthouse attributes it to (layout, say, is "Unattributable"). */
  longestAny: number;
  /** Boot-up (script evaluation and compile) of the widget's origin, in ms. */
  bootup: number;
  accessibility: number;
}

interface LighthouseReport {
  audits: Record<string, { numericValue?: number; details?: { items?: Record<string, unknown>[] } }>;
  categories: Record<string, { score: number | null }>;
}

/** Runs Lighthouse (mobile default) once on `url`. */
async function lighthouse(url: string, widgetOrigin: string, chrome: string): Promise<Found> {
  const { stdout } = await run$(
    'npx',
    [
      '--yes',
      LIGHTHOUSE,
      url,
      '--output=json',
      '--quiet',
      '--only-categories=performance,accessibility',
      '--chrome-flags=--headless=new --no-sandbox',
    ],
    { cwd: root, env: { ...process.env, CHROME_PATH: chrome }, maxBuffer: 64 * 2 ** 20 },
  );
  const report = JSON.parse(stdout) as LighthouseReport;
  const items = (audit: string) => report.audits[audit]?.details?.items ?? [];
  const ours = (item: Record<string, unknown>) => String(item.url ?? '').startsWith(widgetOrigin);
  return {
    tbt: report.audits['total-blocking-time']?.numericValue ?? NaN,
    longest: Math.max(
      0,
      ...items('long-tasks')
        .filter(ours)
        .map((item) => Number(item.duration)),
    ),
    longestAny: Math.max(0, ...items('long-tasks').map((item) => Number(item.duration))),
    bootup: items('bootup-time')
      .filter(ours)
      .reduce((sum, item) => sum + Number(item.total), 0),
    accessibility: Math.round((report.categories.accessibility?.score ?? NaN) * 100),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const ms = (value: number) => `${Math.round(value)} ms`;

/** The proxy and the two pages (`/with`, `/without`) on loopback ports, until `close()`. */
export function serve(): ReturnType<typeof venueSite> {
  return venueSite((path, snippet, api) =>
    path === '/with' ? venuePage({ snippet, api }) : path === '/without' ? venuePage(null) : undefined,
  );
}

/** Serves the pages and runs Lighthouse on them, alternately. */
export async function run(): Promise<BenchRow[]> {
  const { pageOrigin, proxyOrigin, close } = await serve();
  const chrome = process.env.CHROME_PATH ?? findChromium();
  try {
    const withWidget: Found[] = [];
    const without: Found[] = [];
    // One unmeasured run warms the proxy's cache and npx's copy of Lighthouse.
    await lighthouse(`${pageOrigin}/with`, proxyOrigin, chrome);
    for (let i = 0; i < RUNS; i++) {
      without.push(await lighthouse(`${pageOrigin}/without`, proxyOrigin, chrome));
      withWidget.push(await lighthouse(`${pageOrigin}/with`, proxyOrigin, chrome));
    }
    const tbtWith = median(withWidget.map((found) => found.tbt));
    const tbtWithout = median(without.map((found) => found.tbt));
    const list = (runs: Found[], key: keyof Found) => runs.map((found) => Math.round(found[key])).join(', ');
    return [
      {
        name: `Lighthouse 12.2.3 mobile: page TBT without / with the widget, median of ${RUNS} (A/B interleaved)`,
        value: `${ms(tbtWithout)} / ${ms(tbtWith)} (runs ${list(without, 'tbt')} / ${list(withWidget, 'tbt')})`,
      },
      {
        name: '  the widget adds, total blocking time',
        value: ms(tbtWith - tbtWithout),
        goal: '≤ 50 ms',
      },
      {
        name: "  the widget's longest task (its origin's, as Lighthouse lists them)",
        value: `${ms(median(withWidget.map((found) => found.longest)))} (runs ${list(withWidget, 'longest')})`,
        goal: '< 100 ms',
      },
      {
        name: '  the longest task of the page without / with the widget (any attribution)',
        value: `${ms(median(without.map((found) => found.longestAny)))} / ${ms(median(withWidget.map((found) => found.longestAny)))} (runs ${list(without, 'longestAny')} / ${list(withWidget, 'longestAny')})`,
      },
      {
        name: "  the widget's boot-up (evaluation and compile of its scripts)",
        value: `${ms(median(withWidget.map((found) => found.bootup)))} (runs ${list(withWidget, 'bootup')})`,
      },
      {
        name: '  accessibility score, the page with the widget',
        value: String(median(withWidget.map((found) => found.accessibility))),
        goal: '100',
      },
    ];
  } finally {
    close();
  }
}
