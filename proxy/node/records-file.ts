/**
 * The venue's records (state/records.ts) in a JSON file beside one Node process
 * (`VENUE_BOOKING_DATA_FILE`): read once at start, written at once when the manager saves a
 * change, a moment after a count (so that a burst of counts is one write), and at exit. A write goes to a temporary file renamed
 * over the old one, so a crash mid-write never leaves half a file. Several processes need Redis:
 * each would overwrite the others' file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryRecords, type RecordsSnapshot } from '../state/records.js';

/** How long after a change the file is written (changes meanwhile join the same write). */
const WRITE_AFTER_MS = 200;

/** What a start makes of the file: its tables, or none when it is not there yet. */
function readSnapshot(path: string): RecordsSnapshot {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`Cannot read VENUE_BOOKING_DATA_FILE ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as RecordsSnapshot;
  } catch {
    // Reported below as a file that is not the proxy's.
  }
  throw new Error(`VENUE_BOOKING_DATA_FILE ${path} is not a file of this proxy's records (JSON tables)`);
}

/** Records kept in `path`; throws at start when the file is there but unreadable. */
export function fileRecords(path: string): MemoryRecords {
  const initial = readSnapshot(path);
  mkdirSync(dirname(path), { recursive: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest: (() => RecordsSnapshot) | undefined;
  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!latest) return;
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(latest(), null, 1)}\n`);
    renameSync(temporary, path);
    latest = undefined;
  };
  process.on('exit', write);
  return new MemoryRecords({
    initial,
    changed(snapshot, urgent) {
      latest = snapshot;
      if (urgent) return write();
      timer ??= setTimeout(write, WRITE_AFTER_MS);
      timer.unref();
    },
    close() {
      write();
      process.off('exit', write);
    },
  });
}
