/**
 * The booking page at `GET /book/<id>`, for each venue and group this proxy serves: one link for a
 * venue's guests where no website can hold the widget (an Instagram bio, a Google Business
 * Profile's booking button, a newsletter, a QR code on a menu: `GET /book/<id>/qr.svg`). The widget
 * inline, in the venue's name, language and colours (the link's query, as the studio writes it:
 * `locale`, `theme`, `accent`, `accent-text`, `background`, `text`), on a page that is small and
 * fast: one stylesheet, the widget's script preloaded, nothing else. An unknown id gets a 404 page.
 *
 * Open to anyone (it is for guests), like the widget's files; the venue's name is read through the
 * cache as the widget reads it.
 */
import { PATHS } from '../paths.js';
import type { Context } from 'hono';
import type { Locale } from '../../src/api/rules.js';
import { urlOf } from '../core/url.js';
import type { ProxyContext } from '../context.js';
import { escapeHtml, newNonce, PAGES_CSS, pageResponse, pagesBase, practiceBanner } from './page.js';
import { qrSvg } from './qr.js';
import { integrityOf } from '../core/encoding.js';
import { COLOUR_PROPERTIES, elementOf, fallbackOf, type WidgetSettings } from './snippet.js';
import { groupName, londonToday, studioChoices, type StudioOffer } from './studio-form.js';
import { groupInfo, named, venueInfo } from './venue-data.js';

/** The page's own words, per language of the widget. */
const WORDS: Record<
  Locale,
  {
    book: (venue: string) => string;
    about: (venue: string) => string;
    practice: string;
    missing: string;
    missingAbout: string;
  }
> = {
  'en-GB': {
    book: (venue) => `Book at ${venue}`,
    about: (venue) => `Book a table at ${venue} online: choose the day, the time and how many you are.`,
    practice: 'Practice mode: bookings here are not real.',
    missing: 'There is no booking page here',
    missingAbout: 'Check the link you followed, or ask the venue for its booking page.',
  },
  fr: {
    book: (venue) => `Réserver chez ${venue}`,
    about: (venue) =>
      `Réservez une table chez ${venue} en ligne : choisissez le jour, l’heure et le nombre de personnes.`,
    practice: 'Mode d’essai : les réservations faites ici ne sont pas réelles.',
    missing: 'Il n’y a pas de page de réservation ici',
    missingAbout: 'Vérifiez le lien suivi, ou demandez sa page de réservation à l’établissement.',
  },
  de: {
    book: (venue) => `Bei ${venue} reservieren`,
    about: (venue) => `Reservieren Sie online einen Tisch bei ${venue}: Tag, Uhrzeit und Personenzahl wählen.`,
    practice: 'Übungsmodus: Reservierungen hier sind nicht echt.',
    missing: 'Hier gibt es keine Reservierungsseite',
    missingAbout: 'Prüfen Sie den Link, oder fragen Sie das Lokal nach seiner Reservierungsseite.',
  },
  es: {
    book: (venue) => `Reservar en ${venue}`,
    about: (venue) => `Reserve mesa en ${venue} en línea: elija el día, la hora y cuántos son.`,
    practice: 'Modo de prueba: las reservas hechas aquí no son reales.',
    missing: 'Aquí no hay ninguna página de reservas',
    missingAbout: 'Compruebe el enlace, o pida al local su página de reservas.',
  },
  nl: {
    book: (venue) => `Reserveren bij ${venue}`,
    about: (venue) => `Reserveer online een tafel bij ${venue}: kies de dag, de tijd en met hoeveel u bent.`,
    practice: 'Oefenmodus: reserveringen hier zijn niet echt.',
    missing: 'Hier is geen reserveringspagina',
    missingAbout: 'Controleer de link, of vraag het restaurant om zijn reserveringspagina.',
  },
};

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
function missingPage(words: (typeof WORDS)[Locale], locale: string): Response {
  return pageResponse(
    `<main class="book-page"><h1>${escapeHtml(words.missing)}</h1><p>${escapeHtml(words.missingAbout)}</p></main>`,
    { title: words.missing, description: words.missingAbout, lang: locale, status: 404, stylesheet: 'style.css' },
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
  const asked = url.searchParams.get('locale') ?? 'en-GB';
  const locale = (asked in WORDS ? asked : 'en-GB') as Locale;
  const found = await offerOf(ctx, id);
  if (!found) return missingPage(WORDS[locale], locale);
  const isGroup = ctx.config.venueGroups.includes(id);
  const settings = settingsOf(url, id, found.offer, londonToday(ctx.config.now()), isGroup);
  const words = WORDS[settings.locale as Locale];
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
  const fallback = fallbackOf({ link: null, phone: null }, null);
  const widget = script
    ? `${elementOf(settings, `${base}/api`, fallback)}<script type="module" src="${escapeHtml(`${base}/venue-booking.js`)}" integrity="${escapeHtml(integrity!)}" crossorigin="anonymous" nonce="${nonce}"></script>`
    : fallback;
  const body = `<main class="book-page">${practiceBanner(ctx.config.practice, words.practice)}<h1>${escapeHtml(words.book(found.name))}</h1>${widget}</main>`;
  return pageResponse(body, {
    title: words.book(found.name),
    description: words.about(found.name),
    lang: settings.locale,
    nonce: script ? nonce : undefined,
    style: style || undefined,
    stylesheet: 'style.css',
  });
}

/** `GET /book/:id/qr.svg`: the QR code of the booking page's link (its query kept), to print. */
export async function bookingQr(ctx: ProxyContext, c: Context): Promise<Response> {
  const url = urlOf(c.req.raw);
  const id = c.req.param('id') ?? '';
  if (!ctx.config.venues.includes(id) && !ctx.config.venueGroups.includes(id)) {
    return new Response('No booking page here', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  const link = `${pagesBase(ctx.config, url)}/book/${encodeURIComponent(id)}${url.search}`;
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${qrSvg(link)}`, {
    status: 200,
    headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'no-cache' },
  });
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
  { path: PATHS.bookingQr, answer: bookingQr },
] as const;
