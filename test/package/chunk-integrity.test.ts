/**
 * The on-demand chunks are pinned: the build writes each chunk's sha384 into the bundle, and the
 * widget preloads a chunk with that integrity before importing it. Here the real build is served
 * by the real proxy to real Chromium: the locale, once as built (French shows) and once with one
 * byte of the French chunk changed (English stays, `vb-error` says `locale`, the changed code never
 * runs); the later steps (party step extras, details form, confirmation, calendar links): a guest's
 * way to the details form, which shows as built and gives way to the cannot-book step with the chunk
 * changed; a larger party's field, which as built comes from the chunk and with the chunk changed
 * gives way to the venue's own way to book; and a confirmation kept from before a reload, which
 * shows whole with its links as built and, with the chunk changed, as one line that still says the
 * booking is made, with its reference; the changed code never runs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { chromium, type Browser } from 'playwright';
import { build } from 'vite';
import { createStack } from '../../proxy/stack.js';
import { CHROMIUM_ARGS, findChromium } from '../support/browser.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
const PAGE = `<!doctype html><html lang="fr"><body>
<venue-booking venue="${VENUE}" api="/api" locale="fr"></venue-booking>
<script type="module" src="/venue-booking.js" crossorigin="anonymous"></script>
<script>window.vbErrors = []; document.addEventListener('vb-error', (e) => vbErrors.push(e.detail.during));</script>
</body></html>`;
/** A confirmation kept from before a reload (what `Journey` saves), so the page opens on it. */
const SAVED = {
  venue: null,
  choices: { date: '2026-07-01', time: '19:00', duration: 90, num_people: 2 },
  offer: null,
  confirmation: { reference: 'DMN-1', status: 'confirmed' },
};
const CONFIRMATION_PAGE = `<!doctype html><html lang="en"><body>
<script>sessionStorage.setItem(${JSON.stringify(`venue-booking:/api|${VENUE}`)}, ${JSON.stringify(JSON.stringify(SAVED))});</script>
<venue-booking venue="${VENUE}" api="/api"></venue-booking>
<script type="module" src="/venue-booking.js" crossorigin="anonymous"></script>
</body></html>`;

let out = '';
let browser: Browser;
const files: Record<string, Uint8Array<ArrayBuffer>> = {};

/** Serves the page and the offline stack, whose proxy serves the built bundle and `chunks`. */
async function serveBuild(
  chunks: Record<string, Uint8Array<ArrayBuffer>>,
  page = PAGE,
): Promise<{ url: string; server: Server }> {
  let listener: ReturnType<typeof getRequestListener> | undefined;
  const server = createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    listener ??= getRequestListener(
      createStack({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        proxy: { widgetScript: files['venue-booking.js']!, widgetChunks: chunks, logger: { log() {} } },
      }).fetch,
    );
    void listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** What the widget shows once it has either switched to French or reported the locale as failed. */
async function visit(chunks: Record<string, Uint8Array<ArrayBuffer>>) {
  const { url, server } = await serveBuild(chunks);
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(() => {
      const text = document.querySelector('venue-booking')?.shadowRoot?.textContent ?? '';
      return /souhaitez-vous/.test(text) || (window as unknown as { vbErrors: string[] }).vbErrors.length > 0;
    });
    return {
      text: await page.evaluate(() => document.querySelector('venue-booking')!.shadowRoot!.textContent ?? ''),
      errors: await page.evaluate(() => (window as unknown as { vbErrors: string[] }).vbErrors),
      tampered: await page.evaluate(() => (window as unknown as { tampered?: boolean }).tampered === true),
    };
  } finally {
    await page.close();
    server.close();
  }
}

/** The confirmation a reload shows, once it shows: its reference and its `.ics` link, if any. */
async function visitConfirmation(chunks: Record<string, Uint8Array<ArrayBuffer>>) {
  const { url, server } = await serveBuild(chunks, CONFIRMATION_PAGE);
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(() =>
      document.querySelector('venue-booking')?.shadowRoot?.querySelector('[part~="confirmation"]'),
    );
    return await page.evaluate(() => {
      const root = document.querySelector('venue-booking')!.shadowRoot!;
      return {
        title: root.querySelector('#step-title')?.textContent?.trim() ?? '',
        reference: root.querySelector('.reference')?.textContent ?? '',
        summary: root.querySelector('[part~="confirmation"] dl') !== null,
        ics: root.querySelector<HTMLAnchorElement>('[part~="ics"]')?.href ?? null,
        tampered: (window as unknown as { tampered?: boolean }).tampered === true,
      };
    });
  } finally {
    await page.close();
    server.close();
  }
}

const BOOKING_PAGE = `<!doctype html><html lang="en"><body>
<venue-booking venue="${VENUE}" api="/api"></venue-booking>
<script type="module" src="/venue-booking.js" crossorigin="anonymous"></script>
</body></html>`;

/**
 * A guest's way through the steps, each answered with its first bookable value, until what the
 * walk is for shows. To the end (`largerParty` false): the details form (`details`) or the
 * cannot-book step (`unavailable`). To "More than N people?" on the party step (`largerParty`
 * true): the larger party's field (`field`) or the venue's own way to book, the fallback content
 * (`fallback`).
 */
async function walkSteps(chunks: Record<string, Uint8Array<ArrayBuffer>>, largerParty: boolean) {
  const { url, server } = await serveBuild(chunks, BOOKING_PAGE);
  const page = await browser.newPage();
  try {
    await page.goto(url);
    const end = await page.waitForFunction(
      (toLargerParty: boolean) => {
        const root = document.querySelector('venue-booking')?.shadowRoot;
        const step = root?.querySelector<HTMLElement>('[part~="step"][data-step]');
        if (!toLargerParty) {
          if (root?.querySelector('[part~="form"]')) return 'details';
          if (step?.dataset.step === 'unavailable') return 'unavailable';
        } else if (step?.dataset.step === 'num_people') {
          if (step.querySelector('#larger-size')) return 'field';
          if (step.querySelector('slot')) return 'fallback';
          step.querySelector<HTMLButtonElement>('[data-larger-party]')?.click();
          return false;
        }
        const next = step?.querySelector<HTMLButtonElement>(
          '[part~="option"]:not([disabled]), .day:not([aria-disabled="true"])',
        );
        if (next && !next.dataset.clicked) {
          next.dataset.clicked = '1';
          next.click();
        }
        return false;
      },
      largerParty,
      { polling: 100, timeout: 30_000 },
    );
    return {
      end: await end.jsonValue(),
      tampered: await page.evaluate(() => (window as unknown as { tampered?: boolean }).tampered === true),
    };
  } finally {
    await page.close();
    server.close();
  }
}

const visitDetails = (chunks: Record<string, Uint8Array<ArrayBuffer>>) => walkSteps(chunks, false);
const visitLargerParty = (chunks: Record<string, Uint8Array<ArrayBuffer>>) => walkSteps(chunks, true);

describe('on-demand chunk integrity (built bundle, Chromium)', { timeout: 180_000 }, () => {
  before(async () => {
    out = mkdtempSync(join(tmpdir(), 'vb-chunks-'));
    await build({
      root,
      configFile: `${root}vite.config.ts`,
      logLevel: 'silent',
      build: { outDir: out, emptyOutDir: true },
    });
    for (const name of readdirSync(out))
      if (name.endsWith('.js')) files[name] = new Uint8Array(readFileSync(join(out, name)));
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
  });
  after(async () => {
    await browser?.close();
    rmSync(out, { recursive: true, force: true });
  });

  const chunksOf = () => Object.fromEntries(Object.entries(files).filter(([name]) => name !== 'venue-booking.js'));

  test('the bundle pins every locale chunk by its sha384', () => {
    const bundle = new TextDecoder().decode(files['venue-booking.js']);
    assert.ok(!bundle.includes('__VB_LOCALE_INTEGRITY__'));
    for (const language of ['fr', 'de', 'es', 'nl']) {
      const name = Object.keys(files).find((file) => file.startsWith(`${language}-`))!;
      assert.ok(name, `${language} chunk built`);
      assert.match(bundle, new RegExp(`${name}[^}]*sha384-`));
    }
  });

  test('as built, French loads', async () => {
    const { text, errors } = await visit(chunksOf());
    assert.match(text, /souhaitez-vous/);
    assert.deepEqual(errors, []);
  });

  test('with a changed French chunk, English stays, vb-error says locale, the changed code never runs', async () => {
    const chunks = chunksOf();
    const name = Object.keys(chunks).find((file) => file.startsWith('fr-'))!;
    const changed = `window.tampered = true;${new TextDecoder().decode(chunks[name])}`;
    const { text, errors, tampered } = await visit({ ...chunks, [name]: new TextEncoder().encode(changed) });
    assert.deepEqual(errors, ['locale']);
    assert.doesNotMatch(text, /souhaitez-vous/);
    assert.equal(tampered, false);
  });

  test('the bundle pins the later steps chunk (details form, calendar links) by its sha384', () => {
    const bundle = new TextDecoder().decode(files['venue-booking.js']);
    const name = Object.keys(files).find((file) => file.startsWith('later-steps-'))!;
    assert.ok(name, 'later steps chunk built');
    assert.match(bundle, new RegExp(`${name}[^}]*sha384-`));
  });

  test('as built, a kept confirmation shows with its calendar links', async () => {
    const { title, reference, ics, summary } = await visitConfirmation(chunksOf());
    assert.equal(title, 'Booking confirmed');
    assert.equal(reference, 'DMN-1');
    assert.equal(summary, true);
    assert.match(decodeURIComponent(ics ?? ''), /DTSTART:20260701T180000Z/);
  });

  test('as built, the details form comes from the later steps chunk', async () => {
    assert.deepEqual(await visitDetails(chunksOf()), { end: 'details', tampered: false });
  });

  test("with a changed later steps chunk, the details form gives way to the venue's own way to book", async () => {
    const chunks = chunksOf();
    const name = Object.keys(chunks).find((file) => file.startsWith('later-steps-'))!;
    const changed = `window.tampered = true;${new TextDecoder().decode(chunks[name])}`;
    assert.deepEqual(await visitDetails({ ...chunks, [name]: new TextEncoder().encode(changed) }), {
      end: 'unavailable',
      tampered: false,
    });
  });

  test("as built, a larger party's field comes from the later steps chunk", async () => {
    assert.deepEqual(await visitLargerParty(chunksOf()), { end: 'field', tampered: false });
  });

  test("with a changed later steps chunk, a larger party is shown the venue's own way to book", async () => {
    const chunks = chunksOf();
    const name = Object.keys(chunks).find((file) => file.startsWith('later-steps-'))!;
    const changed = `window.tampered = true;${new TextDecoder().decode(chunks[name])}`;
    assert.deepEqual(await visitLargerParty({ ...chunks, [name]: new TextEncoder().encode(changed) }), {
      end: 'fallback',
      tampered: false,
    });
  });

  test('with a changed later steps chunk, the booking still shows as made, with its reference; the changed code never runs', async () => {
    const chunks = chunksOf();
    const name = Object.keys(chunks).find((file) => file.startsWith('later-steps-'))!;
    const changed = `window.tampered = true;${new TextDecoder().decode(chunks[name])}`;
    const { title, reference, ics, tampered } = await visitConfirmation({
      ...chunks,
      [name]: new TextEncoder().encode(changed),
    });
    // The confirmation's template is in that chunk: the one-line fallback says the booking is made.
    assert.equal(title, 'Booking confirmed');
    assert.equal(reference, 'DMN-1');
    assert.equal(ics, null);
    assert.equal(tampered, false);
  });
});
