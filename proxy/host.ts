/**
 * What the Node entry (node/main.ts) and the Worker entry (worker.ts) do alike with their
 * environment's settings: the proxy in front of the configured upstream, or, with no credentials,
 * the whole offline stack on the embedded sandbox. Runtime-free: each entry adds only what its
 * host alone knows (the client's address, a logger, a transport, a shared state, the widget files).
 */
import type { ExecutionContext } from 'hono';
import { createProxy } from './app.js';
import type { ProxyConfig } from './config.js';
import type { EnvConfig } from './env.js';
import type { FastPath } from './pipeline/fast-path.js';
import { createStack } from './stack.js';

/** What a host serves: the Fetch handler, and the fast path a Node host tries first. */
export interface HostHandler {
  fetch(request: Request, env?: unknown, executionCtx?: ExecutionContext): Promise<Response>;
  readonly fast: FastPath;
}

/**
 * The handler of an environment's settings, with the host's own parts (`extra`). `fallbackOrigin`
 * names the embedded stack when no public URL is set: the Node entry's port, the Worker's first
 * request, so that `next.web` points at a page the browser can reach.
 */
export function handlerFor(config: EnvConfig, extra: Partial<ProxyConfig>, fallbackOrigin: string): HostHandler {
  if (!config.embedded) return createProxy({ ...config.settings, ...extra });
  const stack = createStack({
    origin: config.settings.publicUrl ?? fallbackOrigin,
    proxy: { ...config.settings, ...extra, publicUrlDerived: !config.settings.publicUrl },
  });
  return { fetch: stack.fetch, fast: stack.proxy.fast };
}
