/**
 * Times after midnight through the real proxy and sandbox: the Vine Cellar is open until 02:00 on
 * Fridays, so its Friday lists start times up to 00:00 after the evening's. They are the end of
 * that night: grouped last, and what can be booked from them is what the service says, never what
 * a clock reading 00:00 as the morning would allow.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { london, newStack, WidgetPage } from '../support/widget-page.js';

const CELLAR = '64a1f0c2e4b0a1b2c3d4e502';
const COCKTAIL_TABLE = '64a1f0c2e4b0a1b2c3d4e611';
const NOW = '2026-11-28T10:00';

describe("the venue's night", () => {
  afterEach(() => sessionStorage.clear());

  it('groups 00:00 after the evening, and from it leaves only the duration that ends by closing', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${CELLAR} api=${stack.api} .now=${london(NOW)}></venue-booking>`,
    );
    const page = new WidgetPage(element);
    await page.chooseValue('type', COCKTAIL_TABLE);
    await page.chooseValue('date', '2026-12-04');
    await page.waitForStep('time');
    expect(page.timeGroups().map((group) => group.part)).to.deep.equal(['afternoon', 'evening', 'late']);
    await page.chooseValue('time', '00:00');
    // Closing is 02:00: 2 hours from 00:00 ends at it, 3 hours would end at 03:00. The answer for
    // 00:00 leaves one duration, which is chosen for the guest; 3 hours is never offered.
    await page.waitForStep('num_people');
    expect(page.root.querySelector('[part~="summary"]')!.textContent!.replace(/\s+/g, ' ')).to.match(/Duration 2 hr/);
  });
});
