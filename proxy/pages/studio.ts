/**
 * The embed studio at `GET /embed`, for a venue's manager who puts the booking widget on the
 * venue's site alone: a form in plain words (venues and booking types by name, read from the venue
 * data; colour pickers with a contrast check; language, steps, a prefill the venue takes, the
 * fallback), a live preview of the real widget served by this proxy that stays in view, the one
 * snippet to paste, the booking page's link and QR code, how to put that page on Google (the
 * Business Profile's booking link, pages/studio-google.ts), steps for the usual site builders, and
 * the sites allowed to show the widget.
 *
 * Rendered here from the query, every value checked (pages/studio-form.ts) and escaped. The studio
 * never fetches a URL a user types: the fallback link only goes into the snippet's text. Its one
 * script (pages/studio-client.ts) only improves the page.
 */
import type { Context } from 'hono';
import { urlOf } from '../core/url.js';
import { API_PREFIX, PATHS, pathOf, relativePath } from '../paths.js';
import { contrastSentence, contrastWarnings } from './colours.js';
import type { ProxyContext } from '../context.js';
import { escapeHtml, newNonce, openedAt, pageResponse, pagesBase, practiceBanner, venueNav } from './page.js';
import { qrSvg } from './qr.js';
import { qrLink } from '../state/day-counts.js';
import { integrityOf } from '../core/encoding.js';
import {
  COLOUR_PROPERTIES,
  elementOf,
  fallbackOf,
  styleRuleOf,
  widgetSnippet,
  type WidgetSettings,
} from './snippet.js';
import { formOf, londonToday, studioChoices, type StudioOffer } from './studio-form.js';
import { originsOf } from './studio-origins.js';
import { profileSection, profileVenues, studioQuery, venuesNamed } from './studio-profile.js';
import { stepsOf } from './studio-steps.js';
import { googleStep } from './studio-google.js';
import { venuesAndGroups, withPartySizes } from './venue-data.js';
import { contactOf, profilesOf } from './venue-profile.js';
import { pluginLink } from './wordpress/wordpress.js';

/** The booking page's look and language in `choices`, as the query of its links (`?…`, or empty). */
function lookQuery(choices: WidgetSettings): string {
  const query = new URLSearchParams();
  if (choices.locale !== 'en-GB') query.set('locale', choices.locale);
  if (choices.theme !== 'light') query.set('theme', choices.theme);
  for (const [name, value] of Object.entries(choices.colours)) query.set(name, value);
  const search = query.toString();
  return search ? `?${search}` : '';
}

/** The venue or group a booking page is for: the group, else the first venue ticked. */
const pageId = (choices: WidgetSettings) => choices.group ?? choices.venues[0] ?? '';

/** The booking page's link for `choices`: its venue or group, with the look and language chosen. */
export function bookingLink(choices: WidgetSettings, base: string): string {
  return `${base}${pathOf(PATHS.bookingPage, { id: pageId(choices) })}${lookQuery(choices)}`;
}

/** The contrast warnings of `choices`, in plain words. */
function contrastOf(choices: WidgetSettings): string {
  const warnings = contrastWarnings(choices.colours, choices.theme);
  return warnings.map((warning) => `<p class="warning">${escapeHtml(contrastSentence(warning))}</p>`).join('');
}

/**
 * The booking page's link, its QR code, and the links to download the code: the files encode the
 * same link as the code shown (look and language included), as PNG and SVG.
 */
function linksOf(choices: WidgetSettings, base: string): string {
  const link = bookingLink(choices, base);
  const several = !choices.group && choices.venues.length > 1;
  const file = (path: string) => `${base}${pathOf(path, { id: pageId(choices) })}${lookQuery(choices)}`;
  return `<div id="links"><p>Guests can also book on your booking page, with no website needed: for your Instagram bio, your Google Business Profile’s booking button, newsletters, and a QR code on menus and table cards.</p>
<p><a id="booking-link" href="${escapeHtml(link)}">${escapeHtml(link)}</a>${several ? ' <span class="note">(for the first venue ticked; choose a group to let guests pick)</span>' : ''}</p>
<figure class="qr">${qrSvg(qrLink(link))}<figcaption class="note">The QR code of this link: it opens your booking page in your colours and language.</figcaption></figure>
<p><a id="qr-download-png" href="${escapeHtml(file(PATHS.bookingQrPng))}" download="booking-qr-code.png">Download QR code (PNG)</a> <a id="qr-download" href="${escapeHtml(file(PATHS.bookingQr))}" download="booking-qr-code.svg">Download QR code (SVG, sharp at any size for print)</a></p></div>`;
}

/** The studio page's HTML body. */
export function renderStudio(
  ctx: ProxyContext,
  parts: {
    choices: WidgetSettings;
    problems: string[];
    offer: StudioOffer;
    /** The address guests are given (pages/page.ts `openedAt`). */
    base: string;
    /** The address the studio was opened at: its own downloads are there. */
    here: string;
    snippet: string;
    preview: string | null;
    /** The "Your venue" part (pages/studio-profile.ts). */
    profile: string;
    /** The sites section (pages/studio-origins.ts), read from the lists before the page is drawn. */
    sites: string;
  },
): string {
  const { choices, problems, offer, base } = parts;
  const today = londonToday(ctx.config.now());
  const previewPart = parts.preview
    ? `<div id="preview" role="region" aria-label="Live preview">${parts.preview}</div><p>The preview draws in this page’s font; on your site the widget takes your page’s font.</p>`
    : '<div id="preview"><p class="problem">This booking service does not have the booking widget yet, so there is nothing to preview here. Your web person can fix it.</p><details><summary>For your web person</summary><p>The proxy serves no widget bundle: from a checkout, <code>npm run build</code>, then restart the proxy.</p></details></div>';
  const plugin = pluginLink(choices, parts.here);
  const tryIt = ctx.config.practice
    ? 'try it in the preview (practice mode: nothing booked here is real)'
    : 'try it in the preview (it books for real: cancel a test booking afterwards)';
  return `<header>${venueNav('studio')}
${practiceBanner(ctx.config.practice, 'Practice mode: bookings here are not real. This booking service is not connected to your live bookings yet.')}
<h1>Put the booking widget on your site</h1>
<p class="lead">Choose how it looks, ${tryIt}, then copy the code to paste into your site, or share your booking page’s link.</p></header>
<main><div class="grid studio">
<section aria-labelledby="choose"><h2 id="choose">Choose</h2>
<div id="problems" role="alert">${problems.length ? `<p class="problem">Left out: ${problems.map(escapeHtml).join('; ')}.</p>` : ''}</div>
${formOf(choices, offer, today, contrastOf(choices))}</section>
<section class="studio-preview" aria-labelledby="preview-title"><h2 id="preview-title">Preview</h2>${previewPart}${parts.preview ? TRACKING : ''}</section></div>
<section aria-labelledby="snippet-title"><div id="snippet-section"><h2 id="snippet-title"><label for="snippet">The code to paste into your site</label></h2>
<textarea id="snippet" readonly spellcheck="false">${escapeHtml(parts.snippet)}</textarea>
<p><button type="button" id="copy" class="secondary" hidden>Copy the code</button> <span id="copied" role="status"></span></p>
<details><summary>For your web person</summary><p>The HTML snippet to put on the venue’s pages: a <code>preconnect</code> to this proxy, a <code>modulepreload</code> and the module script, both with their Subresource Integrity hash, then the <code>&lt;venue-booking&gt;</code> element (and a <code>&lt;style&gt;</code> rule for the colours chosen). The site’s origin must be allowed (below) for the widget to book there.</p></details></div></section>
<section aria-labelledby="link-title"><h2 id="link-title">Your booking page and its QR code</h2>${linksOf(choices, base)}</section>
<section aria-labelledby="google-title"><h2 id="google-title">Put your booking page on Google</h2>${googleStep(choices, offer, base, (id) => bookingLink({ ...choices, group: null, venues: [id] }, base))}</section>
<section aria-labelledby="platforms"><h2 id="platforms">Where to paste it</h2><div id="steps">${stepsOf(plugin, bookingLink(choices, base))}</div></section>
<section aria-labelledby="venue-title"><h2 id="venue-title">Your venue</h2>${parts.profile}</section>
<section id="sites" aria-labelledby="origins"><h2 id="origins">Sites allowed to show your booking widget</h2>${parts.sites}</section>
</main>`;
}

/**
 * "Test your tracking", beside the preview: the studio's script lists each event the preview hands a
 * page's tags as it fires (its pushes to `dataLayer`, its calls to Meta's `fbq`; docs/events.md),
 * so a venue's web person sees what Tag Manager will get before setting it up. The preview runs
 * with `analytics` and `meta-pixel` on; the studio loads no script of Google's or Meta's, its
 * stand-in `fbq` only lists. Shown by the script with the first event, so it takes no room before.
 */
const TRACKING = `<div id="tracking" hidden><h3 id="tracking-title">Test your tracking</h3>
<p>Book in the preview: each event the widget hands your site’s tags (Google Tag Manager’s <code>dataLayer</code>, Meta’s pixel) appears here as it fires. A booking counts once: <code>purchase</code> when confirmed, <code>generate_lead</code> for an enquiry, with the booking’s reference. The preview has them on; to hand them to your site’s tags, add <code>analytics</code> (and <code>meta-pixel</code> for Meta’s pixel) to the code you paste.</p>
<ol id="tracking-events" aria-labelledby="tracking-title" aria-live="polite"></ol></div>`;

/** The query key of the preview's journey, which the studio's script sends with each redraw. */
const PREVIEW_KEY = 'preview';
const PREVIEW_TOKEN = /^[0-9a-f]{12}$/;
/** The widget's query key naming the widget a return from the booking site belongs to (src/state/session.ts). */
const RETURN_KEY = 'vb_return';

/**
 * The preview's `id`, which keys its journey in the tab's storage (docs: each instance keeps its
 * own journey): a token fresh at each load of the studio, so a reload starts a new test booking
 * instead of resuming the last one, kept by the studio's redraws (its script sends it back) and by
 * a return from the booking site (which names the id); then the venues, so another choice of venue
 * is another journey. Guests' widgets are untouched: they have no such id.
 */
function previewId(query: URLSearchParams, choices: WidgetSettings): string {
  const returned = /^preview-([0-9a-f]{12})-/.exec(query.get(RETURN_KEY) ?? '')?.[1];
  const asked = query.get(PREVIEW_KEY) ?? '';
  const token =
    returned ??
    (PREVIEW_TOKEN.test(asked)
      ? asked
      : [...crypto.getRandomValues(new Uint8Array(6))].map((byte) => byte.toString(16).padStart(2, '0')).join(''));
  return `preview-${token}-${choices.group ?? choices.venues.join('-')}`;
}

/** `GET /embed`: the studio. */
export async function studioPage(ctx: ProxyContext, c: Context): Promise<Response> {
  const url = urlOf(c.req.raw);
  const today = londonToday(ctx.config.now());
  const { venues, groups } = await venuesAndGroups(ctx);
  // The venue's saved look where the query says none (pages/studio-profile.ts).
  const query = await studioQuery(ctx, url.searchParams, { venues, groups }, today);
  const type = query.get('type');
  const offer = { venues: type ? await withPartySizes(ctx, venues, type, today) : venues, groups };
  const { choices, problems } = studioChoices(query, offer, today);
  // The address the snippet, the links and the QR code give guests: the public one, also when the
  // studio was opened on the operator port; its own files and forms stay where it was opened.
  const base = pagesBase(ctx.config, openedAt(ctx.config, c.req.raw, c.env));
  const script = ctx.config.widgetScript;
  const integrity = script ? await integrityOf(script) : null;
  const nonce = newNonce();
  const bookingPage = bookingLink(choices, base);
  const chosen = profileVenues(choices, groups);
  // The phone typed here wins; else the venue's own phone and email, as the booking page gives them.
  const contact = contactOf(await profilesOf(ctx, chosen));
  const fallback = fallbackOf(
    { link: choices.link, phone: choices.phone ?? contact.phone, email: contact.email, locale: choices.locale },
    bookingPage,
  );
  const style = styleRuleOf(choices.colours);
  const snippet = widgetSnippet(`${base}${PATHS.script}`, integrity, [
    ...(style ? [style] : []),
    elementOf(choices, `${base}${API_PREFIX}`, fallback),
  ]);
  const colours = Object.fromEntries(
    Object.entries(choices.colours).map(([name, value]) => [
      COLOUR_PROPERTIES[name as keyof typeof COLOUR_PROPERTIES],
      value,
    ]),
  );
  // The preview talks to this proxy as the page reached it (a relative `api`), so it works under
  // whatever address the studio was opened at, and its colours are set by the studio's script.
  const preview = script
    ? `${elementOf(choices, relativePath(API_PREFIX), fallback, ` id="${escapeHtml(previewId(url.searchParams, choices))}" analytics meta-pixel data-vb-style="${escapeHtml(JSON.stringify(colours))}"`)}
<script type="module" src="${relativePath(PATHS.script)}" integrity="${escapeHtml(integrity!)}" crossorigin="anonymous" nonce="${nonce}"></script>`
    : null;
  const kept = new URLSearchParams(url.searchParams);
  kept.delete(PREVIEW_KEY);
  const profile = await profileSection(ctx, venuesNamed(chosen, { venues, groups }), kept);
  const sites = await originsOf(ctx, kept);
  const here = pagesBase(ctx.config, url);
  const body = `${renderStudio(ctx, { choices, problems, offer, base, here, snippet, preview, profile, sites })}
<script type="module" src="${relativePath(PATHS.studioScript)}" nonce="${nonce}"></script>`;
  return pageResponse(body, {
    title: 'Your booking widget: choose, preview, copy',
    description:
      'Put the booking widget on your venue’s website: choose its look, try it, copy the code to paste or share your booking page.',
    nonce,
    // Its forms post here (pages/studio-sites.ts), which needs the page's origin named.
    referrer: 'same-origin',
  });
}
