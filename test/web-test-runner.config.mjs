// Browser tests: real Chromium through Playwright, served by @web/dev-server with the offline
// stacks mounted (test/support/stacks.ts), so every test goes through the real proxy and sandbox.
// Run it through `npm test` (or `npm run test:browser`), which loads tsx for the TypeScript imports.
import { fileURLToPath } from 'node:url';
import { defaultReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { findChromium, CHROMIUM_ARGS } from './support/browser.mjs';
import { countReporter } from './support/count-reporter.mjs';
import { stacksMiddleware } from './support/stacks.ts';
import { demoPagesMiddleware } from './support/demo-server.ts';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const executablePath = findChromium();

/** The browser runs away from London, so any use of the visitor's zone shows up as a failure. */
const zone = (timezoneId) =>
  playwrightLauncher({
    product: 'chromium',
    launchOptions: { executablePath, args: CHROMIUM_ARGS, headless: true },
    createBrowserContext: ({ browser }) => browser.newContext({ timezoneId, locale: 'en-GB' }),
  });

export default {
  rootDir,
  files: process.env.BROWSER_TEST_FILES?.split(',') ?? ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  concurrency: 2,
  concurrentBrowsers: 1,
  browserStartTimeout: 60_000,
  testsFinishTimeout: 10 * 60_000,
  testFramework: { config: { timeout: 20_000 } },
  // Two visitor zones on either side of London and of the date line (as cally's CI does): a date
  // or time taken from the visitor's clock instead of the venue's fails in at least one of them.
  // BROWSER_TIMEZONE=Zone/Name runs one zone only.
  browsers: (process.env.BROWSER_TIMEZONE?.split(',') ?? ['America/Los_Angeles', 'Pacific/Auckland']).map(zone),
  middleware: [stacksMiddleware(), demoPagesMiddleware()],
  plugins: [
    esbuildPlugin({
      ts: true,
      target: 'es2022',
      tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
    }),
  ],
  reporters: [defaultReporter(), countReporter(process.env.BROWSER_RESULTS_FILE)],
};
