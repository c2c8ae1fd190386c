import { expect } from '@open-wc/testing';
import { openDemo, type DemoFrame } from '../support/demo-frame.js';
import {
  DEMO_VENUE,
  guest,
  newStack,
  pendingFaults,
  scriptFaults,
  storedBookings,
  TYPES,
  until,
  WidgetPage,
} from '../support/widget-page.js';
import type { VenueBooking } from '../../src/venue-booking.js';

/**
 * A guest who reloads the page while the booking is being sent, then sends it again, gets one
 * booking: the widget keeps the pending booking's Idempotency-Key in sessionStorage, and the real
 * proxy replays the first attempt's answer instead of booking twice. The page is a real demo page
 * in a frame, really reloaded; the upstream is the real sandbox, made slow for the first booking.
 */
/** How long the upstream holds the first booking. */
const SLOW_MS = 1500;

describe('reload while a booking is being sent', () => {
  let demo: DemoFrame | undefined;
  beforeEach(() => sessionStorage.clear()); // the frame shares the test page's sessionStorage
  afterEach(() => demo?.close());

  it('sending again after the reload replays the first booking instead of making a second', async () => {
    demo = await openDemo('index.html');
    const { frame, stack } = demo;
    const first = demo.widget();
    await first.completeSteps({ type: (button) => WidgetPage.value(button) === TYPES.table });
    const who = guest('reload');
    await first.fillDetails(who);
    // The first booking reaches the sandbox only after the page is gone.
    await scriptFaults(stack, [{ path: '/v4/bookings', status: 200, delay: SLOW_MS, times: 1 }]);
    first.submit();
    // Reloaded only once the booking has reached the (slow) upstream: it will be stored.
    let sent = false;
    while (!sent) sent = (await pendingFaults(stack)).length === 0;
    const reachedUpstream = performance.now();
    expect(JSON.stringify({ ...sessionStorage })).not.to.include(who.email);

    const reloaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.contentWindow!.location.reload();
    await reloaded;
    const element = await until(
      () => frame.contentDocument!.querySelector<VenueBooking>('venue-booking'),
      'the widget after the reload',
    );
    const second = new WidgetPage(element);
    await until(() => second.root?.querySelector('[part~="step"][data-step], [part~="form"]'), 'the widget to render');
    await second.completeSteps({ type: (button) => WidgetPage.value(button) === TYPES.table });
    await second.fillDetails(who);
    second.submit();
    const reference = await second.reference();
    // Whatever the second send did, the first attempt lands SLOW_MS after it reached the upstream:
    // look only once it has, so a second booking could not hide behind the first one's delay.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, reachedUpstream + SLOW_MS + 1000 - performance.now())),
    );

    const stored = await storedBookings(stack, who.email);
    expect(stored).to.have.length(1);
    expect(stored[0].reference).to.equal(reference);
  });
});

/**
 * Two widgets for one venue on a page (inline, and again in the footer), neither with an id: each
 * keeps its own journey. The page is real, in a frame, really reloaded and really returned to.
 */
describe('two widgets for one venue on a page', () => {
  let frame: HTMLIFrameElement | undefined;
  beforeEach(() => sessionStorage.clear());
  afterEach(() => {
    frame?.remove();
    frame = undefined;
    sessionStorage.clear();
  });

  /** Loads `url` into the frame and resolves with its two widgets once both have rendered. */
  async function load(url: string): Promise<[WidgetPage, WidgetPage]> {
    frame ??= document.body.appendChild(Object.assign(document.createElement('iframe'), { width: 800, height: 900 }));
    const loaded = new Promise((resolve) => frame!.addEventListener('load', resolve, { once: true }));
    if (frame.src === url) frame.contentWindow!.location.reload();
    else frame.src = url;
    await loaded;
    const elements = await until(() => {
      const found = [...frame!.contentDocument!.querySelectorAll<VenueBooking>('venue-booking')];
      return found.length === 2 && found.every((element) => element.shadowRoot) && found;
    }, 'both widgets');
    const pages = elements.map((element) => new WidgetPage(element)) as [WidgetPage, WidgetPage];
    for (const page of pages) await page.step();
    return pages;
  }

  /** The page on a fresh stack, the footer's steps answered (its type: `type`) up to the details or the hand-off. */
  async function footerChooses(type: string) {
    const stack = await newStack();
    const url = `${location.origin}/test/browser/pages/two-widgets.html?api=${encodeURIComponent(stack.api)}`;
    const [inline, footer] = await load(url);
    await footer.completeSteps({ type: (button) => WidgetPage.value(button) === type });
    return { stack, url, inline, footer };
  }

  it('a booking in the footer, a reload: only the footer shows the confirmation, the inline one starts fresh', async function () {
    // Two real page loads and a booking through the frame: more than the default on a busy machine.
    this.timeout(40_000);
    const { url, inline, footer } = await footerChooses(TYPES.table);
    await footer.fillDetails(guest('footer'));
    footer.submit();
    const reference = await footer.reference();
    expect(inline.currentStep()).to.equal('type', 'the inline widget is untouched');

    const [inlineAgain, footerAgain] = await load(url);
    expect(await footerAgain.reference()).to.equal(reference);
    expect(inlineAgain.currentStep()).to.equal('type');
    expect(inlineAgain.confirmationStatus()).to.equal(null);
  });

  it('a hand-off from the footer returns to the footer: the inline widget shows no confirmation', async function () {
    this.timeout(40_000);
    const { stack, inline, footer } = await footerChooses(TYPES.brunch);
    await footer.waitForStep('redirect');
    let handOff = '';
    footer.element.addEventListener('vb-redirect', (event) => {
      handOff = event.detail.url;
      event.preventDefault();
    });
    footer.submit();
    const away = new URL(await until(() => handOff, 'the hand-off'));
    const page = new URL(new URL(away.searchParams.get('return_url')!).searchParams.get('page')!);
    expect(page.searchParams.get('vb_return')).to.equal(`${DEMO_VENUE}~2`);
    expect(inline.currentStep()).to.equal('type');

    // The guest pays on the booking site, which comes back (here by GET, through the bridge).
    away.searchParams.delete('return_method');
    const form = new URLSearchParams(away.search);
    for (const [key, value] of Object.entries({ ...guest('footer-away'), card_number: '4242 4242 4242 4242' }))
      form.set(key, value);
    form.set('pay_deposit', 'yes');
    const back = await fetch(`${stack.base}/sandbox/book`, { method: 'POST', body: form });
    const landed = new URL(back.url);
    expect(landed.searchParams.get('vb_return')).to.equal(`${DEMO_VENUE}~2`);
    const reference = landed.searchParams.get('reference')!;
    expect(reference).to.match(/^DMN-/);

    const [inlineBack, footerBack] = await load(landed.href);
    expect(await footerBack.reference()).to.equal(reference);
    expect(inlineBack.confirmationStatus()).to.equal(null);
    expect(inlineBack.currentStep()).to.equal('type');
  });
});
