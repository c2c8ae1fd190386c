/**
 * The proxy's Node entry (proxy/node/main.ts, the `venue-booking-proxy` bin from source) with the
 * widget's folder given as the server build gives it (`__WIDGET_DIR__`, a URL): the test builds the
 * widget into a folder of its own instead of rewriting the dist/ that others use.
 */
(globalThis as { __WIDGET_DIR__?: string }).__WIDGET_DIR__ = process.env.TEST_WIDGET_DIR;
await import('../../proxy/node/main.js');
