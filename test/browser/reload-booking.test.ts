import { expect } from '@open-wc/testing';
import { openDemo, type DemoFrame } from '../support/demo-frame.js';
import {
  guest,
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
