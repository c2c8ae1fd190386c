/**
 * What the page benchmarks (first choice, Lighthouse on a venue page and on the booking page) share:
 * the widget built as the Node entry reads it from `dist/`, and a server listening on a free
 * loopback port. Not a benchmark itself (no `.bench.ts`), so `npm run bench` does not run it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Listens on a free port of 127.0.0.1; resolves with the port. */
export const listen = (server: Server): Promise<number> =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

/** The built bundle and every on-demand chunk beside it (content-hashed names), as the Node entry reads them from dist/. */
export function builtWidget(): { script: Uint8Array<ArrayBuffer>; chunks: Record<string, Uint8Array<ArrayBuffer>> } {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: root, stdio: 'ignore' });
  const chunks: Record<string, Uint8Array<ArrayBuffer>> = {};
  for (const name of readdirSync(`${root}dist`).filter((file) => /^[\w-]+-[\w-]{8}\.js$/.test(file)))
    chunks[name] = new Uint8Array(readFileSync(`${root}dist/${name}`));
  return { script: new Uint8Array(readFileSync(`${root}dist/venue-booking.js`)), chunks };
}
