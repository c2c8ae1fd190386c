/**
 * Puppeteer is here only as @web/test-runner-puppeteer's library, to drive Debian's Firefox ESR
 * (test/browser/engines.ts). Its postinstall would download a Chrome the project never launches, and
 * on a machine that reaches only the package registry that download fails and stops `npm install`.
 */
module.exports = { skipDownload: true };
