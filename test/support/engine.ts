/**
 * What the browser tests need to know of the engine they run in: the engine itself, for the few
 * checks that only one engine's launcher can drive, and dates as that engine's `Intl` writes them,
 * so that a test compares what the guest reads without pinning one engine's text ("Tue 17 Mar" in
 * Chromium and Firefox, "Tue, 17 Mar" in WebKit with Debian's ICU).
 */

/** The browser engines the suite runs in (test/web-test-runner.config.mjs). */
export type Engine = 'chromium' | 'firefox' | 'webkit';

/** The engine running this page, read from its user agent (WebKit's names neither Chrome nor Firefox). */
export function browserEngine(): Engine {
  const agent = navigator.userAgent;
  if (agent.includes('Firefox/')) return 'firefox';
  if (agent.includes('Chrome/')) return 'chromium';
  return 'webkit';
}

/**
 * A plain date (`2026-03-17`) as the booking summary shows it: short weekday, day and short month,
 * written by this engine's `Intl` in `locale`. Formatted as a UTC calendar date, so no zone shifts it.
 */
export function summaryDate(date: string, locale = 'en-GB'): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}
