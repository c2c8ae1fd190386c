/**
 * The one builder of what a venue pastes into its site, and of the `<venue-booking>` element the
 * venue-facing pages show: the Node entry prints its head lines at start (node/main.ts), the embed
 * studio gives the whole snippet, and the booking page renders the same element. Every value is
 * escaped here.
 */
import { escapeHtml } from './page.js';
import { pageWords } from './words/index.js';

/** The colours a venue may set, as the widget's custom properties. */
export const COLOUR_PROPERTIES = {
  accent: '--vb-accent',
  'accent-text': '--vb-accent-text',
  background: '--vb-background',
  text: '--vb-text',
} as const;

/** A colour's name. */
export type ColourName = keyof typeof COLOUR_PROPERTIES;

/** What a `<venue-booking>` element says: every value already checked (pages/studio-form.ts). */
export interface WidgetSettings {
  /** Venue ids (one, or several in a picker); empty with a group. */
  venues: string[];
  group: string | null;
  mode: 'inline' | 'popup';
  theme: 'light' | 'dark' | 'auto';
  locale: string;
  steps: string;
  colours: Partial<Record<ColourName, string>>;
  type: string | null;
  date: string | null;
  time: string | null;
  numPeople: number | null;
  /** The fallback: the venue's own booking page and phone number. */
  link: string | null;
  phone: string | null;
}

/** The element's attributes, with `api` as given; defaults left out. */
function attributesOf(settings: WidgetSettings, api: string): [string, string][] {
  const attributes: [string, string][] = settings.group
    ? [['venue-group', settings.group]]
    : [['venue', settings.venues.join(',')]];
  attributes.push(['api', api]);
  if (settings.mode !== 'inline') attributes.push(['mode', settings.mode]);
  if (settings.theme !== 'light') attributes.push(['theme', settings.theme]);
  if (settings.locale !== 'en-GB') attributes.push(['locale', settings.locale]);
  if (settings.steps) attributes.push(['steps', settings.steps]);
  if (settings.type) attributes.push(['type', settings.type]);
  if (settings.date) attributes.push(['date', settings.date]);
  if (settings.time) attributes.push(['time', settings.time]);
  if (settings.numPeople !== null) attributes.push(['num-people', String(settings.numPeople)]);
  return attributes;
}

/**
 * The light-DOM fallback, shown where the script cannot run and under an error: the venue's own
 * booking page, else `bookingPage` (this proxy's `/book/<id>`), and its phone number, in the
 * widget's language (the WordPress plugin says the same words, pages/wordpress/wordpress.ts).
 */
export function fallbackOf(
  settings: Pick<WidgetSettings, 'link' | 'phone' | 'locale'>,
  bookingPage: string | null,
): string {
  const words = pageWords(settings.locale).fallback;
  const page = settings.link ?? bookingPage;
  const link = page ? `<a href="${escapeHtml(page)}">${escapeHtml(words.page)}</a>` : '';
  const phone = settings.phone
    ? words.call
        .split('%s')
        .map(escapeHtml)
        .join(`<a href="tel:${escapeHtml(settings.phone.replace(/[^+0-9]/g, ''))}">${escapeHtml(settings.phone)}</a>`)
    : '';
  if (!link && !phone) return `<p>${escapeHtml(words.contact)}</p>`;
  const ways = [link, phone].filter(Boolean).join(escapeHtml(words.or));
  return `<p>${words.sentence.split('%s').map(escapeHtml).join(ways)}</p>`;
}

/** The `<venue-booking>` element, with its fallback inside and `extra` attributes (already escaped). */
export function elementOf(settings: WidgetSettings, api: string, fallback: string, extra = ''): string {
  const attributes = attributesOf(settings, api)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<venue-booking${attributes}${extra}>\n  ${fallback}\n</venue-booking>`;
}

/** The colours as one style rule (a site with a strict CSP puts it in its own stylesheet), or null. */
export function styleRuleOf(colours: WidgetSettings['colours']): string | null {
  const declarations = Object.entries(colours).map(
    ([name, value]) => `${COLOUR_PROPERTIES[name as ColourName]}: ${escapeHtml(value)};`,
  );
  return declarations.length ? `<style>venue-booking { ${declarations.join(' ')} }</style>` : null;
}

/**
 * What a venue pastes, the first lines in its `<head>`: a `preconnect` to the proxy's origin (the
 * connection, DNS and TLS included, opens while the page still loads) and a `modulepreload` of the
 * bundle (fetched at once even where the script tag sits at the end of the body or is added late,
 * say by a tag manager), then the script tag, which may go anywhere, then `body` (the studio's
 * style rule and element). The reads go to the same origin as the script, so they find the
 * connection open. `crossorigin` on all three: module scripts and the widget's reads are CORS
 * requests, which a connection opened without it would not serve. Without an integrity (no bundle
 * served here to hash) the preload and the integrity attribute are left out.
 */
export function widgetSnippet(src: string, integrity: string | null, body: string[] = []): string {
  const origin = escapeHtml(new URL(src).origin);
  const script = escapeHtml(src);
  const sri = integrity ? ` integrity="${escapeHtml(integrity)}"` : '';
  return [
    `<link rel="preconnect" href="${origin}" crossorigin>`,
    ...(integrity ? [`<link rel="modulepreload" href="${script}"${sri} crossorigin="anonymous">`] : []),
    `<script type="module" src="${script}"${sri} crossorigin="anonymous"></script>`,
    ...body,
  ].join('\n');
}
