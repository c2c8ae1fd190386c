/**
 * The one frame of the proxy's HTML pages (the operator's status page and embed studio, the
 * booking page, the return page): one document shape in the page's words, every value escaped,
 * no referrer, not stored, and a strict Content-Security-Policy of its own. No inline script and
 * no inline style but the page's own, allowed by nonce or hash: scripts only from this proxy and
 * with the answer's nonce, styles only from this proxy. Not `'strict-dynamic'`: the widget fetches
 * its locale modules through `<link rel="modulepreload">` (with their integrity), which it does
 * not cover.
 */
import { base64Digest } from '../core/encoding.js';
import type { ResolvedConfig } from '../config.js';
import { urlOf } from '../core/url.js';
import { PATHS, relativePath } from '../paths.js';
import { ENGLISH, pageWords, type PageWords } from './words/index.js';

const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => NAMED[char]!);
}

/** The same with numeric references (`&#38;`): the return page's spelling since it was first written. */
export function escapeHtmlNumeric(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A fresh nonce for one answer's scripts. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * A page's referrer policy: `no-referrer`, or `same-origin` for a page that posts forms to this
 * proxy (the studio): under `no-referrer` a browser sends a form's POST with `Origin: null`, which
 * the same-origin check of those forms (pages/operator.ts `operatorForm`) must refuse; under
 * `same-origin` it names the page's origin, and other sites still get no referrer.
 */
export type Referrer = 'no-referrer' | 'same-origin';

/** Options of a page. */
export interface PageOptions {
  title: string;
  /** The words the page speaks, for its `lang` (default English, the operator's pages' only language). */
  words?: PageWords;
  /** The nonce of the page's scripts; none: the page runs no script at all. */
  nonce?: string;
  /** Seconds after which the browser reloads the page (the status page). */
  refreshS?: number;
  /** What search engines and link previews show of the page. */
  description: string;
  /** The answer's status (default 200). */
  status?: number;
  /** One `<style>` element of the page's own (a venue's colours), allowed by the nonce. */
  style?: string;
  /** The stylesheet's address, relative to the page, so a proxy under a path works (default the operator pages'). */
  stylesheet?: string;
  /**
   * The page's one address (a page for guests that a link preview shows: the booking page): the
   * `canonical` link, and the Open Graph (ogp.me) and Twitter card tags a shared link is previewed
   * from, with the page's title and description. No `og:image`: the venue has none to give yet.
   */
  canonical?: string;
  /**
   * `same-origin`: the page's address goes with its requests to this proxy (and nowhere else), so
   * the booking page's bookings are told from the preview's and its QR code's from its link's
   * (api/booking-source.ts), and the studio's forms name their origin (Chromium sends `Origin: null`
   * under `no-referrer`). Default: no referrer at all.
   */
  referrer?: Referrer;
}

/** The `<link rel="canonical">` and link preview tags of a page whose address is `url`. */
function previewTags(url: string, title: string, description: string): string {
  const og = { 'og:type': 'website', 'og:url': url, 'og:title': title, 'og:description': description };
  return [
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    ...Object.entries(og).map(([name, value]) => `<meta property="${name}" content="${escapeHtml(value)}">`),
    '<meta name="twitter:card" content="summary">',
  ].join('');
}

/** Options of a sealed page: one that loads nothing at all, its one stylesheet inline. */
export interface SealedPageOptions {
  title: string;
  words: PageWords;
  status: number;
  /** The page's whole stylesheet, allowed by its hash. */
  css: string;
}

/** The document around `body`; `head` is what the page adds after the common `<meta>` elements. */
function documentOf(words: PageWords, head: string, body: string, referrer: Referrer = 'no-referrer'): string {
  return `<!doctype html><html lang="${escapeHtml(words.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="${referrer}">${head}</head><body>${body}</body></html>`;
}

/** The answer of a page: HTML, not stored, no referrer (or to its own origin only), under `csp`. */
function htmlResponse(html: string, status: number, csp: string, referrer: Referrer = 'no-referrer'): Response {
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': referrer,
      'content-security-policy': csp,
    },
  });
}

/** The Content-Security-Policy of a page with the given script and style nonces. */
function pageCsp(nonce?: string, styleNonce?: string): string {
  return [
    "default-src 'none'",
    nonce ? `script-src 'self' 'nonce-${nonce}'` : "script-src 'none'",
    styleNonce ? `style-src 'self' 'nonce-${styleNonce}'` : "style-src 'self'",
    // The embed studio's preview talks to this proxy's API, and reads its own page again.
    nonce ? "connect-src 'self'" : "connect-src 'none'",
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    // Framed by nothing but this proxy's own pages (the same rule as X-Frame-Options: SAMEORIGIN).
    "frame-ancestors 'self'",
  ].join('; ');
}

/** A whole HTML answer: the page frame around `body`, with its CSP and no caching. */
export function pageResponse(body: string, options: PageOptions): Response {
  const refresh = options.refreshS ? `<meta http-equiv="refresh" content="${options.refreshS}">` : '';
  const styleNonce = options.style ? newNonce() : undefined;
  const style = options.style ? `<style nonce="${styleNonce}">${options.style}</style>` : '';
  const head = `<meta name="description" content="${escapeHtml(options.description)}"><link rel="icon" href="data:,">${refresh}<title>${escapeHtml(options.title)}</title>${options.canonical ? previewTags(options.canonical, options.title, options.description) : ''}<link rel="stylesheet" href="${escapeHtml(options.stylesheet ?? relativePath(PATHS.pagesCss))}">${style}`;
  return htmlResponse(
    documentOf(options.words ?? ENGLISH, head, body, options.referrer),
    options.status ?? 200,
    pageCsp(options.nonce, styleNonce),
    options.referrer,
  );
}

// Each sealed stylesheet's CSP source, hashed once.
const styleHashes = new Map<string, Promise<string>>();
const styleHash = (css: string) => {
  let hash = styleHashes.get(css);
  if (!hash) {
    hash = base64Digest('SHA-256', new TextEncoder().encode(css)).then((digest) => `'sha256-${digest}'`);
    styleHashes.set(css, hash);
  }
  return hash;
};

/**
 * A sealed page in the frame: no script, nothing loaded (its stylesheet inline, by hash), no form
 * and framed by nothing, for a page any site can send a guest to (the return page).
 */
export async function sealedPageResponse(body: string, options: SealedPageOptions): Promise<Response> {
  const head = `<title>${escapeHtml(options.title)}</title><style>${options.css}</style>`;
  const csp = `default-src 'none'; style-src ${await styleHash(options.css)}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return htmlResponse(documentOf(options.words, head, body), options.status, csp);
}

/** The busy page's whole stylesheet: it loads nothing, so a client over its limit is sent nothing more. */
const BUSY_STYLE =
  'body{font-family:system-ui,sans-serif;color:#1d2430;background:#f6f4ef;margin:0}' +
  'main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.75rem}h1{font-size:1.4rem}';

/**
 * The page a client over its page limit gets (429), in the language its link or browser asks for:
 * sealed (no script, nothing loaded), with the limit's headers (`Retry-After` among them).
 */
export async function busyPageResponse(request: Request, headers: Record<string, string>): Promise<Response> {
  const words = pageWords(
    urlOf(request).searchParams.get('locale'),
    ...(request.headers.get('accept-language') ?? '').split(',').slice(0, 10),
  );
  const { busy, busyAbout } = words.bookingPage;
  const response = await sealedPageResponse(
    `<main><h1>${escapeHtml(busy)}</h1><p>${escapeHtml(busyAbout)}</p></main>`,
    {
      title: busy,
      words,
      status: 429,
      css: BUSY_STYLE,
    },
  );
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * The address a venue-facing page was opened at, as it names it: the request's own, or, for a
 * request that came in on a listener no guest reaches (the Node entry's operator port), the same
 * path and query on the host's public listener (`ResolvedConfig.publicListener`).
 */
export function openedAt(config: Pick<ResolvedConfig, 'publicListener'>, request: Request, env: unknown): URL {
  const url = urlOf(request);
  const listener = config.publicListener?.(env);
  return listener ? new URL(`${url.pathname}${url.search}`, listener) : url;
}

/**
 * The address the venue-facing pages give out (snippets, links, QR codes): the configured public
 * address, else the address the page was opened at (its mount path kept), so a studio opened at
 * `127.0.0.1:8787` names that, not `localhost`.
 */
export function pagesBase(config: { publicBase: string | null; publicUrlDerived?: boolean }, url: URL): string {
  if (!config.publicBase) return url.origin;
  if (!config.publicUrlDerived) return config.publicBase;
  return `${url.origin}${new URL(config.publicBase).pathname.replace(/\/+$/, '')}`;
}

/** The venue's pages' navigation, the page shown marked as current: relative links (`relativePath`). */
export function venueNav(current: 'status' | 'studio'): string {
  const link = (path: string, label: string, here: boolean) =>
    `<a href="${relativePath(path)}"${here ? ' aria-current="page"' : ''}>${label}</a>`;
  return `<nav aria-label="Pages for the venue">${link(PATHS.status, 'Status', current === 'status')}${link(PATHS.studio, 'Booking widget', current === 'studio')}</nav>`;
}

/** The practice banner, while the upstream is a sandbox: the page's words, or an operator page's own. */
export function practiceBanner(practice: boolean | undefined, words: string): string {
  return practice ? `<p class="practice" role="note">${escapeHtml(words)}</p>` : '';
}

/** The stylesheet of the operator's pages: readable, high contrast, no framework. */
export const PAGES_CSS = `
:root { color-scheme: light; font: 1rem/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1b1f23; background: #f6f7f9; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.25rem 3rem; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 0.25rem; }
h2 { font-size: 1.2rem; margin: 1.75rem 0 0.5rem; }
nav a { margin-right: 1rem; }
a { color: #0b57a4; }
.lead { color: #454c54; margin-top: 0; }
.grid { display: grid; gap: 1.5rem; grid-template-columns: repeat(auto-fit, minmax(min(20rem, 100%), 1fr)); align-items: start; }
.card { background: #fff; border: 1px solid #c9ced4; border-radius: 8px; padding: 1rem 1.25rem; }
.figure { font-size: 1.75rem; font-weight: 600; margin: 0; }
.note { color: #454c54; font-size: 0.9rem; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid #dde1e5; vertical-align: top; }
fieldset { min-inline-size: 0; border: 1px solid #c9ced4; border-radius: 8px; margin: 0 0 1rem; padding: 0.5rem 1rem 0.75rem; background: #fff; }
legend { font-weight: 600; padding: 0 0.25rem; }
label { display: block; margin: 0.35rem 0; }
label select { display: block; inline-size: 100%; margin-top: 0.2rem; }
input[type='text'], input[type='url'], input[type='tel'], input[type='date'], input[type='time'], input[type='number'], select { font: inherit; padding: 0.3rem 0.4rem; border: 1px solid #6b737b; border-radius: 4px; max-width: 100%; }
.choice { display: inline-block; margin-right: 1rem; }
button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 6px; border: 1px solid #0b57a4; background: #0b57a4; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #0b57a4; }
:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
textarea { width: 100%; box-sizing: border-box; font: 0.85rem/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; min-height: 12rem; }
.allowed { color: #1a6b2f; font-weight: 600; }
.refused { color: #a4160b; font-weight: 600; }
.problem { color: #a4160b; }
code { background: #eef0f2; padding: 0 0.2rem; border-radius: 3px; }
ol li, ul li { margin: 0.25rem 0; }
#preview { min-height: 12rem; }
.practice { background: #fff4ce; border: 2px solid #8a6100; color: #3d2b00; border-radius: 8px; padding: 0.5rem 1rem; font-weight: 600; }
.colour { display: flex; gap: 0.5rem; align-items: center; }
.colour label { margin: 0.2rem 0; }
input[type='color'] { inline-size: 3rem; block-size: 2rem; padding: 0; border: 1px solid #6b737b; border-radius: 4px; }
input[type='color']:disabled { opacity: 0.4; }
.warning { color: #7a4d00; background: #fff4ce; border-inline-start: 4px solid #8a6100; padding: 0.25rem 0.75rem; }
.scripted .no-script-only { display: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; margin: 0; }
details { margin: 0.25rem 0; }
summary { cursor: pointer; color: #0b57a4; }
.qr svg { inline-size: 10rem; block-size: 10rem; background: #fff; }
.google-link { display: block; inline-size: 100%; box-sizing: border-box; }
.book-page { max-width: 40rem; }
.status-grid { grid-template-columns: repeat(auto-fit, minmax(min(20rem, 100%), 1fr)); }
.verdict { font-size: 1.2rem; font-weight: 600; border-radius: 8px; padding: 0.75rem 1rem; border: 2px solid; }
.verdict-ok { background: #e7f4ea; border-color: #1a6b2f; color: #10421d; }
.verdict-wait { background: #fff4ce; border-color: #8a6100; color: #3d2b00; }
.verdict-action { background: #fde8e6; border-color: #a4160b; color: #5c0b05; }
.periods { list-style: none; padding: 0; display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fit, minmax(min(13rem, 100%), 1fr)); }
.periods h3 { font-size: 1rem; margin: 0; }
.periods p { margin: 0.25rem 0 0; }
.counts, .chart { font-size: 0.875rem; margin-top: 1rem; }
.counts caption, .chart caption { text-align: left; color: #454c54; padding-bottom: 0.25rem; }
.counts th, .counts td, .chart th, .chart td { padding: 0.35rem 0.3rem; }
.origin { overflow-wrap: anywhere; }
.chart tbody th { white-space: nowrap; }
.bar-cell { inline-size: 40%; }
.bar { display: block; inline-size: 100%; min-inline-size: 3rem; block-size: 0.8rem; }
.bar-booked { fill: #0b57a4; }
.bar-enquiry { fill: #8cb8e6; }
.web-person { margin-top: 2rem; }
.web-person .card h3 { font-size: 1rem; margin: 0 0 0.25rem; }
/* A form's parts shrink to a phone: a fieldset is as wide as its widest control unless told, and
   WebKit lets a select's longest option spill past it (the fieldset keeps it in). */
fieldset { min-width: 0; overflow: hidden; }
select { min-width: 0; text-overflow: ellipsis; }
#tracking-events { font: 0.85rem/1.4 ui-monospace, monospace; overflow-wrap: anywhere; }
@media (min-width: 60rem) { .studio-preview { position: sticky; top: 0.5rem; max-height: calc(100vh - 1rem); overflow: auto; } }
/* Long addresses (the booking link, a site, a setting line) wrap rather than widen a phone's page. */
a, code { overflow-wrap: anywhere; }
/* In a table as wide as it likes (not a phone's), a site's address keeps its column wide enough. */
.stacked th code { overflow-wrap: normal; }
caption { text-align: start; }
.done { color: #1a6b2f; font-weight: 600; }
.sites { padding-inline-start: 1.25rem; }
.site-form { display: inline-block; margin: 0.25rem 0; }
.site-form button { padding: 0.3rem 0.7rem; }
/* A table of class stacked becomes one block per row on a phone, each value with its column's name. */
@media (max-width: 40rem) {
  .stacked thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .stacked, .stacked caption, .stacked tbody, .stacked tr, .stacked th, .stacked td { display: block; }
  .stacked tr { border-bottom: 1px solid #dde1e5; padding: 0.5rem 0; }
  .stacked th, .stacked td { border: 0; padding: 0.1rem 0.5rem; }
  .stacked th code { overflow-wrap: anywhere; }
  .stacked td[data-label]::before { content: attr(data-label) ': '; font-weight: 600; color: #1b1f23; }
}
`;
