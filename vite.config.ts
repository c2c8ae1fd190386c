/**
 * `npm start`: Vite serves the demo pages and mounts the whole offline stack (proxy + embedded
 * sandbox) in the same process, so a newcomer books a table with no credentials and no second
 * terminal. `npm run build`: the script-tag bundle `dist/venue-booking.js`, Lit included.
 */
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { defineConfig, type Plugin } from 'vite';
import { createStack, SANDBOX_PREFIX } from './proxy/stack.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Paths the stack answers; everything else is Vite's. */
const STACK_PATHS = ['/api/', '/healthz', `${SANDBOX_PREFIX}/`];

/** Mounts the proxy and sandbox on Vite's dev and preview servers. */
function offlineStack(): Plugin {
  let listener: ReturnType<typeof getRequestListener> | null = null;
  const mount = (middlewares: { use: (fn: (req: any, res: any, next: () => void) => void) => void }) => {
    middlewares.use((req, res, next) => {
      if (!STACK_PATHS.some((path) => req.url?.startsWith(path))) return next();
      // The sandbox must know its public address for next.web: take it from the first request.
      listener ??= getRequestListener(createStack({ origin: `http://${req.headers.host}` }).fetch);
      void listener(req, res);
    });
  };
  return {
    name: 'venue-booking-offline-stack',
    configureServer: (server) => mount(server.middlewares),
    configurePreviewServer: (server) => mount(server.middlewares),
  };
}

export default defineConfig(({ command }) => ({
  // The demo gallery is the dev server's root; the build reads src/ directly.
  root: command === 'serve' ? `${root}demo` : root,
  plugins: [offlineStack()],
  server: { fs: { allow: [root] } },
  build: {
    outDir: `${root}dist`,
    emptyOutDir: false, // dist/lib comes from tsc in the same `npm run build`
    target: 'es2022',
    lib: {
      entry: `${root}src/index.ts`,
      formats: ['es'],
      fileName: () => 'venue-booking.js',
    },
  },
}));
