/** Types of browser.mjs, for the Node tests that launch Chromium themselves. */
export function findChromium(): string;
export const CHROMIUM_ARGS: string[];
