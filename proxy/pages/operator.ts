/**
 * The operator's routes beside the API: `/metrics` (the Prometheus text of the Node entry's
 * registry), `/status`, the embed studio `/embed`, their two files, and the WordPress plugin the
 * studio hands out (pages/wordpress/wordpress.ts). Who may open them is the guard list's to say
 * (guards/request.ts `operatorGuard`); which are served is the config's (`operatorPages`).
 */
import type { Context } from 'hono';
import { ProxyError } from '../core/envelope.js';
import type { ResolvedConfig } from '../config.js';
import type { ProxyContext } from '../context.js';
import { PAGES_CSS } from './page.js';
import { PATHS } from '../paths.js';
import { statusPage } from './status.js';
import { studioPage } from './studio.js';
import { studioScript } from './studio-client.js';
import { wordpressPlugin } from './wordpress/wordpress.js';

/** `GET /metrics`: the counters in the Prometheus text format, where the host keeps them in a registry. */
export async function metricsText(ctx: ProxyContext, _c: Context): Promise<Response> {
  const exposition = await ctx.config.metrics.exposition();
  // A Worker's counters live per isolate, which a scrape cannot sum (README: the Worker entry).
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

/** An operator route: the path and its answer (GET only). */
export interface OperatorRoute {
  path: string;
  answer: (ctx: ProxyContext, c: Context) => Response | Promise<Response>;
}

/** The operator's routes `config` serves. */
export function operatorRoutes(config: Pick<ResolvedConfig, 'operatorPages'>): OperatorRoute[] {
  const { metrics, studio } = config.operatorPages;
  const routes: OperatorRoute[] = [];
  if (metrics || studio) routes.push({ path: PATHS.pagesCss, answer: file(PAGES_CSS, 'text/css') });
  if (metrics) {
    routes.push({ path: PATHS.metrics, answer: metricsText });
    routes.push({ path: PATHS.status, answer: statusPage });
  }
  if (studio) {
    routes.push({ path: PATHS.studio, answer: studioPage });
    routes.push({ path: PATHS.studioScript, answer: file(studioScript(), 'text/javascript') });
    routes.push({ path: PATHS.wordpressPlugin, answer: wordpressPlugin });
  }
  return routes;
}
