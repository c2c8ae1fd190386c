/**
 * The WordPress plugin, handed out by the embed studio: `GET /embed/wordpress-plugin.zip?venue=<id>`
 * (or `?group=<id>`), behind the same door as `/embed` (pages/operator.ts). The zip holds the folder
 * `venue-booking/` of proxy/pages/wordpress/ (through the generated wordpress-files.ts), with its
 * `defaults.php` pre-filled: this proxy's public address (`publicAddress`), the chosen venue or
 * group, and the integrity hash of the widget script served now. Zipped by fflate, which runs
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
import { WORDPRESS_FILES } from './wordpress-files.js';

/** The zip's entries' time: fixed, so one choice always gives the same bytes. */
const ZIP_TIME = new Date(Date.UTC(2026, 0, 1));

/** `value` as a PHP single-quoted string literal. */
export function phpString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The plugin's `defaults.php` for these values. */
export function defaultsFile(values: { proxy: string; venues: string; group: string; integrity: string }): string {
  const lines = Object.entries(values).map(([name, value]) => `\t${phpString(name)} => ${phpString(value)},`);
  return WORDPRESS_FILES['venue-booking/defaults.php']!.replace(
    /return array\([\s\S]*?\);/,
    `return array(\n${lines.join('\n')}\n);`,
  );
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

/** `GET /embed/wordpress-plugin.zip`: the plugin, pre-filled for the chosen venues or group. */
export async function wordpressPlugin(ctx: ProxyContext, c: Context): Promise<Response> {
  const url = urlOf(c.req.raw);
  const { venues, group } = await chosen(ctx, url.searchParams);
  const script = ctx.config.widgetScript;
  const defaults = defaultsFile({
    proxy: publicAddress(ctx.config.publicBase, url),
    venues,
    group,
    integrity: script ? await integrityOf(script) : '',
  });
  const entries = Object.fromEntries(
    Object.entries({ ...WORDPRESS_FILES, 'venue-booking/defaults.php': defaults }).map(([path, text]) => [
      path,
      strToU8(text),
    ]),
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
