/**
 * Upstream quota per booking, measured end to end: the BUILT widget (`dist/venue-booking.js`,
 * served by the proxy itself) in real Chromium at a phone's 375×740 viewport, through the proxy
 * over loopback HTTP, against the embedded sandbox answering in the live service's shapes
 * (real-api-notes.md). Every upstream call is counted by route where the proxy makes it.
 *
 * 1. One visitor books alone (cold caches: a fresh stack).
 * 2. One visitor browses (type, date, the times) and leaves (a fresh stack).
 * 3. Ten visitors book one after the other at one venue (one stack, real clock, under a minute),
 *    each in its own browser context, with different times and party sizes; then the same ten
 *    arriving 6 s apart and each taking 20 s over the details form, so that they overlap as
 *    guests do (real clock, about 80 s).
 * 4. The bookings per hour that a 1,000-call hourly quota carries at the rates of 3.
 *
 * Needs `dist/` (built here when missing) and /usr/bin/chromium; without Chromium it says so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import type { Browser, Page } from 'playwright';
import { silentLogger } from '../../proxy/core/log.js';
import { createStack } from '../../proxy/stack.js';
import type { BenchRow } from './run.js';

const CHROMIUM = '/usr/bin/chromium';
const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const TABLE = '64a1f0c2e4b0a1b2c3d4e601';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = `${ROOT}dist/`;

/** No per-client or upstream-budget refusals: this measures spending, not limiting. */
const UNLIMITED = {
  rateLimit: { limit: 1e9, windowMs: 60_000 },
  missLimit: { limit: 1e9, windowMs: 600_000 },
  upstreamQuota: 1e9,
  lowWater: 0,
};

/** The built widget: the script and the chunks it imports on demand. */
function widgetFiles() {
  if (!existsSync(`${DIST}venue-booking.js`)) spawnSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'ignore' });
  const chunks: Record<string, Uint8Array<ArrayBuffer>> = {};
  let script: Uint8Array<ArrayBuffer> | undefined;
  for (const name of readdirSync(DIST)) {
    if (!/^[\w-]+\.js$/.test(name)) continue;
    const bytes = new Uint8Array(readFileSync(`${DIST}${name}`));
    if (name === 'venue-booking.js') script = bytes;
    else chunks[name] = bytes;
  }
  if (!script) throw new Error('dist/venue-booking.js is missing after the build');
  return { script, chunks };
}

/** An upstream route with its ids blanked, e.g. `GET /venues/:id/booking-availability`. */
const routeOf = (request: Request) =>
  `${request.method} ${new URL(request.url).pathname.replace(/^\/v4/, '').replace(/\/[0-9a-f]{24}/g, '/:id')}`;

/** A fresh stack (proxy + live-dialect sandbox) on a loopback port, with a page embedding the widget. */
async function serve() {
  const { script, chunks } = widgetFiles();
  const calls = new Map<string, number>();
  /** The proxy's clock runs ahead by this much: `later` lets minutes pass for its caches alone. */
  let skew = 0;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stack = createStack({
    origin,
    sandbox: { dialect: 'live' },
    proxy: {
      logger: silentLogger,
      ...UNLIMITED,
      widgetScript: script,
      widgetChunks: chunks,
      now: () => Date.now() + skew,
    },
    upstream: (sandbox) => (request) => {
      const route = routeOf(request);
      calls.set(route, (calls.get(route) ?? 0) + 1);
      return sandbox.fetch(request);
    },
  });
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<script type="module" src="/venue-booking.js"></script></head>
<body><venue-booking venue="${VENUE}" api="/api"></venue-booking></body></html>`;
  server.on(
    'request',
    getRequestListener((request) => {
      if (new URL(request.url).pathname === '/')
        return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } });
      return stack.fetch(request);
    }),
  );
  return {
    origin,
    calls,
    total: () => [...calls.values()].reduce((a, b) => a + b, 0),
    later: (ms: number) => (skew += ms),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The step the widget shows: a step's name, `details`, `confirmation`, or null while loading. */
export function currentStep(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const root = document.querySelector('venue-booking')?.shadowRoot;
    if (!root) return null;
    if (root.querySelector('[part~="confirmation"]')) return 'confirmation';
    if (root.querySelector('[part~="form"]')) return 'details';
    const step = root.querySelector<HTMLElement>('[part~="step"][data-step]');
    return step && !step.closest('[aria-busy="true"]') ? (step.dataset.step ?? null) : null;
  });
}

/** Waits until the widget shows a step other than `previous`. */
export async function nextStep(page: Page, previous: string | null): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const step = await currentStep(page);
    if (step && step !== previous) return step;
    await page.waitForTimeout(25);
  }
  throw new Error(`the widget stayed on ${previous}`);
}

/** What one visitor does. `leaveAt`: the step at which a browsing visitor closes the page. */
interface Visitor {
  dayIndex: number;
  timeIndex: number;
  people: number;
  leaveAt?: string;
  /** Milliseconds spent on the details form before sending it (a guest typing). */
  typing?: number;
}

/** Steps one visitor through the widget; true when the booking was confirmed. */
async function visit(browser: Browser, origin: string, visitor: Visitor, n: number): Promise<boolean> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    await page.goto(origin);
    const widget = page.locator('venue-booking');
    let step: string | null = null;
    for (let guard = 0; guard < 12; guard++) {
      step = await nextStep(page, step);
      if (step === visitor.leaveAt) {
        // Let the step's answer finish arriving, as a guest reading the times would.
        await page.waitForTimeout(300);
        return false;
      }
      const options = widget.locator('[part~="step"] [part~="option"]:not([disabled])');
      if (step === 'type') await options.and(widget.locator(`[data-value="${TABLE}"]`)).click();
      else if (step === 'date') {
        const days = widget.locator('[part~="day"]:not([aria-disabled="true"])');
        await days.nth(Math.min(visitor.dayIndex, (await days.count()) - 1)).click();
      } else if (step === 'time') {
        let chips = options.filter({ visible: true });
        if ((await chips.count()) === 0) {
          await widget.locator('[part~="time-group"]').first().click();
          chips = options.filter({ visible: true });
        }
        await chips.nth(visitor.timeIndex % (await chips.count())).click();
      } else if (step === 'num_people') {
        const party = options.and(widget.locator(`[data-value="${visitor.people}"]`));
        await ((await party.count()) ? party : options.first()).click();
      } else if (step === 'details') {
        await widget.locator('input[autocomplete="given-name"]').fill(`Guest${n}`);
        await widget.locator('input[autocomplete="family-name"]').fill('Bench');
        await widget.locator('input[type="email"]').fill(`guest${n}.${Date.now()}@example.com`);
        await widget.locator('input[type="tel"]').fill('+447700900123');
        if (visitor.typing) await page.waitForTimeout(visitor.typing);
        await widget.locator('button[type="submit"]').click();
        // A booking not confirmed in time (a loaded machine) counts as not completed, in the row.
        return await widget
          .getByText('Booking confirmed')
          .waitFor({ timeout: 30_000 })
          .then(() => true)
          .catch(() => false);
      } else if (step === 'confirmation') return true;
      else if (['duration'].includes(step)) await options.first().click();
      else return false; // reject, unavailable, redirect: not a completed booking
    }
    return false;
  } finally {
    await context.close();
  }
}

const describe = (calls: Map<string, number>) =>
  [...calls.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([route, count]) => `${count} ${route.replace('GET /venues/:id/', '').replace(/^GET /, '')}`)
    .join(', ');

/** Runs the quota benchmarks and returns the table rows. */
export async function run(): Promise<BenchRow[]> {
  if (!existsSync(CHROMIUM))
    return [{ name: 'widget quota: upstream calls per booking', value: `skipped: no Chromium at ${CHROMIUM}` }];
  const { chromium } = await import('playwright');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking'],
  });
  try {
    const alone = await serve();
    const aloneBooked = await visit(browser, alone.origin, { dayIndex: 1, timeIndex: 2, people: 2 }, 0);
    await alone.close();

    const browse = await serve();
    await visit(browser, browse.origin, { dayIndex: 1, timeIndex: 0, people: 2, leaveAt: 'time' }, 0);
    await browse.close();

    const ten = await serve();
    const started = performance.now();
    let booked = 0;
    for (let v = 0; v < 10; v++) {
      // Two evenings, different times and party sizes, as guests of one venue pick them.
      const ok = await visit(browser, ten.origin, { dayIndex: 1 + (v % 2), timeIndex: v, people: 2 + (v % 4) }, v + 1);
      if (ok) booked++;
    }
    const seconds = (performance.now() - started) / 1000;
    const perBooking = booked ? ten.total() / booked : Infinity;
    const tenCalls = describe(ten.calls);
    const tenTotal = ten.total();
    // Two minutes later on the same proxy: a visitor who books alone and one who browses, with the
    // venue's widely shared reads (types, calendar, offers, preferences) still cached.
    ten.later(120_000);
    const warm = ten.total();
    const warmBooked = await visit(browser, ten.origin, { dayIndex: 1, timeIndex: 11, people: 3 }, 99);
    const warmAlone = ten.total() - warm;
    const warmBrowse = ten.total();
    await visit(browser, ten.origin, { dayIndex: 2, timeIndex: 0, people: 2, leaveAt: 'time' }, 0);
    const warmBrowsed = ten.total() - warmBrowse;
    await ten.close();

    // The same ten as guests arrive: one every 6 s, each taking 20 s over the details form.
    const overlap = await serve();
    const arrivals = await Promise.all(
      Array.from({ length: 10 }, async (_, v) => {
        await new Promise((resolve) => setTimeout(resolve, v * 6000));
        const visitor = { dayIndex: 1 + (v % 2), timeIndex: v, people: 2 + (v % 4), typing: 20_000 };
        return visit(browser, overlap.origin, visitor, v + 11);
      }),
    );
    await overlap.close();
    const overlapBooked = arrivals.filter(Boolean).length;
    const overlapPer = overlapBooked ? overlap.total() / overlapBooked : Infinity;
    return [
      {
        name: 'widget quota: upstream calls, one visitor booking alone (built widget, Chromium 375×740, live shapes)',
        value: `${alone.total()}${aloneBooked ? '' : ' (booking NOT completed)'} (${describe(alone.calls)})`,
        goal: '≤ 4',
      },
      {
        name: 'widget quota: upstream calls, a visitor who browses (type, date, times) and leaves',
        value: `${browse.total()} (${describe(browse.calls)})`,
        goal: '≤ 2',
      },
      {
        name: `widget quota: upstream calls per completed booking, ten visitors booking at one venue in ${Math.round(seconds)} s`,
        value: `${perBooking.toFixed(1)} (${booked}/10 booked; ${tenTotal} calls: ${tenCalls})`,
        goal: '≤ 3.0',
      },
      {
        name: 'widget quota: the same ten arriving 6 s apart, each spending 20 s on the details form (overlapping)',
        value: `${overlapPer.toFixed(1)} (${overlapBooked}/10 booked; ${overlap.total()} calls: ${describe(overlap.calls)})`,
        goal: '≤ 3.0',
      },
      {
        name: 'widget quota: two minutes after the ten, on the same proxy, one visitor booking alone; one browsing',
        value: `${warmAlone}${warmBooked ? '' : ' (booking NOT completed)'}; ${warmBrowsed}`,
        goal: '≤ 4; ≤ 2',
      },
      {
        name: 'widget quota: bookings per hour that a 1,000-call quota carries (back to back; overlapping)',
        value: `${Math.floor(1000 / perBooking)}; ${Math.floor(1000 / overlapPer)}`,
        goal: '≥ 333',
      },
    ];
  } finally {
    await browser.close();
  }
}
