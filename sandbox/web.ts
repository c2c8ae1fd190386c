/**
 * The hosted web booking page behind `next.web` (§4.2 "web submission"): the guest confirms the
 * details, enters theirs, "pays" a simulated deposit and picks pre-orders when the type needs them;
 * the booking is stored and the guest is sent to `return_url` (303 with query values, or with
 * `return_method=post` a page whose form posts them back).
 *
 * Plain server-rendered HTML: no script at all, one hashed `<style>`, a strict CSP, every value
 * escaped. This keeps the whole redirect flow testable offline with nothing but `fetch`.
 */

import {
  handlingOf,
  packagesOf,
  parseNewBooking,
  plainDate,
  preferencesOf,
  storeBooking,
  type NewBooking,
} from './bookings/index.js';
import { depositPerPerson, durationMinutes, type AvailabilityContext } from './availability/index.js';
import { ApiError, int, list, type Params } from './http.js';
import type { Store } from './store.js';
import { durationLabel, londonDate, londonTimestamp, weekdayOf, type Weekday } from './time.js';
import type { Booking, BookingType, Package, PreorderItem, Venue } from './types.js';

/** HTML-escapes text for element content and double-quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
:root{font-family:system-ui,sans-serif;color:#1d2430;background:#f6f4ef}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin:0 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=text],input[type=email],input[type=tel],input[type=date],input[type=time],input[type=number],select,textarea{width:100%;padding:.5rem;border:1px solid #8a8f98;border-radius:.375rem;box-sizing:border-box;font:inherit}
.check{display:flex;gap:.5rem;align-items:center;font-weight:400}
.errors{background:#fdecea;color:#8a1c12;padding:.75rem 1rem;border-radius:.375rem}
.note{color:#4a5160;font-size:.9rem}
button{margin-top:1.25rem;padding:.65rem 1.25rem;border:0;border-radius:.375rem;background:#1f5f8b;color:#fff;font:inherit;cursor:pointer}
table{width:100%;border-collapse:collapse}td{padding:.25rem 0}td.qty{width:5rem}
`;

let styleHash: Promise<string> | undefined;
function hashOfStyle(): Promise<string> {
  return (styleHash ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(STYLE)).then((buf) => {
    let bin = '';
    for (const b of new Uint8Array(buf)) bin += String.fromCharCode(b);
    return `'sha256-${btoa(bin)}'`;
  }));
}

async function page(status: number, title: string, body: string, formTarget?: string): Promise<Response> {
  const formAction = formTarget ? `'self' ${formTarget}` : `'self'`;
  const csp = `default-src 'none'; style-src ${await hashOfStyle()}; img-src 'none'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'self'`;
  const html =
    `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  });
}

/** A return_url is allowed only as an absolute http(s) URL without credentials. */
export function safeReturnUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length > 2000) return null;
  try {
    const u = new URL(raw);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password ? u : null;
  } catch {
    return null;
  }
}

/** Booking details carried from `next.web`'s query into the form as hidden fields. */
const CARRIED = [
  'venue_group',
  'venue_id',
  'type',
  'num_people',
  'date',
  'time',
  'duration',
  'source',
  'offer',
  'return_url',
  'return_method',
] as const;

interface Context {
  store: Store;
  ctx: AvailabilityContext;
  now: number;
}

/** The deposit a booking takes (a `deposit-required` scenario sets a floor a head). */
function deposit(c: Context, t: BookingType, people: number): number {
  return depositPerPerson(c.ctx, t) * people;
}

const money = (n: number) => `£${n.toFixed(2)}`;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAY_NAMES: Record<Weekday, string> = {
  sunday: 'Sunday',
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
};

function summary(venue: Venue, t: BookingType, p: Params): string {
  const duration = durationMinutes(p.duration);
  const date = plainDate(p.date);
  const dateText = date
    ? `${WEEKDAY_NAMES[weekdayOf(date)]} ${Number(date.slice(8))} ${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`
    : '';
  return (
    `<dl><dt>Venue</dt><dd>${escapeHtml(venue.title)}</dd><dt>Booking</dt><dd>${escapeHtml(t.name)}</dd>` +
    `<dt>Date</dt><dd>${escapeHtml(dateText)}</dd><dt>Time</dt><dd>${escapeHtml(p.time)}</dd>` +
    `<dt>Guests</dt><dd>${escapeHtml(p.num_people)}</dd>` +
    (duration !== undefined ? `<dt>Duration</dt><dd>${escapeHtml(durationLabel(duration))}</dd>` : '') +
    `</dl>`
  );
}

function field(name: string, labelText: string, type: string, values: Params, extra = ''): string {
  const id = `f-${name}`;
  return `<label for="${id}">${escapeHtml(labelText)}</label><input id="${id}" name="${name}" type="${type}" value="${escapeHtml(values[name] ?? '')}" ${extra}>`;
}

async function errorPage(status: number, message: string): Promise<Response> {
  return page(
    status,
    'Booking not possible',
    `<h1>We could not open this booking</h1><p class="errors" role="alert">${escapeHtml(message)}</p>`,
  );
}

/** Looks up the venue and type named by the query; an error message when they do not exist. */
function lookup(store: Store, p: Params): { venue: Venue; type: BookingType } | string {
  const venue = typeof p.venue_id === 'string' ? store.venues.get(p.venue_id) : undefined;
  if (!venue) return 'Unknown venue.';
  const type = venue.booking_types.find((t) => t.id === p.type);
  if (!type) return 'Unknown booking type for this venue.';
  if (p.return_url !== undefined && p.return_url !== '' && !safeReturnUrl(p.return_url))
    return 'The return address must be an http or https URL.';
  return { venue, type };
}

function form(c: Context, venue: Venue, t: BookingType, p: Params, errors: string[]): string {
  const { store } = c;
  const people = int(p.num_people) ?? 0;
  const dep = deposit(c, t, people);
  const pre = t.rules.preorders ?? 'none';
  const hidden = CARRIED.filter((k) => p[k] !== undefined)
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(p[k])}">`)
    .join('');
  const prefs = preferencesOf(store, venue);
  const chosenPrefs = new Set(list(p.marketing_preferences));
  const items = packagesOf(store, venue);
  return (
    `<h1>Confirm your booking</h1>${summary(venue, t, p)}` +
    (errors.length
      ? `<div class="errors" role="alert"><p>Please check:</p><ul>${errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul></div>`
      : '') +
    `<form method="post" action="book" novalidate>${hidden}<h2>Your details</h2>` +
    field('first_name', 'First name', 'text', p, 'autocomplete="given-name" required') +
    field('last_name', 'Last name', 'text', p, 'autocomplete="family-name" required') +
    field('email', 'Email', 'email', p, 'autocomplete="email" required') +
    field('phone', 'Phone', 'tel', p, 'autocomplete="tel" required') +
    field('dob', 'Date of birth (optional)', 'date', p, 'autocomplete="bday"') +
    `<label for="f-notes">Requests (optional)</label><textarea id="f-notes" name="notes" rows="3">${escapeHtml(p.notes ?? '')}</textarea>` +
    (prefs.length
      ? `<h2>Keep in touch</h2>${prefs.map((m) => `<label class="check"><input type="checkbox" name="marketing_preferences[]" value="${escapeHtml(m.id)}"${chosenPrefs.has(m.id) ? ' checked' : ''}> ${escapeHtml(m.name)}</label><p class="note">${escapeHtml(m.description)}</p>`).join('')}`
      : '') +
    (pre !== 'none' && items.length
      ? `<h2>Pre-order${pre === 'required' ? ' (required)' : ' (optional)'}</h2><table>${items.map((it) => `<tr><td><label for="q-${escapeHtml(it.id)}">${escapeHtml(it.name)} — ${money(it.price)}</label></td><td class="qty"><input id="q-${escapeHtml(it.id)}" name="qty_${escapeHtml(it.id)}" type="number" min="0" max="50" value="${escapeHtml(p[`qty_${it.id}`] ?? '0')}"></td></tr>`).join('')}</table>`
      : '') +
    (dep > 0
      ? `<h2>Deposit</h2><p>A deposit of <strong>${money(dep)}</strong> (${people} × ${money(depositPerPerson(c.ctx, t))}) secures this booking.</p>` +
        `<p class="note">Sandbox: no money moves. Card 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.</p>` +
        field('card_number', 'Card number', 'text', p, 'inputmode="numeric" autocomplete="cc-number"') +
        `<label class="check"><input type="checkbox" name="pay_deposit" value="yes"${p.pay_deposit ? ' checked' : ''}> Pay ${money(dep)} now</label>`
      : '') +
    `<button type="submit">${dep > 0 ? `Pay ${money(dep)} and book` : 'Book'}</button></form>`
  );
}

/**
 * The origin the booking form's submission is redirected to. Browsers apply `form-action` to the
 * redirect after a form post too, so the return page's origin must be allowed on the form page,
 * or a guest coming from a venue's site on another origin would be stuck here.
 */
function returnOrigin(params: Params): string | undefined {
  return safeReturnUrl(params.return_url)?.origin;
}

/**
 * The start of the booking site, for a link that names the venue only (`/book?venue_id=…`, as a
 * venue's own "book online" link does): what, when and for how many, as a plain GET form whose
 * answer is the query `next.web` carries, so the details form follows. The browser checks the
 * fields it asks for; the booking itself is checked as every web booking is, on submit.
 */
function startPage(c: Context, venue: Venue, query: Params): Promise<Response> {
  const carried = (['venue_group', 'venue_id', 'source', 'return_url', 'return_method'] as const)
    .filter((key) => typeof query[key] === 'string' && query[key] !== '')
    .map((key) => `<input type="hidden" name="${key}" value="${escapeHtml(query[key])}">`)
    .join('');
  const types = venue.booking_types
    .map((type) => `<option value="${escapeHtml(type.id)}">${escapeHtml(type.name)}</option>`)
    .join('');
  return page(
    200,
    `Book at ${venue.title}`,
    `<h1>Book at ${escapeHtml(venue.title)}</h1><form method="get" action="book">${carried}` +
      `<label for="f-type">Booking</label><select id="f-type" name="type" required>${types}</select>` +
      field('num_people', 'Guests', 'number', { num_people: '2' }, 'min="1" max="500" required') +
      field('date', 'Date', 'date', {}, `min="${londonDate(c.now)}" required`) +
      field('time', 'Time', 'time', {}, 'step="900" required') +
      `<button type="submit">Continue</button></form>`,
    returnOrigin(query),
  );
}

/** GET /book: the form for the details in the query, or the start of a booking for a venue-only link. */
export async function showBookingPage(c: Context, query: Params): Promise<Response> {
  const venue = typeof query.venue_id === 'string' ? c.store.venues.get(query.venue_id) : undefined;
  if (venue && (query.type === undefined || query.type === '')) return startPage(c, venue, query);
  const found = lookup(c.store, query);
  if (typeof found === 'string') return errorPage(400, found);
  return page(
    200,
    `Book ${found.type.name} at ${found.venue.title}`,
    form(c, found.venue, found.type, query, []),
    returnOrigin(query),
  );
}

function chosenItems(items: Package[], p: Params, errors: string[]): PreorderItem[] {
  const out: PreorderItem[] = [];
  for (const it of items) {
    const raw = p[`qty_${it.id}`];
    if (raw === undefined || raw === '' || raw === '0') continue;
    const q = int(raw);
    if (q === undefined || q < 0 || q > 50) {
      errors.push(`Quantity of ${it.name} must be from 0 to 50.`);
      continue;
    }
    if (q === 0) continue;
    out.push({
      id: it.id,
      name: it.name,
      description: it.description ?? '',
      plu: '',
      type: it.type,
      sub_type: it.sub_type ?? '',
      surcharge: '',
      options_string: '',
      base_price: it.price,
      options_price: 0,
      price: it.price,
      discount_value: 0,
      total: it.price * q,
      quantity: q,
      options: [],
    });
  }
  return out;
}

/** The simulated deposit payment: what is wrong with the card or the tick box, if anything. */
function depositProblem(body: Params, dep: number): string | null {
  if (dep <= 0) return null;
  const card = String(body.card_number ?? '').replace(/\s+/g, '');
  if (!body.pay_deposit) return 'Tick "Pay now" to pay the deposit.';
  if (!/^\d{12,19}$/.test(card)) return 'Enter a card number (use 4242 4242 4242 4242).';
  if (card === '4000000000000002') return 'The card was declined (simulated). Try 4242 4242 4242 4242.';
  return null;
}

/** The guest's booking read as POST /bookings reads it; its problems join `errors` as text. */
function readGuestBooking(c: Context, body: Params, errors: string[]): NewBooking | undefined {
  try {
    // The web page always collects email and phone; the source comes from next.web (default partner).
    const params: Params = {
      ...body,
      source: typeof body.source === 'string' && body.source ? body.source : 'partner',
    };
    delete params.venue_group;
    const nb = parseNewBooking(c.store, params, c.now, c.ctx);
    if (!nb.email) errors.push('Email is required.');
    if (!nb.phone) errors.push('Phone is required.');
    return nb;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    for (const fe of e.errors.length ? e.errors : [{ message: e.message }]) errors.push(fe.message);
    return undefined;
  }
}

/** The paid deposit and the customer's pre-order a web booking carries beyond POST /bookings. */
function paidExtras(c: Context, venue: Venue, nb: NewBooking, dep: number, items: PreorderItem[]): Partial<Booking> {
  const stamp = londonTimestamp(c.now);
  const extra: Partial<Booking> = {};
  if (dep > 0) extra.deposits = [{ amount: dep, status: 'paid', date: stamp }];
  if (items.length) {
    const total = items.reduce((sum, i) => sum + i.total, 0);
    extra.preorders = [
      {
        id: c.store.newId(),
        created_date: stamp,
        name:
          venue.preorder_menus?.[0]?.name ??
          c.store.groups.get(venue.venue_group)?.preorder_menus?.[0]?.name ??
          'Pre-order',
        email: nb.email ?? '',
        items,
        total_cost: total,
        amount_paid: 0,
        service_charge_percentage: 12.5,
        service_charge_amount: Math.round(total * 12.5) / 100,
        status: 'complete',
        source: 'customer',
      },
    ];
  }
  return extra;
}

/** Sends the guest back: a 303 to return_url, a page that posts to it (return_method=post), or a thank-you page. */
function returnGuest(body: Params, venue: Venue, booking: Booking, confirmed: boolean): Promise<Response> | Response {
  const values: Record<string, string> = {
    reference: booking.reference,
    status: confirmed ? 'complete' : 'in_progress',
    first_name: booking.first_name,
    last_name: booking.last_name,
    email: booking.email ?? '',
  };
  const ret = safeReturnUrl(body.return_url);
  const heading = `<h1>${confirmed ? 'Booking confirmed' : 'Enquiry received'}</h1>`;
  if (ret && body.return_method === 'post') {
    const fields = Object.entries(values)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
      .join('');
    return page(
      200,
      'Booking received',
      `${heading}<p>Your reference is <strong>${escapeHtml(booking.reference)}</strong>.</p>` +
        `<form method="post" action="${escapeHtml(ret.href)}">${fields}<button type="submit">Return to the venue</button></form>`,
      ret.origin,
    );
  }
  if (ret) {
    for (const [k, v] of Object.entries(values)) ret.searchParams.set(k, v);
    return new Response(null, { status: 303, headers: { location: ret.href, 'cache-control': 'no-store' } });
  }
  return page(
    200,
    'Booking received',
    `${heading}<p>Thank you, ${escapeHtml(booking.first_name)}. Your reference is <strong>${escapeHtml(booking.reference)}</strong>.</p>` +
      (confirmed ? '' : `<p>${escapeHtml(venue.title)} will be in touch to confirm.</p>`),
  );
}

/** POST /book: validates, "charges" the deposit, stores the booking and returns the guest. */
export async function submitBookingPage(c: Context, body: Params): Promise<Response> {
  const found = lookup(c.store, body);
  if (typeof found === 'string') return errorPage(400, found);
  const { venue, type } = found;
  const errors: string[] = [];
  const dep = deposit(c, type, int(body.num_people) ?? 0);
  const payment = depositProblem(body, dep);
  if (payment) errors.push(payment);
  const pre = type.rules.preorders ?? 'none';
  const items = pre === 'none' ? [] : chosenItems(packagesOf(c.store, venue), body, errors);
  if (pre === 'required' && !items.length && !errors.length) errors.push('Choose at least one pre-order item.');
  const nb = readGuestBooking(c, body, errors);
  if (errors.length || !nb)
    return page(400, 'Check your booking', form(c, venue, type, body, errors), returnOrigin(body));

  const confirmed = handlingOf(c.ctx, nb) === 'confirmed';
  const booking = storeBooking(c.store, nb, {
    now: c.now,
    createdBy: 'web',
    status: confirmed ? 'complete' : 'new',
    extra: paidExtras(c, venue, nb, dep, items),
  });
  c.store.update(booking, {
    flags: {
      ...booking.flags,
      ...(dep > 0 ? { deposit_paid: true } : {}),
      ...(items.length ? { customer_preorder_added: true, customer_preorder_complete: true } : {}),
    },
  });
  return returnGuest(body, venue, booking, confirmed);
}
