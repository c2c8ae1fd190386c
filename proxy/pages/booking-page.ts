/**
 * The booking page at `GET /book/<id>`, for each venue and group this proxy serves: one link for a
 * venue's guests where no website can hold the widget (an Instagram bio, a Google Business
 * Profile's booking button, a newsletter, a QR code on a menu: `GET /book/<id>/qr.svg` or `qr.png`). The widget
 * inline, in the venue's name, language and colours (the link's query, as the studio writes it:
 * `locale`, `theme`, `accent`, `accent-text`, `background`, `text`), on a page that is small and
 * fast: one stylesheet, the widget's script preloaded, nothing else. An unknown id gets a 404 page.
 *
 * Open to anyone (it is for guests), like the widget's files; the venue's name is read through the
 * cache as the widget reads it.
 */
import { API_PREFIX, PATHS } from '../paths.js';
import type { Context } from 'hono';
import { urlOf } from '../core/url.js';
import type { ProxyContext } from '../context.js';
import { escapeHtml, newNonce, PAGES_CSS, pageResponse, pagesBase, practiceBanner } from './page.js';
import { qrFile } from './qr.js';
import { integrityOf } from '../core/encoding.js';
import { COLOUR_PROPERTIES, elementOf, fallbackOf, type WidgetSettings } from './snippet.js';
import { groupName, londonToday, studioChoices, type StudioOffer } from './studio-form.js';
import { bookingLink } from './studio.js';
import { groupInfo, named, venueInfo } from './venue-data.js';
import { pageWords, type PageWords } from './words/index.js';

/** The venue or group of `id` as the studio's form reads it, or null when this proxy does not serve it. */
async function offerOf(ctx: ProxyContext, id: string): Promise<{ offer: StudioOffer; name: string } | null> {
  if (ctx.config.venueGroups.includes(id)) {
    const listed = await groupInfo(ctx, id);
    const venues = await Promise.all(
      listed.venues.filter((venue) => ctx.config.venues.includes(venue.id)).map((venue) => venueInfo(ctx, venue.id)),
    );
    const group = named(listed, venues);
    const titles = group.venues.flatMap((venue) => (venue.title ? [venue.title] : []));
    const name = titles.length === 1 ? titles[0]! : titles.length ? groupName(group).replace(/^All of: /, '') : 'us';
    return { offer: { venues, groups: [group] }, name };
  }
  if (!ctx.config.venues.includes(id)) return null;
  const venue = await venueInfo(ctx, id);
  return { offer: { venues: [venue], groups: [] }, name: venue.title ?? 'us' };
}

/** The 404 page, in the language the link asked for. */
function missingPage(words: PageWords): Response {
  const { missing, missingAbout } = words.bookingPage;
  return pageResponse(
    `<main class="book-page"><h1>${escapeHtml(missing)}</h1><p>${escapeHtml(missingAbout)}</p></main>`,
    { title: missing, description: missingAbout, words, status: 404, stylesheet: 'style.css' },
  );
}

/** The settings of the page's widget: the link's look and language, for `id`. */
function settingsOf(url: URL, id: string, offer: StudioOffer, today: string, isGroup: boolean): WidgetSettings {
  const query = new URLSearchParams();
  for (const name of ['locale', 'theme', ...Object.keys(COLOUR_PROPERTIES)]) {
    const value = url.searchParams.get(name);
    if (value) query.set(name, value);
  }
  query.set(isGroup ? 'group' : 'venue', id);
  // What the link asks for that is not allowed is left out: the page shows the defaults instead.
  return studioChoices(query, offer, today).choices;
}

/** `GET /book/:id`: the booking page. */
export async function bookingPage(ctx: ProxyContext, c: Context): Promise<Response> {
  const url = urlOf(c.req.raw);
  const id = c.req.param('id') ?? '';
  const found = await offerOf(ctx, id);
  if (!found) return missingPage(pageWords(url.searchParams.get('locale')));
  const isGroup = ctx.config.venueGroups.includes(id);
  const settings = settingsOf(url, id, found.offer, londonToday(ctx.config.now()), isGroup);
  const words = pageWords(settings.locale);
  const script = ctx.config.widgetScript;
  const integrity = script ? await integrityOf(script) : null;
  const nonce = newNonce();
  const base = pagesBase(ctx.config, url);
  const dark = settings.theme === 'dark';
  const declarations = Object.entries(settings.colours).map(
    ([name, value]) => `${COLOUR_PROPERTIES[name as keyof typeof COLOUR_PROPERTIES]}: ${value};`,
  );
  // The page wears the widget's theme and the venue's colours; the values were checked as colours.
  const style = [
    dark ? ':root { color-scheme: dark; background: #161a1f; color: #eef1f4; } a { color: #8cc4ec; }' : '',
    settings.colours.background ? `:root { background: ${settings.colours.background}; }` : '',
    settings.colours.text ? `:root { color: ${settings.colours.text}; }` : '',
    declarations.length ? `venue-booking { ${declarations.join(' ')} }` : '',
  ].join('');
  const fallback = fallbackOf({ link: null, phone: null, locale: settings.locale }, null);
  const widget = script
    ? `${elementOf(settings, `${base}${API_PREFIX}`, fallback)}<script type="module" src="${escapeHtml(`${base}${PATHS.script}`)}" integrity="${escapeHtml(integrity!)}" crossorigin="anonymous" nonce="${nonce}"></script>`
    : fallback;
  const { book, about } = words.bookingPage;
  const body = `<main class="book-page">${practiceBanner(ctx.config.practice, words.practice)}<h1>${escapeHtml(book(found.name))}</h1>${widget}</main>`;
  return pageResponse(body, {
    title: book(found.name),
    description: about(found.name),
    words,
    nonce: script ? nonce : undefined,
    style: style || undefined,
    stylesheet: 'style.css',
  });
}

/** The longest link a QR code is drawn for: a booking link with every look chosen is under 200 characters. */
export const QR_LINK_MAX = 400;

/** A plain-text refusal of the QR routes. */
const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/**
 * `GET /book/:id/qr.svg` and `/qr.png`: the QR code of the booking page's link with the look and
 * language its query asks for, to print. The link is rebuilt from the page's checked settings
 * (`bookingLink`, as the studio shows it), never copied from the query: what is not a setting, or
 * not allowed, is left out, so a long query cannot make a large code. The id alone stands for the
 * venue or group: the look needs no read of the venue.
 */
function bookingQr(format: 'svg' | 'png') {
  return (ctx: ProxyContext, c: Context): Response => {
    const url = urlOf(c.req.raw);
    const id = c.req.param('id') ?? '';
    const isGroup = ctx.config.venueGroups.includes(id);
    if (!isGroup && !ctx.config.venues.includes(id)) return plain(404, 'No booking page here');
    const offer: StudioOffer = isGroup
      ? { venues: [], groups: [{ id, venues: [] }] }
      : { venues: [{ id, title: null, types: [] }], groups: [] };
    const settings = settingsOf(url, id, offer, londonToday(ctx.config.now()), isGroup);
    const link = bookingLink(settings, pagesBase(ctx.config, url));
    if (link.length > QR_LINK_MAX) return plain(400, 'This address is too long for a QR code');
    const { body, type } = qrFile(link, format);
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': type,
        'content-disposition': `attachment; filename="booking-qr-code.${format}"`,
        'cache-control': 'no-cache',
      },
    });
  };
}

/** The booking pages' stylesheet, open to anyone (the operator pages' own is behind their guard). */
export const BOOKING_CSS_PATH = PATHS.bookingCss;

/** The booking pages' routes: the stylesheet first (before `/book/:id` could take its path). */
export const BOOKING_ROUTES = [
  {
    path: BOOKING_CSS_PATH,
    answer: () =>
      new Response(PAGES_CSS, {
        status: 200,
        headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300' },
      }),
  },
  { path: PATHS.bookingPage, answer: bookingPage },
  { path: PATHS.bookingQr, answer: bookingQr('svg') },
  { path: PATHS.bookingQrPng, answer: bookingQr('png') },
] as const;
