/**
 * Settings from the environment (proxy/env.ts) and the Node entry (`venue-booking-proxy`): clear
 * messages for bad settings, the embedded sandbox without credentials, the widget bundle served
 * with caching headers and its integrity hash printed.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { budgetSettings, resolveSettings } from '../../proxy/config.js';
import { configFromEnv, ConfigError } from '../../proxy/env.js';
import { freePort, runBin } from './node-bin.js';

const GOOD = {
  VENUE_BOOKING_APP_ID: 'app',
  VENUE_BOOKING_API_KEY: 'key',
  VENUE_BOOKING_UPSTREAM: 'https://api.example.com/v4/',
  VENUE_BOOKING_VENUES: '64a1f0c2e4b0a1b2c3d4e501, 64a1f0c2e4b0a1b2c3d4e502',
  VENUE_BOOKING_BOOKING_SITE: 'https://book.example/book',
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
      ...GOOD,
      VENUE_BOOKING_VENUE_GROUPS: '64a1f0c2e4b0a1b2c3d4e500',
      VENUE_BOOKING_BOOKING_SITE: 'https://book.example/book',
      VENUE_BOOKING_RETURN_PAGE: '64a1f0c2e4b0a1b2c3d4e501=https://v.example/thanks,https://v.example/{venue}/done',
      VENUE_BOOKING_PARTNER_SOURCE: 'our-site',
      VENUE_BOOKING_TIMEOUT_MS: '8000',
      VENUE_BOOKING_RATE_LIMIT: '60',
      VENUE_BOOKING_CACHE_TTL_MS: '5000',
      VENUE_BOOKING_PUBLIC_URL: 'https://proxy.example/',
    });
    assert.equal(config.embedded, false);
    assert.equal(config.settings.upstream, 'https://api.example.com/v4');
    assert.deepEqual(config.settings.venues, ['64a1f0c2e4b0a1b2c3d4e501', '64a1f0c2e4b0a1b2c3d4e502']);
    assert.deepEqual(config.settings.returnPages, {
      '64a1f0c2e4b0a1b2c3d4e501': 'https://v.example/thanks',
      '*': 'https://v.example/{venue}/done',
    });
    assert.deepEqual(config.settings.rateLimit, { limit: 60, windowMs: 60_000 });
    assert.equal(config.settings.timeoutMs, 8000);
    assert.equal(config.settings.publicUrl, 'https://proxy.example');
    assert.equal(config.settings.returnBridge, undefined, 'the bridge is on by default');
    assert.deepEqual(config.warnings, []);
    assert.equal(configFromEnv({ ...GOOD, VENUE_BOOKING_RETURN_BRIDGE: 'off' }).settings.returnBridge, false);
  });

  test('the upstream budget is set from the environment, and every unset share derives from the quota', () => {
    const config = configFromEnv({
      VENUE_BOOKING_UPSTREAM_QUOTA: '1000',
      VENUE_BOOKING_MISS_LIMIT: '8',
      VENUE_BOOKING_FINAL_TTL_MS: '2000',
      VENUE_BOOKING_STATIC_TTL_MS: '600000',
    });
    assert.deepEqual(config.settings, {
      upstreamQuota: 1000,
      missLimit: { limit: 8, windowMs: 600_000 },
      finalTtlMs: 2000,
      staticTtlMs: 600_000,
    });
    const derived = budgetSettings(resolveSettings(config.settings));
    assert.equal(derived.reserve, 200, 'a fifth of the quota');
    assert.equal(derived.bookingReserve, 100, 'half the reserve is for bookings alone');
    assert.equal(derived.lowWater(null), 200, 'frugal from the reserve on');
    assert.equal(derived.lowWater(50), 10, 'the limit the upstream reports wins');
    const defaults = budgetSettings(resolveSettings({}));
    assert.deepEqual(
      [defaults.quota, defaults.reserve, defaults.missLimit.limit, defaults.missLimit.windowMs],
      [5000, 1000, 100, 600_000],
    );
    const set = budgetSettings(
      resolveSettings(configFromEnv({ VENUE_BOOKING_UPSTREAM_RESERVE: '40', VENUE_BOOKING_LOW_WATER: '7' }).settings),
    );
    assert.deepEqual([set.reserve, set.lowWater(5000)], [40, 7]);
    assert.match(
      problemsOf({ VENUE_BOOKING_UPSTREAM_QUOTA: '10', VENUE_BOOKING_UPSTREAM_RESERVE: '11' }).join(),
      /VENUE_BOOKING_UPSTREAM_RESERVE must not be more than VENUE_BOOKING_UPSTREAM_QUOTA/,
    );
    assert.match(
      problemsOf({ VENUE_BOOKING_MISS_LIMIT: '0' }).join(),
      /VENUE_BOOKING_MISS_LIMIT must be a whole number/,
    );
  });

  test('with credentials, a missing booking site is a start-up error naming it', () => {
    assert.match(
      problemsOf({ ...GOOD, VENUE_BOOKING_BOOKING_SITE: '' }).join(),
      /VENUE_BOOKING_BOOKING_SITE is missing/,
    );
  });

  test('every problem is reported at once, naming the variable', () => {
    const problems = problemsOf({
      VENUE_BOOKING_APP_ID: 'app',
      VENUE_BOOKING_UPSTREAM: 'http://api.example.com/v3',
      VENUE_BOOKING_ORIGINS: 'https://a.example/path',
      VENUE_BOOKING_TIMEOUT_MS: 'soon',
      VENUE_BOOKING_VENUES: 'ok-id,not an id',
      VENUE_BOOKING_RETURN_PAGE: 'javascript:alert(1)',
      VENUE_BOOKING_RETURN_BRIDGE: 'maybe',
    });
    for (const name of [
      'VENUE_BOOKING_API_KEY',
      'VENUE_BOOKING_UPSTREAM',
      'VENUE_BOOKING_ORIGINS',
      'VENUE_BOOKING_TIMEOUT_MS',
      'VENUE_BOOKING_VENUES',
      'VENUE_BOOKING_RETURN_PAGE',
      'VENUE_BOOKING_RETURN_BRIDGE',
    ]) {
      assert.ok(
        problems.some((problem) => problem.includes(name)),
        `${name} in ${problems.join(' | ')}`,
      );
    }
  });

  test('a Redis URL must be redis:// or rediss://, and is never echoed back', () => {
    const config = configFromEnv({ ...GOOD, VENUE_BOOKING_REDIS_URL: 'rediss://:secret@cache.example:6380' });
    assert.deepEqual(config.redis, {
      url: 'rediss://:secret@cache.example:6380',
      prefix: 'venue-booking:',
      timeoutMs: 100,
    });
    assert.equal(configFromEnv(GOOD).redis, undefined);
    const problems = problemsOf({
      ...GOOD,
      VENUE_BOOKING_REDIS_URL: 'http://:hunter2@cache.example',
      VENUE_BOOKING_REDIS_PREFIX: 'has space',
      VENUE_BOOKING_REDIS_TIMEOUT_MS: '0',
    });
    assert.equal(problems.length, 3, problems.join(' | '));
    assert.ok(!problems.join().includes('hunter2'));
  });

  test('plain http upstream is refused except on loopback; a venue list is required', () => {
    assert.match(problemsOf({ ...GOOD, VENUE_BOOKING_UPSTREAM: 'http://api.example.com/v4' }).join(), /https/);
    assert.deepEqual(problemsOf({ ...GOOD, VENUE_BOOKING_UPSTREAM: 'http://127.0.0.1:9000/v4' }), []);
    assert.match(problemsOf({ ...GOOD, VENUE_BOOKING_VENUES: '' }).join(), /VENUE_BOOKING_VENUES/);
  });
});

/** The bin's source, run through tsx; test/package/pack.test.ts runs the compiled bin. */
const bundle = fileURLToPath(new URL('../../dist/venue-booking.js', import.meta.url));

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
    const { out, stop } = await runBin({ PORT: String(port) }, [], /(<\/script>|not built[^\n]*)\n/);
    try {
      assert.match(out, /embedded sandbox/);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);
      const availability = await fetch(
        `http://127.0.0.1:${port}/api/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability`,
      );
      assert.equal(availability.status, 200);
      const script = await fetch(`http://127.0.0.1:${port}/venue-booking.js`);
      if (existsSync(bundle)) {
        assert.equal(script.status, 200);
        assert.match(script.headers.get('cache-control') ?? '', /max-age=\d+/);
        assert.ok(script.headers.get('etag'));
        assert.equal(script.headers.get('cross-origin-resource-policy'), 'cross-origin');
        const integrity = `sha384-${createHash('sha384').update(readFileSync(bundle)).digest('base64')}`;
        assert.ok(out.includes(`integrity="${integrity}"`), out);
        // The snippet: a preconnect and a modulepreload for the page's head, then the script tag.
        assert.ok(out.includes(`<link rel="preconnect" href="http://localhost:${port}" crossorigin>`), out);
        assert.ok(out.includes(`<link rel="modulepreload" href="http://localhost:${port}/venue-booking.js"`), out);
        const again = await fetch(`http://127.0.0.1:${port}/venue-booking.js`, {
          headers: { 'if-none-match': script.headers.get('etag')! },
        });
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
