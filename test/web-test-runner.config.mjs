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

/**
 * A phone: 375×740 CSS px with touch (so `pointer: coarse` matches), in London. Not `isMobile`: the
 * test page has no viewport meta, so a mobile layout would be 980 px wide.
 * Only `*.phone.test.ts` files run on it, in their own group.
 */
const phone = playwrightLauncher({
  product: 'chromium',
  launchOptions: { executablePath, args: CHROMIUM_ARGS, headless: true },
  createBrowserContext: ({ browser }) =>
    browser.newContext({
      timezoneId: 'Europe/London',
      locale: 'en-GB',
      viewport: { width: 375, height: 740 },
      deviceScaleFactor: 1,
      hasTouch: true,
    }),
});

const chosen = process.env.BROWSER_TEST_FILES?.split(',');
const isPhone = (file) => file.endsWith('.phone.test.ts');
const phoneFiles = chosen ? chosen.filter(isPhone) : ['test/browser/**/*.phone.test.ts'];
const otherFiles = chosen ? chosen.filter((file) => !isPhone(file)) : ['test/browser/**/*.test.ts'];
/** The visitor zones of the ordinary files; when only phone files were chosen, the phone alone. */
const zones = otherFiles.length
  ? (process.env.BROWSER_TIMEZONE?.split(',') ?? ['America/Los_Angeles', 'Pacific/Auckland']).map(zone)
  : [phone];

export default {
  rootDir,
  files: otherFiles.length ? [...otherFiles, '!test/browser/**/*.phone.test.ts'] : phoneFiles,
  groups: otherFiles.length && phoneFiles.length ? [{ name: 'phone', files: phoneFiles, browsers: [phone] }] : [],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  concurrency: 2,
  concurrentBrowsers: 1,
  browserStartTimeout: 60_000,
  testsFinishTimeout: 10 * 60_000,
  testFramework: { config: { timeout: 20_000 } },
  // Two visitor zones on either side of London and of the date line (as cally's CI does): a date
  // or time taken from the visitor's clock instead of the venue's fails in at least one of them.
  // BROWSER_TIMEZONE=Zone/Name runs one zone only.
  browsers: zones,
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
