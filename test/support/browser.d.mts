/** Types of browser.mjs, for the Node tests that launch a browser themselves. */
export function findChromium(): string;
export const CHROMIUM_ARGS: string[];
export function findFirefox(): Promise<string>;
export const FIREFOX_PREFS: Record<string, string | number | boolean>;
export const FIREFOX_TOUCH_PREFS: Record<string, string | number | boolean>;
export function findWebKit(): { driver: string; browser: string };
export function startWebKitDriver(): Promise<{ port: number; stop: () => void }>;
