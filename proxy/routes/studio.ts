/**
 * The embed studio at `GET /embed`, for the venue's staff who put the widget on the venue's site:
 * a form (venues, inline or popup, theme and colours, language, step order, prefill, the fallback
 * link), a live preview of the real widget served by this proxy and booking through it, the one
 * snippet to paste, short steps for the usual site builders, and the sites that recently loaded
 * the widget, refused ones with the setting that lets them in.
 *
 * The page is rendered here from the query, every value checked against what the proxy allows
 * (its venues and groups, the widget's modes, themes, locales and fields, colour and date
 * shapes) and escaped; whatever else is typed is ignored and said so. The studio never fetches a
 * URL a user types: the fallback link only goes into the snippet's text. Its one script
 * (`/embed/studio.js`, run with the answer's nonce) only improves the page: it applies the colours
 * to the preview, redraws the preview and snippet as the form changes (by asking this page again),
 * and copies the snippet. Nothing of it is in the widget's bundle.
 */
import { PATHS } from './paths.js';
import type { Context } from 'hono';
import { urlOf } from '../core/url.js';
import { ID_RE } from '../guards/validate.js';
import type { ProxyContext } from './context.js';
import { escapeHtml, newNonce, pageResponse } from './page.js';
import { readThrough, type ReadCall } from './read-through.js';
import { PUBLIC_SETTINGS } from './reads.js';
import { integrityOf } from './script.js';

/** The widget's locales (src/i18n: en-GB built in, the others loaded on demand). */
export const LOCALES: Record<string, string> = {
  'en-GB': 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  nl: 'Nederlands',
};

/** Step orders a venue may pick (the widget's `steps`: the fields it asks first, the rest in its order). */
export const STEP_ORDERS: Record<string, string> = {
  '': 'Type, day, time, party size (default)',
  'num_people,type,date,time': 'Party size first',
  'date,type,time,num_people': 'Day first',
  'date,time,type,num_people': 'Day and time first',
};

/** The colours the studio sets, as the widget's custom properties. */
export const COLOURS: Record<string, { property: string; label: string; placeholder: string }> = {
  accent: { property: '--vb-accent', label: 'Accent (chosen values, main button)', placeholder: '#1f5f8b' },
  'accent-text': { property: '--vb-accent-text', label: 'Text on the accent', placeholder: '#ffffff' },
  background: { property: '--vb-background', label: 'Background', placeholder: 'transparent' },
  text: { property: '--vb-text', label: 'Text', placeholder: 'the page’s' },
};

const COLOUR_RE = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const DATE_RE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;
const TIME_RE = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const PHONE_RE = /^\+?[0-9][0-9 ()-]{4,24}$/;

/** What the studio's form chose, every value allowed. */
export interface StudioChoices {
  /** Venue ids (one, or several in a picker), or a venue group's id. */
  venues: string[];
  group: string | null;
  mode: 'inline' | 'popup';
  theme: 'light' | 'dark' | 'auto';
  locale: string;
  steps: string;
  /** Colours by `COLOURS` key. */
  colours: Record<string, string>;
  type: string | null;
  date: string | null;
  time: string | null;
  numPeople: number | null;
  /** The fallback: the venue's own booking page and phone number. */
  link: string | null;
  phone: string | null;
}

/** The venues and groups the studio offers: the proxy's own allow-list. */
export interface StudioOffer {
  venues: readonly string[];
  groups: readonly string[];
  /** The venues' names, where known. */
  titles?: ReadonlyMap<string, string>;
}

/**
 * The names of the configured venues, for people: each venue's public record, read as the widget
 * reads it (`GET /api/venues/{id}`, shared for an hour through the cache), so the studio costs at
 * most one upstream call per venue an hour. A name that cannot be read now is left out.
 */
async function venueTitles(ctx: ProxyContext): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  await Promise.all(
    ctx.config.venues.slice(0, 50).map(async (venue) => {
      const call: ReadCall<unknown> = {
        path: PATHS.venue.replace(':venue', venue),
        method: 'GET',
        client: () => 'embed-studio',
        waitUntil: () => {},
        send: (relayed) => (relayed.status < 300 ? JSON.parse(relayed.text)?.payload?.venue?.title : undefined),
      };
      const title = await readThrough(ctx, call, {
        method: 'GET',
        path: `/venues/${venue}`,
        values: { fields: PUBLIC_SETTINGS.join(',') },
        shape: (payload) => ({ venue: { title: (payload as { venue?: { title?: unknown } } | null)?.venue?.title } }),
        tier: 'static',
      }).catch(() => undefined);
      if (typeof title === 'string' && title) titles.set(venue, title.slice(0, 100));
    }),
  );
  return titles;
}

/** The form's choices from the query; what is not allowed is left out, and named in `problems`. */
export function studioChoices(
  query: URLSearchParams,
  offer: StudioOffer,
): { choices: StudioChoices; problems: string[] } {
  const problems: string[] = [];
  const one = (name: string) => query.get(name)?.trim() ?? '';
  const pick = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const value = one(name);
    if (!value) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    problems.push(`${name}: not one of the choices`);
    return fallback;
  };
  const shaped = (name: string, shape: RegExp, what: string) => {
    const value = one(name);
    if (!value) return null;
    if (shape.test(value)) return value;
    problems.push(`${name}: ${what}`);
    return null;
  };
  const venues = query.getAll('venue').filter((venue) => offer.venues.includes(venue));
  if (query.getAll('venue').length > venues.length) problems.push('venue: only the venues this proxy serves');
  const group = one('group') ? pick('group', offer.groups, '' as string) || null : null;
  const colours: Record<string, string> = {};
  for (const name of Object.keys(COLOURS)) {
    const colour = shaped(name, COLOUR_RE, 'a colour like #1f5f8b');
    if (colour) colours[name] = colour.toLowerCase();
  }
  const people = one('num-people');
  const numPeople = /^\d{1,3}$/.test(people) && Number(people) >= 1 ? Number(people) : null;
  if (people && numPeople === null) problems.push('num-people: a whole number of guests');
  let link = one('link') || null;
  if (link) {
    let url: URL | null = null;
    try {
      url = new URL(link);
    } catch {
      // Reported below.
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || link.length > 500) {
      problems.push('link: an http(s) address of your booking page');
      link = null;
    } else link = url.href;
  }
  return {
    choices: {
      venues: venues.length || group ? venues : offer.venues.slice(0, 1),
      group,
      mode: pick('mode', ['inline', 'popup'] as const, 'inline'),
      theme: pick('theme', ['light', 'dark', 'auto'] as const, 'light'),
      locale: pick('locale', Object.keys(LOCALES), 'en-GB'),
      steps: pick('steps', Object.keys(STEP_ORDERS), ''),
      colours,
      type: shaped('type', ID_RE, 'a booking type id'),
      date: shaped('date', DATE_RE, 'a date like 2026-05-01'),
      time: shaped('time', TIME_RE, 'a time like 19:30'),
      numPeople,
      link,
      phone: shaped('phone', PHONE_RE, 'a phone number like +44 20 7946 0000'),
    },
    problems,
  };
}

/** The element's attributes for `choices`, with `api` as given; defaults left out. */
function attributesOf(choices: StudioChoices, api: string): [string, string][] {
  const attributes: [string, string][] = choices.group
    ? [['venue-group', choices.group]]
    : [['venue', choices.venues.join(',')]];
  attributes.push(['api', api]);
  if (choices.mode !== 'inline') attributes.push(['mode', choices.mode]);
  if (choices.theme !== 'light') attributes.push(['theme', choices.theme]);
  if (choices.locale !== 'en-GB') attributes.push(['locale', choices.locale]);
  if (choices.steps) attributes.push(['steps', choices.steps]);
  if (choices.type) attributes.push(['type', choices.type]);
  if (choices.date) attributes.push(['date', choices.date]);
  if (choices.time) attributes.push(['time', choices.time]);
  if (choices.numPeople !== null) attributes.push(['num-people', String(choices.numPeople)]);
  return attributes;
}

/** The light-DOM fallback: shown where the script cannot run, and under an error. */
function fallbackOf(choices: StudioChoices): string {
  const link = choices.link ? `<a href="${escapeHtml(choices.link)}">book on our booking page</a>` : '';
  const phone = choices.phone
    ? `call <a href="tel:${escapeHtml(choices.phone.replace(/[^+0-9]/g, ''))}">${escapeHtml(choices.phone)}</a>`
    : '';
  if (!link && !phone) return '<p>To book a table, please get in touch with us.</p>';
  return `<p>Please ${[link, phone].filter(Boolean).join(' or ')}.</p>`;
}

/** The `<venue-booking>` element for `choices`. */
function elementOf(choices: StudioChoices, api: string, extra = ''): string {
  const attributes = attributesOf(choices, api)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<venue-booking${attributes}${extra}>\n  ${fallbackOf(choices)}\n</venue-booking>`;
}

/**
 * The snippet a venue pastes: a preconnect to the proxy, the script tag with its integrity hash,
 * the colours (a style rule; a site with a strict CSP puts it in its own stylesheet), and the
 * element with its fallback inside.
 */
export function snippetOf(choices: StudioChoices, base: string, integrity: string | null): string {
  const origin = new URL(base).origin;
  const lines = [`<link rel="preconnect" href="${escapeHtml(origin)}" crossorigin>`];
  const sri = integrity ? ` integrity="${escapeHtml(integrity)}"` : '';
  lines.push(
    `<script type="module" src="${escapeHtml(base)}/venue-booking.js"${sri} crossorigin="anonymous"></script>`,
  );
  const colours = Object.entries(choices.colours).map(([name, value]) => `${COLOURS[name]!.property}: ${value};`);
  if (colours.length) lines.push(`<style>venue-booking { ${colours.join(' ')} }</style>`);
  lines.push(elementOf(choices, `${base}/api`));
  return lines.join('\n');
}

const checked = (on: boolean) => (on ? ' checked' : '');
const selected = (on: boolean) => (on ? ' selected' : '');
const when = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  day: 'numeric',
  month: 'short',
});

/** The form. */
function formOf(choices: StudioChoices, offer: StudioOffer): string {
  const radios = (name: string, values: Record<string, string>, current: string) =>
    Object.entries(values)
      .map(
        ([value, label]) =>
          `<label class="choice"><input type="radio" name="${name}" value="${escapeHtml(value)}"${checked(value === current)}> ${escapeHtml(label)}</label>`,
      )
      .join('');
  const venues = offer.venues
    .map(
      (venue) =>
        `<label><input type="checkbox" name="venue" value="${escapeHtml(venue)}"${checked(!choices.group && choices.venues.includes(venue))}> ${offer.titles?.has(venue) ? `${escapeHtml(offer.titles.get(venue))} ` : 'Venue '}<code>${escapeHtml(venue)}</code></label>`,
    )
    .join('');
  const groups = offer.groups.length
    ? `<label>Or every venue of a group <select name="group"><option value="">No group</option>${offer.groups
        .map(
          (group) =>
            `<option value="${escapeHtml(group)}"${selected(group === choices.group)}>Group ${escapeHtml(group)}</option>`,
        )
        .join('')}</select></label>`
    : '';
  const text = (name: string, label: string, value: string | null, type = 'text', extra = '') =>
    `<label>${label} <input type="${type}" name="${name}" value="${escapeHtml(value ?? '')}"${extra}></label>`;
  return `<form id="studio-form" action="embed" method="get">
<fieldset><legend>Venue</legend><p class="note">Tick several to let guests choose between them.</p>${venues}${groups}</fieldset>
<fieldset><legend>Look</legend>
<p>Shown as: ${radios('mode', { inline: 'On the page', popup: 'A button that opens it' }, choices.mode)}</p>
<p>Theme: ${radios('theme', { light: 'Light', dark: 'Dark', auto: 'Follows the visitor’s setting' }, choices.theme)}</p>
${Object.entries(COLOURS)
  .map(([name, colour]) =>
    text(
      name,
      `${colour.label}`,
      choices.colours[name] ?? null,
      'text',
      ` placeholder="${escapeHtml(colour.placeholder)}" pattern="#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})" size="9"`,
    ),
  )
  .join('')}
</fieldset>
<fieldset><legend>Language and steps</legend>
<label>Language <select name="locale">${Object.entries(LOCALES)
    .map(([code, name]) => `<option value="${code}"${selected(code === choices.locale)}>${escapeHtml(name)}</option>`)
    .join('')}</select></label>
<label>Order of the steps <select name="steps">${Object.entries(STEP_ORDERS)
    .map(([order, name]) => `<option value="${order}"${selected(order === choices.steps)}>${escapeHtml(name)}</option>`)
    .join('')}</select></label>
</fieldset>
<fieldset><legend>Prefill (optional)</legend>
${text('type', 'Booking type id', choices.type, 'text', ' size="26"')}
${text('date', 'Day', choices.date, 'date')}
${text('time', 'Time', choices.time, 'time')}
${text('num-people', 'Party size', choices.numPeople === null ? null : String(choices.numPeople), 'number', ' min="1" max="500"')}
</fieldset>
<fieldset><legend>Where the widget cannot run</legend><p class="note">Shown to visitors without JavaScript, and under an error.</p>
${text('link', 'Your booking page', choices.link, 'url', ' placeholder="https://…" size="40"')}
${text('phone', 'Your phone number', choices.phone, 'tel', ' placeholder="+44 20 7946 0000"')}
</fieldset>
<button type="submit">Update the preview</button>
</form>`;
}

/**
 * The sites requests recently claimed to come from (state/recent-origins.ts: canonical origins,
 * each kind bounded apart), and what to do about a refused one: a settings line the proxy starts
 * with, since every origin listed is canonical, as the settings keep theirs.
 */
function originsOf(ctx: ProxyContext): string {
  const sites = ctx.recentOrigins.list();
  const configured = ctx.config.origins;
  const current = configured.length
    ? `<p>Sites allowed now (<code>VENUE_BOOKING_ORIGINS</code>): ${configured.map((origin) => `<code>${escapeHtml(origin)}</code>`).join(', ')}.</p>`
    : '<p>No site is allowed yet besides this proxy’s own pages: <code>VENUE_BOOKING_ORIGINS</code> is empty.</p>';
  if (!sites.length) return `${current}<p class="note">No site has loaded the widget since this proxy started.</p>`;
  const fix = (origin: string) =>
    origin === 'null'
      ? 'A page in a sandboxed frame or opened from a file has no origin: serve the page from its website.'
      : `If it is your site, add it to <code>VENUE_BOOKING_ORIGINS</code> and restart the proxy: <code>VENUE_BOOKING_ORIGINS=${escapeHtml([...configured, origin].join(','))}</code>`;
  const rows = sites
    .map(
      (site) =>
        `<tr><th scope="row"><code>${escapeHtml(site.origin)}</code></th><td class="${site.allowed ? 'allowed' : 'refused'}">${site.allowed ? 'Allowed' : 'Refused'}</td><td>${site.requests}</td><td>${escapeHtml(when.format(site.lastSeen))}</td><td>${site.allowed ? '' : fix(site.origin)}</td></tr>`,
    )
    .join('');
  return `${current}<table id="origins-table"><caption class="note">What requests to this instance claimed (their Origin or Referer header, which any client can write: an entry is a claim, not proof of a visit; the latest ${sites.length}, refused ones never push out allowed ones).</caption><thead><tr><th scope="col">Site</th><th scope="col">Widget</th><th scope="col">Requests</th><th scope="col">Last seen (London)</th><th scope="col">Fix</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** Short steps per site builder. */
const PLATFORMS = `<h3>A plain website</h3><ol><li>Paste the snippet where the widget should appear, in the page’s HTML.</li><li>Add the site’s address (like <code>https://www.example.com</code>) to <code>VENUE_BOOKING_ORIGINS</code>.</li></ol>
<h3>WordPress (Custom HTML block)</h3><ol><li>Edit the page, add a block (+) and choose <em>Custom HTML</em>.</li><li>Paste the snippet, then <em>Update</em>. (WordPress.com runs scripts only on plans with plugins.)</li></ol>
<h3>Squarespace (Code Block)</h3><ol><li>Edit the page, add a block and choose <em>Code</em>; keep the mode on HTML and untick <em>Display Source</em>.</li><li>Paste the snippet and save. (Scripts in Code Blocks need a Business plan or higher.)</li></ol>
<h3>Wix (Custom Element)</h3><ol><li>Add → Embed Code → <em>Custom Element</em>; choose <em>Server URL</em> and enter the script’s address from the snippet; tag name <code>venue-booking</code>.</li><li>Set its attributes (<code>venue</code>, <code>api</code>, and the others in the snippet) under <em>Set attributes</em>, or from Velo with <code>setAttribute</code>.</li><li>Wix cannot check the script’s integrity hash; the rest works the same.</li></ol>
<h3>Google Tag Manager</h3><ol><li>New tag → <em>Custom HTML</em>; paste the snippet; fire it on the pages where guests book.</li><li>Tag Manager adds it at the end of the page: choose <em>A button that opens it</em> above, so the widget opens as a dialog wherever it lands.</li></ol>
<p class="note">Whichever you use, the site’s address must be in <code>VENUE_BOOKING_ORIGINS</code>: the table below shows whether the proxy let it in.</p>`;

/** The studio page's HTML body. */
export async function renderStudio(
  ctx: ProxyContext,
  choices: StudioChoices,
  problems: string[],
  snippet: string,
  preview: string | null,
): Promise<string> {
  const offer = { venues: ctx.config.venues, groups: ctx.config.venueGroups, titles: await venueTitles(ctx) };
  const previewPart = preview
    ? `<div id="preview" role="region" aria-label="Live preview">${preview}</div><p>The preview draws in this page’s font; on your site the widget takes your page’s font.</p>`
    : '<div id="preview"><p class="problem">This proxy does not serve the widget’s script (<code>/venue-booking.js</code>), so there is nothing to preview here. From a checkout, run <code>npm run build</code> and restart the proxy.</p></div>';
  return `<header><nav aria-label="Operator pages"><a href="status">Status</a><a href="embed" aria-current="page">Embed studio</a><a href="metrics">Metrics (Prometheus)</a></nav>
<h1>Put the booking widget on your site</h1>
<p class="lead">Choose how it looks, try it in the preview (bookings made there are real), then copy the snippet into your site.</p></header>
<main><div class="grid">
<section aria-labelledby="choose"><h2 id="choose">Choose</h2>
<div id="problems" role="alert">${problems.length ? `<p class="problem">Left out: ${problems.map(escapeHtml).join('; ')}.</p>` : ''}</div>
${formOf(choices, offer)}</section>
<section aria-labelledby="preview-title"><h2 id="preview-title">Preview</h2>${previewPart}
<div id="snippet-section"><h2><label for="snippet">Your snippet</label></h2>
<textarea id="snippet" readonly spellcheck="false">${escapeHtml(snippet)}</textarea>
<p><button type="button" id="copy" class="secondary" hidden>Copy the snippet</button> <span id="copied" role="status"></span></p></div>
</section></div>
<section aria-labelledby="platforms"><h2 id="platforms">Where to paste it</h2>${PLATFORMS}</section>
<section aria-labelledby="origins"><h2 id="origins">Sites that loaded the widget</h2>${originsOf(ctx)}</section>
</main>`;
}

/** `GET /embed`: the studio. */
export async function studioPage(ctx: ProxyContext, c: Context): Promise<Response> {
  const url = urlOf(c.req.raw);
  const offer = { venues: ctx.config.venues, groups: ctx.config.venueGroups };
  const { choices, problems } = studioChoices(url.searchParams, offer);
  const base = ctx.config.publicBase ?? url.origin;
  const script = ctx.config.widgetScript;
  const integrity = script ? await integrityOf(script) : null;
  const nonce = newNonce();
  const colours = Object.fromEntries(
    Object.entries(choices.colours).map(([name, value]) => [COLOURS[name]!.property, value]),
  );
  // The preview talks to this proxy as the page reached it (a relative `api`), so it works under
  // whatever address the operator opened, and its colours are set by the studio's script.
  const preview = script
    ? `${elementOf(choices, 'api', ` data-vb-style="${escapeHtml(JSON.stringify(colours))}"`)}
<script type="module" src="venue-booking.js" integrity="${escapeHtml(integrity!)}" crossorigin="anonymous" nonce="${nonce}"></script>`
    : null;
  const body = `${await renderStudio(ctx, choices, problems, snippetOf(choices, base, integrity), preview)}
<script type="module" src="embed/studio.js" nonce="${nonce}"></script>`;
  return pageResponse(body, { title: 'Embed studio: venue booking widget', nonce });
}

/**
 * The studio's script: applies the preview's colours (a strict CSP allows styles set from script,
 * not in markup), redraws the preview and the snippet when the form changes by asking this page
 * again (no reload, so focus stays in the form), and copies the snippet. Plain JavaScript served
 * as it is, so no build step sits between this file and the browser.
 */
export const STUDIO_SCRIPT = `
const form = document.getElementById('studio-form');
const paint = () => {
  for (const element of document.querySelectorAll('#preview venue-booking[data-vb-style]')) {
    for (const [name, value] of Object.entries(JSON.parse(element.dataset.vbStyle))) element.style.setProperty(name, value);
  }
};
const wire = () => {
  const copy = document.getElementById('copy');
  const said = document.getElementById('copied');
  const snippet = document.getElementById('snippet');
  copy.hidden = false;
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(snippet.value);
      said.textContent = 'Copied: paste it where the widget should appear.';
    } catch {
      snippet.focus();
      snippet.select();
      said.textContent = 'Selected: press Ctrl+C (or Cmd+C) to copy it.';
    }
  });
};
let timer = 0;
let inFlight = null;
const redraw = async () => {
  inFlight?.abort();
  inFlight = new AbortController();
  const query = new URLSearchParams(new FormData(form)).toString();
  const response = await fetch(form.getAttribute('action') + '?' + query, { signal: inFlight.signal });
  if (!response.ok) return;
  const next = new DOMParser().parseFromString(await response.text(), 'text/html');
  for (const id of ['problems', 'snippet-section']) {
    const fresh = next.getElementById(id);
    if (fresh) document.getElementById(id).replaceWith(document.importNode(fresh, true));
  }
  const element = next.querySelector('#preview venue-booking');
  if (element) document.querySelector('#preview venue-booking').replaceWith(document.importNode(element, true));
  history.replaceState(null, '', '?' + query);
  paint();
  wire();
};
const later = () => {
  clearTimeout(timer);
  timer = setTimeout(() => redraw().catch(() => {}), 250);
};
form.addEventListener('change', later);
form.addEventListener('submit', (event) => {
  event.preventDefault();
  redraw().catch(() => form.submit());
});
paint();
wire();
`;
