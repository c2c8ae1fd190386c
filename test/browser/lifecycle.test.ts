import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import {
  DEMO_VENUE,
  guest,
  london,
  newStack,
  requestsTo,
  scriptFaults,
  TYPES,
  until,
  WidgetPage,
} from '../support/widget-page.js';

/**
 * The element's update cycle: the view is decided before render and nothing sets state while an
 * update is committed, so Lit's dev mode never warns "change-in-update" (its warnings are
 * `console.warn`s, each given once per page: this file has a page of its own).
 */
describe('update cycle and the reads it starts', () => {
  afterEach(() => sessionStorage.clear());

  it('books from a focused field to the confirmation with no change-in-update warning', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
      warn.apply(console, args);
    };
    try {
      const stack = await newStack({ sandbox: { now: '2026-03-16T10:00' } });
      const element = await fixture<VenueBooking>(
        html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london('2026-03-16T10:00')}></venue-booking>`,
      );
      const page = new WidgetPage(element);
      await page.book({ type: TYPES.table, date: '2026-03-17', time: '19:00', num_people: 2 });
      await page.fillDetails(guest('cycle'));
      // The guest submits from the phone field: it blurs as the form gives way to the confirmation.
      const phone = (await page.form()).querySelector<HTMLInputElement>('[name="phone"]')!;
      phone.focus();
      phone.form!.requestSubmit();
      expect(await page.reference()).to.match(/\S/);
      await element.updateComplete;
    } finally {
      console.warn = warn;
    }
    expect(warnings.filter((text) => text.includes('change-in-update'))).to.deep.equal([]);
  });

  it('an instant booking reads neither the venue record nor the return bridge (a hand-off is never in sight)', async () => {
    performance.clearResourceTimings();
    const now = '2026-03-16T10:00';
    const stack = await newStack({ sandbox: { now, dialect: 'live' } });
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(now)}></venue-booking>`,
    );
    const page = new WidgetPage(element);
    // Right after the last choice the answer in hand is the time's (no `next`): only the complete
    // check's answer may say whether the guest finishes on the booking site.
    await page.book({ type: TYPES.table, date: '2026-03-17', time: '19:00', num_people: 2 });
    await page.fillDetails(guest('instant'));
    page.submit();
    expect(await page.reference()).to.match(/\S/);
    expect(requestsTo(`${stack.api}/bookings`)).to.have.length(1);
    expect(requestsTo(`${stack.api}/venues/${DEMO_VENUE}?`)).to.deep.equal([]);
    expect(requestsTo(`${stack.api}/return`)).to.deep.equal([]);
  });

  it('a failed venue list: its retry reads the list again, and the picker shows', async () => {
    const now = '2026-03-16T10:00';
    const stack = await newStack({ sandbox: { now } });
    await scriptFaults(stack, [{ path: 'venue_group=', status: 500, times: 2 }]);
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue-group="64a1f0c2e4b0a1b2c3d4e500" api=${stack.api} .now=${london(now)}></venue-booking>`,
    );
    const page = new WidgetPage(element);
    const errors: string[] = [];
    element.addEventListener('vb-error', (event) => errors.push(event.detail.during));
    await until(() => page.retryButton(), 'the retry button');
    expect(page.alert()).to.match(/went wrong/);
    for (let attempt = 0; attempt < 3 && page.currentStep() !== 'venue'; attempt++) {
      page.retryButton()?.click();
      await until(() => page.currentStep() === 'venue' || page.retryButton(), 'an answer');
      await element.updateComplete;
    }
    await page.waitForStep('venue');
    expect(page.options().length).to.equal(3);
    expect(errors.every((during) => during === 'venues')).to.equal(true);
  });
});
