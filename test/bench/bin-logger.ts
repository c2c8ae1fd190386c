/**
 * The bin's logger as the benchmarks run it: node/log.ts's batched JSON lines (one write per
 * event-loop turn), written into /dev/null the way the bin writes them to its stdout. Node writes
 * to a stdout that is a file or a pipe synchronously on Linux (a `SyncWriteStream`, or a pipe set
 * blocking), one `write(2)` per batch, so the sink here is a synchronous write too: an
 * `fs.createWriteStream` would hand every batch to libuv's thread pool, a cost the bin never pays.
 */
import { openSync, writeSync } from 'node:fs';
import { batchedLogger } from '../../proxy/node/log.js';

export function binLogger(): ReturnType<typeof batchedLogger> {
  const devNull = openSync('/dev/null', 'w');
  const sink = { write: (text: string) => writeSync(devNull, text) };
  return batchedLogger({ out: sink, err: sink });
}
