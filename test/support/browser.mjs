// Finds and starts the three browser engines of the browser tests. These machines cannot download
// browsers, so Debian's packages come first: `chromium`, `firefox-esr`, and WebKitGTK's
// `webkit2gtk-driver` (WebKitWebDriver driving MiniBrowser, Safari's engine) under `xvfb`. On an
// ordinary laptop Playwright's own Chromium and Puppeteer's own Firefox are used when installed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { chromium } from 'playwright';

const CHROMIUM_CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/** The first path that exists, or the bundled browser `fallback()` names, or a thrown Error saying how to get one. */
function findExecutable(candidates, fallback, help) {
  const system = candidates.find((path) => path && existsSync(path));
  if (system) return system;
  let bundled = '';
  try {
    bundled = fallback();
  } catch {
    // The library throws when it has no browser of its own installed; handled below.
  }
  if (bundled && existsSync(bundled)) return bundled;
  throw new Error(help);
}

/** The Chromium to launch, or a thrown Error that says how to get one. */
export function findChromium() {
  return findExecutable(
    CHROMIUM_CANDIDATES,
    () => chromium.executablePath(),
    'No Chromium found for the browser tests. Install one with `sudo apt-get install -y chromium` ' +
      '(Debian/Ubuntu), or `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium executable.',
  );
}

/** Flags that keep a headless Chromium quiet on a machine with no outside network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

/** The Firefox to launch through Puppeteer (WebDriver BiDi), or a thrown Error that says how to get one. */
export async function findFirefox() {
  const { default: puppeteer } = await import('puppeteer');
  return findExecutable(
    [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'],
    () => puppeteer.executablePath('firefox'),
    'No Firefox found for the browser tests. Install one with `sudo apt-get install -y firefox-esr` ' +
      '(Debian/Ubuntu), or `npx puppeteer browsers install firefox`, or set FIREFOX_PATH to a Firefox executable.',
  );
}

/**
 * Firefox preferences of the test profile: British English like the other engines, no network
 * chatter on a machine without outside network, and pop-ups allowed as a guest's click allows them.
 */
export const FIREFOX_PREFS = {
  'intl.locale.requested': 'en-GB',
  'intl.accept_languages': 'en-GB, en',
  'app.update.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'toolkit.telemetry.enabled': false,
};

/**
 * Firefox preferences of a touch screen: the primary and only pointer is coarse with no hover
 * (Firefox's PointerCapabilities bits: 1 coarse, 2 fine, 4 hover), so `(pointer: coarse)` matches
 * as on a phone. Puppeteer's `hasTouch` needs CDP, which Firefox does not speak.
 */
export const FIREFOX_TOUCH_PREFS = {
  'ui.primaryPointerCapabilities': 1,
  'ui.allPointerCapabilities': 1,
  'dom.w3c_touch_events.enabled': 1,
};

/** WebKitWebDriver and the MiniBrowser it drives (Debian's `webkit2gtk-driver`), or a thrown Error. */
export function findWebKit() {
  const driver = [process.env.WEBKIT_WEBDRIVER_PATH, '/usr/bin/WebKitWebDriver'].find(
    (path) => path && existsSync(path),
  );
  const libraries = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib'];
  const browser = [
    process.env.WEBKIT_BROWSER_PATH,
    ...libraries.flatMap((dir) =>
      existsSync(dir)
        ? readdirSync(dir)
            .filter((name) => /^webkit2?gtk-[\d.]+$/.test(name))
            .map((name) => `${dir}/${name}/MiniBrowser`)
        : [],
    ),
  ].find((path) => path && existsSync(path));
  if (driver && browser) return { driver, browser };
  throw new Error(
    'No WebKit found for the browser tests. Install it with `sudo apt-get install -y webkit2gtk-driver xvfb` ' +
      '(Debian/Ubuntu; it brings WebKitWebDriver and MiniBrowser), or set WEBKIT_WEBDRIVER_PATH and ' +
      'WEBKIT_BROWSER_PATH, or leave WebKit out with `npm test -- --browser --engine chromium,firefox`.',
  );
}

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a virtual X display of its own (Xvfb picks a free display number and tells it on fd 3). */
function startXvfb() {
  return new Promise((resolve, reject) => {
    const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      xvfb.kill();
      reject(new Error('Xvfb did not start within 10 s'));
    }, 10_000);
    xvfb.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb could not start (${error.message}); install it with \`sudo apt-get install -y xvfb\``));
    });
    xvfb.stdio[3].on('data', (chunk) => {
      output += chunk;
      if (!output.includes('\n')) return;
      clearTimeout(timer);
      resolve({ display: `:${output.trim()}`, process: xvfb });
    });
  });
}

/** Waits until the driver at `port` answers its status endpoint. */
async function driverReady(port, driver) {
  const start = Date.now();
  for (;;) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${driver.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/status`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() - start > 10_000) throw new Error('WebKitWebDriver did not answer within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts WebKitWebDriver on a free port, on an Xvfb display of its own (MiniBrowser has no
 * headless mode). `stop()` ends both; it also runs when this process exits, so no run leaves an
 * X server or a driver behind.
 */
export async function startWebKitDriver() {
  const { driver: driverPath } = findWebKit();
  const xvfb = await startXvfb();
  const port = await freePort();
  // MiniBrowser keeps its HTTP cache and storage under the XDG folders: a fresh pair per run, as
  // the other engines get a fresh profile, so no run reads an earlier run's modules or storage.
  const profile = mkdtempSync(join(tmpdir(), 'venue-booking-webkit-'));
  const driver = spawn(driverPath, [`--port=${port}`, '--host=local'], {
    stdio: 'ignore',
    // The driver starts MiniBrowser with its own environment: the display, British English, the profile.
    env: {
      ...process.env,
      DISPLAY: xvfb.display,
      LANGUAGE: 'en_GB',
      XDG_CACHE_HOME: join(profile, 'cache'),
      XDG_DATA_HOME: join(profile, 'data'),
      XDG_CONFIG_HOME: join(profile, 'config'),
    },
  });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    driver.kill();
    xvfb.process.kill();
    rmSync(profile, { recursive: true, force: true });
  };
  process.once('exit', stop);
  try {
    await driverReady(port, driver);
  } catch (error) {
    stop();
    throw error;
  }
  return { port, stop };
}
