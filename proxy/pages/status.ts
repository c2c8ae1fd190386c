/**
 * `GET /status`: one screen for the venue's manager, in plain words. First a verdict: whether
 * bookings are going through, or the one thing to do; then bookings, enquiries and page views
 * today, this week and this month, by venue and by where they came from, with a chart
 * (pages/status-counts.ts, kept across restarts and instances); then, folded under "For your web
 * person", the server's own figures (pages/status-server.ts: quota, cache, refusals, timings).
 * Server-rendered, no script; it reloads itself every 30 s, and fits a phone.
 */
import type { Context } from 'hono';
import type { ProxyContext } from '../context.js';
import { PATHS, relativePath } from '../paths.js';
import { escapeHtml, pageResponse, venueNav } from './page.js';
import { readCounts, renderCounts } from './status-counts.js';
import { recentChanges, type ListedChange } from '../api/manage.js';
import { london, renderServer, serverStatusOf, type ServerModel } from './status-server.js';

/** What the verdict is drawn from. */
export interface VerdictInput {
  upstream: ServerModel['upstream'];
  store: ServerModel['store'];
  bookingsCarried: number;
  /** When the booking service's hourly requests renew, when it said. */
  resetAt: number | null;
}

/** The verdict: whether bookings are going through, or what stops them and the one thing to do. */
export interface Verdict {
  kind: 'ok' | 'wait' | 'action';
  text: string;
}

/** The verdict, the most urgent cause first: what stops every booking, then what stops some. */
export function verdictOf(input: VerdictInput): Verdict {
  const action = (text: string): Verdict => ({ kind: 'action', text: `Action needed: ${text}` });
  if (input.upstream === 'misconfigured')
    return action(
      'the booking service refuses this server’s keys, so no one can book. Ask your web person to check them (see “For your web person” below).',
    );
  if (input.upstream === 'failing')
    return action(
      'the booking service is not answering properly, so guests may not be able to book. If this lasts more than a few minutes, tell your web person.',
    );
  if (input.bookingsCarried <= 0)
    return action(
      `this hour’s requests to the booking service are used up, so bookings wait${input.resetAt ? ` until ${london.format(input.resetAt)}` : ' for the next hour'}. If this happens again, ask your web person to raise the limit with the booking service.`,
    );
  if (input.store === 'down')
    return action(
      'tell your web person that the shared memory between your servers is not reachable. Bookings still go through, each server on its own.',
    );
  if (input.upstream === 'limited')
    return {
      kind: 'wait',
      text: 'Bookings are paused for a moment: the booking service asked this server to slow down. Nothing to do unless this stays.',
    };
  return { kind: 'ok', text: 'Bookings are going through.' };
}

/** The sites refused lately that loaded the widget (the studio lists them, with what to do). */
function blockedNote(ctx: ProxyContext): string {
  const blocked = ctx.recentOrigins.list().filter((site) => !site.allowed && site.views > 0 && site.origin !== 'null');
  if (!blocked.length) return '';
  const names = blocked.slice(0, 3).map((site) => `<span class="origin">${escapeHtml(site.origin)}</span>`);
  const more = blocked.length > 3 ? ` and ${blocked.length - 3} more` : '';
  return `<p class="note">Not allowed to show your booking widget, though it tried lately: ${names.join(', ')}${more}. If a site is yours, see “Sites allowed to show your booking widget” on the <a href="${relativePath(PATHS.studio)}#origins">booking widget page</a>.</p>`;
}

/** The last guest cancellations and changes (made through their manage links), newest first. */
function changesNote(changes: readonly ListedChange[]): string {
  if (!changes.length) return '';
  const rows = changes.map((change) => {
    const what = change.new_reference ? `Changed to ${change.new_reference}` : 'Cancelled';
    return `<tr><td>${escapeHtml(london.format(change.at))}</td><td>${escapeHtml(what)}</td><td>${escapeHtml(change.reference)}</td><td>${escapeHtml(`${change.date} ${change.time}`)}</td><td>${escapeHtml(change.people)}</td></tr>`;
  });
  return `<section aria-labelledby="guest-changes"><h2 id="guest-changes">Guests’ latest cancellations and changes</h2><table><thead><tr><th>When</th><th>What</th><th>Booking</th><th>Booked for</th><th>People</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

/** `GET /status`: the status page. */
export async function statusPage(ctx: ProxyContext, _c: Context): Promise<Response> {
  const [server, counts, changes] = await Promise.all([
    serverStatusOf(ctx),
    readCounts(ctx, ctx.records),
    recentChanges(ctx).catch(() => []),
  ]);
  const verdict = verdictOf({
    upstream: server.upstream,
    store: server.store,
    bookingsCarried: server.bookingsCarried,
    resetAt: server.callsLeft.resetAt,
  });
  // A shared store that does not answer leaves this instance its last copy of the counts.
  const stale =
    ctx.records.kind === 'shared' && server.store === 'down'
      ? '<p class="note">The shared store does not answer: the counts below are this server’s last copy, and may be behind.</p>'
      : '';
  const service = ctx.config.practice
    ? '<p class="practice" role="note">Practice mode: this server books on a practice copy of the booking service. Bookings here are not real.</p>'
    : '<p class="lead">Connected to the live booking service: bookings here are real.</p>';
  const body = `<header>${venueNav('status')}
<h1>How your bookings are doing</h1>
${service}</header>
<main class="status">
<p class="verdict verdict-${verdict.kind}" id="verdict">${escapeHtml(verdict.text)}</p>${blockedNote(ctx)}${stale}
${renderCounts(counts, ctx.records.kind)}
${changesNote(changes)}
<details class="web-person"><summary>For your web person</summary>${renderServer(server)}</details>
<p class="note">Counts are kept in London time. The page updates itself every 30 seconds.</p>
</main>`;
  return pageResponse(body, {
    title: 'How your bookings are doing',
    description:
      'Whether bookings are going through, and the bookings, enquiries and page views by venue and by where they came from.',
    refreshS: 30,
  });
}
