import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, guest, london, newStack, requestsTo, TYPES, WidgetPage } from '../support/widget-page.js';

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
});
