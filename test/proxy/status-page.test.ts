/**
 * The status page for the manager first (issue 35): where each booking came from, as the proxy
 * tells it from what the browser says (an allowed site by its origin, the booking page by its
 * link or its QR code, elsewhere), counted by day, venue and source in the venue's records, page
 * views counted as page views, and the page that shows them apart: the verdict, today, this week
 * and this month by venue and by source, a chart, and the server's figures folded away with a
 * truthful timing line. Through the real app over a scripted upstream; the bin, restarts and
 * Redis are in status-bin.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Metrics } from '../../proxy/core/metrics.js';
import { addDays, countsBetween, londonDate, qrLink, tableOf, weekStart } from '../../proxy/state/day-counts.js';
import { MemoryRecords } from '../../proxy/state/records.js';
import { timingLine } from '../../proxy/pages/status-server.js';
import { verdictOf, type VerdictInput } from '../../proxy/pages/status.js';
import {
  fetchWithProof,
  BASE,
  okScript,
  ORIGIN,
  OTHER_VENUE,
  postJson,
  recordingProxy,
  upstreamJson,
  validBooking,
  VENUE,
  type Script,
} from './support.js';
import { sourceRows } from './status-rows.js';

const SECOND = 'https://second-site.example';
/** The proxy's own origin: opened on this machine, with no public address set. */
const HERE = 'http://localhost:8080';
const SCRIPT = new TextEncoder().encode(
  'customElements.define("x-y", class extends HTMLElement {});',
) as Uint8Array<ArrayBuffer>;
/** Saturday 28 November 2026, noon in London: its week began on Monday the 23rd. */
const NOON = Date.parse('2026-11-28T12:00:00Z');
const TABLE = 'counts:2026-11';

/** The upstream: venue names, and a booking confirmed (an enquiry for more than 6 people). */
const script: Script = (request, body) => {
  const { pathname } = new URL(request.url);
  if (pathname === `/v4/venues/${VENUE}`) return upstreamJson({ venue: { _id: VENUE, title: 'The Crown & <Anchor>' } });
  if (pathname === `/v4/venues/${OTHER_VENUE}`) return upstreamJson({ venue: { _id: OTHER_VENUE, title: 'Cellar' } });
  if (pathname === '/v4/bookings' && request.method === 'POST') {
    const people = (JSON.parse(body) as { num_people: number }).num_people;
    if (people === 5) return upstreamJson({ message: 'Fully booked', errors: [] }, 422);
    const enquiry = people > 6;
    return upstreamJson({ booking: { reference: 'DMN-1' }, bookingStatus: enquiry ? 'enquiry' : 'confirmed' });
  }
  return okScript(request, body);
};

/** A proxy at HERE allowing two sites, its records in memory, its clock at `now`. */
function proxyAt(now = () => NOON) {
  const records = new MemoryRecords();
  const { proxy } = recordingProxy(
    {
      origins: [ORIGIN, SECOND],
      records,
      widgetScript: SCRIPT,
      metrics: new Metrics(),
      now,
      peerAddress: () => '127.0.0.1',
      publicUrl: undefined,
    },
    script,
  );
  /** A request to the proxy as opened on this machine (the operator's pages open there). */
  // A booking carries its proof of work, as the widget's does.
  const send = (path: string, init: RequestInit = {}) => fetchWithProof(proxy, `${HERE}${path}`, init);
  let key = 0;
  /** A booking sent with these headers (each with its own Idempotency-Key). */
  const book = (headers: Record<string, string>, extra: Record<string, unknown> = {}) =>
    send('/api/bookings', postJson(validBooking(extra), { 'idempotency-key': `status-test-${++key}`, ...headers }));
  const status = async () => (await send('/status')).text();
  return { records, send, book, status };
}

describe('the days the counts are kept by (London’s calendar)', () => {
  test('today is London’s, across the UTC midnight and the clock changes', () => {
    assert.equal(londonDate(Date.parse('2026-06-30T23:30:00Z')), '2026-07-01', 'BST: already tomorrow');
    assert.equal(londonDate(Date.parse('2026-12-31T23:30:00Z')), '2026-12-31', 'GMT: still today');
    assert.equal(addDays('2026-03-28', 1), '2026-03-29');
    assert.equal(addDays('2026-03-30', -1), '2026-03-29');
    assert.equal(addDays('2026-10-26', -1), '2026-10-25');
    assert.equal(addDays('2026-12-31', 1), '2027-01-01');
  });

  test('weeks start on Monday; one table a month', () => {
    assert.equal(weekStart('2026-11-28'), '2026-11-23');
    assert.equal(weekStart('2026-11-23'), '2026-11-23');
    assert.equal(weekStart('2026-11-22'), '2026-11-16', 'a Sunday ends the week before');
    assert.equal(weekStart('2026-12-02'), '2026-11-30', 'across the month');
    assert.equal(tableOf('2026-11-28'), TABLE);
  });

  test('reads only well-formed fields of the days asked, from each month’s table', async () => {
    const records = new MemoryRecords();
    await records.add('counts:2026-10', `2026-10-31|${VENUE}|page|confirmed`, 2);
    await records.add(TABLE, `2026-11-01|${VENUE}|${ORIGIN}|enquiry`, 1);
    await records.add(TABLE, `2026-11-02|${VENUE}|${ORIGIN}|refused`, 1);
    await records.add(TABLE, `2026-11-02|${VENUE}|${ORIGIN}|confirmed|more`, 1);
    await records.add(TABLE, `2026-11-09|${VENUE}|qr|confirmed`, 1);
    await records.set(TABLE, `2026-11-03|${VENUE}|qr|confirmed`, 'many');
    assert.deepEqual(await countsBetween(records, '2026-10-31', '2026-11-08'), [
      { date: '2026-10-31', venue: VENUE, source: 'page', outcome: 'confirmed', count: 2 },
      { date: '2026-11-01', venue: VENUE, source: ORIGIN, outcome: 'enquiry', count: 1 },
    ]);
  });

  test('the QR code’s link is the booking page’s, marked once', () => {
    assert.equal(qrLink(`${BASE}/book/${VENUE}`), `${BASE}/book/${VENUE}?via=qr`);
    assert.equal(qrLink(`${BASE}/book/${VENUE}?theme=dark&via=qr`), `${BASE}/book/${VENUE}?theme=dark&via=qr`);
  });
});

describe('where a booking came from', () => {
  test('each allowed site by its origin, the booking page by its link and by its QR code, the rest as elsewhere', async () => {
    const { book, records } = proxyAt();
    const page = `${HERE}/book/${VENUE}?locale=fr`;
    const answers = await Promise.all([
      book({ origin: ORIGIN }),
      book({ origin: 'HTTPS://SECOND-SITE.EXAMPLE:443' }),
      book({ origin: SECOND }, { num_people: 8 }),
      book({ origin: HERE, referer: page }),
      book({ origin: HERE, referer: `${page}&via=qr` }, { venue_id: OTHER_VENUE }),
      // The studio's preview, a page on another origin, a program that says nothing.
      book({ origin: HERE, referer: `${HERE}/embed?venue=${VENUE}` }),
      book({ origin: HERE, referer: `https://forged.example/book/${VENUE}?via=qr` }),
      book({}),
    ]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      Array(8).fill(200),
    );
    // A refused site books nothing and counts nowhere.
    assert.equal((await book({ origin: 'https://refused.example' })).status, 403);
    assert.deepEqual(Object.fromEntries(await records.all(TABLE)), {
      [`2026-11-28|${VENUE}|${ORIGIN}|confirmed`]: '1',
      [`2026-11-28|${VENUE}|${SECOND}|confirmed`]: '1',
      [`2026-11-28|${VENUE}|${SECOND}|enquiry`]: '1',
      [`2026-11-28|${VENUE}|page|confirmed`]: '1',
      [`2026-11-28|${OTHER_VENUE}|qr|confirmed`]: '1',
      [`2026-11-28|${VENUE}|other|confirmed`]: '3',
    });
  });

  test('a booking sent twice under one key counts once; one the service refuses not at all', async () => {
    const { send, records } = proxyAt();
    const again = () =>
      send('/api/bookings', postJson(validBooking(), { 'idempotency-key': 'status-twice-1', origin: ORIGIN }));
    assert.equal((await again()).status, 200);
    const repeat = await again();
    assert.equal(repeat.headers.get('idempotent-replayed'), 'true');
    const full = await send('/api/bookings', postJson(validBooking({ num_people: 5 }), { origin: ORIGIN }));
    assert.equal(full.status, 422);
    assert.deepEqual(Object.fromEntries(await records.all(TABLE)), {
      [`2026-11-28|${VENUE}|${ORIGIN}|confirmed`]: '1',
    });
  });

  test('the booking page (and the studio, for its forms) sends its address to this proxy only; /status to none', async () => {
    const { send } = proxyAt();
    for (const path of [`/book/${VENUE}`, '/embed']) {
      const page = await send(path);
      assert.equal(page.headers.get('referrer-policy'), 'same-origin', path);
      assert.match(await page.text(), /<meta name="referrer" content="same-origin">/, path);
    }
    for (const path of ['/status']) {
      const other = await send(path);
      assert.equal(other.headers.get('referrer-policy'), 'no-referrer', path);
      assert.match(await other.text(), /<meta name="referrer" content="no-referrer">/, path);
    }
  });

  test('its QR code, in the studio and as the file, encodes the marked link', async () => {
    const { send } = proxyAt();
    const file = await (await send(`/book/${VENUE}/qr.svg?theme=dark`)).text();
    assert.match(file, new RegExp(`aria-label="QR code of ${HERE}/book/${VENUE}\\?theme=dark&amp;via=qr"`));
    const studio = await (await send(`/embed?venue=${VENUE}`)).text();
    assert.match(studio, new RegExp(`aria-label="QR code of ${HERE}/book/${VENUE}\\?via=qr"`));
    // The link to share is the plain one: only the QR code's is marked.
    assert.match(studio, new RegExp(`<a id="booking-link" href="${HERE}/book/${VENUE}">`));
  });
});

describe('page views, counted as page views', () => {
  test('an allowed site’s widget loading, the booking page opening by its link or its QR code; never a refused site, a call or a HEAD', async () => {
    const { send, records } = proxyAt();
    await send('/venue-booking.js', { headers: { origin: ORIGIN } });
    await send('/venue-booking.js', { headers: { origin: ORIGIN } });
    await send('/venue-booking.js', { headers: { origin: 'https://refused.example' } });
    await send('/venue-booking.js', { method: 'HEAD', headers: { origin: SECOND } });
    await send(`/api/venues/${VENUE}`, { headers: { origin: SECOND } });
    await send(`/book/${VENUE}`);
    await send(`/book/${VENUE}?via=qr`);
    await send(`/book/${VENUE}?via=qr&theme=dark`);
    await send(`/book/${VENUE}`, { method: 'HEAD' });
    await send('/book/64a1f0c2e4b0a1b2c3d4e599');
    const kept = async () => Object.fromEntries(await records.all(TABLE));
    assert.deepEqual(await kept(), {
      [`2026-11-28|-|${ORIGIN}|view`]: '2',
      '2026-11-28|-|page|view': '1',
      '2026-11-28|-|qr|view': '2',
    });
  });
});

describe('GET /status for the manager', () => {
  test('shows the bookings from two sites, the booking page and its QR code apart, by venue by name, with a chart', async () => {
    const { book, send, status } = proxyAt();
    await book({ origin: ORIGIN });
    await book({ origin: SECOND });
    await book({ origin: SECOND }, { num_people: 7 });
    await book({ origin: HERE, referer: `${HERE}/book/${VENUE}` });
    await book({ origin: HERE, referer: `${HERE}/book/${VENUE}?via=qr` }, { venue_id: OTHER_VENUE });
    await send('/venue-booking.js', { headers: { origin: SECOND } });
    const html = await status();
    assert.match(html, /<p class="verdict verdict-ok" id="verdict">Bookings are going through\.<\/p>/);
    const today = 'Today</h3><p>4 bookings, 1 enquiry, 1 page view</p>';
    assert.ok(html.includes(today), 'the day’s totals');
    assert.deepEqual(sourceRows(html), [
      [ORIGIN, ...Array(3).fill('1 booking, 0 enquiries, 0 page views')],
      [SECOND, ...Array(3).fill('1 booking, 1 enquiry, 1 page view')],
      ['Your booking page (its link)', ...Array(3).fill('1 booking, 0 enquiries, 0 page views')],
      ['Your booking page’s QR code', ...Array(3).fill('1 booking, 0 enquiries, 0 page views')],
    ]);
    const venues = /<section aria-labelledby="by-venue">[\s\S]*?<\/section>/.exec(html)![0];
    assert.match(venues, /<th scope="row">The Crown &amp; &lt;Anchor&gt;<\/th><td>3 bookings<br>1 enquiry<\/td>/);
    assert.match(venues, /<th scope="row">Cellar<\/th><td>1 booking<br>0 enquiries<\/td>/);
    // The chart: today first, its numbers in the table and its bar drawn beside them, hidden from screen readers.
    const chart = /<table class="chart"[\s\S]*?<\/table>/.exec(html)![0];
    const days = [...chart.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>(\d+)<\/td><td>(\d+)<\/td>/g)];
    assert.equal(days.length, 14);
    assert.deepEqual(days[0]!.slice(1), ['Sat 28 Nov', '4', '1']);
    assert.deepEqual(days[13]!.slice(1), ['Sun 15 Nov', '0', '0']);
    assert.match(
      chart,
      /aria-hidden="true" focusable="false"><rect class="bar-booked" width="80\.0" height="10"\/><rect class="bar-enquiry" x="80\.0" width="20\.0"/,
    );
    // The server's figures are folded away, and the page says its counts end with this process.
    assert.match(html, /<details class="web-person"><summary>For your web person<\/summary>[\s\S]*id="calls"/);
    assert.match(html, /kept in this server’s memory only/);
    assert.doesNotMatch(html, /of which/);
  });

  test('counts this week from Monday and this month from the 1st, across a month’s end', async () => {
    let now = Date.parse('2026-11-30T12:00:00Z');
    const { book, status } = proxyAt(() => now);
    await book({ origin: ORIGIN });
    now = Date.parse('2026-12-02T12:00:00Z');
    await book({ origin: ORIGIN });
    await book({ origin: ORIGIN });
    const [row] = sourceRows(await status());
    assert.deepEqual(row, [
      ORIGIN,
      '2 bookings, 0 enquiries, 0 page views',
      '3 bookings, 0 enquiries, 0 page views',
      '2 bookings, 0 enquiries, 0 page views',
    ]);
  });
});

describe('the verdict', () => {
  const fine: VerdictInput = { upstream: 'ok', store: 'memory', bookingsCarried: 100, resetAt: null };

  test('bookings going through, or the one thing to do, the most urgent first', () => {
    assert.deepEqual(verdictOf(fine), { kind: 'ok', text: 'Bookings are going through.' });
    assert.equal(verdictOf({ ...fine, upstream: 'frugal' }).kind, 'ok');
    const cases: [Partial<VerdictInput>, RegExp][] = [
      [{ upstream: 'misconfigured', store: 'down' }, /^Action needed: the booking service refuses this server’s keys/],
      [{ upstream: 'failing', bookingsCarried: 0 }, /^Action needed: the booking service is not answering/],
      [
        { bookingsCarried: 0, resetAt: Date.parse('2026-11-28T13:00:00Z') },
        /used up, so bookings wait until 28 Nov, 13:00\./,
      ],
      [
        { store: 'down' },
        /^Action needed: tell your web person that the shared memory between your servers is not reachable/,
      ],
    ];
    for (const [input, text] of cases) {
      const verdict = verdictOf({ ...fine, ...input });
      assert.equal(verdict.kind, 'action', text.source);
      assert.match(verdict.text, text);
    }
    assert.deepEqual(verdictOf({ ...fine, upstream: 'limited' }).kind, 'wait');
  });

  test('says an action on the page when the booking service refuses the keys', async () => {
    const { proxy } = recordingProxy(
      { metrics: new Metrics(), peerAddress: () => '127.0.0.1', publicUrl: undefined },
      () => upstreamJson({ message: 'Unauthorized' }, 401),
    );
    const send = (path: string) => proxy.fetch(new Request(`${HERE}${path}`));
    await send(`/api/venues/${VENUE}/booking-availability?num_people=2`);
    const html = await (await send('/status')).text();
    assert.match(html, /<p class="verdict verdict-action" id="verdict">Action needed: the booking service refuses/);
  });
});

describe('the timing line', () => {
  test('states the two means side by side, never the booking service’s as a part of the answers’', () => {
    const line = timingLine({ proxyMs: 3.58, upstreamMs: 4.35 });
    assert.equal(
      line,
      'This server’s answers took 3.58 ms on average, counting those it gives without asking the booking service. Its own requests to the booking service took 4.35 ms on average.',
    );
    assert.match(timingLine({ proxyMs: 0.4, upstreamMs: null }), /has not asked the booking service anything yet/);
    assert.equal(timingLine({ proxyMs: null, upstreamMs: null }), 'No answers timed yet.');
  });
});
