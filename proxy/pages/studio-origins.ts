/**
 * The studio's sites: the ones allowed to show the booking widget (by the web person's setting, and
 * by the manager here, each with "Remove"), and the sites that recently asked for it, a blocked
 * one with "Allow this site" (pages/studio-sites.ts), all in plain words, the exact setting for
 * the venue's web person folded away. Kept apart from the rest of the page: the list's data
 * (state/recent-origins.ts, state/allowed-sites.ts) changes on its own.
 */
import type { ProxyContext } from '../context.js';
import { canonicalOrigin } from '../core/url.js';
import { isLoopback } from '../guards/validate.js';
import { relativePath, PATHS } from '../paths.js';
import { MAX_MANAGED_SITES, type ManagedSite } from '../state/allowed-sites.js';
import { escapeHtml } from './page.js';
import { CHANGE_PARAMS, SITE_FIELDS, type SiteChange } from './studio-sites.js';

const when = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  day: 'numeric',
  month: 'short',
});

/** The setting line for the web person, folded in a `<details>`. */
const forWebPerson = (line: string) =>
  `<details><summary>For your web person</summary><p>Or set <code>${escapeHtml(line)}</code> and restart the booking service.</p></details>`;

/** The one warning every "Allow this site" button points to (`aria-describedby`). */
const WARNING = `<p id="allow-warning" class="warning">Only allow your venue’s own websites. Any program can pretend to come from any site, so a site in this list may not be yours; allowing one that is not lets pages you do not control take bookings for your venue.</p>`;

/**
 * A small form that posts one change of one site to the studio's route, with the studio's query
 * (`back`) so the manager returns to the same choices; the studio's script keeps `back` up to date.
 */
function siteForm(origin: string, back: string, change: 'allow' | 'remove'): string {
  const label = change === 'allow' ? 'Allow this site' : 'Remove';
  const described = change === 'allow' ? ' aria-describedby="allow-warning"' : ' class="secondary"';
  return `<form class="site-form" method="post" action="${relativePath(PATHS.studioSites)}"><input type="hidden" name="${SITE_FIELDS.site}" value="${escapeHtml(origin)}"><input type="hidden" name="${SITE_FIELDS.back}" value="${escapeHtml(back)}"><button type="submit" name="${SITE_FIELDS.change}" value="${change}"${described}>${label}<span class="visually-hidden">: ${escapeHtml(origin)}</span></button></form>`;
}

/** What the studio says of a change just made, in plain words; nothing for a report the lists contradict. */
export function changeSaid(change: string | null, site: string | null, allowed: (origin: string) => boolean): string {
  // Only a site in its one spelling is named: the report is in an address anyone can write.
  const named = site && canonicalOrigin(site) === site ? `<code>${escapeHtml(site)}</code>` : 'That site';
  const said: Partial<Record<SiteChange, string>> = {
    'already-allowed': `${named} was already allowed.`,
    'set-by-web-person': `${named} is allowed by your web person’s settings, so only they can change it.`,
    'not-listed': `${named} is not one of the sites you allowed, so nothing changed.`,
    full: `You have allowed ${MAX_MANAGED_SITES} sites, the most this list holds. Remove one you no longer use, then allow ${named} again.`,
    'not-a-site':
      'That is not a website’s address: a site looks like <code>https://www.your-venue.com</code>. Nothing changed.',
    'not-secure': `${named} is not a secure site (its address does not start with https://), so it cannot be allowed here: guests’ details would travel unprotected. Ask your web person to move it to https://.`,
    'not-kept': `${named} could not be saved just now: the booking service cannot reach where it keeps its lists. Nothing changed; try again in a minute.`,
  };
  if (change === 'allowed' && site && allowed(site))
    return `<p class="done">${named} may now show your booking widget: guests there can book at once (reload the page on that site).</p>`;
  if (change === 'removed' && site && !allowed(site))
    return `<p class="done">${named} may no longer show your booking widget.</p>`;
  const text = said[change as SiteChange];
  return text ? `<p class="problem">${text}</p>` : '';
}

/** The sites allowed now: the web person's (fixed here) and the manager's (each removable). */
function allowedOf(configured: readonly string[], managed: readonly ManagedSite[], back: string): string {
  const theirs = configured.length
    ? `<h3>Set by your web person</h3><ul class="sites">${configured.map((origin) => `<li><code>${escapeHtml(origin)}</code></li>`).join('')}</ul><p class="note">Only your web person can remove these.</p><details><summary>For your web person</summary><p>The setting: <code>VENUE_BOOKING_ORIGINS=${escapeHtml(configured.join(','))}</code></p></details>`
    : '';
  const yours = managed.length
    ? `<ul class="sites">${managed.map((site) => `<li><code>${escapeHtml(site.origin)}</code> <span class="note">since ${escapeHtml(when.format(site.addedAt))}</span> ${siteForm(site.origin, back, 'remove')}</li>`).join('')}</ul>`
    : '<p class="note">None yet: use “Allow this site” on a blocked site below.</p>';
  return `<p>Your booking widget books only on these sites, and on this service’s own pages (the preview and your booking page).</p>${theirs}<h3>Allowed by you</h3>${yours}<p class="note">You can allow up to ${MAX_MANAGED_SITES} sites (${managed.length} now).</p>`;
}

/**
 * The studio's sites section: what changed just now (`query`: the redirect's report), the sites
 * allowed, and the sites requests recently said they came from (state/recent-origins.ts:
 * canonical origins, allowed and blocked ones bounded apart), each blocked one with what to do:
 * "Allow this site" where it may be allowed here, and the settings line the proxy starts with
 * (every origin listed is canonical, as the settings keep theirs).
 */
export async function originsOf(ctx: ProxyContext, query: URLSearchParams): Promise<string> {
  const managed = await ctx.allowedSites.list();
  const configured = ctx.config.origins;
  const mine = new Set(managed.map((site) => site.origin));
  const allowed = (origin: string) => configured.includes(origin) || mine.has(origin);
  const back = new URLSearchParams(query);
  back.delete(CHANGE_PARAMS.change);
  back.delete(CHANGE_PARAMS.site);
  const said = changeSaid(query.get(CHANGE_PARAMS.change), query.get(CHANGE_PARAMS.site), allowed);
  const head = `<div id="site-change" role="status">${said}</div>${allowedOf(configured, managed, back.toString())}`;
  const sites = ctx.recentOrigins.list();
  if (!sites.length)
    return `${head}<p class="note">No other site has asked for your booking widget since the booking service started.</p>`;
  const setting = (origin: string) => forWebPerson(`VENUE_BOOKING_ORIGINS=${[...configured, origin].join(',')}`);
  const fix = (origin: string) => {
    if (origin === 'null')
      return 'This was a page opened from a file or inside a locked-down frame: put the page on your website.';
    const { protocol, hostname } = new URL(origin);
    if (protocol !== 'https:' && !isLoopback(hostname))
      return `This site is not secure (its address starts with http://, not https://), so it cannot be allowed here: guests’ details would travel unprotected. Ask your web person to move it to https://.${setting(origin)}`;
    return `${siteForm(origin, back.toString(), 'allow')}<p class="note">Only if it is your own website.</p>${setting(origin)}`;
  };
  const rows = sites
    .map((site) => {
      const now = site.allowed || mine.has(site.origin);
      const status = site.allowed ? 'Shows the widget' : now ? 'Allowed now' : 'Blocked';
      return `<tr><th scope="row"><code>${escapeHtml(site.origin)}</code></th><td class="${now ? 'allowed' : 'refused'}" data-label="Widget">${status}</td><td data-label="Page views">${site.views}</td><td data-label="Last seen (London)">${escapeHtml(when.format(site.lastSeen))}</td><td>${now ? '' : fix(site.origin)}</td></tr>`;
    })
    .join('');
  return `${head}<h3>Sites that asked for your widget</h3>${WARNING}<table id="origins-table" class="stacked"><caption class="note">Since the booking service last started (the latest ${sites.length}). Each site is named by what its request said about itself, so a site here may never have shown your widget to anyone. A site counts as a whole: after you take the widget off a page, the site still shows here.</caption><thead><tr><th scope="col">Site</th><th scope="col">Widget</th><th scope="col">Page views</th><th scope="col">Last seen (London)</th><th scope="col">What to do</th></tr></thead><tbody>${rows}</tbody></table>`;
}
