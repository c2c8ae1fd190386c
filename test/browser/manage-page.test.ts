/**
 * The guest's manage page `/manage/<token>` (issue 36) in real browsers, served by the real proxy of
 * a fresh stack: a table booked through the API (with the bot check's proof) opens its page from
 * the answer's `manage_url`, on 412 and 360 px phones, with the booking and the venue's phone, and
 * no axe-core violation; the page's no-script cancel form, pressed and confirmed in the browser,
 * cancels the booking in the sandbox (the browser's own same-origin POST from a `no-referrer` page
 * passes the proxy's same-origin check in each engine); and the change page loads the widget
 * prefilled, past the type step.
 */
import { expect } from '@open-wc/testing';
import type { VenueBooking } from '../../src/venue-booking.js';
import { formatViolations, operatorPageViolations } from '../support/demo-frame.js';
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
import { closeFrames, nextLoad, openFrame } from '../support/frames.js';

/** The venue's phone, and guests may cancel online up to 24 hours before. */
const PROFILE = { phone: '+44 20 7946 0000', cancellation: { online: true, hours_before: 24 } };

afterEach(closeFrames);

/** London's date a week from now (`yyyy-MM-dd`), from its parts (engines order en-CA differently). */
function aWeekAhead(): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(Date.now() + 7 * 86_400_000)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Books a table for three through the API, as the widget does: the booking and its manage link. */
async function book(stack: TestStack, email: string) {
  const date = aWeekAhead();
  const url = `${stack.api}/bookings`;
  const answer = await fetch(
    url,
    await withProof(fetch, url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        venue_id: DEMO_VENUE,
        type: TYPES.table,
        date,
        time: '18:00',
        num_people: 3,
        duration: 2,
        first_name: 'Grace',
        last_name: 'Hopper',
        email,
        phone: '+44 7700 900456',
      }),
    }),
  );
  const body = await answer.json();
  expect(answer.status, JSON.stringify(body)).to.equal(200);
  const manage: string = body.payload.manage_url;
  expect(manage, 'the answer’s manage link').to.match(/\/manage\/[A-Za-z0-9_-]+$/);
  return { reference: body.payload.booking.reference as string, date, manage };
}

/** The page's details as term → value. */
const detailsOf = (doc: Document) =>
  Object.fromEntries(
    [...doc.querySelectorAll('.manage dt')].map((term) => [
      term.textContent!,
      (term.nextElementSibling as HTMLElement).textContent!,
    ]),
  );

/**
 * axe-core's violations for the page in `frame`, once its stylesheet applies (colours are checked).
 * The page runs no script at all (`script-src 'none'`), so axe checks the same markup, at the same
 * address and width, in a frame of the test page's own, which allows it (as venue-pages.test.ts
 * does for the status page).
 */
async function violations(frame: HTMLIFrameElement): Promise<string> {
  const page = frame.contentDocument!;
  const copy = await openFrame(
    {
      srcdoc: page.documentElement.outerHTML.replace(
        '<head>',
        `<head><base href="${frame.contentWindow!.location.href}">`,
      ),
    },
    `${frame.title}, for axe-core`,
    { width: frame.clientWidth },
  );
  const doc = copy.contentDocument!;
  await until(() => getComputedStyle(doc.body).maxWidth !== 'none', 'the page’s stylesheet');
  return formatViolations(await operatorPageViolations(doc));
}

describe('the guest’s manage page', () => {
  for (const width of [412, 360]) {
    it(`shows the booking and the venue’s phone on a ${width} px phone, accessible (axe-core)`, async () => {
      const stack = await newStack({ proxy: { widget: true, profiles: { [DEMO_VENUE]: PROFILE } } });
      const booked = await book(stack, `manage-page-${width}-${Date.now()}@example.com`);
      const frame = await openFrame(booked.manage, 'manage page', { width });
      const doc = frame.contentDocument!;
      expect(doc.querySelector('h1')!.textContent).to.equal('Your booking');
      const details = detailsOf(doc);
      expect(details.Reference).to.equal(booked.reference);
      const [year, month, day] = booked.date.split('-').map(Number) as [number, number, number];
      const monthName = new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' }).format(
        Date.UTC(year, month - 1, day),
      );
      expect(details.Date).to.contain(`${day} ${monthName} ${year}`);
      expect(details.Time).to.equal('18:00');
      expect(details.People).to.equal('3');
      expect(details.Status).to.equal('Confirmed');
      const phone = doc.querySelector<HTMLAnchorElement>('a[href^="tel:"]');
      expect(phone, 'the venue’s phone').to.not.equal(null);
      expect(phone!.getAttribute('href')).to.equal('tel:+442079460000');
      expect(phone!.textContent).to.equal(PROFILE.phone);
      const root = doc.documentElement;
      expect(root.scrollWidth, 'no sideways scroll').to.be.at.most(root.clientWidth);
      expect(await violations(frame)).to.equal('');
    });
  }

  it('cancels through its no-script form: the confirm step, then the sandbox holds the booking rejected', async () => {
    const stack = await newStack({ proxy: { widget: true, profiles: { [DEMO_VENUE]: PROFILE } } });
    const email = `manage-cancel-${Date.now()}@example.com`;
    const booked = await book(stack, email);
    const frame = await openFrame(booked.manage, 'manage page', { width: 412 });
    const cancel = [...frame.contentDocument!.querySelectorAll<HTMLAnchorElement>('.manage a')].find(
      (link) => link.textContent === 'Cancel this booking',
    );
    expect(cancel, 'the cancel button').to.not.equal(undefined);
    let loaded = nextLoad(frame);
    cancel!.click();
    await loaded;
    const confirm = frame.contentDocument!;
    expect(confirm.querySelector('form strong')!.textContent).to.equal('Do you want to cancel this booking?');
    expect(await violations(frame)).to.equal('');
    const yes = confirm.querySelector<HTMLButtonElement>('form button[type="submit"]')!;
    expect(yes.textContent).to.equal('Yes, cancel it');
    loaded = nextLoad(frame);
    yes.click();
    await loaded;
    const answered = frame.contentDocument!;
    // The proxy's 403 page for a POST it took for another site's says "Your booking" with no details.
    expect(answered.querySelector('[role="status"]')?.textContent, answered.body.textContent!).to.equal(
      'Your booking is cancelled.',
    );
    expect(detailsOf(answered).Status).to.equal('Cancelled');
    const stored = await storedBookings(stack, email);
    expect(stored.map((booking) => [booking.reference, booking.status])).to.deep.equal([
      [booked.reference, 'rejected'],
    ]);
    expect(await violations(frame)).to.equal('');
  });

  it('opens the change page with the widget prefilled, past the type step', async () => {
    const stack = await newStack({ proxy: { widget: true, profiles: { [DEMO_VENUE]: PROFILE } } });
    const booked = await book(stack, `manage-change-${Date.now()}@example.com`);
    const frame = await openFrame(`${booked.manage}/change`, 'change page', { width: 412 });
    const doc = frame.contentDocument!;
    expect(doc.querySelector('h1')!.textContent).to.equal('Change your booking');
    const element = doc.querySelector<VenueBooking>('venue-booking')!;
    expect(element.getAttribute('date')).to.equal(booked.date);
    expect(element.getAttribute('num-people')).to.equal('3');
    const page = new WidgetPage(element);
    const step = await until(() => page.currentStep(), 'the widget’s first step');
    expect(step).to.not.equal('type');
  });
});
