/**
 * Cloudflare Turnstile as a guest meets it (issue 34, part 2), with the real proxy set with a site
 * key against stand-ins of Cloudflare's script and siteverify (test/support/stacks.ts): the widget
 * loads the script only once the details step is in sight, renders it there with the proxy's
 * action, and the booking carries its token, which reached siteverify and booked; the first screen
 * loads no third party. Without a site key no script is loaded at all.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, guest, newStack, proxyLog, storedBookings, WidgetPage } from '../support/widget-page.js';

const scripts = () => [...document.querySelectorAll('script')].filter((script) => script.src.includes('__turnstile'));

describe('Turnstile, as a guest meets it', () => {
  it('is loaded in the details step only, and its token books', async () => {
    const stack = await newStack({ proxy: { turnstile: true } });
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${DEMO_VENUE} api=${stack.api}></venue-booking>`,
    );
    expect(scripts(), 'the first screen loads no third party').to.have.length(0);
    const page = new WidgetPage(element);
    await page.completeSteps({
      type: (button) => /table/i.test(button.textContent!),
      num_people: (button) => button.dataset.value === '2',
    });
    await page.form();
    const place = () => element.shadowRoot!.querySelector('[data-turnstile]');
    await waitUntil(() => place()?.textContent === 'Turnstile stand-in', 'rendered in the details step');
    expect(place()!.querySelector('[tabindex]'), 'no focus trap of ours').to.equal(null);
    const details = guest('turnstile');
    await page.fillDetails(details);
    page.submit();
    const reference = await page.reference();
    expect(scripts()).to.have.length(1);
    const stored = await storedBookings(stack, details.email);
    expect(stored.map((booking) => booking.reference)).to.deep.equal([reference]);
    const verified = (await (await fetch(`${stack.base}/__turnstile`)).json()) as Record<string, string>[];
    expect(verified).to.have.length(1);
    expect(verified[0].response).to.match(/^stand-in\.booking\./);
    expect(verified[0].secret).to.equal('stand-in-turnstile-secret');
    const log = JSON.stringify(await proxyLog(stack));
    expect(log).to.not.include('stand-in-turnstile-secret');
    expect(log).to.not.include('bot answered with a decoy');
  });
});
