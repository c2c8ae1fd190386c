// Browser tests: real Chromium through Playwright, served by @web/dev-server with the offline
// stacks mounted (test/support/stacks.ts), so every test goes through the real proxy and sandbox.
// Run it through `npm test` (or `npm run test:browser`), which loads tsx for the TypeScript imports.
import { fileURLToPath } from 'node:url';
import { defaultReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { visualRegressionPlugin } from '@web/test-runner-visual-regression/plugin';
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

/** A browser in London for one kind of device (its files end in `.phone.test.ts` or `.desktop.test.ts`). */
const device = (options) =>
  playwrightLauncher({
    product: 'chromium',
    launchOptions: { executablePath, args: CHROMIUM_ARGS, headless: true },
    createBrowserContext: ({ browser }) =>
      browser.newContext({ timezoneId: 'Europe/London', locale: 'en-GB', deviceScaleFactor: 1, ...options }),
  });

/**
 * Device groups. A phone: 375×740 CSS px with touch (so `pointer: coarse` matches); not `isMobile`,
 * as the test page has no viewport meta and a mobile layout would be 980 px wide. A desktop: a mouse
 * (`pointer: fine`). Their screenshot baselines are compared here, so each runs in one browser only.
 */
const DEVICES = {
  phone: device({ viewport: { width: 375, height: 740 }, hasTouch: true }),
  desktop: device({ viewport: { width: 1024, height: 768 } }),
};
const deviceOf = (file) => Object.keys(DEVICES).find((name) => file.endsWith(`.${name}.test.ts`));

const chosen = process.env.BROWSER_TEST_FILES?.split(',');
const otherFiles = chosen ? chosen.filter((file) => !deviceOf(file)) : ['test/browser/**/*.test.ts'];
const groups = Object.entries(DEVICES)
  .map(([name, launcher]) => ({
    name,
    files: chosen ? chosen.filter((file) => deviceOf(file) === name) : [`test/browser/**/*.${name}.test.ts`],
    browsers: [launcher],
  }))
  .filter((group) => group.files.length);
/** The visitor zones of the ordinary files; when only device files were chosen, the first device group. */
const first = otherFiles.length ? null : groups.shift();

/**
 * Screenshot baselines live in test/screenshots/baseline and are compared, never written, unless
 * UPDATE_VISUAL_BASELINE=1 (refused under CI): a missing baseline fails. Failures and diffs go to
 * test/screenshots/failed (git-ignored).
 */
const visual = visualRegressionPlugin({
  update: process.env.UPDATE_VISUAL_BASELINE === '1' && !process.env.CI,
  baseDir: fileURLToPath(new URL('./screenshots', import.meta.url)),
  getBaselineName: ({ name }) => `baseline/${name}`,
  getFailedName: ({ name }) => `failed/${name}`,
  getDiffName: ({ name }) => `failed/${name}-diff`,
  failureThreshold: 0.5,
  failureThresholdType: 'percent',
});

export default {
  rootDir,
  files: first
    ? first.files
    : [...otherFiles, ...Object.keys(DEVICES).map((name) => `!test/browser/**/*.${name}.test.ts`)],
  groups,
  nodeResolve: { exportConditions: ['browser', 'development'] },
  concurrency: 2,
  concurrentBrowsers: 1,
  browserStartTimeout: 60_000,
  testsFinishTimeout: 10 * 60_000,
  testFramework: { config: { timeout: 20_000 } },
  // Two visitor zones on either side of London and of the date line (as cally's CI does): a date
  // or time taken from the visitor's clock instead of the venue's fails in at least one of them.
  // BROWSER_TIMEZONE=Zone/Name runs one zone only.
  browsers: first
    ? first.browsers
    : (process.env.BROWSER_TIMEZONE?.split(',') ?? ['America/Los_Angeles', 'Pacific/Auckland']).map(zone),
  middleware: [stacksMiddleware(), demoPagesMiddleware()],
  plugins: [
    visual,
    esbuildPlugin({
      ts: true,
      target: 'es2022',
      tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
    }),
  ],
  reporters: [defaultReporter(), countReporter(process.env.BROWSER_RESULTS_FILE)],
};
