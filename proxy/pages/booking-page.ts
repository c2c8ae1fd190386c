/**
 * The booking page at `GET /book/<id>`, for each venue and group this proxy serves: one link for a
 * venue's guests where no website can hold the widget (an Instagram bio, a Google Business
 * Profile's booking button, a newsletter, a QR code on a menu: `GET /book/<id>/qr.svg` or `qr.png`). The widget
 * inline, in the venue's name, language and colours (the link's query, as the studio writes it:
 * `locale`, `theme`, `accent`, `accent-text`, `background`, `text`), on a page that is small and
 * fast: one stylesheet, the widget's script preloaded, nothing else. An unknown id gets a 404 page.
 *
 * What a guest arriving from a shared link needs to trust it: the venue's address, phone and email
 * from its profile (pages/venue-profile.ts), whose look the page starts from where the link names
 * none; link preview tags and one canonical address. Opened under another public name than the
 * configured public URL, it redirects there; under this machine's other name (`localhost` for
 * `127.0.0.1`) it works to the end, its widget's script and `api` relative to the page.
 *
 * What search engines read: the venues as schema.org JSON-LD, taking reservations at that canonical
 * address (pages/structured-data.ts), so that a Google Business Profile's reservation link may
 * point here.
 *
 * Open to anyone (it is for guests), like the widget's files; the venue's name is read through the
 * cache as the widget reads it.
 */
import { API_PREFIX, PATHS, pathOf, relativePath } from '../paths.js';
import type { Context } from 'hono';
import { urlOf } from '../core/url.js';
import type { ProxyContext } from '../context.js';
import { isLoopback } from '../guards/validate.js';
import type { VenueProfile } from '../state/venue-profiles.js';
import { escapeHtml, newNonce, openedAt, PAGES_CSS, pageResponse, pagesBase, practiceBanner } from './page.js';
import { qrFile } from './qr.js';
import { integrityOf } from '../core/encoding.js';
import { COLOUR_PROPERTIES, elementOf, fallbackOf, type WidgetSettings } from './snippet.js';
import { groupName, londonToday, studioChoices, venueName, type StudioOffer } from './studio-form.js';
import { bookingLink } from './studio.js';
import { groupInfo, named, venueInfo } from './venue-data.js';
import { LOOK_KEYS, lookQuery, profilesOf, withLook } from './venue-profile.js';
import { keepCount } from '../api/booking-source.js';
import { placeOfPage, qrLink } from '../state/day-counts.js';
import { pageWords, type PageWords } from './words/index.js';
import { structuredData } from './structured-data.js';

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

/** The settings of the page's widget: the link's look and language over the venue's own, for `id`. */
function settingsOf(
  url: URL,
  id: string,
  offer: StudioOffer,
  today: string,
  isGroup: boolean,
  look = new URLSearchParams(),
): WidgetSettings {
  const query = new URLSearchParams();
  for (const name of LOOK_KEYS) {
    const value = url.searchParams.get(name);
    if (value) query.set(name, value);
  }
  const settings = withLook(query, look);
  settings.set(isGroup ? 'group' : 'venue', id);
  // What the link asks for that is not allowed is left out: the page shows the defaults instead.
  return studioChoices(settings, offer, today).choices;
}

/**
 * The proxy's root as seen from a booking page (`/book/<id>`, one folder down): the widget's
 * script and `api` are written relative to the page.
 */
const ROOT = '../';

/** Names that are not a public address a guest could have typed: this machine's, internal ones, bare IPs. */
const INTERNAL_NAME = /^(?:\[.*\]|[\d.]+|[^.]+|.*\.(?:localhost|local|internal|lan|home\.arpa))$/;

/**
 * Where a guest who opened the page under another name than the configured public URL's should
 * go (its path and query kept), or null. Only for a public-looking name (say `www.` before it, or
 * a platform's own `*.example.app`): a reverse proxy that passes its own address for the Host
 * (nginx's plain `proxy_pass` sends `127.0.0.1:8787`, a container network `app:8787`) must not send
 * the guest round in a loop; `X-Forwarded-Host`, where the reverse proxy says the name the guest
 * used, is believed (a client that forges it only redirects itself).
 */
function canonicalRedirect(ctx: ProxyContext, c: Context, url: URL, id: string): string | null {
  const { publicBase, publicUrlDerived } = ctx.config;
  if (!publicBase || publicUrlDerived) return null;
  const forwarded = c.req.header('x-forwarded-host')?.split(',')[0]?.trim().toLowerCase();
  const seen = forwarded ? forwarded.replace(/:\d+$/, '') : url.hostname;
  if (seen === new URL(publicBase).hostname || isLoopback(seen) || INTERNAL_NAME.test(seen)) return null;
  return `${publicBase}${pathOf(PATHS.bookingPage, { id })}${url.search}`;
}

/**
 * The page's one address, for its canonical link and link previews: the public URL (or the page's
 * own address) with the look the link named and the page took (no campaign tags, nothing refused).
 */
function canonicalOf(ctx: ProxyContext, url: URL, id: string, settings: WidgetSettings): string {
  const taken: Record<string, string | null | undefined> = {
    theme: settings.theme,
    locale: settings.locale,
    type: settings.type,
    ...settings.colours,
  };
  const query = new URLSearchParams();
  for (const name of LOOK_KEYS) {
    const value = url.searchParams.get(name)?.trim().toLowerCase();
    if (value && value === taken[name]?.toLowerCase()) query.set(name, taken[name]!);
  }
  const search = query.toString();
  return `${pagesBase(ctx.config, url)}${pathOf(PATHS.bookingPage, { id })}${search ? `?${search}` : ''}`;
}

/** The address block of each venue with a profile: its name (with several), address, phone and email. */
function contactBlock(
  words: PageWords,
  venues: readonly { name: string; profile: VenueProfile }[],
  several: boolean,
): string {
  const shown = venues.filter(({ profile }) => profile.address || profile.phone || profile.email);
  if (!shown.length) return '';
  const { contact, phone, email } = words.bookingPage;
  const blocks = shown.map(({ name, profile }) => {
    const lines = [
      several ? `<strong>${escapeHtml(name)}</strong>` : '',
      profile.address ? escapeHtml(profile.address).replace(/\r?\n/g, '<br>') : '',
      profile.phone
        ? `${escapeHtml(phone)}: <a href="tel:${escapeHtml(profile.phone.replace(/[^+0-9]/g, ''))}">${escapeHtml(profile.phone)}</a>`
        : '',
      profile.email
        ? `${escapeHtml(email)}: <a href="mailto:${escapeHtml(encodeURI(profile.email))}">${escapeHtml(profile.email)}</a>`
        : '',
    ].filter(Boolean);
    return `<address>${lines.join('<br>')}</address>`;
  });
  return `<section class="book-contact" aria-labelledby="book-contact"><h2 id="book-contact">${escapeHtml(contact)}</h2>${blocks.join('')}</section>`;
}

/** `GET /book/:id`: the booking page. */
export async function bookingPage(ctx: ProxyContext, c: Context): Promise<Response> {
  const url = urlOf(c.req.raw);
  const id = c.req.param('id') ?? '';
  const redirect = canonicalRedirect(ctx, c, url, id);
  // Permanent, and kept an hour: a link previewer or a search engine learns the one address.
  if (redirect)
    return new Response(null, { status: 308, headers: { location: redirect, 'cache-control': 'max-age=3600' } });
  const found = await offerOf(ctx, id);
  if (!found) return missingPage(pageWords(url.searchParams.get('locale')));
  const isGroup = ctx.config.venueGroups.includes(id);
  const venues = found.offer.venues;
  const profiles = await profilesOf(
    ctx,
    venues.map((venue) => venue.id),
  );
  const settings = settingsOf(url, id, found.offer, londonToday(ctx.config.now()), isGroup, lookQuery(profiles));
  const words = pageWords(settings.locale);
  const script = ctx.config.widgetScript;
  const integrity = script ? await integrityOf(script) : null;
  const nonce = newNonce();
  const dark = settings.theme === 'dark';
  const declarations = Object.entries(settings.colours).map(
    ([name, value]) => `${COLOUR_PROPERTIES[name as keyof typeof COLOUR_PROPERTIES]}: ${value};`,
  );
  // The page wears the widget's theme and the venue's colours; the values were checked as colours.
  const style = [
    '.book-contact address { font-style: normal; margin: 0.5rem 0; }',
    dark ? ':root { color-scheme: dark; background: #161a1f; color: #eef1f4; } a { color: #8cc4ec; }' : '',
    settings.colours.background ? `:root { background: ${settings.colours.background}; }` : '',
    settings.colours.text ? `:root { color: ${settings.colours.text}; }` : '',
    declarations.length ? `venue-booking { ${declarations.join(' ')} }` : '',
  ].join('');
  // Never a link to the booking page: the guest is on it; nor the phone and email, which the page
  // shows above it (the widget says them again only to a party none of its types takes).
  const fallback = fallbackOf({ link: null, phone: null, email: null, locale: settings.locale }, null);
  // Relative to the page, so they name the address the guest opened (either of this machine's
  // names, a mount path), which the origin rule counts as the proxy's own.
  const widget = script
    ? `${elementOf(settings, `${ROOT}${relativePath(API_PREFIX)}`, fallback)}<script type="module" src="${escapeHtml(`${ROOT}${relativePath(PATHS.script)}`)}" integrity="${escapeHtml(integrity!)}" crossorigin="anonymous" nonce="${nonce}"></script>`
    : fallback;
  const { book, about } = words.bookingPage;
  const named = profiles.map(({ venue, profile }) => ({
    name: venueName(venues.find((item) => item.id === venue)!),
    profile,
  }));
  const canonical = canonicalOf(ctx, url, id, settings);
  // What search engines read of the venues: those whose name could be read now.
  const listed = venues.flatMap((venue) =>
    venue.title
      ? [{ name: venue.title, profile: profiles.find((item) => item.venue === venue.id)?.profile ?? null }]
      : [],
  );
  const body = `<main class="book-page">${practiceBanner(ctx.config.practice, words.practice)}<h1>${escapeHtml(book(found.name))}</h1>${contactBlock(words, named, isGroup)}${widget}</main>${structuredData(listed, canonical)}`;
  // Each time the page opens (not a HEAD's check), one page view of its link or of its QR code.
  if (c.req.method === 'GET')
    await keepCount(ctx, { venue: null, source: placeOfPage(url.searchParams), outcome: 'view' });
  return pageResponse(body, {
    title: book(found.name),
    description: about(found.name),
    words,
    nonce: script ? nonce : undefined,
    style,
    stylesheet: 'style.css',
    canonical,
    // Its address goes with its booking to this proxy, which tells its link from its QR code by it.
    referrer: 'same-origin',
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
    const link = bookingLink(settings, pagesBase(ctx.config, openedAt(ctx.config, c.req.raw, c.env)));
    if (link.length > QR_LINK_MAX) return plain(400, 'This address is too long for a QR code');
    const { body, type } = qrFile(qrLink(link), format);
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

/**
 * The booking pages' routes: the stylesheet first (before `/book/:id` could take its path), then
 * the pages, each under the client's page limit and the Host rule (`page`).
 */
export const BOOKING_ROUTES = [
  {
    path: BOOKING_CSS_PATH,
    page: false,
    answer: () =>
      new Response(PAGES_CSS, {
        status: 200,
        headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300' },
      }),
  },
  { path: PATHS.bookingPage, answer: bookingPage, page: true },
  { path: PATHS.bookingQr, answer: bookingQr('svg'), page: true },
  { path: PATHS.bookingQrPng, answer: bookingQr('png'), page: true },
] as const;
