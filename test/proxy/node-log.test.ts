/**
 * The Node entry's batched logger (proxy/node/log.ts): the same JSON lines as the console logger,
 * info lines written once per event-loop turn, warnings and errors at once and after the info
 * lines logged before them, debug dropped, nothing lost on `flush`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { batchedLogger } from '../../proxy/node/log.js';

function recorder() {
  const writes: { stream: 'out' | 'err'; text: string }[] = [];
  const streams = {
    out: { write: (text: string) => writes.push({ stream: 'out', text }) },
    err: { write: (text: string) => writes.push({ stream: 'err', text }) },
  };
  const lines = () =>
    writes.flatMap(({ stream, text }) =>
      text
        .trimEnd()
        .split('\n')
        .map((line) => [stream, line]),
    );
  return { writes, streams, lines };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedLogger', () => {
  test('info lines of one turn go out in one write, as JSON lines with a time', async () => {
    const { writes, streams, lines } = recorder();
    const logger = batchedLogger(streams);
    for (let i = 0; i < 5; i++) logger.log({ level: 'info', msg: 'request', status: 200, n: i });
    logger.log({ level: 'debug', msg: 'dropped' });
    assert.equal(writes.length, 0);
    await turn();
    assert.equal(writes.length, 1);
    const parsed = lines().map(([, line]) => JSON.parse(line!) as { time: string; n: number; msg: string });
    assert.deepEqual(
      parsed.map((line) => line.n),
      [0, 1, 2, 3, 4],
    );
    assert.ok(parsed.every((line) => !Number.isNaN(Date.parse(line.time)) && line.msg === 'request'));
  });

  test('a warning goes to stderr at once, after the info lines before it', () => {
    const { streams, lines } = recorder();
    const logger = batchedLogger(streams);
    logger.log({ level: 'info', msg: 'first' });
    logger.log({ level: 'warn', msg: 'second' });
    logger.log({ level: 'error', msg: 'third' });
    assert.deepEqual(
      lines().map(([stream, line]) => [stream, (JSON.parse(line!) as { msg: string }).msg]),
      [
        ['out', 'first'],
        ['err', 'second'],
        ['err', 'third'],
      ],
    );
  });

  test('flush writes what is pending; a full batch is written without waiting', () => {
    const { writes, streams, lines } = recorder();
    const logger = batchedLogger(streams);
    logger.log({ level: 'info', msg: 'pending' });
    logger.flush();
    assert.equal(lines().length, 1);
    for (let i = 0; i < 600; i++) logger.log({ level: 'info', msg: 'many' });
    assert.ok(writes.length >= 2, 'a batch of 512 lines went out in the same turn');
    logger.flush();
    assert.equal(lines().length, 601);
  });
});
