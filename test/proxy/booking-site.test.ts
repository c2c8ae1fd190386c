import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { configFromEnv, ConfigError } from '../../proxy/env.js';
import { bookingSiteUrl } from '../../proxy/api/reads.js';

describe('which next.web URLs the proxy passes on', () => {
  it('with a configured booking site: only URLs under it, as parsed', () => {
    const site = 'https://book.example.com/book';
    assert.equal(
      bookingSiteUrl('https://book.example.com/book?venue_id=1', site),
      'https://book.example.com/book?venue_id=1',
    );
    assert.equal(bookingSiteUrl('HTTPS://BOOK.example.com:443/book/x y', site), 'https://book.example.com/book/x%20y');
    assert.equal(bookingSiteUrl('https://book.example.com/booking-evil', site), null);
    assert.equal(bookingSiteUrl('https://evil.example/book', site), null);
    assert.equal(bookingSiteUrl('https://user:pw@book.example.com/book', site), null);
    assert.equal(bookingSiteUrl('javascript:alert(1)', site), null);
  });

  it('with none configured: nothing passes, however close to the upstream it looks', () => {
    for (const web of [
      'https://evil-app.herokuapp.com/book',
      'https://evil.github.io/book',
      'https://evil.ne.jp/book',
      'https://203.0.113.8/book',
      'https://book.example.com/book',
    ])
      assert.equal(bookingSiteUrl(web, undefined), null, web);
  });

  it('outside the embedded sandbox the setting is required at start, by name', () => {
    const env = {
      VENUE_BOOKING_APP_ID: 'app',
      VENUE_BOOKING_API_KEY: 'key',
      VENUE_BOOKING_UPSTREAM: 'https://api.herokuapp.com/v4',
      VENUE_BOOKING_VENUES: '64a1f0c2e4b0a1b2c3d4e501',
    };
    assert.throws(
      () => configFromEnv(env),
      (error) =>
        error instanceof ConfigError &&
        error.problems.some((p) => p.startsWith('VENUE_BOOKING_BOOKING_SITE is missing')),
    );
    assert.equal(
      configFromEnv({ ...env, VENUE_BOOKING_BOOKING_SITE: 'https://book.example.com/book' }).embedded,
      false,
    );
    assert.equal(configFromEnv({}).embedded, true);
  });
});
