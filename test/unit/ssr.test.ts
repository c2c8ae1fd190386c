import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

describe('server-side import', () => {
  it('imports the package entry where there is no window, without throwing', async () => {
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
    const module = await import('../../src/index.js');
    assert.equal(typeof module.VenueBooking, 'function');
  });
});
