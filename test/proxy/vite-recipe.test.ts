/**
 * The README's dev-server recipe, run for real: a Vite dev server whose `server.proxy` sends `/api`
 * to a running proxy (here the offline stack on its own port), as a partner develops a venue page.
 * Requests carry what a browser sends from the page: a same-origin GET only a `Referer`, the
 * booking POST an `Origin` (which Vite passes on). Misconfigured, the first read already fails,
 * naming the setting; configured, reads and the booking both pass.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { serve } from '@hono/node-server';
import { createServer, type ViteDevServer } from 'vite';
import { createStack } from '../../proxy/stack.js';
import { freePort } from './node-bin.js';
import { TYPE, validBooking, VENUE } from './support.js';
import { withProof } from '../support/bot-proof.js';

const READ = `/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=2030-06-04&num_people=2&time=19:00&duration=120`;

/** A proxy on its own port, and Vite in front of it with the README's `server.proxy` entry. */
async function devServer(origins: (viteOrigin: string) => string[]) {
  const [proxyPort, vitePort] = [await freePort(), await freePort()];
  const viteOrigin = `http://localhost:${vitePort}`;
  const stack = createStack({
    origin: `http://localhost:${proxyPort}`,
    proxy: { origins: origins(viteOrigin), logger: { log() {} } },
  });
  const proxy = serve({ fetch: stack.fetch, port: proxyPort, hostname: '127.0.0.1' }) as Server;
  const vite: ViteDevServer = await createServer({
    configFile: false,
    root: new URL('.', import.meta.url).pathname,
    logLevel: 'silent',
    server: {
      host: '127.0.0.1',
      port: vitePort,
      strictPort: true,
      // The recipe: /api goes to the proxy; the page's origin is in VENUE_BOOKING_ORIGINS.
      proxy: { '/api': { target: `http://localhost:${proxyPort}`, changeOrigin: true } },
    },
  });
  await vite.listen();
  return {
    page: `${viteOrigin}/book.html`,
    base: `http://127.0.0.1:${vitePort}`,
    viteOrigin,
    close: async () => {
      await vite.close();
      proxy.close();
    },
  };
}

describe('Vite server.proxy in front of the proxy', { timeout: 60_000 }, () => {
  describe('without the page in VENUE_BOOKING_ORIGINS', () => {
    let dev: Awaited<ReturnType<typeof devServer>>;
    before(async () => (dev = await devServer(() => [])));
    after(() => dev.close());

    test('the first read fails with 403 naming VENUE_BOOKING_ORIGINS', async () => {
      const response = await fetch(`${dev.base}${READ}`, { headers: { referer: dev.page } });
      assert.equal(response.status, 403);
      const body = (await response.json()) as { payload: { errors: { message: string }[] } };
      assert.match(body.payload.errors[0]!.message, /VENUE_BOOKING_ORIGINS/);
    });
  });

  describe('with the page in VENUE_BOOKING_ORIGINS', () => {
    let dev: Awaited<ReturnType<typeof devServer>>;
    before(async () => (dev = await devServer((viteOrigin) => [viteOrigin])));
    after(() => dev.close());

    test('reads and the booking pass', async () => {
      const read = await fetch(`${dev.base}${READ}`, { headers: { referer: dev.page } });
      assert.equal(read.status, 200);
      // With a proof of work solved as the widget solves it: the bot check is on.
      const url = `${dev.base}/api/bookings`;
      const booking = await fetch(
        url,
        await withProof(fetch, url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: dev.viteOrigin,
            referer: dev.page,
            'idempotency-key': 'vite-recipe-0001',
          },
          body: JSON.stringify(validBooking({ date: '2030-06-04' })),
        }),
      );
      assert.ok(booking.status === 200 || booking.status === 201, `booking answered ${booking.status}`);
      const body = (await booking.json()) as { payload: { booking: { reference?: string } } };
      assert.ok(body.payload.booking.reference);
    });
  });
});
