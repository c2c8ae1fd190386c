/**
 * The first choice on a phone: how long a new guest waits, on a venue's page, until the first
 * booking type is on screen. Chromium at 375×740 with DevTools' Fast 3G (562.5 ms round trip,
 * 1.44 Mbps down, 675 kbps up, through CDP `Network.emulateNetworkConditions`) and a 4× CPU
 * slowdown (`Emulation.setCPUThrottlingRate`); a warm proxy (the Node entry's listener, fast path
 * included, on the embedded sandbox) serving the built bundle; the venue's page on another origin,
 * with the snippet the proxy prints. Each run is a fresh browser context (nothing cached, no
 * connection open); the figure is the median, beside the floor of four round trips (the page, the
 * connection to the proxy's origin, the script, the first read), with the median run's waterfall.
 * The venue's offers limit party size (the seed's two-for-one for 2 to 8, group feast for 6 or
 * more), so its type badges need each type's booking rules, which the first choice must not wait
 * for (issue 37): the bench checks that before it measures.
 */
import { chromium, type Browser } from 'playwright';
import type { WireOffer } from '../../src/api/types.js';
import { sizeCondition } from '../../src/venue/offers.js';
import { CHROMIUM_ARGS, findChromium } from '../support/browser.mjs';
import { venueSite } from './built-widget.js';
import type { BenchRow } from './run.js';

const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const RUNS = 7;
/** DevTools' Fast 3G preset: 562.5 ms, 1.44 Mbps down, 675 kbps up (in bytes per second). */
const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 };
const FLOOR_MS = 4 * FAST_3G.latency;

/**
 * The venue's page: the snippet the proxy prints, the element, and the bench's probe, which notes
 * the frame in which the first booking type is on screen.
 */
function venuePage(snippet: string, api: string): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>The venue</title>
${snippet}
<script>
  new MutationObserver((_, observer) => {
    const root = document.querySelector('venue-booking')?.shadowRoot;
    if (!root) return;
    observer.disconnect();
    const seen = () => root.querySelector('[data-step="type"] [part~="option"]');
    const mark = () => requestAnimationFrame(() => (window.firstChoice = performance.now()));
    if (seen()) return mark();
    new MutationObserver((_, inner) => seen() && (inner.disconnect(), mark())).observe(root, { childList: true, subtree: true });
  }).observe(document, { childList: true, subtree: true, attributes: true });
</script></head>
<body><h1>The venue</h1><p>Book a table below.</p>
<venue-booking venue="${VENUE}" api="${api}"></venue-booking></body></html>`;
}

/** One request of a run, in ms from the navigation's start; `end` null while it was still open. */
interface Fetched {
  url: string;
  start: number;
  end: number | null;
}

/** One guest's first visit: the time to the first choice, and the requests made until then. */
async function visit(browser: Browser, pageUrl: string): Promise<{ ms: number; requests: Fetched[] }> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // CDP timestamps are monotonic seconds.
    const requests = new Map<string, { url: string; sent: number; done: number | null }>();
    cdp.on('Network.requestWillBeSent', (event) =>
      requests.set(event.requestId, { url: event.request.url, sent: event.timestamp, done: null }),
    );
    cdp.on('Network.loadingFinished', (event) => {
      const request = requests.get(event.requestId);
      if (request) request.done = event.timestamp;
    });
    await page.goto(pageUrl, { waitUntil: 'commit' });
    const marked = await page.waitForFunction(() => (window as { firstChoice?: number }).firstChoice, null, {
      timeout: 30_000,
      polling: 100,
    });
    const firstChoice = (await marked.jsonValue()) as number;
    // The document's request is the run's zero, as it is the page's time origin.
    const zero = [...requests.values()].find((request) => request.url === pageUrl)!.sent;
    const ms = (seconds: number) => (seconds - zero) * 1000;
    const made = [...requests.values()]
      .map((request) => ({
        url: request.url,
        start: ms(request.sent),
        end: request.done !== null && ms(request.done) <= firstChoice ? ms(request.done) : null,
      }))
      .filter((request) => request.start <= firstChoice)
      .sort((a, b) => a.start - b.start);
    return { ms: firstChoice, requests: made };
  } finally {
    await context.close();
  }
}

/** Starts the proxy and the venue's page, warms the proxy, and measures `RUNS` first visits. */
export async function run(): Promise<BenchRow[]> {
  // Every path of the venue's site is its one page.
  const { pageOrigin, proxyOrigin, close } = await venueSite((_path, snippet, api) => venuePage(snippet, api));
  const pageUrl = `${pageOrigin}/`;
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    // The service's envelope, as the widget reads it.
    const offers = await fetch(`${proxyOrigin}/api/venues/${VENUE}/offers`, { headers: { Origin: pageOrigin } });
    const { payload } = (await offers.json()) as { payload?: WireOffer[] };
    if (!payload?.some((offer) => sizeCondition(offer))) throw new Error(`No offer of ${VENUE} limits party size`);
    // Warm: the proxy's cache and fast path hold the first read; not measured.
    for (let i = 0; i < 2; i++) await visit(browser, pageUrl);
    const runs: Awaited<ReturnType<typeof visit>>[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await visit(browser, pageUrl));
    runs.sort((a, b) => a.ms - b.ms);
    const median = runs[RUNS >> 1]!;
    const label = (url: string) => {
      const parsed = new URL(url);
      const where = parsed.origin === proxyOrigin ? 'proxy' : 'page';
      return `${where} ${parsed.pathname.replace(/\/venues\/\w+/, '/venues/…')}${parsed.search ? '?…' : ''}`;
    };
    return [
      {
        name: `first choice on a phone (Fast 3G, 4× CPU, 375×740), median of ${RUNS}`,
        value: `${(median.ms / 1000).toFixed(2)} s = ${(median.ms / FLOOR_MS).toFixed(2)}× the floor (runs ${runs.map((one) => (one.ms / 1000).toFixed(2)).join(', ')} s)`,
        goal: `≤ 1.1× the floor of ${(FLOOR_MS / 1000).toFixed(2)} s (4 round trips)`,
      },
      ...median.requests.map((request) => ({
        name: `  waterfall: ${label(request.url)}`,
        value: `${Math.round(request.start)}–${request.end === null ? '(open at the first choice)' : Math.round(request.end)} ms`,
      })),
    ];
  } finally {
    await browser.close();
    close();
  }
}
