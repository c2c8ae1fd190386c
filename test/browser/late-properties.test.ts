import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, guest, london, newStack, requestsTo, TYPES, until, WidgetPage } from '../support/widget-page.js';

/** A second venue of the default seed, with booking types of its own. */
const OTHER_VENUE = '64a1f0c2e4b0a1b2c3d4e503';
/** The seed's venue group (its three venues). */
const GROUP = '64a1f0c2e4b0a1b2c3d4e500';

/**
 * Frameworks set properties after the element is attached (Angular always does): the journey is
 * keyed, and the saved booking read, on the first update with a venue, not on connect. The page is
 * real, in a frame, really reloaded; the stack is the real proxy on the real sandbox.
 */
describe('properties set after the element is attached', () => {
  let frame: HTMLIFrameElement | undefined;
  beforeEach(() => sessionStorage.clear()); // the frame shares the test page's sessionStorage
  afterEach(() => {
    frame?.remove();
    frame = undefined;
    sessionStorage.clear();
  });

  /** Loads (or reloads) the page and resolves with its widget once its venue is bound and a step shows. */
  async function load(url: string): Promise<WidgetPage> {
    frame ??= document.body.appendChild(Object.assign(document.createElement('iframe'), { width: 800, height: 900 }));
    const loaded = new Promise((resolve) => frame!.addEventListener('load', resolve, { once: true }));
    if (frame.src === url) frame.contentWindow!.location.reload();
    else frame.src = url;
    await loaded;
    const win = frame.contentWindow as Window & { boundLate?: boolean };
    expect(await until(() => win.boundLate !== undefined && win, 'the late binding')).to.have.property(
      'boundLate',
      true,
    );
    const page = new WidgetPage(frame.contentDocument!.querySelector<VenueBooking>('venue-booking')!);
    await page.step();
    return page;
  }

  it('a booking made after late binding is shown again after a reload', async function () {
    this.timeout(40_000);
    const stack = await newStack();
    const url = `${location.origin}/test/browser/pages/late-properties.html?api=${encodeURIComponent(stack.api)}`;
    const page = await load(url);
    await page.completeSteps({ type: (button) => WidgetPage.value(button) === TYPES.table });
    await page.fillDetails(guest('late'));
    page.submit();
    const reference = await page.reference();

    const again = await load(url);
    expect(again.currentStep()).to.equal('confirmation');
    expect(await again.reference()).to.equal(reference);
  });
});

/**
 * A new venue is a new journey: the host's own change of `venue` (or `api`, `venue-group`) clears
 * the guest's choices for the old venue, keeps the host's prefill, and fires no event.
 */
describe('the host changes the venue mid-journey', () => {
  afterEach(() => sessionStorage.clear());

  it('starts clean at the new venue, with no error and no event', async () => {
    const now = '2026-03-16T10:00';
    const stack = await newStack({ sandbox: { now } });
    const element = await fixture<VenueBooking>(
      html`<venue-booking
        venue=${DEMO_VENUE}
        api=${stack.api}
        num-people="2"
        .now=${london(now)}
        .guest=${{ first_name: 'Ada' }}
      ></venue-booking>`,
    );
    const page = new WidgetPage(element);
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    const events: string[] = [];
    for (const name of ['vb-step', 'vb-change', 'vb-submit', 'vb-complete', 'vb-redirect', 'vb-error'])
      element.addEventListener(name, () => events.push(name));
    performance.clearResourceTimings();

    element.venue = OTHER_VENUE;
    await page.waitForStep('type');
    const types = page.options().map(WidgetPage.value);
    expect(types).to.not.include(TYPES.table, 'the new venue offers its own types');
    expect(types.length).to.be.greaterThan(0);
    // No choice of the old venue reached the new one's reads; the host's party size did.
    const reads = requestsTo(`${stack.api}/venues/${OTHER_VENUE}/booking-availability`);
    expect(reads.length).to.be.greaterThan(0);
    for (const read of reads) {
      expect(read).to.not.include(TYPES.table);
      expect(new URL(read).searchParams.get('num_people')).to.equal('2');
    }
    expect(page.root.querySelector('[part~="problem"], [role="alert"]')).to.equal(null);
    expect(events).to.deep.equal([]);

    // The guest's next choice is an action again: it is heard, and the host's prefill is kept.
    await page.choose('type');
    await page.leave('type');
    expect(events).to.include('vb-change');
    await page.completeSteps();
    const form = await page.form();
    expect(form.querySelector<HTMLInputElement>('[name="first_name"]')!.value).to.equal('Ada');
  });

  it('a change to a venue group starts at its picker, with no event', async () => {
    const now = '2026-03-16T10:00';
    const stack = await newStack({ sandbox: { now } });
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(now)}></venue-booking>`,
    );
    const page = new WidgetPage(element);
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    const events: string[] = [];
    for (const name of ['vb-step', 'vb-change', 'vb-error']) element.addEventListener(name, () => events.push(name));

    element.venue = '';
    element.venueGroup = GROUP;
    await page.waitForStep('venue');
    expect(page.options().map(WidgetPage.value)).to.include(DEMO_VENUE);
    expect(events).to.deep.equal([]);
    // Picking the old venue again is a fresh start there: its type step, not the old choice.
    await page.chooseValue('venue', DEMO_VENUE);
    await page.waitForStep('type');
    expect(events).to.include('vb-change');
  });

  it('a change of api starts a new journey too', async () => {
    const now = '2026-03-16T10:00';
    const [first, second] = [await newStack({ sandbox: { now } }), await newStack({ sandbox: { now } })];
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${DEMO_VENUE} api=${first.api} .now=${london(now)}></venue-booking>`,
    );
    const page = new WidgetPage(element);
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    const events: string[] = [];
    element.addEventListener('vb-step', () => events.push('vb-step'));
    performance.clearResourceTimings();

    element.api = second.api;
    await page.waitForStep('type');
    const reads = requestsTo(`${second.api}/venues/${DEMO_VENUE}/booking-availability`);
    expect(reads.length).to.be.greaterThan(0);
    for (const read of reads) expect(read).to.not.include(TYPES.table);
    expect(events).to.deep.equal([]);
  });
});
