/** Issue 3 point 11: the hosted web booking page behind next.web. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, avail, setup, T, V1, V2 } from './helpers.js';

/** Fields of every hidden/visible input of the page's booking form. */
function formFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input([^>]*)name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    if (m[1]!.includes('checkbox')) continue; // what a browser sends unticked
    out[m[2]!] = m[3]!.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));
  }
  return out;
}

async function openPage(
  opts: { dialect?: 'spec' | 'live' } = {},
  q: Record<string, unknown>,
  venue: string = V1,
  extra = '',
) {
  const s = setup({ publicUrl: 'http://localhost:5173/sandbox', ...opts });
  const p = (await s.get(avail(venue, q as any))).payload;
  assert.ok(p.next?.web, JSON.stringify(p.validation));
  const web = new URL(p.next.web + extra);
  assert.equal(web.pathname, '/sandbox/book');
  const res = await s.sandbox.fetch(new Request(`http://sandbox.test/book${web.search}`));
  return { s, p, res, html: await res.text() };
}

function submit(s: ReturnType<typeof setup>, fields: Record<string, string>) {
  return s.sandbox.fetch(
    new Request('http://sandbox.test/book', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    }),
  );
}

const guest = { first_name: 'Grace', last_name: "O'Neil", email: 'grace@example.com', phone: '07700900321' };
const table = { type: T.table, num_people: 2, date: '2026-03-23', time: '19:00', duration: 2 };

describe('11. web booking page', () => {
  it('shows the booking details from next.web, under a strict CSP with no script', async () => {
    const { res, html } = await openPage({}, table, V1, '&return_url=https%3A%2F%2Fvenue.example%2Fthanks');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|script-src/);
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /<link|src="http/i, 'no external assets');
    assert.match(html, /Harbour &#38; Vine Quayside/);
    assert.match(html, /Table/);
    assert.match(html, /Monday 23 March 2026/);
    assert.match(html, /19:00/);
    assert.match(html, /2 hours/);
    for (const f of ['first_name', 'last_name', 'email', 'phone']) assert.match(html, new RegExp(`name="${f}"`));
    assert.doesNotMatch(html, /Deposit/);
  });

  it('a link naming the venue only (a venue\'s "book online" link) starts a booking: what, when, how many', async () => {
    const s = setup({ publicUrl: 'http://localhost:5173/sandbox' });
    const start = await s.sandbox.fetch(new Request(`http://sandbox.test/book?venue_id=${V1}`));
    assert.equal(start.status, 200);
    const html = await start.text();
    assert.doesNotMatch(html, /Unknown booking type|could not open/);
    assert.match(html, /<form method="get" action="book">/);
    assert.match(html, new RegExp(`<option value="${T.table}">Table</option>`));
    for (const name of ['num_people', 'date', 'time']) assert.match(html, new RegExp(`name="${name}"[^>]*required`));
    assert.doesNotMatch(html, /<script/i);
    // What the browser sends for that form: the venue carried, the guest's choices added.
    const query = new URLSearchParams({
      ...formFields(html),
      type: T.table,
      num_people: '2',
      date: '2026-03-23',
      time: '19:00',
    });
    const details = await s.sandbox.fetch(new Request(`http://sandbox.test/book?${query}`));
    assert.equal(details.status, 200);
    const form = await details.text();
    assert.match(form, /Confirm your booking/);
    assert.match(form, /Monday 23 March 2026/);
    const booked = await submit(s, { ...formFields(form), ...guest, email: 'start@example.com' });
    assert.equal(booked.status, 200);
    assert.match(await booked.text(), /Your reference is <strong>DMN-\d{11}<\/strong>/);
    const found = await s.get(`/v4/bookings?email=start@example.com&fields=time,num_people`, ADMIN);
    assert.deepEqual(found.payload.bookings, [{ time: '19:00', num_people: 2 }]);
  });

  it('an unknown venue is still refused, and a venue link with an unknown type still says so', async () => {
    const s = setup({ publicUrl: 'http://localhost:5173/sandbox' });
    const unknown = await s.sandbox.fetch(new Request('http://sandbox.test/book?venue_id=64a1f0c2e4b0a1b2c3d4e599'));
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /Unknown venue/);
    const badType = await s.sandbox.fetch(new Request(`http://sandbox.test/book?venue_id=${V1}&type=nope`));
    assert.equal(badType.status, 400);
    assert.match(await badType.text(), /Unknown booking type/);
  });

  it('stores the booking and 303-redirects to return_url with reference, status and names', async () => {
    const { s, html } = await openPage(
      {},
      table,
      V1,
      '&return_url=https%3A%2F%2Fvenue.example%2Fthanks%3Fsrc%3Dwidget',
    );
    const res = await submit(s, { ...formFields(html), ...guest });
    assert.equal(res.status, 303);
    const loc = new URL(res.headers.get('location')!);
    assert.equal(loc.origin + loc.pathname, 'https://venue.example/thanks');
    assert.equal(loc.searchParams.get('src'), 'widget', "keeps the return URL's own query");
    assert.match(loc.searchParams.get('reference')!, /^DMN-\d{11}$/);
    assert.equal(loc.searchParams.get('status'), 'complete');
    assert.equal(loc.searchParams.get('first_name'), 'Grace');
    assert.equal(loc.searchParams.get('last_name'), "O'Neil");
    assert.equal(loc.searchParams.get('email'), 'grace@example.com');
    const found = await s.get(`/v4/bookings?email=grace@example.com&fields=reference,status,duration,time`, ADMIN);
    assert.deepEqual(found.payload.bookings, [
      { reference: loc.searchParams.get('reference'), status: 'complete', duration: 120, time: '19:00' },
    ]);
  });

  it('an enquiry returns status in_progress', async () => {
    const { s, html } = await openPage(
      {},
      { type: T.privateHire, num_people: 20, date: '2026-03-23', time: '18:00', duration: 3 },
      V1,
      '&return_url=http%3A%2F%2Flocalhost%3A5173%2Fdone',
    );
    const res = await submit(s, { ...formFields(html), ...guest });
    assert.equal(res.status, 303);
    assert.equal(new URL(res.headers.get('location')!).searchParams.get('status'), 'in_progress');
  });

  it('lets the form post be redirected to a return page on another origin (form-action covers redirects)', async () => {
    const { s, res, html } = await openPage({}, table, V1, '&return_url=https%3A%2F%2Fvenue.example%2Fthanks');
    assert.match(res.headers.get('content-security-policy')!, /form-action 'self' https:\/\/venue\.example;/);
    const invalid = await submit(s, { ...formFields(html), ...guest, email: '' });
    assert.equal(invalid.status, 400);
    assert.match(invalid.headers.get('content-security-policy')!, /form-action 'self' https:\/\/venue\.example;/);
  });

  it('return_method=post renders a form posting the values back (no script)', async () => {
    const { s, html } = await openPage(
      { dialect: 'live' },
      { ...table, duration: 120 },
      V1,
      '&return_url=https%3A%2F%2Fvenue.example%2Freturn&return_method=post',
    );
    const res = await submit(s, { ...formFields(html), ...guest });
    assert.equal(res.status, 200);
    const page = await res.text();
    assert.match(page, /<form method="post" action="https:\/\/venue.example\/return">/);
    assert.match(page, /Return to the venue/);
    const back = formFields(page);
    assert.match(back.reference!, /^DMN-\d{11}$/);
    assert.equal(back.status, 'complete');
    assert.equal(back.last_name, "O'Neil");
    assert.match(res.headers.get('content-security-policy')!, /form-action 'self' https:\/\/venue.example/);
    assert.doesNotMatch(page, /<script/i);
  });

  it('deposit: a simulated pay step that must succeed before the booking is stored', async () => {
    const { s, html } = await openPage(
      {},
      { type: T.brunch, num_people: 4, date: '2026-03-21', time: '11:00', duration: 1.5 },
      V1,
      '&return_url=https%3A%2F%2Fvenue.example%2Fr',
    );
    assert.match(html, /£40\.00/);
    const fields = { ...formFields(html), ...guest };
    const before = s.sandbox.store.bookings.length;
    const unpaid = await submit(s, fields);
    assert.equal(unpaid.status, 400);
    assert.match(await unpaid.text(), /Pay now/);
    const declined = await submit(s, { ...fields, pay_deposit: 'yes', card_number: '4000 0000 0000 0002' });
    assert.equal(declined.status, 400);
    assert.match(await declined.text(), /declined/);
    assert.equal(s.sandbox.store.bookings.length, before, 'nothing stored until paid');
    const paid = await submit(s, { ...fields, pay_deposit: 'yes', card_number: '4242 4242 4242 4242' });
    assert.equal(paid.status, 303);
    const ref = new URL(paid.headers.get('location')!).searchParams.get('reference');
    const b = (await s.get(`/v4/bookings?email=grace@example.com&fields=reference,deposits`, ADMIN)).payload
      .bookings[0];
    assert.equal(b.reference, ref);
    assert.equal(b.deposits[0].amount, 40);
    assert.equal(b.deposits[0].status, 'paid');
    const notified = await s.get(`/v4/bookings?notifications=deposit_paid&email=grace@example.com`, ADMIN);
    assert.equal(notified.payload.numFound, 1);
  });

  it('pre-orders: required items are picked and stored on the booking', async () => {
    const { s, html } = await openPage(
      {},
      { type: T.masterclass, num_people: 6, date: '2026-03-27', time: '18:00' },
      V2,
    );
    assert.match(html, /Pre-order \(required\)/);
    const fields = { ...formFields(html), ...guest };
    const none = await submit(s, fields);
    assert.equal(none.status, 400);
    assert.match(await none.text(), /at least one pre-order item/);
    const ok = await submit(s, { ...fields, qty_64a1f0c2e4b0a1b2c3d4ed01: '2', qty_64a1f0c2e4b0a1b2c3d4ed02: '1' });
    assert.equal(ok.status, 200, 'no return_url: a confirmation page');
    const page = await ok.text();
    assert.match(page, /Booking confirmed/);
    const b = (await s.get(`/v4/bookings?email=grace@example.com&fields=preorders`, ADMIN)).payload.bookings[0];
    assert.equal(b.preorders[0].total_cost, 2 * 32 + 45);
    assert.equal(b.preorders[0].source, 'customer');
    assert.deepEqual(
      b.preorders[0].items.map((i: any) => i.quantity),
      [2, 1],
    );
    assert.equal((await s.get('/v4/bookings?has_preorders=true&email=grace@example.com', ADMIN)).payload.numFound, 1);
  });

  it('validates guest details, keeping what was typed (escaped)', async () => {
    const { s, html } = await openPage({}, table);
    const res = await submit(s, {
      ...formFields(html),
      first_name: '<script>alert(1)</script>',
      last_name: '',
      email: 'bad',
      phone: '',
    });
    assert.equal(res.status, 400);
    const page = await res.text();
    assert.match(page, /Last name is required/);
    assert.match(page, /Email is not a valid address/);
    assert.doesNotMatch(page, /<script>alert/);
    assert.match(page, /&#60;script&#62;alert\(1\)&#60;\/script&#62;/);
  });

  it('escapes query values and refuses non-http(s) return URLs', async () => {
    const s = setup();
    const evil = await s.sandbox.fetch(
      new Request(
        `http://sandbox.test/book?venue_id=${V1}&type=${T.table}&num_people=2&date=2026-03-23&time=%22%3E%3Cscript%3Ex%3C/script%3E`,
      ),
    );
    assert.doesNotMatch(await evil.text(), /<script>x/);
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,hi',
      '//evil.example',
      'ftp://x.example/',
      'https://user:pw@x.example/',
    ]) {
      const r = await s.sandbox.fetch(
        new Request(
          `http://sandbox.test/book?venue_id=${V1}&type=${T.table}&num_people=2&date=2026-03-23&time=19:00&return_url=${encodeURIComponent(url)}`,
        ),
      );
      assert.equal(r.status, 400, url);
    }
    assert.equal((await s.sandbox.fetch(new Request('http://sandbox.test/book?venue_id=nope'))).status, 400);
    assert.equal((await s.sandbox.fetch(new Request('http://sandbox.test/book', { method: 'DELETE' }))).status, 405);
  });
});
