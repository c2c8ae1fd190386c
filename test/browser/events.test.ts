/**
 * The events contract (issue 37, docs/events.md), on a venue's page as its tag manager and Meta's
 * pixel leave it: a `dataLayer` and an `fbq` (a stand-in that records its calls; no script of
 * Google's or Meta's is loaded). The page is real, in a frame, really reloaded; the bookings go
 * through the real proxy and sandbox. A booking counts once, however often its confirmation is
 * shown: a confirmed one is one `purchase` (the reference as `transaction_id`) and one Meta
 * `Purchase` (the reference as `eventID`), an enquiry one `generate_lead` and one `Lead`; a return
 * from the booking site counts only when it came through the proxy's bridge, which lands proven
 * returns only. No event carries the guest's name, email, phone or notes; with `analytics` off,
 * nothing is pushed.
 */
import { expect } from '@open-wc/testing';
import type { VenueBooking } from '../../src/venue-booking.js';
import { guest, newStack, TYPES, until, WidgetPage, type TestStack } from '../support/widget-page.js';

const NOW = '2026-11-28T10:00';
/** A day Private Hire (enquiry only) takes a party of 12. */
const THURSDAY = '2026-12-03';
/** A marketing preference of the demo venue. */
const NEWSLETTER = '64a1f0c2e4b0a1b2c3d4e801';

/** What the page's tags were handed during one page load. */
interface Heard {
  pushes: Record<string, any>[];
  fbq: unknown[][];
}

type EventsWindow = Window & { dataLayer: Record<string, any>[]; fbqCalls: unknown[][] };

describe('the events contract', () => {
  let frame: HTMLIFrameElement | undefined;
  beforeEach(() => {
    // The frame shares the test page's storage: each test starts with nothing counted and no journey.
    sessionStorage.clear();
    localStorage.clear();
  });
  afterEach(() => {
    frame?.remove();
    frame = undefined;
    sessionStorage.clear();
    localStorage.clear();
  });

  /** Loads (or reloads) the events page at `url` and resolves with its widget once it has rendered. */
  async function load(url: string): Promise<WidgetPage> {
    frame ??= document.body.appendChild(Object.assign(document.createElement('iframe'), { width: 800, height: 900 }));
    const loaded = new Promise((resolve) => frame!.addEventListener('load', resolve, { once: true }));
    if (frame.src === url) frame.contentWindow!.location.reload();
    else frame.src = url;
    await loaded;
    const element = await until(
      () =>
        frame!.contentDocument!.querySelector<VenueBooking>('venue-booking[api]')?.shadowRoot &&
        frame!.contentDocument!.querySelector<VenueBooking>('venue-booking')!,
      'the widget',
    );
    const page = new WidgetPage(element);
    await page.step();
    return page;
  }

  /** What this page load's tags were handed so far (a copy: the next load starts its own). */
  function heard(): Heard {
    const view = frame!.contentWindow as EventsWindow;
    return { pushes: structuredClone(view.dataLayer), fbq: structuredClone(view.fbqCalls) };
  }

  const pageUrl = (stack: TestStack, extra = '') =>
    `${location.origin}/test/browser/pages/events.html?api=${encodeURIComponent(stack.api)}&now=${NOW}${extra}`;

  it('a booking, its confirmation reloaded twice, then an enquiry: one purchase, one generate_lead, their Meta events, no personal data', async function () {
    // Three page loads and two bookings through the frame.
    this.timeout(60_000);
    const stack = await newStack({ sandbox: { now: NOW } });
    const url = pageUrl(stack);
    const loads: Heard[] = [];
    const who = { ...guest('events'), first_name: 'Zebedee', notes: 'Peanut allergy, and a high chair please' };

    let page = await load(url);
    await page.completeSteps({
      type: (button) => WidgetPage.value(button) === TYPES.table,
      num_people: (button) => WidgetPage.value(button) === '2',
    });
    await page.fillDetails(who);
    await page.tick('marketing_preferences', NEWSLETTER);
    page.submit();
    const reference = await page.reference();
    expect(page.confirmationStatus()).to.equal('confirmed');
    loads.push(heard());

    // The confirmation shown again, twice: nothing counts again.
    for (const time of [1, 2]) {
      page = await load(url);
      expect(await page.reference()).to.equal(reference, `reload ${time}`);
      loads.push(heard());
    }

    // Another booking on the same page: Private Hire takes enquiries only.
    page.root.querySelector<HTMLButtonElement>('[part~="confirmation"] button.link')!.click();
    await page.leave('confirmation');
    await page.book({ type: TYPES.privateHire, date: THURSDAY, time: '19:00', num_people: 12 });
    await page.fillDetails(who);
    page.submit();
    await until(() => page.confirmationStatus() === 'enquiry', 'the enquiry');
    const enquiry = await page.reference();
    expect(enquiry).not.to.equal(reference);
    loads.push(heard());

    const pushes = loads.flatMap((load) => load.pushes);
    const purchases = pushes.filter((push) => push.event === 'purchase');
    expect(purchases).to.have.length(1);
    expect(purchases[0]).to.deep.include({ vb_version: 1, vb_reference: reference, marketing_consent: true });
    expect(purchases[0].ecommerce.transaction_id).to.equal(reference);
    expect(purchases[0].ecommerce.items).to.deep.equal([{ item_id: TYPES.table, item_name: 'Table', quantity: 2 }]);
    // No deposit was taken, so no value: the conversion is not given a made-up amount.
    expect(purchases[0].ecommerce).not.to.have.property('value');
    // GA4's advice: the last ecommerce object is cleared before the next one is pushed.
    expect(pushes[pushes.indexOf(purchases[0]) - 1]).to.deep.equal({ ecommerce: null });

    const leads = pushes.filter((push) => push.event === 'generate_lead');
    expect(leads).to.have.length(1);
    expect(leads[0]).to.deep.include({ vb_version: 1, vb_reference: enquiry, marketing_consent: false });
    expect(leads[0].items).to.deep.equal([{ item_id: TYPES.privateHire, item_name: 'Private Hire', quantity: 12 }]);

    // The funnel's steps as they were, each with the contract's version.
    const funnel = pushes.filter((push) => push.event?.startsWith('vb_'));
    expect(funnel.map((push) => push.event)).to.include.members(['vb_step', 'vb_change', 'vb_submit', 'vb_complete']);
    expect(pushes.filter((push) => push.event).every((push) => push.vb_version === 1)).to.equal(true);

    const meta = loads.flatMap((load) => load.fbq);
    expect(meta.map(([, name, , options]) => [name, options])).to.deep.equal([
      ['Purchase', { eventID: reference }],
      ['Lead', { eventID: enquiry }],
    ]);
    expect(meta.every(([command]) => command === 'track')).to.equal(true);

    // No personal data in anything handed to the tags.
    const said = JSON.stringify({ pushes, meta });
    for (const value of [who.first_name, who.last_name, who.email, who.phone, who.notes, 'Peanut'])
      expect(said).not.to.include(value);
  });

  it('a return through the proxy’s bridge counts once; a return that anyone could have sent counts nothing', async function () {
    this.timeout(60_000);
    const stack = await newStack({ sandbox: { now: NOW } });
    const url = pageUrl(stack);

    // Someone sends the page a confirmation of their own making: it shows, but nothing counts.
    const forged = await load(`${url}&vb_return=book&reference=DMN-FORGED1&status=complete`);
    expect(await forged.reference()).to.equal('DMN-FORGED1');
    const unproven = heard();
    expect(unproven.pushes.filter((push) => ['purchase', 'generate_lead'].includes(push.event))).to.deep.equal([]);
    expect(unproven.fbq).to.deep.equal([]);
    sessionStorage.clear();

    // Brunch needs a deposit: the guest is handed to the booking site, and returns through the bridge.
    const page = await load(url);
    await page.completeSteps({ type: (button) => WidgetPage.value(button) === TYPES.brunch });
    await page.waitForStep('redirect');
    let handOff = '';
    page.element.addEventListener('vb-redirect', (event) => {
      handOff = event.detail.url;
      event.preventDefault();
    });
    page.submit();
    const away = new URL(await until(() => handOff, 'the hand-off'));
    away.searchParams.delete('return_method');
    const form = new URLSearchParams(away.search);
    for (const [key, value] of Object.entries({ ...guest('events-away'), card_number: '4242 4242 4242 4242' }))
      form.set(key, value);
    form.set('pay_deposit', 'yes');
    const back = await fetch(`${stack.base}/sandbox/book`, { method: 'POST', body: form });
    const landed = new URL(back.url);
    const reference = landed.searchParams.get('reference')!;
    expect(reference).to.match(/^DMN-/);

    const returned = await load(landed.href);
    expect(await returned.reference()).to.equal(reference);
    const first = heard();
    // And once more, as a reload shows it.
    const again = await load(frame!.contentWindow!.location.href);
    expect(await again.reference()).to.equal(reference);
    const pushes = [...first.pushes, ...heard().pushes];
    const purchases = pushes.filter((push) => push.event === 'purchase');
    expect(purchases.map((push) => push.ecommerce.transaction_id)).to.deep.equal([reference]);
    expect(first.fbq.map(([, name, , options]) => [name, options])).to.deep.equal([
      ['Purchase', { eventID: reference }],
    ]);
  });

  it('with analytics off, nothing is pushed and Meta is told nothing', async function () {
    this.timeout(30_000);
    const stack = await newStack({ sandbox: { now: NOW } });
    const page = await load(pageUrl(stack, '&analytics=off'));
    await page.completeSteps({ type: (button) => WidgetPage.value(button) === TYPES.table });
    await page.fillDetails(guest('events-off'));
    page.submit();
    await page.reference();
    const { pushes, fbq } = heard();
    expect(pushes).to.deep.equal([]);
    expect(fbq).to.deep.equal([]);
  });
});
