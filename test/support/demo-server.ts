/**
 * Serves the demo gallery to the browser tests the way `npm start` does on one point that
 * matters for proof: demo/strict-csp.html comes with the strict Content-Security-Policy header
 * (demo/csp-policy.ts), so the strict-CSP browser test runs under a real header, not a meta tag.
 * The stack itself comes from test/support/stacks.ts (`?api=` on the page, see demo/harness.ts).
 */
import { STRICT_CSP, STRICT_CSP_PAGES } from '../../demo/csp-policy.js';

/** Koa-style middleware for @web/dev-server: adds the CSP header to the strict demo pages. */
export function demoPagesMiddleware() {
  const protectedPaths = new Set(STRICT_CSP_PAGES.map((page) => `/demo${page}`));
  return async (context: { path: string; set: (name: string, value: string) => void }, next: () => Promise<void>) => {
    await next();
    if (protectedPaths.has(context.path)) context.set('Content-Security-Policy', STRICT_CSP);
  };
}
