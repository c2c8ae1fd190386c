/**
 * What the page benchmarks (first choice, Lighthouse on a venue page and on the booking page) share:
 * the widget built as the Node entry reads it from `dist/`, and a server listening on a free
 * loopback port. Not a benchmark itself (no `.bench.ts`), so `npm run bench` does not run it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../../proxy/core/log.js';
import { nodeListener } from '../../proxy/node/listener.js';
import { integrityOf } from '../../proxy/core/encoding.js';
import { widgetSnippet } from '../../proxy/pages/snippet.js';
import { createStack } from '../../proxy/stack.js';

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

/**
 * A venue's site as in production, on two loopback origins until `close()`: the proxy (the Node
 * entry with the built widget, on its embedded sandbox) on `localhost`, and the venue's pages on
 * `127.0.0.1`, each the page `pageAt(path, snippet, api)` gives for a path (404 where it gives
 * none), with the proxy's snippet and API address; `settings` for the proxy (the bot check off).
 */
export async function venueSite(
  pageAt: (path: string, snippet: string, api: string) => string | undefined,
  settings: { botCheck?: boolean } = {},
): Promise<{ pageOrigin: string; proxyOrigin: string; close: () => void }> {
  const { script, chunks } = builtWidget();
  const proxyServer = createServer();
  const proxyOrigin = `http://localhost:${await listen(proxyServer)}`;
  const pageServer = createServer();
  const pageOrigin = `http://127.0.0.1:${await listen(pageServer)}`;
  const stack = createStack({
    origin: proxyOrigin,
    proxy: { logger: silentLogger, widgetScript: script, widgetChunks: chunks, origins: [pageOrigin], ...settings },
  });
  proxyServer.on('request', nodeListener({ fetch: stack.fetch, fast: stack.proxy.fast }));
  const snippet = widgetSnippet(`${proxyOrigin}/venue-booking.js`, await integrityOf(script));
  const api = `${proxyOrigin}/api`;
  pageServer.on('request', (request, response) => {
    const page = pageAt(request.url ?? '', snippet, api);
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(page ?? 'no such page');
  });
  return {
    pageOrigin,
    proxyOrigin,
    close: () => {
      proxyServer.close();
      pageServer.close();
    },
  };
}
