/**
 * The Node entry's logger: the same JSON lines as `consoleLogger`, written to stdout in one write
 * per event-loop turn instead of one synchronous write per line. A line per request is the
 * proxy's promise; a system call per line made logging the largest cost of a cached read. Warnings
 * and errors go to stderr at once, after the info lines before them; what is pending is written
 * when the process exits.
 */
import type { Logger } from '../core/log.js';

/** Where the lines go (process.stdout and process.stderr, or a test's recorders). */
export interface LogStreams {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
}

/** Lines held at most before a write, whatever the turn. */
const MAX_PENDING = 512;

let lastMs = 0;
let lastTime = '';

/**
 * A log line: the time first, then the entry's fields (as `{ time, ...entry }` serialises them,
 * without copying the entry). The time's text is made once per millisecond, not once per line.
 */
function lineOf(entry: object): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastTime = new Date(ms).toISOString();
  }
  const fields = JSON.stringify(entry);
  return `{"time":"${lastTime}"${fields.length > 2 ? `,${fields.slice(1)}` : '}'}\n`;
}

/** A logger that batches its info lines per event-loop turn; `flush` writes what is pending. */
export function batchedLogger(
  streams: LogStreams = { out: process.stdout, err: process.stderr },
): Logger & { flush(): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    streams.out.write(text);
  };
  return {
    flush,
    log(entry) {
      if (entry.level === 'debug') return;
      const line = lineOf(entry);
      if (entry.level === 'error' || entry.level === 'warn') {
        flush();
        streams.err.write(line);
        return;
      }
      pending.push(line);
      if (pending.length >= MAX_PENDING) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}
