/**
 * The booking page `/book/<id>` under Lighthouse 12.2.3's mobile audit (its default: a Moto G
 * Power-sized screen, simulated slow 4G and a 4× CPU slowdown), in Debian's Chromium: the
 * performance, accessibility and SEO scores, the figures behind the first and any SEO audit not
 * passed (the page a Google Business Profile's booking link opens). Then a guest's manage page
 * `/manage/<token>` (issue 36), of a table booked through the API as the widget books it (with the
 * bot check's proof): its performance and accessibility, not its SEO (the page is `noindex` on
 * purpose: its token opens the booking). The pages are served as a venue's guests get them, the
 * venue's address and phone from its profile: the Node entry's listener with the fast path, the
 * built widget bundle and its locale chunks, on the embedded sandbox, each warmed by one visit.
 * Lighthouse runs through `npx lighthouse@12.2.3` (fetched from the npm registry on first use;
 * CHROME_PATH names the browser).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../../proxy/core/log.js';
import { nodeListener } from '../../proxy/node/listener.js';
import { createStack } from '../../proxy/stack.js';
import { findChromium } from '../support/browser.mjs';
import { fetchWithProof } from '../support/bot-proof.js';
import { builtWidget, listen } from './built-widget.js';
import type { BenchRow } from './run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
/** The sandbox's table booking type. */
const TABLE = '64a1f0c2e4b0a1b2c3d4e601';
/** The venue's profile: what the page's contact block and its structured data show. */
const PROFILE = {
  phone: '+44 117 496 0000',
  email: 'bookings@quayside.example',
  address: '1 Quay Street\nBristol BS1 4DJ',
};

interface LighthouseReport {
  categories: Record<'performance' | 'accessibility' | 'seo', { score: number; auditRefs: { id: string }[] }>;
  audits: Record<string, { numericValue?: number; score: number | null; displayValue?: string }>;
}

/**
 * Lighthouse's mobile audit of `url`, as JSON (it exits non-zero only when it could not run). Run
 * asynchronously: the server under audit lives in this process.
 */
async function lighthouse(url: string): Promise<LighthouseReport> {
  const { stdout } = await promisify(execFile)(
    'npx',
    [
      '-y',
      'lighthouse@12.2.3',
      url,
      '--only-categories=performance,accessibility,seo',
      '--output=json',
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox --disable-background-networking --disable-component-update --no-first-run',
    ],
    { cwd: root, env: { ...process.env, CHROME_PATH: findChromium() }, maxBuffer: 64 * 2 ** 20 },
  );
  return JSON.parse(stdout) as LighthouseReport;
}

/** London's date a week from now (`yyyy-MM-dd`): the sandbox keeps real time, as the proxy does. */
function aWeekAhead(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(Date.now() + 7 * 86_400_000);
}

/** Books a table for two through the proxy's API with a solved proof: the answer's manage link. */
async function manageLink(stack: ReturnType<typeof createStack>, origin: string): Promise<string> {
  const response = await fetchWithProof(stack, `${origin}/api/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      venue_id: VENUE,
      type: TABLE,
      date: aWeekAhead(),
      time: '18:00',
      num_people: 2,
      duration: 2,
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'manage-bench@example.com',
    }),
  });
  const body = (await response.json()) as { payload: { manage_url?: string } };
  if (response.status !== 200 || !body.payload.manage_url)
    throw new Error(`the booking: ${response.status} ${JSON.stringify(body)}`);
  return body.payload.manage_url;
}

/** Serves the booking page and a manage page, and audits them. */
export async function run(): Promise<BenchRow[]> {
  const { script, chunks } = builtWidget();
  const server = createServer();
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  const stack = createStack({
    origin,
    proxy: { logger: silentLogger, widgetScript: script, widgetChunks: chunks, profileSeed: { [VENUE]: PROFILE } },
  });
  server.on('request', nodeListener({ fetch: stack.fetch, fast: stack.proxy.fast }));
  const url = `${origin}/book/${VENUE}`;
  try {
    // Warm: the venue's name and the first reads in the proxy's cache, as on a page in use.
    await (await fetch(url)).text();
    const report = await lighthouse(url);
    const score = (of: LighthouseReport, name: 'performance' | 'accessibility' | 'seo') =>
      Math.round(of.categories[name].score * 100);
    const timings = (of: LighthouseReport) => {
      const audit = (id: string) => of.audits[id]?.displayValue ?? '—';
      return `FCP ${audit('first-contentful-paint')}, LCP ${audit('largest-contentful-paint')}, TBT ${audit('total-blocking-time')}, CLS ${audit('cumulative-layout-shift')}`;
    };
    // The SEO audits Lighthouse scores that did not pass (those it does not score are left out).
    const failed = report.categories.seo.auditRefs
      .map(({ id }) => id)
      .filter((id) => typeof report.audits[id]?.score === 'number' && report.audits[id]!.score! < 1);
    const manage = await manageLink(stack, origin);
    // Warm, and make sure the audit is of the booking's page, not the 404 of a link that does not open.
    const warmed = await fetch(manage);
    if (warmed.status !== 200) throw new Error(`the manage page: ${warmed.status} ${await warmed.text()}`);
    await warmed.text();
    const managed = await lighthouse(manage);
    return [
      {
        name: 'booking page /book/<id>, Lighthouse 12.2.3 mobile: performance',
        value: `${score(report, 'performance')} (${timings(report)})`,
        goal: '≥ 90',
      },
      {
        name: 'booking page /book/<id>, Lighthouse 12.2.3 mobile: accessibility',
        value: String(score(report, 'accessibility')),
        goal: '100',
      },
      {
        name: 'booking page /book/<id>, Lighthouse 12.2.3 mobile: SEO',
        value: `${score(report, 'seo')}${failed.length ? ` (not passed: ${failed.join(', ')})` : ''}`,
        goal: '100',
      },
      {
        name: 'manage page /manage/<token>, Lighthouse 12.2.3 mobile: performance',
        value: `${score(managed, 'performance')} (${timings(managed)})`,
        goal: '≥ 90',
      },
      {
        name: 'manage page /manage/<token>, Lighthouse 12.2.3 mobile: accessibility',
        value: String(score(managed, 'accessibility')),
        goal: '100',
      },
    ];
  } finally {
    server.close();
  }
}
