/**
 * Structured logs: one JSON object per line, with no personal data (no query strings, bodies,
 * names, emails or client addresses are ever passed in) and never the API key — the redacting
 * wrapper removes the key from any line as a last line of defence.
 */

/** One log line. Values are scalars so a log pipeline can index them. */
export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  [field: string]: string | number | boolean | null | undefined;
}

/** Where the proxy writes its logs; inject one to ship them elsewhere or to assert on them in tests. */
export interface Logger {
  log(entry: LogEntry): void;
}

/** The default: JSON lines on the console (stderr for warnings and errors; `debug` dropped). */
export const consoleLogger: Logger = {
  log(entry) {
    if (entry.level === 'debug') return;
    const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
    if (entry.level === 'error' || entry.level === 'warn') console.error(line);
    else console.log(line);
  },
};

/** A logger that drops everything (benchmarks, quiet tests). */
export const silentLogger: Logger = { log() {} };

/** Wraps a logger so that none of `secrets` can appear in a line, whatever a caller passes in. */
export function redactingLogger(inner: Logger, secrets: string[]): Logger {
  const needles = secrets.filter((secret) => secret.length >= 4);
  return {
    log(entry) {
      // Copied only when a value has to change: most lines carry no secret.
      let clean: LogEntry | undefined;
      for (const key in entry) {
        const value = entry[key];
        if (typeof value !== 'string') continue;
        let text = value;
        for (const needle of needles) if (text.includes(needle)) text = text.split(needle).join('[redacted]');
        if (text !== value) (clean ??= { ...entry })[key] = text;
      }
      inner.log(clean ? { ...clean, redacted: true } : entry);
    },
  };
}

/**
 * Wraps a logger so that a line repeated within `windowMs` (same level, message and fields) is
 * written once: the guards' lines tell the operator what to set or which origin to add, and a
 * scanner repeating a refused request (a foreign Host, a foreign Origin) would otherwise flood the
 * log with them. The next line written for it says how many were left out (`repeated`). At most
 * `kinds` lines are remembered, the oldest forgotten first.
 */
export function onceInAWhile(inner: Logger, now: () => number, windowMs = 60_000, kinds = 200): Logger {
  const seen = new Map<string, { until: number; left: number }>();
  return {
    log(entry) {
      const kind = JSON.stringify(entry);
      const at = now();
      const last = seen.get(kind);
      if (last && at < last.until) {
        last.left += 1;
        return;
      }
      seen.delete(kind);
      if (seen.size >= kinds) seen.delete(seen.keys().next().value!);
      seen.set(kind, { until: at + windowMs, left: 0 });
      inner.log(last?.left ? { ...entry, repeated: last.left } : entry);
    },
  };
}
