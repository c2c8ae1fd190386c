/**
 * `venue-booking/sandbox`: the offline emulation of the v4 booking service as a library, for a
 * partner's own tests and development servers. Built into `dist/server/sandbox.js` with its date
 * library bundled in.
 */
import { createSandbox as createAppSandbox, type SandboxOptions } from './app.js';

export { SANDBOX_APP, type SandboxOptions } from './app.js';
export type { Seed } from './types.js';

/** A running sandbox: a Fetch handler answering `/v4/...` and its hosted booking page. */
export interface SandboxHandler {
  fetch(request: Request): Promise<Response>;
  /** Absolute URL where the handler is reachable by a browser. */
  readonly publicUrl: string;
}

/** Creates a sandbox; `createSandbox()` is the bundled demo venue group on the real clock. */
export const createSandbox: (options?: SandboxOptions) => SandboxHandler = createAppSandbox;
