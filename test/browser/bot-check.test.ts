/**
 * The bot check as a guest meets it (issue 34, part 2): not at all. The widget asks the real proxy
 * for a challenge when the details step opens, solves it while the guest types, and the booking
 * carries it, so the sandbox stores it; the honeypot field is out of sight, out of the tab order and
 * out of the accessibility tree; a script that fills every field of the form (the honeypot too)
 * gets what looks like a confirmation, and the sandbox stores nothing.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import {
  DEMO_VENUE,
  guest,
  newStack,
  proxyLog,
  requestsTo,
  storedBookings,
  WidgetPage,
} from '../support/widget-page.js';

/** The widget on a fresh stack, at its details step. */
async function atDetails() {
  const stack = await newStack();
  const element = await fixture<VenueBooking>(
    html`<venue-booking venue=${DEMO_VENUE} api=${stack.api}></venue-booking>`,
  );
  const page = new WidgetPage(element);
  await page.completeSteps({
    type: (button) => /table/i.test(button.textContent!),
    num_people: (button) => button.dataset.value === '2',
  });
  return { stack, element, page, form: await page.form() };
}

describe('the bot check, as a guest meets it', () => {
  it('a guest books with no extra step: the proof is asked for and solved while they type', async () => {
    const { stack, page } = await atDetails();
    const details = guest('proof');
    await page.fillDetails(details);
    page.submit();
    const reference = await page.reference();
    expect(requestsTo(`/venues/${DEMO_VENUE}/challenge`)).to.have.length.greaterThan(0);
    const stored = await storedBookings(stack, details.email);
    expect(stored.map((booking) => booking.reference)).to.deep.equal([reference]);
    const decoys = (await proxyLog(stack)).filter((line) => line.msg === 'bot answered with a decoy');
    expect(decoys).to.deep.equal([]);
  });

  it('the honeypot is out of sight, out of the tab order, out of the accessibility tree and autofill', async () => {
    const { form } = await atDetails();
    const honeypot = form.querySelector<HTMLInputElement>('[name="website"]')!;
    expect(honeypot).to.not.equal(null);
    expect(honeypot.tabIndex).to.equal(-1);
    expect(honeypot.autocomplete).to.equal('off');
    const hidden = honeypot.closest<HTMLElement>('[aria-hidden="true"]')!;
    expect(hidden).to.not.equal(null);
    // Out of sight: its box is one pixel (give or take the float rounding of a box moved by the
    // form's entrance animation, a few millionths), and what overflows it is clipped.
    const box = hidden.getBoundingClientRect();
    expect(box.width * box.height).to.be.at.most(1.01);
    expect(getComputedStyle(hidden).overflow).to.equal('hidden');
  });

  it('a script that fills every field gets a decoy confirmation, and nothing is booked', async () => {
    const { stack, page, form } = await atDetails();
    const details = guest('script');
    await page.fillDetails({ ...details, website: 'https://spam.example' });
    expect(form.querySelectorAll('input[name="website"]')).to.have.length(1);
    page.submit();
    expect(await page.reference()).to.match(/^DMN-\d{11}$/);
    expect(await storedBookings(stack, details.email)).to.deep.equal([]);
    const decoys = (await proxyLog(stack)).filter((line) => line.msg === 'bot answered with a decoy');
    expect(decoys.map((line) => line.verdict)).to.deep.equal(['honeypot']);
  });
});
