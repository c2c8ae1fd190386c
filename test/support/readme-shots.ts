/**
 * The README's pictures of the venue's pages (docs/*.png): the embed studio with the dark #8b1f3a
 * warning, and the booking page on a phone. `node --import tsx test/support/readme-shots.ts`
 * serves the offline stack with the widget bundled by esbuild, opens each page in Chromium and
 * writes small PNGs (ImageMagick's `convert` makes them 64-colour; the studio at 70 %); look at
 * them before committing.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { silentLogger } from '../../proxy/core/log.js';
import { nodeListener } from '../../proxy/node/listener.js';
import { createStack } from '../../proxy/stack.js';
import { CHROMIUM_ARGS, findChromium } from './browser.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const VENUE = '64a1f0c2e4b0a1b2c3d4e501';

const bundle = await build({
  entryPoints: [`${root}src/index.ts`],
  bundle: true,
  format: 'esm',
  minify: true,
  write: false,
  logLevel: 'silent',
});
const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const stack = createStack({
  origin,
  proxy: {
    logger: silentLogger,
    widgetScript: new Uint8Array(bundle.outputFiles[0]!.contents) as Uint8Array<ArrayBuffer>,
    peerAddress: () => '127.0.0.1',
  },
});
server.on('request', nodeListener({ fetch: stack.fetch, fast: stack.proxy.fast }));
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
try {
  const studio = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  await studio.goto(`${origin}/embed?venue=${VENUE}&theme=dark&accent=%238b1f3a&type=64a1f0c2e4b0a1b2c3d4e601`);
  await studio.waitForFunction(() =>
    document.querySelector('#preview venue-booking')?.shadowRoot?.querySelector('[part~="step"]'),
  );
  await studio.screenshot({ path: `${root}docs/studio.png` });
  const phone = await browser.newPage({ viewport: { width: 390, height: 760 }, deviceScaleFactor: 1, isMobile: true });
  await phone.goto(`${origin}/book/${VENUE}?accent=%23155e3b`);
  await phone.waitForFunction(() =>
    document.querySelector('venue-booking')?.shadowRoot?.querySelector('[part~="step"]'),
  );
  await phone.screenshot({ path: `${root}docs/booking-page.png` });
} finally {
  await browser.close();
  server.close();
}
for (const [name, scale] of [
  ['studio', '70%'],
  ['booking-page', '100%'],
] as const) {
  const file = `${root}docs/${name}.png`;
  execFileSync('convert', [file, '-resize', scale, '+dither', '-colors', '64', `PNG8:${file}`]);
}
