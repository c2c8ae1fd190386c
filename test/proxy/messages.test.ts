import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createStack } from '../../proxy/stack.js';

describe('validation messages a guest may read', () => {
  it('name fields in words, and do not tie the duration to one unit', async () => {
    const stack = createStack({ origin: 'http://proxy.test', proxy: { logger: { log() {} } } });
    const response = await stack.fetch(
      new Request(
        'http://proxy.test/api/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability?num_people=abc&duration=x',
      ),
    );
    assert.equal(response.status, 400);
    const { payload } = (await response.json()) as { payload: { errors: { fields: string[]; message: string }[] } };
    const message = (field: string) => payload.errors.find((error) => error.fields.includes(field))?.message ?? '';
    assert.match(message('num_people'), /^Number of people must be a whole number/);
    // Present, and in no unit: the service gives durations in minutes or in decimal hours.
    assert.equal(
      message('duration'),
      'Duration must be a number as the booking service gave it (or -1 for until close)',
    );
  });
});
