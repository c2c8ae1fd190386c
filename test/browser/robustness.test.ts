import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import type { ClientRequest } from '../support/stacks.js';
import {
  clientRequests,
  DEMO_VENUE,
  guest,
  london,
  newStack,
  requestsTo,
  scriptFaults,
  storedBookings,
  TYPES,
  until,
  WidgetPage,
} from '../support/widget-page.js';
import { summaryDate } from '../support/engine.js';

const NOW = '2026-03-16T10:00';
const TUESDAY = '2026-03-17';

async function widget(api: string, id = '') {
  const element = await fixture<VenueBooking>(
    html`<venue-booking id=${id} venue=${DEMO_VENUE} api=${api} .now=${london(NOW)}></venue-booking>`,
  );
  return { element, page: new WidgetPage(element) };
}

/** A widget holding the venue's own no-script fallback (a link and a phone number) in its light DOM. */
async function withFallback(api: string) {
  const element = await fixture<VenueBooking>(
    html`<venue-booking venue=${DEMO_VENUE} api=${api} .now=${london(NOW)}
      ><p class="fallback">Call us on <a href="tel:+442079460000">020 7946 0000</a>.</p></venue-booking
    >`,
  );
  return { element, page: new WidgetPage(element) };
}

/** A widget on a fresh stack where the guest chose a table and Tuesday. */
async function tableOnTuesday() {
  const stack = await newStack({ sandbox: { now: NOW } });
  const { page } = await widget(stack.api);
  await page.chooseValue('type', TYPES.table);
  await page.leave('type');
  await page.chooseValue('date', TUESDAY);
  await page.leave('date');
  return page;
}

describe('robust against the real world', () => {
  afterEach(() => sessionStorage.clear());

  for (const [status, message] of [
    [500, /went wrong/],
    [429, /busy/],
    ['network', /went wrong|reach/],
  ] as const) {
    it(`upstream ${status}: a friendly message, and retry keeps every choice`, async () => {
      const stack = await newStack({ sandbox: { now: NOW, dialect: 'live' } });
      const { element, page } = await withFallback(stack.api);
      const errors: string[] = [];
      element.addEventListener('vb-error', (event) => errors.push(event.detail.kind));
      await page.chooseValue('type', TYPES.table);
      await page.leave('type');
      await scriptFaults(stack, [{ path: 'booking-availability', status, times: 4 }]);
      await page.chooseValue('date', TUESDAY);
      await until(() => page.retryButton(), 'the retry button');
      expect(page.alert()).to.match(message);
      expect(errors.length).to.be.greaterThan(0);
      expect(page.root.querySelector('[part~="summary"]')!.textContent)
        .to.match(/Table/)
        .and.include(summaryDate(TUESDAY));
      // The venue's own way to book shows under the message.
      expect(page.fallbackShown(), 'the light-DOM fallback under the error').to.equal(true);
      await expect(element).to.be.accessible();
      if (status === 429) {
        // The proxy stays away from a rate-limited upstream for its window: retrying says so again.
        page.retryButton()!.click();
        await page.element.updateComplete;
        await until(() => page.alert(), 'the message again');
        expect(page.alert()).to.match(message);
        expect(page.root.querySelector('[part~="summary"]')!.textContent).to.match(/Table/);
        return;
      }
      for (let attempt = 0; attempt < 5 && page.currentStep() !== 'time'; attempt++) {
        page.retryButton()?.click();
        await until(() => page.currentStep() === 'time' || page.retryButton(), 'an answer');
        await element.updateComplete;
      }
      await page.waitForStep('time');
    });
  }

  it('a ready booking that can be sent neither by API nor to the booking site says so, shows the fallback and fires vb-error', async () => {
    // The real proxy, told that the booking site is elsewhere, withholds next.web from every answer.
    const stack = await newStack({ sandbox: { now: NOW }, proxy: { bookingSite: 'https://elsewhere.example/book' } });
    const { element, page } = await withFallback(stack.api);
    const errors: { kind: string; during: string }[] = [];
    element.addEventListener('vb-error', (event) => errors.push(event.detail));
    await page.book({ type: TYPES.brunch, date: '2026-03-21', time: '10:30', num_people: 2 });
    await page.waitForStep('unavailable');
    expect(page.heading()!.textContent).to.match(/cannot be made here/);
    expect(page.root.querySelector('[part~="submit"]'), 'no dead button').to.equal(null);
    expect(page.fallbackShown(), 'the light-DOM fallback in the message').to.equal(true);
    await until(() => errors.length > 0, 'vb-error');
    expect(errors).to.deep.equal([{ kind: 'unavailable', status: null, during: 'submit' }]);
    await expect(element).to.be.accessible();
  });

  it('survives a reload: the choices come back, personal data was never stored', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const first = await widget(stack.api, 'reload');
    await first.page.book({ type: TYPES.table, date: TUESDAY, time: '19:00', num_people: 2 });
    await first.page.fillDetails({ first_name: 'Ada', email: 'ada@example.com' });
    const saved = JSON.stringify({ ...sessionStorage });
    expect(saved).to.include(TYPES.table).and.include(TUESDAY);
    expect(saved).not.to.include('Ada').and.not.to.include('ada@example.com');
    first.element.remove();

    const second = await widget(stack.api, 'reload');
    await second.page.form();
    expect(second.page.root.querySelector('[part~="summary"]')!.textContent)
      .to.match(/Table/)
      .and.match(/19:00/)
      .and.match(/2 people/);
    expect(second.page.root.querySelector<HTMLInputElement>('[name="first_name"]')!.value).to.equal('');
  });

  it('never books twice: a double click sends one booking, and a retry after a failed POST reuses its key', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const { page } = await widget(stack.api);
    await page.book({ type: TYPES.table, date: TUESDAY, time: '19:00', num_people: 2 });
    const who = guest('double');
    await page.fillDetails(who);
    await scriptFaults(stack, [{ path: '/v4/bookings', status: 'network', times: 1 }]);
    page.submit();
    page.submit();
    await page.element.updateComplete;
    expect(page.submitButton().disabled).to.equal(true);
    await until(() => page.alert(), 'the submit error');
    expect(page.submitButton().textContent).to.match(/Try again/);
    page.submit();
    page.submit();
    await page.reference();
    expect(await storedBookings(stack, who.email)).to.have.length(1);
    expect(requestsTo(`${stack.api}/bookings`).length).to.equal(2);
  });

  it('availability is read only when the answer can change the next step, with the fields that step needs', async () => {
    performance.clearResourceTimings();
    const stack = await newStack({ sandbox: { now: NOW } });
    const { page } = await widget(stack.api);
    await page.waitForStep('type');
    const calls = () => requestsTo(`${stack.api}/venues/${DEMO_VENUE}/booking-availability`);
    const asked = (index: number) => new URL(calls()[index]!).searchParams;
    // Resource entries are added once a response has fully arrived, which may be a moment after the
    // widget rendered it: wait for the expected count, then check that it is exactly that.
    const settled = async (count: number) => {
      await until(() => calls().length >= count, `${count} availability calls`);
      expect(calls()).to.have.length(count);
    };
    // The type step: one round trip, asking for the types alone.
    await settled(1);
    expect(asked(0).get('fields')).to.equal('type');
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    await settled(2);
    expect(asked(1).get('fields')).to.equal('type,date');
    await page.chooseValue('date', TUESDAY);
    await page.leave('date');
    // The times: one read that also lists the durations and party sizes for after the time.
    await settled(3);
    expect(asked(2).get('date')).to.equal(TUESDAY);
    expect(asked(2).has('time')).to.equal(false);
    expect(asked(2).has('fields')).to.equal(false);
    // A time, duration and party size that answer listed as valid need no read until the complete check.
    await page.chooseValue('time', '19:00');
    await page.leave('time');
    await page.book({ num_people: 2 });
    await page.form();
    await settled(4);
    const final = asked(3);
    expect([...final.keys()].sort()).to.deep.equal(['date', 'duration', 'num_people', 'time', 'type']);
    expect(new Set(calls()).size).to.equal(calls().length);
    // The marketing preferences are read for the details form only.
    await until(() => requestsTo('marketing-preferences').length === 1, 'the marketing preferences read');
  });

  it('a late time: its durations come from a read with that time, so none past closing is offered', async () => {
    const page = await tableOnTuesday();
    // At 21:30 only 1 hour 30 minutes ends by closing (23:00): chosen for the guest, not offered among four.
    await page.chooseValue('time', '21:30');
    await page.leave('time');
    await page.waitForStep('num_people');
    expect(page.root.querySelector('[part~="summary"]')!.textContent)
      .to.match(/21:30/)
      .and.match(/1 hr 30 mins/);
  });

  it('a browsing guest costs no marketing preferences read', async () => {
    performance.clearResourceTimings();
    const page = await tableOnTuesday();
    await page.waitForStep('time');
    await until(() => requestsTo('booking-availability').length >= 3, 'three availability calls');
    expect(requestsTo('booking-availability')).to.have.length(3);
    expect(requestsTo('marketing-preferences')).to.have.length(0);
  });

  it('a superseded availability answer is aborted and never rendered', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const { element, page } = await widget(stack.api);
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    // Tuesday's answer is held back upstream, long enough to be superseded on any machine.
    await scriptFaults(stack, [{ path: 'booking-availability', status: 200, delay: 5000, times: 1 }]);
    const tuesday = async (outcome: ClientRequest['outcome']) =>
      (await clientRequests(stack)).some(
        (request) =>
          request.url.includes('booking-availability') &&
          request.url.includes(`date=${TUESDAY}`) &&
          request.outcome === outcome,
      );
    await page.chooseValue('date', TUESDAY);
    await until(() => tuesday('open'), "Tuesday's availability call at the proxy");
    element.date = '2026-03-18';
    await page.waitForStep('time');
    // The browser cancelled Tuesday's call: the proxy saw its client go away, so no answer can arrive.
    await until(() => tuesday('departed'), "Tuesday's call cancelled by the browser");
    expect(page.currentStep()).to.equal('time');
    expect(page.root.querySelector('[part~="summary"]')!.textContent)
      .to.include(summaryDate('2026-03-18'))
      .and.not.include(summaryDate(TUESDAY));
  });
});
