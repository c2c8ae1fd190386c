/**
 * Bots kept out (issue 34, part 2), measured. A scripted booker (no browser) makes 1,000 booking
 * attempts against the proxy bin on its embedded sandbox, each from a fresh address through the
 * trusted hop's `X-Forwarded-For`, reusing what it learnt: the form's field names (the honeypot
 * among them), one challenge it solved honestly, its solution on a fresh challenge. The figures:
 * how many reached the upstream (the proxy's own count of its `POST /bookings` calls), and the
 * decoys and refusals as `/metrics` and `/status` show them. Then the widget in Chromium, on the
 * phone profile of the first-choice bench (375×740, Fast 3G, 4× CPU), books as a guest who types:
 * the time from the last keystroke to the confirmation, with the check on and off.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { chromium, type Browser } from 'playwright';
import { CHROMIUM_ARGS, findChromium } from '../support/browser.mjs';
import { freePort, runBin } from '../proxy/node-bin.js';
import { venueSite } from './built-widget.js';
import { currentStep, nextStep } from './quota.bench.js';
import type { BenchRow } from './run.js';

const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const TABLE = '64a1f0c2e4b0a1b2c3d4e601';
const ATTEMPTS = 1000;
const TOKEN = 'bench-operator-token-0123456789';
const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 };
const GUEST_RUNS = 5;

/** The booker's four tricks, in turn. */
const TRICKS = [
  'every field, the honeypot too',
  'the solved proof again',
  'its solution on a new challenge',
  'no proof',
];

/** The scripted booker's run: what reached the upstream, what it was told, what the proxy counted. */
async function scriptedBooker(): Promise<BenchRow[]> {
  const port = await freePort();
  const bin = await runBin(
    {
      PORT: String(port),
      VENUE_BOOKING_CLIENT_IP_HEADER: 'x-forwarded-for',
      VENUE_BOOKING_TRUSTED_HOPS: '1',
      VENUE_BOOKING_METRICS_TOKEN: TOKEN,
    },
    [],
    /(Add the widget|not built)[^\n]*\n/,
  );
  const base = `http://127.0.0.1:${port}`;
  const from = (address: string, extra: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...extra });
  try {
    // What it learns once: a bookable date and time, and a challenge it solves honestly.
    const read = `${base}/api/venues/${VENUE}/booking-availability?type=${TABLE}&num_people=2`;
    const days = (await (await fetch(read, { headers: from('192.0.2.1') })).json()) as any;
    const date = days.payload.validation.date.suggestedValues.filter((day: any) => day.valid)[1].value as string;
    const slots = (await (await fetch(`${read}&date=${date}`, { headers: from('192.0.2.1') })).json()) as any;
    const time = slots.payload.validation.time.suggestedValues.find((slot: any) => slot.valid);
    const challengeOf = async (address: string) =>
      ((await (await fetch(`${base}/api/venues/${VENUE}/challenge`, { headers: from(address) })).json()) as any).payload
        .challenge as Challenge;
    const learnt = await challengeOf('192.0.2.1');
    const solution = (await solveChallenge({ challenge: learnt, deriveKey }))!;
    const fields = {
      venue_id: VENUE,
      type: TABLE,
      date,
      time: time.time ?? time.value,
      num_people: 2,
      first_name: 'Bot',
      last_name: 'Booker',
      email: 'bot@example.com',
    };
    const told = new Map<string, number>();
    const started = performance.now();
    for (let i = 0; i < ATTEMPTS; i++) {
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const trick = i % TRICKS.length;
      const body: Record<string, unknown> = { ...fields, email: `bot${i}@example.com` };
      if (trick === 0) body.website = 'https://bot.example';
      if (trick === 1) body.proof = { challenge: learnt, solution };
      if (trick === 2) body.proof = { challenge: await challengeOf(address), solution };
      const response = await fetch(`${base}/api/bookings`, {
        method: 'POST',
        headers: from(address, { 'content-type': 'application/json', 'idempotency-key': `bot-${i}-attempt` }),
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as any;
      const seen =
        response.status === 200 && answer.payload?.booking?.reference ? 'a booking reference' : `${response.status}`;
      told.set(`${TRICKS[trick]}: ${seen}`, (told.get(`${TRICKS[trick]}: ${seen}`) ?? 0) + 1);
    }
    const seconds = (performance.now() - started) / 1000;
    const operator = { headers: { authorization: `Bearer ${TOKEN}` } };
    const metrics = await (await fetch(`${base}/metrics`, operator)).text();
    const series = (prefix: string) =>
      metrics
        .split('\n')
        .filter((line) => line.startsWith(prefix))
        .map((line) => `${/"([^"]+)"\}?\s/.exec(line)?.[1] ?? ''} ${line.slice(line.lastIndexOf(' ') + 1)}`);
    const upstream = metrics
      .split('\n')
      .filter((line) => line.startsWith('venue_booking_upstream_requests_total{route="POST /bookings"'))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    const status = await (await fetch(`${base}/status`, operator)).text();
    const decoysOnStatus = /Sent by bots, answered with a made-up booking \(nothing booked\)<\/th><td>([\d,]+)</.exec(
      status,
    )?.[1];
    return [
      {
        name: `scripted booker: ${ATTEMPTS} attempts, a fresh address each (${seconds.toFixed(1)} s)`,
        value: `${upstream} reached the upstream (${((upstream / ATTEMPTS) * 100).toFixed(1)} %)`,
        goal: '≤ 1 %',
      },
      ...[...told.entries()].map(([what, count]) => ({ name: `  told: ${what}`, value: String(count) })),
      { name: '  /metrics bot_checks_total', value: series('venue_booking_bot_checks_total{').join(', ') },
      { name: '  /metrics bookings_total', value: series('venue_booking_bookings_total{').join(', ') },
      { name: '  /status "Sent by bots, answered with a made-up booking"', value: decoysOnStatus ?? 'missing' },
    ];
  } finally {
    bin.stop();
  }
}

/** One guest on a phone: the ms from their last keystroke to the confirmation. */
async function guest(browser: Browser, pageUrl: string, n: number): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(pageUrl);
    const widget = page.locator('venue-booking');
    let step: string | null = null;
    for (let guard = 0; guard < 12; guard++) {
      step = await nextStep(page, step);
      const options = widget.locator('[part~="step"] [part~="option"]:not([disabled])');
      if (step === 'type') await options.and(widget.locator(`[data-value="${TABLE}"]`)).click();
      else if (step === 'date') {
        const days = widget.locator('[part~="day"]:not([aria-disabled="true"])');
        await days.nth(n % (await days.count())).click();
      } else if (step === 'time') {
        let chips = options.filter({ visible: true });
        if ((await chips.count()) === 0) {
          await widget.locator('[part~="time-group"]').first().click();
          chips = options.filter({ visible: true });
        }
        await chips.nth(n % (await chips.count())).click();
      } else if (step === 'num_people') await options.and(widget.locator('[data-value="2"]')).click();
      else if (step === 'details') break;
      else await options.first().click();
    }
    // A guest who types (about 8 keys a second), then sends.
    const typed: [string, string][] = [
      ['input[autocomplete="given-name"]', 'Ada'],
      ['input[autocomplete="family-name"]', 'Lovelace'],
      ['input[type="email"]', `ada${n}.${Date.now()}@example.com`],
      ['input[type="tel"]', '07700900123'],
    ];
    for (const [selector, text] of typed) {
      await widget.locator(selector).click();
      await page.keyboard.type(text, { delay: 120 });
    }
    const lastKey = performance.now();
    await widget.locator('button[type="submit"]').click();
    await widget.getByText('Booking confirmed', { exact: true }).waitFor({ timeout: 60_000 });
    const ms = performance.now() - lastKey;
    if ((await currentStep(page)) !== 'confirmation') throw new Error('no confirmation');
    return ms;
  } finally {
    await context.close();
  }
}

/** The widget's guests with the check on and off: the median time from the last keystroke to the confirmation. */
async function guests(): Promise<BenchRow[]> {
  const page = (_path: string, snippet: string, api: string) =>
    `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>The venue</title>${snippet}</head><body><venue-booking venue="${VENUE}" api="${api}"></venue-booking></body></html>`;
  const on = await venueSite(page);
  const off = await venueSite(page, { botCheck: false });
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    const times = { on: [] as number[], off: [] as number[] };
    for (let i = 0; i < GUEST_RUNS; i++) {
      times.on.push(await guest(browser, `${on.pageOrigin}/`, i));
      times.off.push(await guest(browser, `${off.pageOrigin}/`, i));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    const runs = (values: number[]) => values.map((value) => Math.round(value)).join(', ');
    return [
      {
        name: `a guest on a phone (Fast 3G, 4× CPU, 375×740): last keystroke to confirmation, median of ${GUEST_RUNS}`,
        value: `check on ${Math.round(median(times.on))} ms (${runs(times.on)}), off ${Math.round(median(times.off))} ms (${runs(times.off)}): +${Math.round(median(times.on) - median(times.off))} ms`,
        goal: '≤ +100 ms with the check on',
      },
    ];
  } finally {
    await browser.close();
    on.close();
    off.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  return [...(await scriptedBooker()), ...(await guests())];
}
