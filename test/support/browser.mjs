// Finds a Chromium for the browser tests. These machines cannot download Playwright's browsers,
// so Debian's /usr/bin/chromium comes first; on an ordinary laptop Playwright's own build is used.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright';

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/** The executable to launch, or a thrown Error that says how to get one. */
export function findChromium() {
  const system = CANDIDATES.find((path) => path && existsSync(path));
  if (system) return system;
  let bundled = '';
  try {
    bundled = chromium.executablePath();
  } catch {
    // Playwright throws when it has no browser registry entry; handled below.
  }
  if (bundled && existsSync(bundled)) return bundled;
  throw new Error(
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
