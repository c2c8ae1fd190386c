/**
 * `venue-booking/sandbox`: the offline emulation of the v4 booking service as a library, for a
 * partner's own tests and development servers (served through Mock Service Worker, a dev server's
 * middleware or `fetch` directly). Built into `dist/server/sandbox.js` with its date library bundled in.
 */
import { createSandbox as createAppSandbox, type SandboxOptions } from './app.js';
import type { Journal } from './control.js';

export { SANDBOX_APP, SANDBOX_CONFIRM_APP, SEED_IDS, type SandboxOptions, type ScenarioName } from './app.js';
export type { JournalEntry } from './control.js';
export { openApiDocument } from './openapi.js';
export { SCENARIOS } from './scenarios.js';
export type { Seed } from './types.js';

/** A running sandbox: a Fetch handler answering `/v4/...` and its hosted booking page. */
export interface SandboxHandler {
  fetch(request: Request): Promise<Response>;
  /** Absolute URL where the handler is reachable by a browser. */
  readonly publicUrl: string;
  /** Every request the sandbox answered, oldest first: `journal.list({ path, method })`. */
  readonly journal: Pick<Journal, 'list' | 'clear'>;
}

/** Creates a sandbox; `createSandbox()` is the bundled demo venue group on the real clock. */
export const createSandbox: (options?: SandboxOptions) => SandboxHandler = createAppSandbox;
