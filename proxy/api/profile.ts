/**
 * `GET /api/venues/:venue/profile`: a configured venue's profile (state/venue-profiles.ts) for the
 * widget, which reads it only when it must tell a guest how else to reach the venue (a party no
 * type takes); 404 in the service's envelope when the venue's manager has saved none.
 */
import type { Context } from 'hono';
import { ProxyError } from '../core/envelope.js';
import type { ProxyContext } from '../context.js';

/** `GET /api/venues/:venue/profile`: a configured venue's profile, for the widget. */
export async function profileRead(ctx: ProxyContext, c: Context): Promise<Response> {
  const venue = c.req.param('venue') ?? '';
  if (!(await ctx.venueAllowed(venue))) throw new ProxyError(404, 'This venue is not served here');
  const profile = await ctx.profiles.get(venue);
  if (!profile) throw new ProxyError(404, 'This venue has no profile yet');
  return c.json(
    { venue_id: venue, ...profile },
    200,
    // A manager's change reaches guests within a minute; the widget reads it only when it needs it.
    { 'cache-control': 'public, max-age=60' },
  );
}
