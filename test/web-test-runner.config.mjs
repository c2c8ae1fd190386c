// Browser tests in three engines, served by @web/dev-server with the offline stacks mounted
// (test/support/stacks.ts), so every test goes through the real proxy and sandbox. One run is one
// engine, named by BROWSER_ENGINE: `chromium` (the default; Debian's Chromium through Playwright),
// `firefox` (Debian's Firefox ESR through Puppeteer over WebDriver BiDi) or `webkit` (WebKitGTK's
// MiniBrowser through WebKitWebDriver, on an Xvfb display of its own). Run it through `npm test`
// (or `npm run test:browser`), which runs every engine in turn and loads tsx for the TypeScript imports.
import { globSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultReporter } from '@web/test-runner';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { puppeteerLauncher } from '@web/test-runner-puppeteer';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { visualRegressionPlugin } from '@web/test-runner-visual-regression/plugin';
import {
  findChromium,
  findFirefox,
  findWebKit,
  startWebKitDriver,
  CHROMIUM_ARGS,
  FIREFOX_PREFS,
  FIREFOX_TOUCH_PREFS,
} from './support/browser.mjs';
import { countReporter } from './support/count-reporter.mjs';
import { stacksMiddleware } from './support/stacks.ts';
import { demoPagesMiddleware } from './support/demo-server.ts';
import { accessibilityTreePlugin } from './support/accessibility-tree.ts';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const engine = process.env.BROWSER_ENGINE ?? 'chromium';
const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1024, height: 768 };

/** Names a launcher in the report by engine and zone (or device), also after it reads its capabilities. */
function labelled(launcher, label) {
  const initialize = launcher.initialize.bind(launcher);
  launcher.initialize = async (...args) => {
    await initialize(...args);
    launcher.name = label;
  };
  launcher.name = label;
  return launcher;
}

/**
 * The keys of a `press` in Playwright's chord notation (`Shift+PageDown` → `Shift`, `PageDown`);
 * Puppeteer and the WebDriver launcher know only single keys. A lone `+` is a key of its own.
 */
const chordKeys = (key) => (/^(?:(?:Shift|Control|Alt|Meta)\+)+.+$/.test(key) ? key.split(/\+(?=.)/) : [key]);

/** Chromium in a visitor zone, with a device's context options (viewport, touch) when given. */
function chromiumIn(timezoneId, options = {}) {
  const executablePath = findChromium();
  return playwrightLauncher({
    product: 'chromium',
    launchOptions: { executablePath, args: CHROMIUM_ARGS, headless: true },
    createBrowserContext: ({ browser }) =>
      browser.newContext({ timezoneId, locale: 'en-GB', deviceScaleFactor: 1, ...options }),
  });
}

/**
 * Firefox in a visitor zone. Each test page opens in a window of its own: a background tab of a
 * shared window would have its timers and animation frames throttled. Keyboard presses take the
 * chord notation (see `chordKeys`).
 */
async function firefoxIn(timezoneId, { viewport = { width: 1280, height: 720 }, prefs = {} } = {}) {
  const executablePath = await findFirefox();
  return puppeteerLauncher({
    launchOptions: {
      browser: 'firefox',
      executablePath,
      headless: true,
      defaultViewport: null,
      extraPrefsFirefox: { ...FIREFOX_PREFS, ...prefs },
    },
    createPage: async ({ browser }) => {
      const page = await browser.newPage({ type: 'window' });
      const press = page.keyboard.press.bind(page.keyboard);
      page.keyboard.press = async (key, options) => {
        const keys = chordKeys(key);
        for (const modifier of keys.slice(0, -1)) await page.keyboard.down(modifier);
        await press(keys.at(-1), options);
        for (const modifier of keys.slice(0, -1).reverse()) await page.keyboard.up(modifier);
      };
      await page.emulateTimezone(timezoneId);
      await page.setViewport(viewport);
      return page;
    },
  });
}

/**
 * WebKit in a visitor zone. The WebDriver launcher would type a `press` such as `Shift+PageDown`
 * letter by letter; its keys are sent as one chord instead (WebdriverIO's `keys` holds them all down).
 */
async function webkitIn(timezoneId) {
  const { browser: binary } = findWebKit();
  const driver = await startWebKitDriver();
  stopOnServerStop.push(driver.stop);
  const launcher = webdriverLauncher({
    hostname: '127.0.0.1',
    port: driver.port,
    path: '/',
    logLevel: 'error',
    capabilities: {
      // WebKitWebDriver speaks classic WebDriver only; WebdriverIO would ask for BiDi and fail to match.
      'wdio:enforceWebDriverClassic': true,
      'webkitgtk:browserOptions': { binary, args: ['--automation', `--time-zone=${timezoneId}`] },
    },
  });
  // The launcher sends a `type` as one WebdriverIO `keys` call, which holds every key down before
  // releasing any, so a repeated character ("77") arrives once: typed text goes one key at a time.
  const sendKeys = launcher.sendKeys.bind(launcher);
  launcher.sendKeys = async (sessionId, keys) => {
    if (keys.length === 1) return sendKeys(sessionId, chordKeys(keys[0]));
    for (const key of keys) await sendKeys(sessionId, [key]);
  };
  return launcher;
}

/** What each engine's launchers can do, and so which files run in it. */
const ENGINES = {
  chromium: {
    zone: (timezoneId) => labelled(chromiumIn(timezoneId), `Chromium ${timezoneId}`),
    devices: {
      phone: () => labelled(chromiumIn('Europe/London', { viewport: PHONE, hasTouch: true }), 'Chromium phone'),
      desktop: () => labelled(chromiumIn('Europe/London', { viewport: DESKTOP }), 'Chromium desktop'),
    },
    screenshots: true,
    concurrency: 2,
  },
  firefox: {
    zone: async (timezoneId) => labelled(await firefoxIn(timezoneId), `Firefox ${timezoneId}`),
    devices: {
      phone: async () =>
        labelled(await firefoxIn('Europe/London', { viewport: PHONE, prefs: FIREFOX_TOUCH_PREFS }), 'Firefox phone'),
      desktop: async () => labelled(await firefoxIn('Europe/London', { viewport: DESKTOP }), 'Firefox desktop'),
    },
    // One page at a time: Firefox gives keyboard input and focus to one window of a browser only,
    // so a second page side by side would take them from the first.
    concurrency: 1,
  },
  // No device groups: WebKitWebDriver has no viewport emulation and MiniBrowser's window cannot be
  // narrower than its toolbar (about 450 px), so a 375 px phone cannot be had.
  webkit: {
    zone: async (timezoneId) => labelled(await webkitIn(timezoneId), `WebKit ${timezoneId}`),
    devices: {},
    // The WebDriver launcher runs files side by side only in iframes of one page (its IFrameManager),
    // where focus, top-level navigation and pop-ups behave unlike a real page: one page at a time.
    concurrency: 1,
  },
};
const chosenEngine = ENGINES[engine];
if (!chosenEngine) throw new Error(`BROWSER_ENGINE=${engine}: expected one of ${Object.keys(ENGINES).join(', ')}`);
/** Drivers to stop with the test server (the WebKit driver and its X display). */
const stopOnServerStop = [];

/**
 * Device groups: files ending in `.phone.test.ts` or `.desktop.test.ts` run in a browser of that
 * device only. A phone: 375×740 CSS px with touch (so `pointer: coarse` matches); not `isMobile`,
 * as the test page has no viewport meta and a mobile layout would be 980 px wide. A desktop: a
 * mouse (`pointer: fine`). `screens.*` files compare screenshots with Chromium's baselines (fonts
 * and antialiasing differ per engine), so they run in Chromium only. BROWSER_TEST_FILES=a,b runs
 * the files named.
 */
const deviceOf = (file) => ['phone', 'desktop'].find((name) => file.endsWith(`.${name}.test.ts`));
const isScreenshotFile = (file) => /(^|\/)screens\.[^/]*test\.ts$/.test(file);
const files = (process.env.BROWSER_TEST_FILES?.split(',') ?? globSync('test/browser/**/*.test.ts', { cwd: rootDir }))
  .filter((file) => chosenEngine.screenshots || !isScreenshotFile(file))
  .sort();
const otherFiles = files.filter((file) => !deviceOf(file));
const groups = [];
for (const [name, launch] of Object.entries(chosenEngine.devices)) {
  const deviceFiles = files.filter((file) => deviceOf(file) === name);
  if (deviceFiles.length) groups.push({ name, files: deviceFiles, browsers: [await launch()] });
}
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

// Two visitor zones on either side of London and of the date line (as cally's CI does): a date or
// time taken from the visitor's clock instead of the venue's fails in at least one of them.
// BROWSER_TIMEZONE=Zone/Name runs one zone only.
const zones = process.env.BROWSER_TIMEZONE?.split(',') ?? ['America/Los_Angeles', 'Pacific/Auckland'];

export default {
  rootDir,
  files: first ? first.files : otherFiles,
  groups,
  nodeResolve: { exportConditions: ['browser', 'development'] },
  concurrency: chosenEngine.concurrency,
  concurrentBrowsers: 1,
  browserStartTimeout: 60_000,
  testsFinishTimeout: 10 * 60_000,
  testFramework: { config: { timeout: 20_000 } },
  browsers: first ? first.browsers : await Promise.all(zones.map(chosenEngine.zone)),
  middleware: [stacksMiddleware(), demoPagesMiddleware()],
  plugins: [
    visual,
    esbuildPlugin({
      ts: true,
      target: 'es2022',
      tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
    }),
    { name: 'stop-drivers', serverStop: () => stopOnServerStop.forEach((stop) => stop()) },
    // What a screen reader walks (Chromium's accessibility tree): the virtual screen reader's commands
    // (test/support/screen-reader.ts) and the tests that check what a guest hears.
    accessibilityTreePlugin(),
  ],
  reporters: [defaultReporter(), countReporter(process.env.BROWSER_RESULTS_FILE)],
};
