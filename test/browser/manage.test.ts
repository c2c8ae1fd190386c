/**
 * A guest's own booking after "Booking confirmed" (issue 36), through the built widget, the real
 * proxy and the sandbox: the manage link on the confirmation, in the calendar file and in
 * `vb-complete` (kept across a reload); a change with `replaces` (the new booking confirmed, the old
 * one `rejected` in the sandbox, `vb-changed`); and the change's "Cancel this booking instead" (a
 * confirm step, `vb-cancelled`, "already cancelled" the second time; inside the venue's notice
 * window refused with the proxy's message and the venue's phone). The proxy's clock is the real
 * one (it dates the links and the window), so the sandbox keeps real time too and the bookings are
 * on days its availability offers from today.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { browserEngine } from '../support/engine.js';
import type {
  VenueBookingCancelledDetail,
  VenueBookingChangedDetail,
  VenueBookingCompleteDetail,
} from '../../src/state/element-types.js';
import {
  DEMO_VENUE,
  guest,
  newStack,
  storedBookings,
  TYPES,
  until,
  WidgetPage,
  type TestStack,
} from '../support/widget-page.js';

/** The venue's profile with the proxy: its phone, and guests may cancel online up to 24 hours before. */
const PROFILE = { phone: '020 7946 0000', cancellation: { online: true, hours_before: 24 } };

/** London's date `days` from now (`yyyy-MM-dd`). */
function londonDay(days: number): string {
  // From the parts: engines write a locale's date in their own order (WebKit's en-CA is month first).
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(Date.now() + days * 86_400_000);
  const part = (type: string) => parts.find((item) => item.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Events of one kind an element fires, as they come. */
function heard<T>(element: HTMLElement, name: string): T[] {
  const details: T[] = [];
  element.addEventListener(name, (event) => details.push((event as CustomEvent<T>).detail));
  return details;
}

/**
 * Books a table through a widget on a date in `[from, to]` (the first the calendar offers), at the
 * first time offered other than `not`: the reference, the date, the time and the confirmation's page.
 */
async function bookTable(
  stack: TestStack,
  who: ReturnType<typeof guest>,
  {
    from,
    to,
    not,
    replaces,
    analytics = false,
  }: { from: string; to: string; not?: string; replaces?: string; analytics?: boolean },
) {
  const element = await fixture<VenueBooking>(
    html`<venue-booking
      id=${`w${Math.random()}`}
      venue=${DEMO_VENUE}
      api=${stack.api}
      replaces=${replaces ?? ''}
      ?analytics=${analytics}
    ></venue-booking>`,
  );
  const page = new WidgetPage(element);
  await page.chooseValue('type', TYPES.table);
  await page.waitForStep('date');
  await page.showMonth(from);
  const date = await page.choose('date', (day) => WidgetPage.value(day) >= from && WidgetPage.value(day) <= to);
  const time = await page.choose('time', (button) => WidgetPage.value(button) !== not);
  await page.completeSteps({ num_people: (button) => WidgetPage.value(button) === '2' });
  await page.fillDetails(who);
  page.submit();
  const reference = await page.reference();
  return { element, page, reference, date, time };
}

const manageLink = (page: WidgetPage) => page.root.querySelector<HTMLAnchorElement>('[part~="manage"]');
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

/**
 * Books a table, then changes it with `replaces` to another time of that day, analytics on: both
 * bookings, the old one's token, `vb-changed`'s and `vb-complete`'s details, and the references
 * the ad platforms were told of (`purchase`, `generate_lead`).
 */
async function bookAndChange(stack: TestStack, who: ReturnType<typeof guest>) {
  const layer: Record<string, unknown>[] = [];
  (globalThis as { dataLayer?: unknown[] }).dataLayer = layer;
  const first = await bookTable(stack, who, { from: londonDay(3), to: londonDay(40), analytics: true });
  const token = tokenOf(manageLink(first.page)!.href);
  first.element.remove();
  sessionStorage.clear();
  const changed = heard<VenueBookingChangedDetail>(document.body, 'vb-changed');
  const completes = heard<VenueBookingCompleteDetail>(document.body, 'vb-complete');
  const second = await bookTable(stack, who, {
    from: first.date,
    to: first.date,
    not: first.time,
    replaces: token,
    analytics: true,
  });
  const counted = layer
    .filter((push) => push.event === 'purchase' || push.event === 'generate_lead')
    .map((push) => (push.ecommerce as { transaction_id: string }).transaction_id);
  return { first, second, token, changed, completes, counted };
}

describe('managing a booking from the widget', () => {
  afterEach(() => sessionStorage.clear());

  it('shows the manage link on the confirmation, in the calendar file and in vb-complete, after a reload too', async () => {
    const stack = await newStack({ proxy: { profiles: { [DEMO_VENUE]: PROFILE } } });
    const completes: VenueBookingCompleteDetail[] = [];
    document.addEventListener('vb-complete', (event) =>
      completes.push((event as CustomEvent<VenueBookingCompleteDetail>).detail),
    );
    const { element, page, reference } = await bookTable(stack, guest('manage-link'), {
      from: londonDay(3),
      to: londonDay(40),
    });
    const link = manageLink(page)!;
    expect(link, 'the manage link').to.not.equal(null);
    expect(link.textContent!.trim()).to.equal('Manage or cancel this booking');
    expect(link.href).to.match(/^https?:\/\/[^/]+\/.*manage\/[^/]+$/);
    expect(link.href, 'no booking id in the link').to.not.match(/[0-9a-f]{24}/);
    expect(completes.at(-1)).to.include({ reference, manage_url: link.href, restored: false });
    const ics = decodeURIComponent(page.root.querySelector<HTMLAnchorElement>('[part~="ics"]')!.href).replace(
      /\r\n /g,
      '',
    );
    expect(ics).to.include(`\r\nURL:${link.href}\r\n`);
    expect(ics).to.include(`Manage or cancel this booking: ${link.href}`);
    const google = new URL(page.root.querySelector<HTMLAnchorElement>('[part~="google-calendar"]')!.href);
    expect(google.searchParams.get('details')).to.include(link.href);
    // The link opens the guest's page, which shows the booking.
    const manage = await fetch(link.href);
    expect(manage.status).to.equal(200);
    expect(await manage.text()).to.include(reference);
    await expect(element).to.be.accessible();

    // A reload keeps the confirmation, link and all, and says so in `vb-complete`.
    const id = element.id;
    element.remove();
    const again = await fixture<VenueBooking>(
      html`<venue-booking id=${id} venue=${DEMO_VENUE} api=${stack.api}></venue-booking>`,
    );
    const reloaded = new WidgetPage(again);
    expect(await reloaded.reference()).to.equal(reference);
    await until(() => manageLink(reloaded), 'the kept manage link');
    expect(manageLink(reloaded)!.href).to.equal(link.href);
    await until(() => completes.at(-1)?.restored, 'the restored vb-complete');
    expect(completes.at(-1)).to.include({ reference, manage_url: link.href, restored: true });
  });

  it('changes a booking to a new time with replaces: the new one confirmed, the old one rejected, vb-changed, no second purchase', async () => {
    const stack = await newStack({ proxy: { profiles: { [DEMO_VENUE]: PROFILE } } });
    const who = guest('manage-change');
    const { first, second, token, changed, counted } = await bookAndChange(stack, who);
    expect(second.reference).to.not.equal(first.reference);
    const confirmation = second.page.root.querySelector<HTMLElement>('[part~="confirmation"]')!;
    expect(confirmation.querySelector('h2')!.textContent!.trim()).to.equal('Booking changed');
    expect(confirmation.querySelector('[data-previous]')!.textContent!.trim()).to.equal(
      `Your previous booking, ${first.reference}, is cancelled.`,
    );
    expect(manageLink(second.page), 'the new booking’s own manage link').to.not.equal(null);
    expect(tokenOf(manageLink(second.page)!.href)).to.not.equal(token);
    await until(() => changed.length, 'vb-changed');
    expect(changed).to.deep.equal([{ reference: second.reference, previous: first.reference }]);
    // A change brings no new booking: the ad platforms were told of the first booking only.
    expect(counted).to.deep.equal([first.reference]);
    await expect(second.element).to.be.accessible();

    const stored = await storedBookings(stack, who.email);
    const status = (reference: string) => stored.find((booking) => String(booking.reference) === reference)?.status;
    expect(status(first.reference), 'the old booking').to.equal('rejected');
    expect(status(second.reference), 'the new booking (the sandbox’s confirmed status)').to.equal('complete');
    expect(stored.filter((booking) => booking.status !== 'rejected')).to.have.length(1);
  });

  it('says when the old booking could not be cancelled: both stand, the venue’s phone, no vb-changed, no second purchase', async () => {
    // The sandbox's `cannot-manage`: the app may book, not cancel, so the change's cancel is refused.
    const stack = await newStack({
      sandbox: { scenario: 'cannot-manage' },
      proxy: { profiles: { [DEMO_VENUE]: PROFILE } },
    });
    const who = guest('manage-kept');
    const { first, second, changed, completes, counted } = await bookAndChange(stack, who);
    const confirmation = second.page.root.querySelector<HTMLElement>('[part~="confirmation"]')!;
    expect(confirmation.querySelector('h2')!.textContent!.trim()).to.equal('Booking confirmed');
    expect(confirmation.querySelector('[data-previous]')).to.equal(null);
    expect(confirmation.querySelector('[data-kept]')!.textContent!.trim()).to.equal(
      `Your previous booking, ${first.reference}, could not be cancelled online and still stands: please call the venue on ${PROFILE.phone} to cancel it.`,
    );
    expect(completes.at(-1)!.kept).to.deep.equal({ reference: first.reference, phone: PROFILE.phone });
    expect(changed, 'no vb-changed: nothing was changed').to.deep.equal([]);
    // The new booking of a change counts nothing, finished or not (the first one's count is the change
    // test's: the sandbox's references repeat from stack to stack, and a reference counts once per page).
    expect(counted).to.not.include(second.reference);
    await expect(second.element).to.be.accessible();

    const stored = await storedBookings(stack, who.email);
    const status = (reference: string) => stored.find((booking) => String(booking.reference) === reference)?.status;
    expect(status(first.reference), 'the old booking stands').to.equal('complete');
    expect(status(second.reference)).to.equal('complete');
  });

  /** A widget that replaces the booking of `token`, at its details step (the booking's date and time prefilled). */
  async function changing(stack: TestStack, token: string, date: string, time: string) {
    const element = await fixture<VenueBooking>(
      html`<venue-booking
        venue=${DEMO_VENUE}
        api=${stack.api}
        replaces=${token}
        type=${TYPES.table}
        date=${date}
        time=${time}
        num-people="2"
      ></venue-booking>`,
    );
    const page = new WidgetPage(element);
    await page.completeSteps();
    await page.form();
    return { element, page };
  }

  const cancelPart = (page: WidgetPage) => page.root.querySelector<HTMLElement>('[part~="cancel"]');
  const button = (page: WidgetPage, name: string) =>
    until(
      () =>
        [...(cancelPart(page)?.querySelectorAll('button') ?? [])].find(
          (node) => node.textContent!.trim() === name && node.getAttribute('aria-disabled') !== 'true',
        ),
      `the button ${name}`,
    );

  /**
   * A table booked through one widget (`seen` looks at its confirmation), then, as the proxy's
   * change page does, a widget that replaces it, at its details step.
   */
  async function bookThenChange(
    stack: TestStack,
    who: ReturnType<typeof guest>,
    days: [number, number],
    seen?: (page: WidgetPage) => void,
  ) {
    const booked = await bookTable(stack, who, { from: londonDay(days[0]), to: londonDay(days[1]) });
    seen?.(booked.page);
    const token = tokenOf(manageLink(booked.page)!.href);
    booked.element.remove();
    sessionStorage.clear();
    return { booked, token, ...(await changing(stack, token, booked.date, booked.time)) };
  }

  /** Cancels instead, through the confirm step: the outcome shown. */
  async function cancelInstead(page: WidgetPage) {
    (await button(page, 'Cancel this booking instead')).click();
    (await button(page, 'Yes, cancel it')).click();
    return until(() => page.root.querySelector<HTMLElement>('[data-cancel-outcome]'), 'the outcome');
  }

  it('cancels the booking instead, after a confirm step; a second cancel says it was already cancelled', async () => {
    const stack = await newStack({ proxy: { profiles: { [DEMO_VENUE]: PROFILE } } });
    const who = guest('manage-cancel');
    const { booked, token, element, page } = await bookThenChange(stack, who, [3, 40]);
    const cancelled = heard<VenueBookingCancelledDetail>(element, 'vb-cancelled');
    await expect(element).to.be.accessible();
    (await button(page, 'Cancel this booking instead')).click();
    // The confirm step names the booking (the proxy's read), and takes the focus.
    await until(
      () => cancelPart(page)!.textContent!.includes(`Cancel booking ${booked.reference}?`),
      'the confirm step',
    );
    const yes = await button(page, 'Yes, cancel it');
    expect(page.focused()).to.equal(yes);
    expect(cancelPart(page)!.getAttribute('role')).to.equal('group');
    await expect(element).to.be.accessible();
    // "No, keep it" goes back, and nothing is cancelled.
    (await button(page, 'No, keep it')).click();
    await button(page, 'Cancel this booking instead');
    expect((await storedBookings(stack, who.email))[0].status).to.equal('complete');
    const outcome = await cancelInstead(page);
    expect(outcome.textContent!.trim()).to.equal(`Booking ${booked.reference} is cancelled.`);
    expect(page.focused()).to.equal(outcome);
    expect(page.root.querySelector('[part~="form"]'), 'nothing left to book in its place').to.equal(null);
    expect(cancelled).to.deep.equal([{ reference: booked.reference }]);
    expect((await storedBookings(stack, who.email))[0].status).to.equal('rejected');
    await expect(element).to.be.accessible();
    element.remove();

    // The same link again (the proxy's change page opened twice): it was already cancelled.
    const twice = await changing(stack, token, booked.date, booked.time);
    const again = await cancelInstead(twice.page);
    expect(again.textContent!.trim()).to.equal(`Booking ${booked.reference} was already cancelled.`);
    const response = await fetch(`${stack.api}/manage/${token}/cancel`, { method: 'POST' });
    expect((await response.json()).payload).to.include({ reference: booked.reference, already: true });
  });

  it('inside the notice window, the cancel is refused with the proxy’s message and the venue’s phone', async () => {
    const stack = await newStack({ proxy: { profiles: { [DEMO_VENUE]: PROFILE } } });
    const who = guest('manage-window');
    const { element, page } = await bookThenChange(stack, who, [0, 1]);
    const cancelled = heard<VenueBookingCancelledDetail>(element, 'vb-cancelled');
    const outcome = await cancelInstead(page);
    expect(outcome.getAttribute('role')).to.equal('alert');
    expect(outcome.textContent).to.include('too close to the booking');
    const phone = cancelPart(page)!.querySelector<HTMLAnchorElement>('[data-phone]')!;
    expect(phone.textContent).to.equal(PROFILE.phone);
    expect(phone.getAttribute('href')).to.equal('tel:02079460000');
    // Asked again (a call that got no answer is worth another try), the proxy refuses again.
    expect((await cancelInstead(page)).textContent).to.include('too close to the booking');
    expect(cancelled).to.deep.equal([]);
    expect((await storedBookings(stack, who.email))[0].status).to.equal('complete');
    await expect(element).to.be.accessible();
  });

  it('fits a 375 px phone: the confirmation with its link, and the cancel confirm step', async function () {
    // WebKitWebDriver has no viewport emulation (test/web-test-runner.config.mjs).
    if (browserEngine() === 'webkit') this.skip();
    await setViewport({ width: 375, height: 740 });
    try {
      const stack = await newStack({ proxy: { profiles: { [DEMO_VENUE]: PROFILE } } });
      const { page } = await bookThenChange(stack, guest('manage-phone'), [3, 40], (confirmation) => {
        expect(document.documentElement.scrollWidth).to.be.at.most(375);
        expect(manageLink(confirmation)!.getBoundingClientRect().right).to.be.at.most(375);
      });
      (await button(page, 'Cancel this booking instead')).click();
      await button(page, 'Yes, cancel it');
      expect(document.documentElement.scrollWidth).to.be.at.most(375);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });
});
