import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, newStack, upstream, WidgetPage } from '../support/widget-page.js';

describe('a booking end to end, through the real proxy and sandbox', () => {
  it('books a table and shows the reference the sandbox stored', async () => {
    const stack = await newStack();
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${DEMO_VENUE} api=${stack.api}></venue-booking>`,
    );
    const page = new WidgetPage(element);

    await page.completeSteps({
      type: (button) => /table/i.test(button.textContent!),
      num_people: (button) => button.dataset.value === '2',
    });
    const email = `guest-${Date.now()}@example.com`;
    await page.fillDetails({ first_name: 'Ada', last_name: 'Lovelace', email, phone: '+44 7700 900123' });
    page.submit();
    const reference = await page.reference();

    expect(reference).to.match(/\S+/);
    const stored = await upstream(
      stack,
      `/v4/bookings?email=${encodeURIComponent(email)}&status=include_rejected&fields=reference,first_name,num_people,email`,
    );
    expect(stored.bookings).to.have.length(1);
    expect(stored.bookings[0].reference).to.equal(reference);
    expect(stored.bookings[0].first_name).to.equal('Ada');
    expect(stored.bookings[0].num_people).to.equal(2);
  });
});
