/**
 * The venue-facing pages in real browsers, served by the real proxy of a fresh stack with the
 * widget bundle: the booking page `/book/<id>` books a real table in the link's language, and to
 * the end under this machine's other name; its 404 page, axe-core on the booking page and the
 * status page, and the status page on a 360 px phone.
 */
import { expect } from '@open-wc/testing';
import type { VenueBooking } from '../../src/venue-booking.js';
import { formatViolations, type AxeViolation } from '../support/demo-frame.js';
import {
  DEMO_VENUE,
  newStack,
  storedBookings,
  TYPES,
  until,
  WidgetPage,
  type TestStack,
} from '../support/widget-page.js';
import { withProof } from '../support/bot-proof.js';
import { closeFrames, openFrame } from '../support/frames.js';

afterEach(() => {
  closeFrames();
  sessionStorage.clear();
});

type AxeWindow = Window & { axe?: { run(context: Document): Promise<{ violations: AxeViolation[] }> } };

/** axe-core's violations for the document of `frame`; `nonce` lets the script run under the page's CSP. */
async function axeViolations(frame: HTMLIFrameElement, nonce = ''): Promise<AxeViolation[]> {
  const doc = frame.contentDocument!;
  const script = doc.createElement('script');
  script.src = '/node_modules/axe-core/axe.min.js';
  script.nonce = nonce;
  const ready = new Promise((resolve, reject) => {
    script.onload = resolve;
    script.onerror = () => reject(new Error('axe-core did not load'));
  });
  doc.head.append(script);
  await ready;
  return (await (frame.contentWindow as AxeWindow).axe!.run(doc)).violations;
}

/** The booking page of a stack's venue, once its widget has drawn its first step. */
async function bookingPage(stack: TestStack, query = ''): Promise<HTMLIFrameElement> {
  const frame = await openFrame(`${stack.base}/book/${DEMO_VENUE}${query}`, 'booking page');
  await until(
    () => frame.contentDocument!.querySelector('venue-booking')?.shadowRoot?.querySelector('[part~="step"]'),
    'the booking page’s widget',
  );
  return frame;
}

describe('the booking page', () => {
  it('books a real table through the proxy, in the language of the link', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const frame = await bookingPage(stack, '?locale=fr&accent=%23155e3b');
    const doc = frame.contentDocument!;
    expect(doc.documentElement.lang).to.equal('fr');
    expect(doc.querySelector('h1')!.textContent).to.equal('Réserver chez Harbour & Vine Quayside');
    expect(doc.querySelector('meta[name="description"]')!.getAttribute('content')).to.contain('Réservez une table');
    expect(doc.querySelector('.practice')!.textContent).to.contain('Mode d’essai');
    const element = doc.querySelector<VenueBooking>('venue-booking')!;
    expect(getComputedStyle(element).getPropertyValue('--vb-accent').trim()).to.equal('#155e3b');
    const page = new WidgetPage(element);
    await page.completeSteps({
      type: (button) => /^table\b/i.test(button.textContent!.trim()),
      num_people: (button) => button.dataset.value === '2',
    });
    const email = `book-page-${Date.now()}@example.com`;
    await page.fillDetails({ first_name: 'Grace', last_name: 'Hopper', email, phone: '+44 7700 900456' });
    page.submit();
    const reference = await page.reference();
    const stored = await storedBookings(stack, email);
    expect(stored.map((booking) => booking.reference)).to.deep.equal([reference]);
  });

  it('books to the end opened under this machine’s other name (localhost for 127.0.0.1, or the reverse)', async () => {
    // The stack names itself by the other name, as `npm start` names `localhost` while a guest
    // types `127.0.0.1`: this page, at its own name, opens the booking page under the second one.
    const stack = await newStack({ proxy: { widget: true, otherName: true } });
    const frame = await bookingPage(stack);
    const doc = frame.contentDocument!;
    const canonical = new URL(doc.querySelector<HTMLLinkElement>('link[rel="canonical"]')!.href);
    expect(canonical.hostname).to.not.equal(location.hostname, 'the page is opened under a second name');
    expect(['localhost', '127.0.0.1']).to.include(canonical.hostname);
    const page = new WidgetPage(doc.querySelector<VenueBooking>('venue-booking')!);
    await page.completeSteps({
      type: (button) => /^table\b/i.test(button.textContent!.trim()),
      num_people: (button) => button.dataset.value === '2',
    });
    const email = `second-name-${Date.now()}@example.com`;
    await page.fillDetails({ first_name: 'Grace', last_name: 'Hopper', email, phone: '+44 7700 900456' });
    page.submit();
    const reference = await page.reference();
    const stored = await storedBookings(stack, email);
    expect(stored.map((booking) => booking.reference)).to.deep.equal([reference]);
  });

  it('is accessible (axe-core), the widget and the venue’s address and contact included', async () => {
    const profile = {
      phone: '+44 20 7946 0000',
      email: 'bookings@quayside.example',
      address: '1 Quay Street\nBristol',
    };
    const stack = await newStack({ proxy: { widget: true, profiles: { [DEMO_VENUE]: profile } } });
    const frame = await bookingPage(stack);
    const contact = frame.contentDocument!.querySelector('.book-contact address')!;
    expect(contact.querySelector('a[href="tel:+442079460000"]')!.textContent).to.equal('+44 20 7946 0000');
    expect(contact.textContent).to.contain('1 Quay Street');
    const nonce = frame.contentDocument!.querySelector<HTMLScriptElement>('script[nonce]')!.nonce;
    expect(formatViolations(await axeViolations(frame, nonce))).to.equal('');
  });

  it('carries the venue as JSON-LD the browser reads, bookable at its canonical address, its widget running beside it', async () => {
    const profile = { phone: '+44 20 7946 0000', address: '1 Quay Street\nBristol BS1 4DJ' };
    const stack = await newStack({ proxy: { widget: true, profiles: { [DEMO_VENUE]: profile } } });
    const frame = await bookingPage(stack, '?locale=de');
    const doc = frame.contentDocument!;
    const blocks = doc.querySelectorAll('script[type="application/ld+json"]');
    expect(blocks.length).to.equal(1);
    const data = JSON.parse(blocks[0]!.textContent!);
    const canonical = doc.querySelector<HTMLLinkElement>('link[rel="canonical"]')!.href;
    expect(canonical).to.match(/\/book\/[0-9a-f]{24}\?locale=de$/);
    expect(data['@type']).to.equal('FoodEstablishment');
    expect(data.name).to.be.a('string').and.not.equal('');
    expect(data.telephone).to.equal(profile.phone);
    expect(data.address.postalCode).to.equal('BS1 4DJ');
    expect(data.acceptsReservations).to.equal(canonical);
    expect(data.potentialAction.target.urlTemplate).to.equal(canonical);
    // The page's phone, once: its contact block (the widget's fallback does not repeat it).
    expect(doc.querySelectorAll('a[href^="tel:"]').length).to.equal(1);
  });

  it('answers an id the proxy does not serve with a 404 page in the link’s language', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const response = await fetch(`${stack.base}/book/64a1f0c2e4b0a1b2c3d4e599?locale=es`);
    expect(response.status).to.equal(404);
    const frame = await openFrame(`${stack.base}/book/64a1f0c2e4b0a1b2c3d4e599?locale=es`, 'no page');
    expect(frame.contentDocument!.querySelector('h1')!.textContent).to.equal('Aquí no hay ninguna página de reservas');
    expect(getComputedStyle(frame.contentDocument!.body).marginTop).to.not.equal('8px', 'its stylesheet loaded');
  });
});

describe('the status page', () => {
  it('is accessible (axe-core) and says it runs on the sandbox', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    // The page runs no script at all (`script-src 'none'`), so axe checks the same markup and
    // stylesheet in a frame of the test page's own, which allows it.
    const html = await (await fetch(`${stack.base}/status`)).text();
    const frame = await openFrame(
      {
        srcdoc: html
          .replace('<head>', `<head><base href="${location.origin}${stack.base}/">`)
          .replace(/<meta http-equiv="refresh"[^>]*>/, ''),
      },
      'status page',
    );
    const doc = frame.contentDocument!;
    await until(() => doc.styleSheets.length > 0 && getComputedStyle(doc.body).maxWidth !== 'none', 'its stylesheet');
    expect(doc.querySelector('.practice')!.textContent).to.contain('Bookings here are not real.');
    expect(doc.body.textContent).to.not.match(/forbidden_origin|Upstream calls left|Bookings they carry/);
    expect(formatViolations(await axeViolations(frame))).to.equal('');
  });

  it('fits a 360 px phone with bookings counted: no sideways scroll, its details open or closed', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    // The QR code's link opened (a page view), and a booking from it and from the page's link: the
    // browser sends the page's address to its own origin, as the booking page's widget does.
    await openFrame(`${stack.base}/book/${DEMO_VENUE}?via=qr`, 'booking page from the QR code');
    // A week ahead in London, as YYYY-MM-DD from its parts (engines differ in how en-CA writes a date).
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' })
        .formatToParts(Date.now() + 7 * 86_400_000)
        .map((part) => [part.type, part.value]),
    );
    const date = `${parts.year}-${parts.month}-${parts.day}`;
    for (const [query, time] of [
      ['?via=qr', '18:00'],
      ['', '18:15'],
    ]) {
      // With a proof of work solved as the widget solves it: the bot check is on.
      const url = `${stack.api}/bookings`;
      const booked = await fetch(
        url,
        await withProof(fetch, url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          referrer: `${location.origin}${stack.base}/book/${DEMO_VENUE}${query}`,
          body: JSON.stringify({
            venue_id: DEMO_VENUE,
            type: TYPES.table,
            date,
            time,
            num_people: 2,
            duration: 2,
            first_name: 'Grace',
            last_name: 'Hopper',
            email: `status-phone-${Date.now()}@example.com`,
            phone: '+44 7700 900456',
          }),
        }),
      );
      expect(booked.status, await booked.clone().text()).to.equal(200);
    }
    const frame = await openFrame(`${stack.base}/status`, 'status page on a phone', { width: 360 });
    const doc = frame.contentDocument!;
    await until(() => getComputedStyle(doc.body).maxWidth !== 'none', 'its stylesheet');
    expect(doc.querySelector('#verdict')!.textContent).to.equal('Bookings are going through.');
    const rows = [...doc.querySelectorAll('section[aria-labelledby="by-source"] tbody tr')].map((row) =>
      [...row.children].map((cell) => (cell as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
    );
    expect(rows).to.deep.include([
      'Your booking page’s QR code',
      ...Array(3).fill('1 booking 0 enquiries 1 page view'),
    ]);
    expect(rows).to.deep.include([
      'Your booking page (its link)',
      ...Array(3).fill('1 booking 0 enquiries 0 page views'),
    ]);
    const root = doc.documentElement;
    expect(root.scrollWidth, 'closed').to.be.at.most(root.clientWidth);
    doc.querySelector('details')!.open = true;
    expect(root.scrollWidth, 'with the details open').to.be.at.most(root.clientWidth);
  });
});
