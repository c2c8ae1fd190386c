/**
 * The WordPress plugin, handed out by the embed studio: `GET /embed/wordpress-plugin.zip?venue=<id>`
 * (several, or `?group=<id>`) with the studio's other choices in the same query (`pluginLink`),
 * behind the same door as `/embed` (pages/operator.ts). The zip holds the folder `venue-booking/` of
 * proxy/pages/wordpress/ (through the generated wordpress-files.ts), with three files written for
 * the download: `defaults.php`, pre-filled with this proxy's public address (`publicAddress`), the
 * chosen venues or group, the integrity hash of the widget script served now, the studio's look,
 * language, booking type and fallback, and the names of the venues and types (so WordPress shows
 * names, not ids); `words.php`, the fallback's words in each of the widget's languages, from
 * proxy/pages/words/ (the snippet says the same); and `admin/contrast.php`, the studio's contrast
 * check from colours.ts (the settings page says what the studio does). Zipped by fflate, which runs
 * alike in Node and an edge runtime.
 *
 * And `GET /site-check?origin=<origin>`, which the plugin's "Check this site" button asks from the
 * site's own admin page: whether the origin rule lets that site call the API. Public and read-only:
 * it answers from the configuration alone (no upstream call, no state), which any site can already
 * learn from the CORS headers of an API answer.
 */
import { strToU8, zipSync } from 'fflate';
import type { Context } from 'hono';
import { envelopeResponse, ProxyError } from '../../core/envelope.js';
import { urlOf } from '../../core/url.js';
import { requestSite, siteRule } from '../../guards/request-site.js';
import { ID_RE, isLoopback } from '../../guards/validate.js';
import type { ProxyContext } from '../../context.js';
import { integrityOf } from '../../core/encoding.js';
import { PATHS } from '../../paths.js';
import { AA_NON_TEXT, AA_TEXT, CONTRAST_WORDS, THEME_DEFAULTS } from '../colours.js';
import { openedAt } from '../page.js';
import { COLOUR_PROPERTIES, type ColourName, type WidgetSettings } from '../snippet.js';
import { londonToday, studioChoices, typesOf, type StudioOffer } from '../studio-form.js';
import { venuesAndGroups } from '../venue-data.js';
import { PAGE_LANGUAGES } from '../words/index.js';
import { WORDPRESS_FILES } from './wordpress-files.js';

/** The zip's entries' time: fixed, so one choice always gives the same bytes. */
const ZIP_TIME = new Date(Date.UTC(2026, 0, 1));

/** `value` as a PHP single-quoted string literal: in those, only `\\` and `'` are escaped (and must be). */
export function phpString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Words of the plugin's own (not a venue's data) that WordPress's translators can translate: written
 * as `__( '…', 'venue-booking' )`, which the plugin's text domain and `wp i18n make-pot` find.
 */
export class Translatable {
  /** `note`: what the placeholders are, for the translators (a `translators:` comment). */
  constructor(
    readonly text: string,
    readonly note = '',
  ) {}
}

/** A value the proxy writes into the plugin: a string, a number, words to translate, or such values by name (venue names by id). */
export type PhpValue = string | number | Translatable | { readonly [name: string]: PhpValue };

/** `value` as a PHP literal: a string, a number, a translation call, or an array of such by key. */
function phpValue(value: PhpValue, indent = '\t'): string {
  if (typeof value === 'string') return phpString(value);
  if (typeof value === 'number') return String(value);
  if (value instanceof Translatable) {
    const note = value.note ? `/* translators: ${value.note} */ ` : '';
    return `${note}__( ${phpString(value.text)}, 'venue-booking' )`;
  }
  const entries = Object.entries(value).map(
    ([key, item]) => `${indent}\t${phpString(key)} => ${phpValue(item, `${indent}\t`)},`,
  );
  return entries.length ? `array(\n${entries.join('\n')}\n${indent})` : 'array()';
}

/**
 * `file`'s `return array( … );` with `values` in its place. A replacer function, not a replacement
 * string: the values come from outside (the proxy's address is the request's Host without a public
 * URL), and `$&` or `` $` `` in a replacement string would splice the file's own text into the PHP.
 */
function withValues(file: string, values: Readonly<Record<string, PhpValue>>): string {
  return withLiterals(
    file,
    Object.entries(values).map(([name, value]) => [name, phpValue(value)]),
  );
}

/** `file`'s `return array( … );` with these names and PHP literals in its place. */
function withLiterals(file: string, entries: [string, string][]): string {
  const lines = entries.map(([name, literal]) => `\t${phpString(name)} => ${literal},`);
  return file.replace(/return array\([\s\S]*?\n\);/, () => `return array(\n${lines.join('\n')}\n);`);
}

/**
 * The plugin's `defaults.php` for these values: every setting the source's defaults.php lists, in
 * its order, each of `values` in place of the source's default. That file is the one list of the
 * settings' names and defaults (widget.php reads the settings from it alone), so every download
 * holds them all; a value it does not list is a mistake here.
 */
export function defaultsFile(values: Readonly<Record<string, PhpValue>>): string {
  const source = WORDPRESS_FILES['venue-booking/defaults.php']!;
  const listed = new Map([...source.matchAll(/^\t'(\w+)'\s*=>\s*(.*),$/gm)].map((match) => [match[1]!, match[2]!]));
  const unlisted = Object.keys(values).filter((name) => !listed.has(name));
  if (unlisted.length) throw new Error(`defaults.php lists no ${unlisted.join(', ')}`);
  return withLiterals(
    source,
    [...listed].map(([name, literal]) => [name, name in values ? phpValue(values[name]!) : literal]),
  );
}

/** The plugin's `words.php`: the fallback's words (pages/words/) by the language's primary tag. */
export function wordsFile(): string {
  const words = Object.fromEntries([...PAGE_LANGUAGES].map(([language, page]) => [language, page.fallback]));
  return withValues(WORDPRESS_FILES['venue-booking/words.php']!, words);
}

/**
 * The plugin's `admin/contrast.php`: the studio's contrast check (colours.ts) as the settings page
 * runs it, the widget's colours by theme under the settings' names, the least contrast of each
 * pair, and the studio's words, for WordPress to translate as the rest of the plugin's words.
 */
export function contrastFile(): string {
  const theme = (name: keyof typeof THEME_DEFAULTS) => ({
    accent: THEME_DEFAULTS[name].accent,
    accent_text: THEME_DEFAULTS[name].accentText,
    background: THEME_DEFAULTS[name].surface,
  });
  return withValues(WORDPRESS_FILES['venue-booking/admin/contrast.php']!, {
    themes: { light: theme('light'), dark: theme('dark') },
    checks: {
      text: { needed: AA_TEXT, ...translatable(CONTRAST_WORDS.text) },
      outline: { needed: AA_NON_TEXT, ...translatable(CONTRAST_WORDS.outline) },
    },
    sentence: new Translatable(
      CONTRAST_WORDS.sentence,
      '1: light or dark, 2: what is hard to see, 3: its contrast ratio, 4: the least it needs, 5: what to do.',
    ),
  });
}

/** Each of `words` as words to translate. */
function translatable(words: Readonly<Record<string, string>>): Record<string, Translatable> {
  return Object.fromEntries(Object.entries(words).map(([name, text]) => [name, new Translatable(text)]));
}

/**
 * The plugin's address for the studio's `choices`: the venues or group, and what the plugin keeps
 * of the rest (look, language, booking type, fallback), as the studio's own link would carry them.
 */
export function pluginLink(choices: WidgetSettings, base: string): string {
  const query = new URLSearchParams();
  if (choices.group) query.set('group', choices.group);
  else query.set('venue', choices.venues.join(','));
  if (choices.theme !== 'light') query.set('theme', choices.theme);
  if (choices.locale !== 'en-GB') query.set('locale', choices.locale);
  for (const [name, value] of Object.entries(choices.colours)) query.set(name, value);
  if (choices.type) query.set('type', choices.type);
  if (choices.link) query.set('link', choices.link);
  if (choices.phone) query.set('phone', choices.phone);
  return `${base}${PATHS.wordpressPlugin}?${query}`;
}

/**
 * Defaults a venue profile gives where the studio's link chose nothing: its `phone` and its `look`
 * (state/venue-profiles.ts `VenueProfile`, mapped to the studio's names).
 */
export type ProfileDefaults = Partial<Pick<WidgetSettings, 'theme' | 'locale' | 'type' | 'link' | 'phone' | 'colours'>>;

/** The defaults of the first venue's profile (a group's download takes none: its venues differ). */
async function profileDefaults(ctx: ProxyContext, venues: string): Promise<ProfileDefaults> {
  const first = venues.split(',')[0];
  const profile = first ? await ctx.profiles.get(first) : null;
  if (!profile) return {};
  const { look } = profile;
  return {
    ...(look.theme ? { theme: look.theme } : {}),
    ...(look.locale ? { locale: look.locale } : {}),
    ...(look.booking_type ? { type: look.booking_type } : {}),
    ...(profile.phone ? { phone: profile.phone } : {}),
    colours: look.colours,
  };
}

/** The query's names the plugin keeps beside the venues, and whether the checked `choices` kept the value asked. */
const KEPT: Record<string, (choices: WidgetSettings, asked: string) => boolean> = {
  theme: (choices, asked) => choices.theme === asked,
  locale: (choices, asked) => choices.locale === asked,
  type: (choices, asked) => choices.type === asked,
  link: (choices) => choices.link !== null,
  phone: (choices) => choices.phone !== null,
  ...Object.fromEntries(
    (Object.keys(COLOUR_PROPERTIES) as ColourName[]).map((name) => [
      name,
      (choices: WidgetSettings, asked: string) => choices.colours[name] === asked.toLowerCase(),
    ]),
  ),
};

/**
 * The plugin's look, language, booking type and fallback: the studio's choices as the studio
 * checks them (a value it would leave out is refused here, naming its parameter), over `profile`
 * where the query names nothing.
 */
function lookOf(
  query: URLSearchParams,
  offer: StudioOffer,
  today: string,
  profile: ProfileDefaults = {},
): Record<string, string> {
  const { choices } = studioChoices(query, offer, today);
  const refusedNames = Object.keys(KEPT).filter((name) => {
    const asked = query.get(name)?.trim();
    return asked && !KEPT[name]!(choices, asked);
  });
  if (refusedNames.length) {
    const message = 'Not one of the studio’s choices';
    throw new ProxyError(400, message, {
      errors: refusedNames.map((name) => ({ code: 'invalid_parameter', message, fields: [name] })),
    });
  }
  const named = (name: string) => Boolean(query.get(name)?.trim());
  const colour = (name: ColourName) => choices.colours[name] ?? profile.colours?.[name] ?? '';
  return {
    theme: named('theme') ? choices.theme : (profile.theme ?? choices.theme),
    // Unasked (the studio's English leaves it out of its links): the site's language (widget.php).
    locale: named('locale') ? choices.locale : (profile.locale ?? ''),
    type: choices.type ?? profile.type ?? '',
    accent: colour('accent'),
    accent_text: colour('accent-text'),
    background: colour('background'),
    text: colour('text'),
    link: choices.link ?? profile.link ?? '',
    phone: choices.phone ?? profile.phone ?? '',
  };
}

/** A 400 or 404 in the service's envelope, naming the query parameter. */
function refused(status: 400 | 404, code: string, message: string, field: string): ProxyError {
  return new ProxyError(status, message, { errors: [{ code, message, fields: [field] }] });
}

/** The venues or the group a download is for, each allowed here; a ProxyError otherwise. */
async function chosen(ctx: ProxyContext, query: URLSearchParams): Promise<{ venues: string; group: string }> {
  const venues = query
    .getAll('venue')
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
  const group = query.get('group')?.trim() ?? '';
  if (venues.length && group) throw refused(400, 'invalid_parameter', 'Choose venues or a group, not both', 'group');
  if (group) {
    if (!ID_RE.test(group) || !ctx.config.venueGroups.includes(group))
      throw refused(404, 'unknown_venue_group', 'This venue group is not available here', 'group');
    return { venues: '', group };
  }
  if (!venues.length) throw refused(400, 'missing_parameter', 'Choose a venue (?venue=) or a group (?group=)', 'venue');
  if (venues.length > 20) throw refused(400, 'invalid_parameter', 'At most 20 venues', 'venue');
  for (const venue of venues) {
    if (!ID_RE.test(venue) || !(await ctx.venueAllowed(venue)))
      throw refused(404, 'unknown_venue', 'This venue is not available here', 'venue');
  }
  return { venues: venues.join(','), group: '' };
}

/** The proxy's address for a site; a loopback one as the studio was opened at (`localhost`, `127.0.0.1`: two sites). */
function publicAddress(configured: string | null, url: URL): string {
  if (!configured) return url.origin;
  const base = new URL(configured);
  if (isLoopback(base.hostname) && isLoopback(url.hostname)) return `${url.origin}${base.pathname.replace(/\/+$/, '')}`;
  return configured;
}

/** `GET /embed/wordpress-plugin.zip`: the plugin, pre-filled with the studio's choices for the chosen venues or group. */
export async function wordpressPlugin(ctx: ProxyContext, c: Context): Promise<Response> {
  const url = urlOf(c.req.raw);
  const { venues, group } = await chosen(ctx, url.searchParams);
  const offer = await venuesAndGroups(ctx);
  const look = lookOf(url.searchParams, offer, londonToday(ctx.config.now()), await profileDefaults(ctx, venues));
  // Every venue this proxy books for by name, so the settings can offer them by name; a group's too.
  const names: Record<string, string> = {};
  for (const venue of [...offer.venues, ...(offer.groups.find((item) => item.id === group)?.venues ?? [])])
    if (venue.title) names[venue.id] = venue.title;
  const types = Object.fromEntries(
    typesOf(offer, venues ? venues.split(',') : [], group || null).map((type) => [type.id, type.label]),
  );
  const script = ctx.config.widgetScript;
  const defaults = defaultsFile({
    proxy: publicAddress(ctx.config.publicBase, openedAt(ctx.config, c.req.raw, c.env)),
    venues,
    group,
    integrity: script ? await integrityOf(script) : '',
    ...look,
    names,
    types,
  });
  const entries = Object.fromEntries(
    Object.entries({
      ...WORDPRESS_FILES,
      'venue-booking/defaults.php': defaults,
      'venue-booking/words.php': wordsFile(),
      'venue-booking/admin/contrast.php': contrastFile(),
    }).map(([path, text]) => [path, strToU8(text)]),
  );
  const zip = zipSync(entries, { level: 6, mtime: ZIP_TIME });
  return new Response(zip, {
    status: 200,
    headers: {
      'content-type': 'application/zip',
      'content-disposition': 'attachment; filename="venue-booking.zip"',
      'content-length': String(zip.byteLength),
      'cache-control': 'no-store',
    },
  });
}

/** An origin as a page sends it (`https://example.com[:port]`), or null. */
function originOf(value: string): string | null {
  if (value.length > 200) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value ? value : null;
  } catch {
    return null;
  }
}

/** `GET /site-check?origin=`: whether a site may show the widget, and the script's integrity hash now. */
export async function siteCheck(ctx: ProxyContext, c: Context): Promise<Response> {
  const url = urlOf(c.req.raw);
  const named = url.searchParams.get('origin');
  const site = named === null ? requestSite((name) => c.req.header(name) ?? null) : named;
  const origin = typeof site === 'string' ? originOf(site) : null;
  if (!origin)
    throw refused(400, 'invalid_parameter', 'Name the site as an origin, like https://www.example.com', 'origin');
  const script = ctx.config.widgetScript;
  const payload = {
    origin,
    allowed: siteRule(ctx.config, new Set(), ctx.allowedSites).siteAllowed(origin, url),
    integrity: script ? await integrityOf(script) : null,
  };
  return envelopeResponse(c.req.raw, 200, payload, {
    'access-control-allow-origin': '*',
    'cache-control': 'no-store',
  });
}
