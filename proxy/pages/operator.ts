/**
 * The operator's routes beside the API: `/metrics` (the Prometheus text of the Node entry's
 * registry), `/status`, the embed studio `/embed`, their two files, the studio's "Allow this site"
 * (`POST /embed/sites`, pages/studio-sites.ts), and the WordPress plugin the studio hands out (pages/wordpress/wordpress.ts). Who may open them is the guard list's to say
 * (guards/request.ts `operatorGuard`); which are served is the config's (`operatorPages`).
 */
import type { Context } from 'hono';
import { ProxyError } from '../core/envelope.js';
import type { ResolvedConfig } from '../config.js';
import type { ProxyContext } from '../context.js';
import { PAGES_CSS } from './page.js';
import { PATHS } from '../paths.js';
import { urlOf } from '../core/url.js';
import { isOwnOrigin } from '../guards/request-site.js';
import { statusPage } from './status.js';
import { studioPage } from './studio.js';
import { studioScript } from './studio-client.js';
import { studioProfileSave } from './studio-profile.js';
import { changeSite } from './studio-sites.js';
import { wordpressPlugin } from './wordpress/wordpress.js';

/** `GET /metrics`: the counters in the Prometheus text format, where the host keeps them in a registry. */
export async function metricsText(ctx: ProxyContext, _c: Context): Promise<Response> {
  const exposition = await ctx.config.metrics.exposition();
  // A Worker's counters live per isolate, which a scrape cannot sum (docs/operators/metrics.md: on Cloudflare Workers).
  if (!exposition) throw new ProxyError(404, 'This host serves no metrics: its counters are per isolate');
  return new Response(exposition.text, {
    status: 200,
    headers: { 'content-type': exposition.contentType, 'cache-control': 'no-store' },
  });
}

/** A static file of the operator's pages. */
const file = (body: string, type: string) => () =>
  new Response(body, {
    status: 200,
    headers: { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-cache' },
  });

/** An operator route: the path, its method (GET unless said) and its answer. */
export interface OperatorRoute {
  path: string;
  method?: 'GET' | 'POST';
  /** A page a person opens or posts (not a file, not the scrape): under the page limit and the Host rule. */
  page?: true;
  answer: (ctx: ProxyContext, c: Context) => Response | Promise<Response>;
}

/** The largest form an operator's page posts (a venue profile, one site). */
export const OPERATOR_FORM_LIMIT = 8_192;

/**
 * The fields of a form the operator's own page posted (the studio's "Save", "Allow this site"),
 * behind the operator access the guards already checked. Only this proxy's pages may post it: a
 * page of another site could make a logged-in manager's browser send a form (cross-site request
 * forgery), and browsers name the posting page's origin in `Origin` on every POST. Bounded and
 * urlencoded, as a plain HTML form sends it; anything else is refused in the envelope.
 */
export async function operatorForm(ctx: ProxyContext, c: Context): Promise<URLSearchParams> {
  const origin = c.req.header('origin') ?? '';
  if (
    !isOwnOrigin(origin, urlOf(c.req.raw), ctx.config.publicOrigin) ||
    c.req.header('sec-fetch-site') === 'cross-site'
  )
    throw new ProxyError(403, 'Only this service’s own pages may send this form');
  if (!c.req.header('content-type')?.startsWith('application/x-www-form-urlencoded'))
    throw new ProxyError(415, 'Send the form as application/x-www-form-urlencoded');
  const length = Number(c.req.header('content-length') ?? '0');
  if (length > OPERATOR_FORM_LIMIT) throw new ProxyError(413, 'The form is too large');
  const text = await c.req.text();
  if (text.length > OPERATOR_FORM_LIMIT) throw new ProxyError(413, 'The form is too large');
  return new URLSearchParams(text);
}

/** The operator's routes `config` serves. */
export function operatorRoutes(config: Pick<ResolvedConfig, 'operatorPages'>): OperatorRoute[] {
  const { metrics, studio } = config.operatorPages;
  const routes: OperatorRoute[] = [];
  if (metrics || studio) routes.push({ path: PATHS.pagesCss, answer: file(PAGES_CSS, 'text/css') });
  if (metrics) {
    routes.push({ path: PATHS.metrics, answer: metricsText });
    routes.push({ path: PATHS.status, answer: statusPage, page: true });
  }
  if (studio) {
    routes.push({ path: PATHS.studio, answer: studioPage, page: true });
    routes.push({ path: PATHS.studioScript, answer: file(studioScript(), 'text/javascript') });
    routes.push({
      path: PATHS.studioProfile,
      method: 'POST',
      page: true,
      answer: async (ctx, c) => studioProfileSave(ctx, await operatorForm(ctx, c)),
    });
    routes.push({
      path: PATHS.studioSites,
      method: 'POST',
      page: true,
      answer: async (ctx, c) => changeSite(ctx, await operatorForm(ctx, c)),
    });
    routes.push({ path: PATHS.wordpressPlugin, answer: wordpressPlugin, page: true });
  }
  return routes;
}
