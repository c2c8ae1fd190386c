/**
 * An upstream stand-in written apart from our sandbox, from the spec alone: a small Node HTTP
 * server that answers `POST /v4/bookings` (§4.2, the create answer of §2.4), `GET /v4/bookings`
 * (§4.6) and `POST /v4/bookings/{_id}` (§4.3: a status change, a guest's cancel being `rejected`)
 * in the service's envelope. Its search answers as §2.5 lists a result's fields:
 * `booking_id`, no `reference`, and a `type` map with a `name` key only (unless `fullSearch`), so
 * a result cannot show every detail a booking request carries. Its create answers can come after
 * the proxy's upstream timeout (`slow`, or every `lateEvery`th): the booking is made at once and
 * shows in the search, the answer is late. Anything else answers 404.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/** How late a late create answer comes: after any upstream timeout the tests set (≤ 2 s). */
export const LATE_MS = 2_500;

/** The stand-in and its switches. */
export interface SpecUpstream {
  /** Base URL, ending in /v4. */
  url: string;
  /** Bookings made, in order, as the create answer shows them (with `booking_id`). */
  made: Record<string, unknown>[];
  /** Booking searches received. */
  searches: number;
  /** Answer every create `LATE_MS` late. */
  slow: boolean;
  /** Answer every `lateEvery`th create late (0: none). */
  lateEvery: number;
  /** Show `reference` and the type's `id` in search results too, beyond §2.5. */
  fullSearch: boolean;
  /** Refuse the search (403), as for an App ID without `read_bookings`. */
  refuseSearch: boolean;
  /** Updates received (`POST /v4/bookings/{_id}`), answered or not. */
  updates: number;
  /**
   * Refuse a status change (403), as for an App ID without the capability to manage the venue's
   * bookings (§4.10 `manage_venue_bookings_…`; real-api-notes: plan for a 403).
   */
  refuseUpdate: boolean;
  /** The bookings made for the guest of this first name. */
  bookingsOf(firstName: string): Record<string, unknown>[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** §3.1's booking statuses. */
const STATUSES = ['new', 'in_progress', 'complete', 'rejected', 'deleted', 'lost'];

/** §4.6's status filter: its default and `all` are new, in progress and complete; `include_rejected` adds rejected. */
function statusFilter(value: string | null): string[] {
  const wanted = (value ?? 'all').split(',');
  if (wanted.includes('include_rejected')) wanted.push('new', 'in_progress', 'complete', 'rejected');
  if (wanted.includes('all')) wanted.push('new', 'in_progress', 'complete');
  return wanted;
}

/** §2.1: a timestamp in London time, `YYYY-MM-DDTHH:mm:ss` (Sweden's locale writes dates in ISO order). */
const londonTimestamp = (at: Date) => at.toLocaleString('sv-SE', { timeZone: 'Europe/London' }).replace(' ', 'T');

/** Starts the stand-in on a free loopback port. */
export async function startSpecUpstream(): Promise<SpecUpstream> {
  const standIn: SpecUpstream = {
    url: '',
    made: [],
    searches: 0,
    slow: false,
    lateEvery: 0,
    fullSearch: false,
    refuseSearch: false,
    updates: 0,
    refuseUpdate: false,
    bookingsOf: (firstName) => standIn.made.filter((booking) => booking.first_name === firstName),
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const send = (status: number, payload: unknown) => {
      if (response.destroyed) return;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ payload, status }));
    };
    if (url.pathname === '/v4/bookings' && request.method === 'POST') {
      const body = await bodyOf(request);
      const n = standIn.made.length;
      const booking = {
        _id: `64a1f0c2e4b0a1b2${n.toString(16).padStart(8, '0')}`,
        reference: `DMN-${10_000_000_000 + n}`,
        booking_id: 50_000 + n,
        venue_id: body.venue_id,
        date: `${body.date}T00:00:00`,
        time: body.time,
        type: { guestlist: false, id: body.type, name: 'Dinner', private_hire: false },
        num_people: body.num_people,
        first_name: body.first_name,
        last_name: body.last_name,
        email: body.email ?? null,
        phone: body.phone,
        source: body.source,
        // §2.4: kept on the record, answered by an update (and a search) only.
        status: 'complete',
        status_changed_date: null as string | null,
      };
      standIn.made.push(booking);
      if (standIn.slow || (standIn.lateEvery > 0 && standIn.made.length % standIn.lateEvery === 0))
        await new Promise((resolve) => setTimeout(resolve, LATE_MS));
      // §2.4: the create answer has no `booking_id`, `status` or `phone`.
      const { booking_id: _id, phone: _phone, status: _status, status_changed_date: _changed, ...created } = booking;
      send(200, { booking: created, bookingStatus: 'confirmed', venue: { type: 'venue', title: 'Stand-in' } });
      return;
    }
    if (url.pathname === '/v4/bookings' && request.method === 'GET') {
      standIn.searches++;
      if (standIn.refuseSearch) return send(403, { message: 'Missing capability read_bookings', errors: [] });
      const query = url.searchParams;
      const statuses = statusFilter(query.get('status'));
      const found = standIn.made.filter(
        (booking) =>
          statuses.includes(booking.status as string) &&
          booking.venue_id === query.get('venue_id') &&
          String(booking.date).startsWith(query.get('date') ?? '') &&
          booking.time === query.get('time') &&
          (!query.get('email') || booking.email === query.get('email')),
      );
      const start = Number(query.get('start') ?? 0);
      const page = found.slice(start, start + Number(query.get('limit') ?? 30));
      // §2.5: `booking_id`, not `reference`; `type` a map with a `name` key.
      const bookings = page.map(({ reference, type, status_changed_date: _changed, ...booking }) => ({
        ...booking,
        ...(standIn.fullSearch ? { reference, type } : { type: { name: (type as { name: string }).name } }),
      }));
      send(200, { bookings, start, numFound: found.length });
      return;
    }
    const updated = /^\/v4\/bookings\/([^/]+)$/.exec(url.pathname);
    if (updated && request.method === 'POST') {
      standIn.updates++;
      let body: Record<string, unknown>;
      try {
        body = await bodyOf(request);
      } catch {
        return send(400, { message: 'The body is not JSON', errors: [] });
      }
      // §4.3 names the booking by its `_id` (the create answer's), not its booking_id or reference.
      const booking = standIn.made.find((made) => made._id === decodeURIComponent(updated[1]!));
      if (!booking) return send(404, { message: 'Booking not found', errors: [] });
      if (standIn.refuseUpdate) return send(403, { message: 'Missing capability manage_venue_bookings', errors: [] });
      if (body.status !== undefined && !STATUSES.includes(body.status as string)) {
        const message = `status must be one of ${STATUSES.join(', ')}`;
        return send(400, { message, errors: [{ code: 'invalid_status', message, fields: ['status'] }] });
      }
      if (typeof body.status === 'string' && body.status !== booking.status) {
        booking.status = body.status;
        booking.status_changed_date = londonTimestamp(new Date());
      }
      // §2.4's full record, as the update answers it: booking_id, status and status_changed_date too.
      const { phone: _phone, ...record } = booking;
      return send(200, { booking: record });
    }
    send(404, { message: 'Not found', errors: [] });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
  return standIn;
}
