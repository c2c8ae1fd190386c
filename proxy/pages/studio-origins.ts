/**
 * The studio's list of the sites that recently loaded the widget, and what to do about a refused
 * one, in plain words, with the exact setting for the venue's web person folded away. Kept apart
 * from the rest of the page: the list's data (state/recent-origins.ts) changes on its own.
 */
import type { ProxyContext } from '../context.js';
import { escapeHtml } from './page.js';

const when = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  day: 'numeric',
  month: 'short',
});

/** The setting line for the web person, folded in a `<details>`. */
const forWebPerson = (line: string) =>
  `<details><summary>For your web person</summary><p>Set <code>${escapeHtml(line)}</code> and restart the booking service.</p></details>`;

/**
 * The allowed sites, and the sites requests recently claimed to come from (state/recent-origins.ts:
 * canonical origins, allowed and blocked ones bounded apart), each blocked one with a settings line
 * the proxy starts with, since every origin listed is canonical, as the settings keep theirs.
 */
export function originsOf(ctx: ProxyContext): string {
  const sites = ctx.recentOrigins.list();
  const configured = ctx.config.origins;
  const current = configured.length
    ? `<p>Allowed now: ${configured.map((origin) => `<code>${escapeHtml(origin)}</code>`).join(', ')}.</p><details><summary>For your web person</summary><p>The setting: <code>VENUE_BOOKING_ORIGINS=${escapeHtml(configured.join(','))}</code></p></details>`
    : '<p>No other site is allowed yet: only this service’s own pages (the preview and your booking page) show the widget.</p>';
  if (!sites.length)
    return `${current}<p class="note">No site has loaded the widget since the booking service started.</p>`;
  const fix = (origin: string) =>
    origin === 'null'
      ? 'This was a page opened from a file or inside a locked-down frame: put the page on your website.'
      : `Ask your web person to allow this site. (Only if it is yours: any program can claim to be a site.)${forWebPerson(`VENUE_BOOKING_ORIGINS=${[...configured, origin].join(',')}`)}`;
  const rows = sites
    .map(
      (site) =>
        `<tr><th scope="row"><code>${escapeHtml(site.origin)}</code></th><td class="${site.allowed ? 'allowed' : 'refused'}">${site.allowed ? 'Shows the widget' : 'Blocked'}</td><td>${site.views}</td><td>${escapeHtml(when.format(site.lastSeen))}</td><td>${site.allowed ? '' : fix(site.origin)}</td></tr>`,
    )
    .join('');
  return `${current}<table id="origins-table"><caption class="note">What requests to this server claimed since it started (the latest ${sites.length}). Any program can claim to be a site, so an entry is a claim, not proof of a visit; blocked entries never push allowed ones out. A site is checked as a whole: a page whose widget was removed still shows here.</caption><thead><tr><th scope="col">Site</th><th scope="col">Widget</th><th scope="col">Page views</th><th scope="col">Last seen (London)</th><th scope="col">What to do</th></tr></thead><tbody>${rows}</tbody></table>`;
}
