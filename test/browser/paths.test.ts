import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import {
  atReturn,
  DEMO_VENUE,
  guest,
  london,
  newStack,
  storedBookings,
  TYPES,
  upstream,
  upstreamPost,
  WidgetPage,
  until,
} from '../support/widget-page.js';
import { summaryDate } from '../support/engine.js';

/** Monday 16 March 2026, 10:00 in London (GMT): the sandbox's and the element's clock. */
const NOW = '2026-03-16T10:00';
const TUESDAY = '2026-03-17';

async function widget(stackApi: string, extra: Partial<VenueBooking> = {}, attributes = '') {
  const element = await fixture<VenueBooking>(
    html`<venue-booking venue=${DEMO_VENUE} api=${stackApi} .now=${london(NOW)}></venue-booking>`,
  );
  Object.assign(element, extra);
  for (const pair of attributes.split(' ').filter(Boolean)) {
    const [name, value] = pair.split('=');
    element.setAttribute(name, value ?? '');
  }
  return { element, page: new WidgetPage(element) };
}

for (const dialect of ['spec', 'live'] as const) {
  describe(`booking paths against the ${dialect} dialect (browser in ${Intl.DateTimeFormat().resolvedOptions().timeZone})`, () => {
    afterEach(() => sessionStorage.clear());

    it('accept: books a table, stores every detail and consent, confirms in place with calendar links', async () => {
      const stack = await newStack({ sandbox: { now: NOW, dialect } });
      const { element, page } = await widget(stack.api, {}, 'partner-source=test-suite');
      const details: unknown[] = [];
      for (const name of ['vb-step', 'vb-change', 'vb-submit', 'vb-complete'] as const)
        document.addEventListener(name, (event) => details.push((event as CustomEvent).detail));

      await page.book({ type: TYPES.table, date: TUESDAY, time: '19:00', num_people: 4 });
      const who = guest('accept');
      await page.form();
      expect(page.submitButton().textContent).to.match(/Book now/);
      await page.fillDetails({ ...who, notes: 'Window seat please' });
      await page.tick('marketing_preferences', '64a1f0c2e4b0a1b2c3d4e801');
      expect(page.submitButton().textContent).to.match(/Book now/);
      page.submit();
      const reference = await page.reference();

      expect(page.confirmationStatus()).to.equal('confirmed');
      const [stored] = await storedBookings(stack, who.email);
      expect(stored.reference).to.equal(reference);
      expect(stored).to.include({
        first_name: 'Ada',
        last_name: 'Lovelace',
        num_people: 4,
        time: '19:00',
        notes: 'Window seat please',
        partner_source: 'test-suite',
        source: 'partner',
        phone: who.phone,
      });
      expect(stored.date.slice(0, 10)).to.equal(TUESDAY);
      expect(stored.type.id).to.equal(TYPES.table);
      expect(stored.duration).to.equal(90);
      const user = await upstream(stack, `/v4/users/${stored.user_id}`);
      expect(user.marketing_preferences.map((item: { id: string }) => item.id)).to.deep.equal([
        '64a1f0c2e4b0a1b2c3d4e801',
      ]);

      const text = page.root.querySelector('[part~="confirmation"]')!.textContent!;
      expect(text)
        .to.match(/Tuesday,? 17 March 2026/)
        .and.match(/19:00/)
        .and.match(/4 people/);
      const ics = page.root.querySelector<HTMLAnchorElement>('[part~="ics"]')!;
      expect(decodeURIComponent(ics.href))
        .to.match(/^data:text\/calendar/)
        .and.include('DTSTART:20260317T190000Z')
        .and.include('DTEND:20260317T203000Z');
      expect(page.root.querySelector<HTMLAnchorElement>('[part~="google-calendar"]')!.href).to.include(
        'dates=20260317T190000Z%2F20260317T203000Z',
      );
      // The manage link is an opaque random token, which may spell anything ("Ada" included): not the guest's data.
      const events = JSON.stringify(details, (key, value) => (key === 'manage_url' ? '' : value));
      expect(events).to.include(reference);
      for (const personal of [who.email, 'Ada', 'Lovelace', '7700', 'Window']) expect(events).not.to.include(personal);
      void element;
    });

    it('enquire: a private hire for 12 is sent as an enquiry and worded as one', async () => {
      const stack = await newStack({ sandbox: { now: NOW, dialect } });
      const { page } = await widget(stack.api);
      await page.book({ type: TYPES.privateHire, date: TUESDAY, time: '19:00', num_people: 12 });
      await page.form();
      expect(page.submitButton().textContent).to.match(/Send enquiry/);
      const who = guest('enquire');
      await page.fillDetails(who);
      page.submit();
      await page.reference();
      expect(page.confirmationStatus()).to.equal('enquiry');
      expect(page.root.textContent)
        .to.match(/Enquiry received/)
        .and.match(/will confirm/);
      const [stored] = await storedBookings(stack, who.email);
      expect(stored.status).to.equal('new');
    });

    it('may_enquire: a fully booked time is labelled as such and sent as a request', async () => {
      const stack = await newStack({ sandbox: { now: NOW, dialect } });
      for (let i = 0; i < 5; i++) {
        await upstreamPost(stack, '/v4/bookings', {
          source: 'partner',
          first_name: 'Seed',
          last_name: `Guest${i}`,
          venue_id: DEMO_VENUE,
          type: TYPES.table,
          date: TUESDAY,
          time: '19:00',
          duration: 120,
          num_people: 8,
        });
      }
      const { page } = await widget(stack.api, {}, 'steps=num_people,type,date,time,duration');
      await page.chooseValue('num_people', 2);
      await page.leave('num_people');
      await page.chooseValue('type', TYPES.table);
      await page.leave('type');
      await page.chooseValue('date', TUESDAY);
      await page.waitForStep('time');
      const full = page.options().find((button) => button.dataset.value === '19:00')!;
      expect(full.dataset.action).to.equal('may_enquire');
      // One legend explains the marks; each time points to its entry.
      expect(page.described(full)).to.match(/Fully booked/);
      const open = page.options().find((button) => button.dataset.value === '12:00')!;
      expect(page.described(open)).to.match(/Instant confirmation/);
      // Times differ in what happens: each carries a mark, and the legend shows each mark once.
      expect(full.querySelector('.mark')?.getAttribute('data-kind')).to.equal('may_enquire');
      expect(page.root.querySelectorAll('.legend .mark[data-kind="may_enquire"]')).to.have.length(1);
      await expect(page.element).to.be.accessible();
      await page.book({ time: '19:00' });
      await page.form();
      expect(page.submitButton().textContent).to.match(/Send request/);
      const who = guest('may');
      await page.fillDetails(who);
      page.submit();
      await page.reference();
      expect(page.confirmationStatus()).to.equal('enquiry');
    });

    it('reject: a closed date is explained, with the next bookable dates one click away', async () => {
      const stack = await newStack({ sandbox: { now: '2026-12-20T10:00', dialect } });
      const element = await fixture<VenueBooking>(
        html`<venue-booking
          venue=${DEMO_VENUE}
          api=${stack.api}
          type=${TYPES.table}
          date="2026-12-25"
          time="19:00"
          .now=${london('2026-12-20T10:00')}
        ></venue-booking>`,
      );
      const page = new WidgetPage(element);
      await until(() => page.alternatives('date').length > 0, 'date alternatives');
      expect(page.problems()).to.match(/Christmas/);
      const offered = page.alternatives('date').map((button) => button.dataset.value);
      expect(offered[0]).to.equal('2026-12-27');
      page.alternatives('date')[0].click();
      await page.waitForStep('duration');
      expect(page.root.querySelector('[part~="summary"]')!.textContent)
        .to.include(summaryDate('2026-12-27'))
        .and.match(/19:00/);
    });

    it('reject: a time the venue does not take offers the nearest times that day', async () => {
      const stack = await newStack({ sandbox: { now: NOW, dialect } });
      const element = await fixture<VenueBooking>(
        html`<venue-booking
          venue=${DEMO_VENUE}
          api=${stack.api}
          type=${TYPES.table}
          date=${TUESDAY}
          time="23:45"
          .now=${london(NOW)}
        ></venue-booking>`,
      );
      const page = new WidgetPage(element);
      await until(() => page.alternatives('time').length > 0, 'time alternatives');
      expect(page.alternatives('time').map((button) => button.dataset.value)).to.deep.equal([
        '20:45',
        '21:00',
        '21:15',
        '21:30',
      ]);
      await expect(element).to.be.accessible();
      page.alternatives('time')[0].click();
      await page.waitForStep('duration');
      expect(page.root.querySelector('[part~="summary"]')!.textContent).to.match(/20:45/);
    });

    it('offers: eligible offers show as badges and in the details step, and the chosen id is stored', async () => {
      const stack = await newStack({ sandbox: { now: NOW, dialect } });
      const { page } = await widget(stack.api);
      await page.chooseValue('type', TYPES.table);
      await page.leave('type');
      await page.chooseValue('date', TUESDAY);
      await page.waitForStep('time');
      const slot = page.options().find((button) => button.dataset.value === '17:30')!;
      // A time chip's badge is the word alone; the key above the chips names each offer once, with
      // its times and the sizes of the type's parties it is for.
      const badge = slot.querySelector<HTMLElement>('[part~="badge"]')!;
      expect(badge.textContent!.trim()).to.equal('Offer');
      expect(WidgetPage.spoken(slot)).to.not.include('Two-for-one cocktails');
      expect(page.root.querySelector('ul.legend')!.textContent)
        .to.include('Offers at 17:00–19:00: Two-for-one cocktails')
        .and.include('Offers at 12:00–20:00: Big group feast (6–8 people)');
      // No sentence lists the times that carry offers.
      expect(page.root.querySelector('[data-step="time"]')!.textContent).not.to.match(/17:30.*17:45.*18:00/);
      await expect(page.element).to.be.accessible();
      await page.book({ time: '17:30', num_people: 2 });
      const form = await page.form();
      await until(() => form.querySelector('[part~="offer"]'), 'the offers');
      expect(form.querySelector('[part~="offers"]')!.textContent)
        .to.match(/Two-for-one cocktails/)
        .and.match(/Valid 1 Jan 2026 to 31 Dec 2026/);
      await page.tick('offer', '64a1f0c2e4b0a1b2c3d4e701');
      const who = guest('offer');
      await page.fillDetails(who);
      page.submit();
      await page.reference();
      const [stored] = await storedBookings(stack, who.email);
      expect(stored.offer).to.equal('64a1f0c2e4b0a1b2c3d4e701');
    });

    it('deposit (return-method="get"): hands the guest to the booking site, then reads the return and strips personal data', async () => {
      const stack = await newStack({ sandbox: { now: NOW, dialect } });
      const element = await fixture<VenueBooking>(
        html`<venue-booking
          id="brunch"
          venue=${DEMO_VENUE}
          api=${stack.api}
          return-method="get"
          .now=${london(NOW)}
        ></venue-booking>`,
      );
      const page = new WidgetPage(element);
      await page.chooseValue('type', TYPES.brunch);
      await page.leave('type');
      await page.chooseValue('date', '2026-03-21');
      await page.waitForStep('time');
      // A deposit is known once the type is chosen: no time promises an instant confirmation.
      const times = page
        .options()
        .filter(WidgetPage.enabled)
        .map((button) => page.described(button));
      expect(times.length).to.be.greaterThan(0);
      for (const text of times)
        expect(text)
          .to.match(/Deposit needed on the booking site/)
          .and.not.match(/Instant confirmation/);
      await page.book({ time: '10:30', num_people: 2 });
      await page.waitForStep('redirect');
      expect(page.root.querySelector('[data-step="redirect"] [data-term="payment"]')!.textContent).to.match(
        /A deposit is taken, or your card is checked/,
      );
      expect(page.submitButton().textContent).to.match(/Continue to the booking site/);
      let url = '';
      element.addEventListener('vb-redirect', (event) => {
        url = event.detail.url;
        event.preventDefault();
      });
      page.submit();
      expect(url).to.include('/sandbox/book?');
      const returnUrl = new URL(new URL(url).searchParams.get('return_url')!);
      expect(returnUrl.searchParams.get('vb_return')).to.equal('brunch');

      // The guest on the booking site: the hosted page stores the booking and sends them back.
      const form = new URLSearchParams(new URL(url).search);
      const who = guest('deposit');
      for (const [key, value] of Object.entries({ ...who, card_number: '4242 4242 4242 4242', pay_deposit: 'yes' }))
        form.set(key, value);
      const back = await fetch(`${stack.base}/sandbox/book`, { method: 'POST', body: form });
      const landed = new URL(back.url);
      expect(landed.searchParams.get('email')).to.equal(who.email);

      await atReturn(element, landed, 'brunch', async (again) => {
        const reference = await again.reference();
        expect(reference).to.equal(landed.searchParams.get('reference'));
        expect(again.confirmationStatus()).to.equal('confirmed');
        // Named as before the hand-off, never by ids: the type, the venue and the calendar entry.
        const summary = again.root.querySelector('[part~="confirmation"] dl')!.textContent!;
        expect(summary)
          .to.include('Bottomless Brunch')
          .and.include('Harbour & Vine Quayside')
          .and.not.include(TYPES.brunch);
        const google = new URL(again.root.querySelector<HTMLAnchorElement>('[part~="google-calendar"]')!.href);
        expect(google.searchParams.get('text')).to.equal('Booking at Harbour & Vine Quayside');
        expect(google.searchParams.get('location')).to.equal('Harbour & Vine Quayside');
        expect(google.href).not.to.include(DEMO_VENUE);
        expect(location.search)
          .not.to.include('email')
          .and.not.to.include('first_name')
          .and.not.to.include('reference');
        const [stored] = await storedBookings(stack, who.email);
        expect(stored.reference).to.equal(reference);
      });
    });

    it('multi-venue: a comma list puts a venue picker first, and the chosen venue’s types follow', async () => {
      const stack = await newStack({ sandbox: { now: NOW, dialect } });
      const element = await fixture<VenueBooking>(
        html`<venue-booking
          venue="64a1f0c2e4b0a1b2c3d4e501,64a1f0c2e4b0a1b2c3d4e502"
          api=${stack.api}
          .now=${london(NOW)}
        ></venue-booking>`,
      );
      const page = new WidgetPage(element);
      await page.waitForStep('venue');
      expect(page.options().map((button) => button.textContent!.trim())).to.deep.equal([
        'Harbour & Vine Quayside',
        'The Vine Cellar',
      ]);
      await expect(element).to.be.accessible();
      await page.chooseValue('venue', '64a1f0c2e4b0a1b2c3d4e502');
      await page.waitForStep('type');
      expect(
        page
          .options()
          .map((button) => button.textContent!.trim())
          .join(),
      ).to.match(/Cocktail Table/);
      expect(page.root.querySelector('[part~="summary"]')!.textContent).to.match(/The Vine Cellar/);
    });

    it("venue-group: the group's venues from the service, named by their titles, not their paths", async () => {
      const stack = await newStack({ sandbox: { now: NOW, dialect } });
      const element = await fixture<VenueBooking>(
        html`<venue-booking
          venue-group="64a1f0c2e4b0a1b2c3d4e500"
          api=${stack.api}
          .now=${london(NOW)}
        ></venue-booking>`,
      );
      const page = new WidgetPage(element);
      await page.waitForStep('venue');
      expect(page.options().map((button) => button.textContent!.trim())).to.deep.equal([
        'Harbour & Vine Quayside',
        'The Vine Cellar',
        'Harbour Kitchen',
      ]);
      await page.chooseValue('venue', '64a1f0c2e4b0a1b2c3d4e503');
      await page.waitForStep('type');
      expect(page.root.querySelector('[part~="summary"]')!.textContent).to.match(/Harbour Kitchen/);
    });
  });
}
