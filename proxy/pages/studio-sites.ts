/**
 * The studio's "Allow this site" and "Remove" (`POST /embed/sites`): a venue's manager lets a site
 * the proxy refused show the booking widget, at once and on every instance (state/allowed-sites.ts),
 * without waiting for the web person to change `VENUE_BOOKING_ORIGINS` and restart. That setting
 * still applies and is not the manager's to change: its sites are listed, never removed here.
 *
 * Guarded like the studio: the operator access the guards check by path; a form only this
 * proxy's own page may post (its route takes it through pages/operator.ts `operatorForm`: same
 * origin, urlencoded, bounded);
 * a canonical http(s) origin, https unless it is this machine (a site on plain http would send its
 * guests' details unprotected); the list's maximum; every change logged (by `AllowedSites`), and
 * every refusal too. The answer is a 303 back to the studio (Post/Redirect/Get: a reload does not
 * post again) whose query names what happened (`site-change`, `site`), which the studio says in
 * plain words (pages/studio-origins.ts `changeSaid`).
 */
import { ProxyError } from '../core/envelope.js';
import { canonicalOrigin } from '../core/url.js';
import type { ProxyContext } from '../context.js';
import { isLoopback } from '../guards/validate.js';
import { PATHS, relativePath } from '../paths.js';

/** What became of a change asked for in the studio: the studio says each in its own words. */
export type SiteChange =
  | 'allowed'
  | 'already-allowed'
  | 'set-by-web-person'
  | 'removed'
  | 'not-listed'
  | 'full'
  | 'not-a-site'
  | 'not-secure'
  | 'not-kept';

/** The query names of the redirect's report, which the studio reads and leaves out of its own query. */
export const CHANGE_PARAMS = { change: 'site-change', site: 'site' } as const;

/** The fields the studio's site forms post. */
export const SITE_FIELDS = { site: 'site', change: 'change', back: 'back' } as const;

/**
 * The site a manager may allow: a canonical http(s) origin (never `null`, the opaque origin of a
 * file or a sandboxed frame, which any page can claim), on https unless its host is this machine.
 */
export function allowableSite(
  value: string,
): { origin: string; problem?: never } | { origin?: string; problem: 'not-a-site' | 'not-secure' } {
  const origin = canonicalOrigin(value.trim());
  if (origin === null || origin === 'null') return { problem: 'not-a-site' };
  const url = new URL(origin);
  if (url.protocol !== 'https:' && !isLoopback(url.hostname)) return { origin, problem: 'not-secure' };
  return { origin };
}

/** What one posted change comes to, applied. */
async function applied(ctx: ProxyContext, form: URLSearchParams): Promise<{ change: SiteChange; site?: string }> {
  const given = form.get(SITE_FIELDS.site) ?? '';
  const kind = form.get(SITE_FIELDS.change);
  // Only a form that was not the studio's asks for neither: refused in the envelope, not redirected.
  if (kind !== 'allow' && kind !== 'remove') throw new ProxyError(400, 'Ask to allow or to remove a site');
  const remove = kind === 'remove';
  const checked: { origin?: string | null; problem?: SiteChange } = remove
    ? { origin: canonicalOrigin(given.trim()) }
    : allowableSite(given);
  if (checked.problem) return { change: checked.problem, ...(checked.origin ? { site: checked.origin } : {}) };
  const { origin } = checked;
  if (!origin || origin === 'null') return { change: 'not-a-site' };
  if (ctx.config.origins.includes(origin)) return { change: 'set-by-web-person', site: origin };
  try {
    if (remove) {
      if (!(await ctx.allowedSites.list()).some((site) => site.origin === origin))
        return { change: 'not-listed', site: origin };
      await ctx.allowedSites.remove(origin);
      return { change: 'removed', site: origin };
    }
    if (ctx.allowedSites.has(origin)) return { change: 'already-allowed', site: origin };
    return { change: (await ctx.allowedSites.add(origin)) ? 'allowed' : 'full', site: origin };
  } catch {
    // The records could not keep it (a shared store away): said, never pretended.
    return { change: 'not-kept', site: origin };
  }
}

/**
 * `POST /embed/sites`, given the form its route took (pages/operator.ts `operatorForm`): allows or
 * removes one site, then sends the manager back to the studio with their choices (`back`, the
 * studio's query when the form was drawn) and what happened.
 */
export async function changeSite(ctx: ProxyContext, form: URLSearchParams): Promise<Response> {
  const { change, site } = await applied(ctx, form);
  if (change !== 'allowed' && change !== 'removed')
    ctx.config.logger.log({
      level: 'info',
      msg: 'site change from the studio not made',
      change,
      ...(site ? { origin: site } : {}),
    });
  const query = new URLSearchParams(form.get(SITE_FIELDS.back) ?? '');
  query.delete(CHANGE_PARAMS.change);
  query.delete(CHANGE_PARAMS.site);
  query.set(CHANGE_PARAMS.change, change);
  if (site) query.set(CHANGE_PARAMS.site, site);
  // Relative, so the studio is found under whatever address and prefix the proxy was reached at:
  // this route is one segment below the studio's path.
  return new Response(null, {
    status: 303,
    headers: { location: `../${relativePath(PATHS.studio)}?${query}#sites`, 'cache-control': 'no-store' },
  });
}
