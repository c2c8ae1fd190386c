/**
 * The guest's manage page, `/manage/<token>` (the link of the booking answer's `manage_url`, the
 * widget's confirmation and the calendar file): the booking as the service shows it now, until
 * when it may be changed or cancelled online, the venue's phone (always: a guest may need to call
 * about anything the page does not do, a cancelled booking included), a cancel form that works without script (a confirm
 * step, then a POST to the same address), and a link to `/manage/<token>/change`, a page that
 * embeds the widget prefilled with the booking and `replaces` set to the token.
 *
 * In the booking page's frame, language and colours (the venue's profile; `?locale=` or the
 * browser's language first). The token opens the booking, so the page keeps it to itself: not
 * indexed, no referrer to anyone, nothing third-party loaded, no script at all on the manage page,
 * and the request's log line names `/manage/:token` (paths.ts `redactedPath`). The cancel form is
 * accepted only from this page's own origin (`Sec-Fetch-Site: same-origin`, or an `Origin` that is
 * this proxy's): a form on another site cannot cancel, even one that knows a token.
 */
import type { Context } from 'hono';
import { ProxyError } from '../core/envelope.js';
import { urlOf } from '../core/url.js';
import type { ProxyContext } from '../context.js';
import { isOwnOrigin } from '../guards/request-site.js';
import { API_PREFIX, PATHS, relativePath } from '../paths.js';
import { integrityOf } from '../core/encoding.js';
import { cancelOnce, manageView, openToken, type ManageRule, type ManageView } from '../api/manage.js';
import type { ManageClaims } from '../api/manage-token.js';
import { escapeHtml, newNonce, pageResponse, practiceBanner } from './page.js';
import { COLOUR_PROPERTIES } from './snippet.js';
import { pageWords, type PageWords } from './words/index.js';
import type { VenueProfile } from '../state/venue-profiles.js';

/** The manage page is one folder below the root; its change page two. */
const UP = { page: '../', change: '../../' } as const;
/** The largest cancel form read: it carries one field. */
const FORM_LIMIT = 1_024;

type Words = PageWords['manage'];

/** The page's language: the link's `locale`, the venue's, then the browser's. */
function wordsOf(c: Context, profile: VenueProfile | null): PageWords {
  return pageWords(
    urlOf(c.req.raw).searchParams.get('locale'),
    profile?.look.locale,
    ...(c.req.header('accept-language') ?? '').split(',').slice(0, 10),
  );
}

/** The venue's colours on the page and its widget, as the booking page wears them. */
function styleOf(profile: VenueProfile | null): string {
  const colours = profile?.look.colours ?? {};
  const declarations = Object.entries(colours).map(
    ([name, value]) => `${COLOUR_PROPERTIES[name as keyof typeof COLOUR_PROPERTIES]}: ${value};`,
  );
  return [
    '.manage dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }',
    '.manage dd { margin: 0; } .manage form { display: inline; }',
    profile?.look.theme === 'dark'
      ? ':root { color-scheme: dark; background: #161a1f; color: #eef1f4; } a { color: #8cc4ec; }'
      : '',
    colours.background ? `:root { background: ${colours.background}; }` : '',
    colours.text ? `:root { color: ${colours.text}; }` : '',
    declarations.length ? `venue-booking { ${declarations.join(' ')} }` : '',
  ].join('');
}

/** A page of the manage wing: not indexed, no referrer, the booking pages' stylesheet. */
function managePageResponse(
  body: string,
  options: { words: PageWords; title: string; status?: number; style?: string; nonce?: string; up: string },
): Response {
  const response = pageResponse(`<main class="book-page manage">${body}</main>`, {
    title: options.title,
    description: options.words.manage.about,
    words: options.words,
    status: options.status,
    style: options.style,
    nonce: options.nonce,
    stylesheet: `${options.up}${relativePath(PATHS.bookingCss)}`,
  });
  response.headers.set('x-robots-tag', 'noindex, nofollow');
  return response;
}

/** The one "not valid" page of a token that does not open, whatever the cause. */
function missingPage(words: PageWords, up: string): Response {
  const { missing, missingAbout } = words.manage;
  return managePageResponse(`<h1>${escapeHtml(missing)}</h1><p>${escapeHtml(missingAbout)}</p>`, {
    words,
    title: missing,
    status: 404,
    up,
  });
}

/**
 * The venue's phone as a link; without one, the plain "contact the venue" only where the guest
 * needs the venue (`needed`): not under a booking they can still cancel online, nor one cancelled.
 */
function callLine(words: Words, phone: string | null, needed = true): string {
  if (!phone) return needed ? `<p>${escapeHtml(words.contact)}</p>` : '';
  const [before, after] = words.call.split('%s') as [string, string | undefined];
  const link = `<a href="tel:${escapeHtml(phone.replace(/[^+0-9]/g, ''))}">${escapeHtml(phone)}</a>`;
  return `<p>${escapeHtml(before)}${link}${escapeHtml(after ?? '')}</p>`;
}

/** Why the guest may not act online, in their words. */
function refusalText(words: Words, reason: ManageRule['reason'] | 'failed' | undefined): string {
  switch (reason) {
    case 'window':
      return words.window;
    case 'capability':
      return words.capability;
    case 'venue':
      return words.venueRefused;
    case 'failed':
      return words.failed;
    default:
      return words.statusRefused;
  }
}

/** A London date and time for the guest, in their language. */
function londonText(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, {
    timeZone: 'Europe/London',
    dateStyle: 'full',
    timeStyle: 'short',
  }).format(new Date(iso));
}

/** The booking's details. */
function detailsOf(words: PageWords, view: ManageView): string {
  const w = words.manage;
  const b = view.booking;
  const date = new Intl.DateTimeFormat(words.lang, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${b.date}T00:00:00Z`),
  );
  const rows: [string, string][] = [
    [w.reference, b.reference],
    ...(b.venue_name ? ([[w.venue, b.venue_name]] as [string, string][]) : []),
    ...(b.type_name ? ([[w.type, b.type_name]] as [string, string][]) : []),
    [w.date, date],
    [w.time, b.time],
    [w.people, String(b.people)],
    [w.status, w.statuses[b.status] ?? b.status],
  ];
  return `<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

/** What the guest may do: the change link and the cancel step, or why not. */
function actionsOf(words: PageWords, view: ManageView, token: string, confirming: boolean): string {
  const w = words.manage;
  if (view.booking.status === 'rejected') return '';
  if (!view.cancel.allowed) return `<p>${escapeHtml(refusalText(w, view.cancel.reason))}</p>`;
  const until = view.cancel.until
    ? `<p>${escapeHtml(w.until.replace('%s', londonText(view.cancel.until, words.lang)))}</p>`
    : '';
  // Relative to the page: the token is the last segment of its address.
  const self = encodeURIComponent(token);
  if (confirming)
    return `${until}<form method="post" action="${escapeHtml(self)}"><p><strong>${escapeHtml(w.confirm)}</strong></p><input type="hidden" name="confirm" value="yes"><button type="submit">${escapeHtml(w.confirmYes)}</button> <a href="${escapeHtml(self)}">${escapeHtml(w.keep)}</a></form>`;
  const change = view.change.allowed ? `<a href="${escapeHtml(`${self}/change`)}">${escapeHtml(w.change)}</a> · ` : '';
  return `${until}<p>${change}<a href="${escapeHtml(`${self}?step=cancel`)}">${escapeHtml(w.cancel)}</a></p>`;
}

/** The page's venue profile, or null (never fails the page). */
const profileOf = (ctx: ProxyContext, claims: ManageClaims | null) =>
  claims ? ctx.profiles.get(claims.venue).catch(() => null) : Promise.resolve(null);

/** Opens the page's token: its claims, or null (the one "not valid" page). */
async function opened(
  ctx: ProxyContext,
  c: Context,
  action: 'view' | 'cancel' | 'change',
): Promise<ManageClaims | null> {
  try {
    return (await openToken(ctx, c.req.param('token') ?? '', action)).claims;
  } catch (error) {
    if (error instanceof ProxyError && error.status === 404) return null;
    throw error;
  }
}

/** Whether a form POST comes from this proxy's own page (never another site's form). */
function fromOwnPage(ctx: ProxyContext, c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = c.req.header('origin');
  return origin !== undefined && isOwnOrigin(origin, urlOf(c.req.raw), ctx.config.publicOrigin);
}

/** `GET /manage/:token`: the booking now, and the cancel step; `POST`: the confirmed cancel. */
export async function managePage(ctx: ProxyContext, c: Context): Promise<Response> {
  const token = c.req.param('token') ?? '';
  const posting = c.req.method === 'POST';
  if (posting && !fromOwnPage(ctx, c)) {
    const words = wordsOf(c, null);
    ctx.config.metrics.count('guest_manage_total', { action: 'cancel', outcome: 'cross_site' });
    return managePageResponse(`<h1>${escapeHtml(words.manage.title)}</h1><p>${escapeHtml(words.manage.refused)}</p>`, {
      words,
      title: words.manage.title,
      status: 403,
      up: UP.page,
    });
  }
  const claims = await opened(ctx, c, posting ? 'cancel' : 'view');
  const profile = await profileOf(ctx, claims);
  const words = wordsOf(c, profile);
  if (!claims) return missingPage(words, UP.page);
  const w = words.manage;
  let notice = '';
  let refused = false;
  if (posting) {
    const form = (await c.req.text()).slice(0, FORM_LIMIT);
    if (new URLSearchParams(form).get('confirm') === 'yes') {
      const outcome = await cancelOnce(ctx, claims, { kind: 'cancel' }, c);
      refused = 'refused' in outcome;
      notice =
        'refused' in outcome
          ? `<p role="alert">${escapeHtml(refusalText(w, outcome.refused))}</p>`
          : `<p role="status"><strong>${escapeHtml(outcome.already ? w.already : w.cancelled)}</strong></p>`;
    }
  }
  const view = await manageView(ctx, claims);
  if (!posting) ctx.config.metrics.count('guest_manage_total', { action: 'view', outcome: 'ok' });
  const confirming = !posting && urlOf(c.req.raw).searchParams.get('step') === 'cancel';
  const needsVenue = refused || (view.booking.status !== 'rejected' && !view.cancel.allowed);
  const body = `${practiceBanner(ctx.config.practice, words.practice)}<h1>${escapeHtml(w.title)}</h1>${notice}${detailsOf(words, view)}${actionsOf(words, view, token, confirming)}${callLine(w, view.phone, needsVenue)}`;
  return managePageResponse(body, { words, title: w.title, style: styleOf(profile), up: UP.page });
}

/** `GET /manage/:token/change`: the widget, prefilled with the booking, replacing it once the new one is confirmed. */
export async function manageChangePage(ctx: ProxyContext, c: Context): Promise<Response> {
  const token = c.req.param('token') ?? '';
  const claims = await opened(ctx, c, 'change');
  const profile = await profileOf(ctx, claims);
  const words = wordsOf(c, profile);
  if (!claims) return missingPage(words, UP.change);
  const w = words.manage;
  const view = await manageView(ctx, claims);
  const back = `<p><a href="../${escapeHtml(encodeURIComponent(token))}">${escapeHtml(w.back)}</a></p>`;
  if (!view.change.allowed) {
    const body = `<h1>${escapeHtml(w.changeTitle)}</h1>${detailsOf(words, view)}<p>${escapeHtml(refusalText(w, view.change.reason))}</p>${callLine(w, view.phone)}${back}`;
    return managePageResponse(body, { words, title: w.changeTitle, style: styleOf(profile), up: UP.change });
  }
  const script = ctx.config.widgetScript;
  const nonce = newNonce();
  const attributes: [string, string][] = [
    ['venue', claims.venue],
    ['api', `${UP.change}${relativePath(API_PREFIX)}`],
    ['locale', words.lang],
    ['type', claims.type],
    ['date', claims.date],
    ['time', claims.time],
    ['num-people', String(claims.people)],
    ...(claims.duration !== undefined ? ([['duration', String(claims.duration)]] as [string, string][]) : []),
    ['replaces', token],
  ];
  if (profile?.look.theme && profile.look.theme !== 'light') attributes.push(['theme', profile.look.theme]);
  const element = `<venue-booking${attributes.map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join('')}>${callLine(w, view.phone)}</venue-booking>`;
  const widget = script
    ? `${element}<script type="module" src="${escapeHtml(`${UP.change}${relativePath(PATHS.script)}`)}" integrity="${escapeHtml(await integrityOf(script))}" crossorigin="anonymous" nonce="${nonce}"></script>`
    : element;
  const body = `${practiceBanner(ctx.config.practice, words.practice)}<h1>${escapeHtml(w.changeTitle)}</h1><p>${escapeHtml(w.changeAbout)}</p>${detailsOf(words, view)}${widget}${back}`;
  return managePageResponse(body, {
    words,
    title: w.changeTitle,
    style: styleOf(profile),
    nonce: script ? nonce : undefined,
    up: UP.change,
  });
}

/** The manage pages' routes: each under the client's page limit and the Host rule. */
export const MANAGE_ROUTES = [
  { path: PATHS.managePage, methods: ['GET', 'POST'], answer: managePage },
  { path: PATHS.manageChange, methods: ['GET'], answer: manageChangePage },
] as const;
