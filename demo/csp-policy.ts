/**
 * The strict Content-Security-Policy of demo/strict-csp.html, sent as a header by `npm start`
 * (vite.config.ts) and by the browser tests' server (test/support/demo-pages.ts). docs/developers/csp.md quotes
 * it; test/package/readme.test.ts keeps the two in step.
 *
 * The widget itself needs only `script-src` (its module) and `connect-src` (the proxy): its styles
 * are constructable stylesheets, which `style-src` does not govern. `style-src` and `img-src`
 * serve the demo page's own stylesheet and icon. No `'unsafe-inline'`, no `'unsafe-eval'`.
 */
export const STRICT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The gallery pages served with {@link STRICT_CSP}. */
export const STRICT_CSP_PAGES = ['/strict-csp.html'];
