import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isBookingSiteUrl } from '../../proxy/reads.js';

describe('which next.web URLs the proxy passes on', () => {
  it('with a configured booking site: only URLs under it', () => {
    const site = 'https://book.example.com/book';
    assert.equal(isBookingSiteUrl('https://book.example.com/book?venue_id=1', site), true);
    assert.equal(isBookingSiteUrl('https://book.example.com/booking-evil', site), false);
    assert.equal(isBookingSiteUrl('https://evil.example/book', site), false);
    assert.equal(isBookingSiteUrl('https://user:pw@book.example.com/book', site), false);
  });

  it('with none configured: https URLs on the upstream\'s own site', () => {
    const upstream = 'https://api.bookings.example.com/v4';
    assert.equal(isBookingSiteUrl('https://www.example.com/book?x=1', undefined, upstream), true);
    assert.equal(isBookingSiteUrl('http://www.example.com/book', undefined, upstream), false);
    assert.equal(isBookingSiteUrl('https://example.com.evil.net/book', undefined, upstream), false);
    assert.equal(isBookingSiteUrl('javascript:alert(1)', undefined, upstream), false);
    assert.equal(isBookingSiteUrl('https://book.venue.co.uk/b', undefined, 'https://api.venue.co.uk/v4'), true);
    assert.equal(isBookingSiteUrl('https://other.co.uk/b', undefined, 'https://api.venue.co.uk/v4'), false);
  });

  it('with none configured and a loopback upstream: loopback hosts only, whatever their name', () => {
    assert.equal(isBookingSiteUrl('http://localhost:9000/book', undefined, 'http://localhost:8787/v4'), true);
    assert.equal(isBookingSiteUrl('http://localhost:8787/book', undefined, 'http://127.0.0.1:8787/v4'), true);
    assert.equal(isBookingSiteUrl('http://127.0.0.2/book', undefined, 'http://localhost:8787/v4'), false);
    assert.equal(isBookingSiteUrl('http://venue.example/book', undefined, 'http://127.0.0.1:8787/v4'), false);
  });
});
