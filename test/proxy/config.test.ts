/**
 * Settings from the environment (config.ts) and the Node entry (`venue-booking-proxy`): clear
 * messages for bad settings, the embedded sandbox without credentials, the widget bundle served
 * with caching headers and its integrity hash printed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { configFromEnv, ConfigError } from '../../proxy/config.js';

const GOOD = {
  VENUE_BOOKING_APP_ID: 'app', VENUE_BOOKING_API_KEY: 'key', VENUE_BOOKING_UPSTREAM: 'https://api.example.com/v4/',
  VENUE_BOOKING_VENUES: '64a1f0c2e4b0a1b2c3d4e501, 64a1f0c2e4b0a1b2c3d4e502',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    configFromEnv(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  return [];
}

describe('configFromEnv', () => {
  test('no credentials → embedded, with overrides only for what was set', () => {
    const config = configFromEnv({ VENUE_BOOKING_ORIGINS: 'https://a.example' });
    assert.equal(config.embedded, true);
    assert.deepEqual(config.settings, { origins: ['https://a.example'] });
  });

  test('full settings are parsed', () => {
    const config = configFromEnv({
      ...GOOD, VENUE_BOOKING_VENUE_GROUPS: '64a1f0c2e4b0a1b2c3d4e500', VENUE_BOOKING_BOOKING_SITE: 'https://book.example/book',
      VENUE_BOOKING_RETURN_PAGE: '64a1f0c2e4b0a1b2c3d4e501=https://v.example/thanks,https://v.example/{venue}/done',
      VENUE_BOOKING_PARTNER_SOURCE: 'our-site', VENUE_BOOKING_TIMEOUT_MS: '8000', VENUE_BOOKING_RATE_LIMIT: '60',
      VENUE_BOOKING_CACHE_TTL_MS: '5000', VENUE_BOOKING_PUBLIC_URL: 'https://proxy.example/',
    });
    assert.equal(config.embedded, false);
    assert.equal(config.settings.upstream, 'https://api.example.com/v4');
    assert.deepEqual(config.settings.venues, ['64a1f0c2e4b0a1b2c3d4e501', '64a1f0c2e4b0a1b2c3d4e502']);
    assert.deepEqual(config.settings.returnPages, { '64a1f0c2e4b0a1b2c3d4e501': 'https://v.example/thanks', '*': 'https://v.example/{venue}/done' });
    assert.deepEqual(config.settings.rateLimit, { limit: 60, windowMs: 60_000 });
    assert.equal(config.settings.timeoutMs, 8000);
    assert.equal(config.settings.publicUrl, 'https://proxy.example');
    assert.deepEqual(config.warnings, []);
  });

  test('without a booking site a warning says the web hand-off is off', () => {
    assert.match(configFromEnv(GOOD).warnings.join(), /VENUE_BOOKING_BOOKING_SITE/);
  });

  test('every problem is reported at once, naming the variable', () => {
    const problems = problemsOf({
      VENUE_BOOKING_APP_ID: 'app', VENUE_BOOKING_UPSTREAM: 'http://api.example.com/v3', VENUE_BOOKING_ORIGINS: 'https://a.example/path',
      VENUE_BOOKING_TIMEOUT_MS: 'soon', VENUE_BOOKING_VENUES: 'ok-id,not an id', VENUE_BOOKING_RETURN_PAGE: 'javascript:alert(1)',
    });
    for (const name of ['VENUE_BOOKING_API_KEY', 'VENUE_BOOKING_UPSTREAM', 'VENUE_BOOKING_ORIGINS', 'VENUE_BOOKING_TIMEOUT_MS', 'VENUE_BOOKING_VENUES', 'VENUE_BOOKING_RETURN_PAGE']) {
      assert.ok(problems.some((problem) => problem.includes(name)), `${name} in ${problems.join(' | ')}`);
    }
  });

  test('plain http upstream is refused except on loopback; a venue list is required', () => {
    assert.match(problemsOf({ ...GOOD, VENUE_BOOKING_UPSTREAM: 'http://api.example.com/v4' }).join(), /https/);
    assert.deepEqual(problemsOf({ ...GOOD, VENUE_BOOKING_UPSTREAM: 'http://127.0.0.1:9000/v4' }), []);
    assert.match(problemsOf({ ...GOOD, VENUE_BOOKING_VENUES: '' }).join(), /VENUE_BOOKING_VENUES/);
  });
});

const bin = fileURLToPath(new URL('../../proxy/bin/venue-booking-proxy.js', import.meta.url));
const bundle = fileURLToPath(new URL('../../dist/venue-booking.js', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs the bin until `until` matches its output (or it exits); returns the output and exit code. */
function runBin(env: Record<string, string>, args: string[], until?: RegExp): Promise<{ out: string; code: number | null; stop: () => void }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const stop = () => child.kill();
    const timer = setTimeout(() => { stop(); resolve({ out, code: null, stop }); }, 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (until?.test(out)) { clearTimeout(timer); resolve({ out, code: null, stop }); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); resolve({ out, code, stop }); });
  });
}

describe('venue-booking-proxy (Node entry)', { timeout: 60_000 }, () => {
  test('bad settings: exit code 2 with every problem', async () => {
    const { out, code } = await runBin({ VENUE_BOOKING_API_KEY: 'k' }, ['--venues', 'bad id']);
    assert.equal(code, 2);
    assert.match(out, /VENUE_BOOKING_APP_ID is missing/);
    assert.match(out, /"bad id" is not an id/);
    assert.ok(!out.includes('"k"'));
  });

  test('unknown flags are refused with the usage', async () => {
    const { out, code } = await runBin({}, ['--nope']);
    assert.equal(code, 2);
    assert.match(out, /Usage: venue-booking-proxy/);
  });

  test('no credentials: embedded sandbox, says so, serves the API and the widget bundle', async () => {
    const port = await freePort();
    const { out, stop } = await runBin({ PORT: String(port) }, [], /(Add the widget|not built)[^\n]*\n[^\n]*\n?/);
    try {
      assert.match(out, /embedded sandbox/);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);
      const availability = await fetch(`http://127.0.0.1:${port}/api/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability`);
      assert.equal(availability.status, 200);
      const script = await fetch(`http://127.0.0.1:${port}/venue-booking.js`);
      if (existsSync(bundle)) {
        assert.equal(script.status, 200);
        assert.match(script.headers.get('cache-control') ?? '', /max-age=\d+/);
        assert.ok(script.headers.get('etag'));
        assert.equal(script.headers.get('cross-origin-resource-policy'), 'cross-origin');
        const integrity = `sha384-${createHash('sha384').update(readFileSync(bundle)).digest('base64')}`;
        assert.ok(out.includes(`integrity="${integrity}"`), out);
        const again = await fetch(`http://127.0.0.1:${port}/venue-booking.js`, { headers: { 'if-none-match': script.headers.get('etag')! } });
        assert.equal(again.status, 304);
      } else {
        assert.equal(script.status, 404);
        assert.match(out, /npm run build/);
      }
    } finally {
      stop();
    }
  });
});
