/**
 * What the link to a shared store says in the log: a store that connects in the background is
 * "connected" the first time it answers, and "back" only after it was away.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreLink } from '../../proxy/state/store-link.js';

/** A link to a store that starts away, as the Node entry makes one for Redis, and its log lines. */
function linkStartingDown() {
  const lines: string[] = [];
  const link = new StoreLink({
    name: 'redis',
    timeoutMs: 50,
    initial: 'down',
    logger: { log: (entry) => void lines.push(String(entry.msg)) },
    now: () => Date.now(),
  });
  return { link, lines };
}

describe('the link to a shared store, in the log', () => {
  test('its first connection says connected, not back', async () => {
    const { link, lines } = linkStartingDown();
    link.connected(true);
    await link.probe();
    assert.equal(link.health(), 'ok');
    assert.deepEqual(lines, ['shared state: connected to redis; sharing']);
  });

  test('after it went away, it is back', async () => {
    const { link, lines } = linkStartingDown();
    link.connected(true);
    await link.probe();
    link.connected(false);
    link.connected(true);
    await link.probe();
    assert.deepEqual(lines, [
      'shared state: connected to redis; sharing',
      'shared state: redis is down; working on local state',
      'shared state: redis is back; sharing again',
    ]);
  });
});
