import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import {
  atReturn,
  clientRequests,
  DEMO_VENUE,
  guest,
  london,
  newStack,
  proxyLog,
  storedBookings,
  TYPES,
  until,
  WidgetPage,
} from '../support/widget-page.js';

/** Monday 16 March 2026, 10:00 in London: the sandbox's and the element's clock. */
const NOW = '2026-03-16T10:00';
const TUESDAY = '2026-03-17';
const FEAST = '64a1f0c2e4b0a1b2c3d4e706';

/** The time step's key as it is read: each offer named once, with its times. */
const keyOf = (page: WidgetPage) => WidgetPage.spoken(page.root.querySelector<HTMLElement>('ul.legend')!);

function badgeOf(page: WidgetPage, value: string): HTMLElement | null {
  return page
    .options()
    .find((button) => button.dataset.value === value)!
    .querySelector('[part~="badge"]');
}

describe('offers are promises', () => {
  afterEach(() => sessionStorage.clear());

  it('a 2-person party sees no 6+ badge; the badges left are named on hover and focus', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const element = await fixture<VenueBooking>(
      html`<venue-booking
        venue=${DEMO_VENUE}
        api=${stack.api}
        steps="num_people,type,date,time"
        .now=${london(NOW)}
      ></venue-booking>`,
    );
    const page = new WidgetPage(element);
    await page.chooseValue('num_people', 2);
    await page.leave('num_people');
    await page.waitForStep('type');
    for (const button of page.options()) expect(button.textContent).not.to.match(/6\+|Big group feast/);
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    await page.chooseValue('date', TUESDAY);
    await page.waitForStep('time');
    const badged = page.options().filter((button) => button.querySelector('[part~="badge"]'));
    // Only the two-for-one (2–8 people, weekdays 17:00–19:00) can apply to 2 people on a Tuesday.
    expect(badged.length).to.be.greaterThan(0);
    for (const button of badged)
      expect(WidgetPage.value(button) >= '17:00' && WidgetPage.value(button) <= '19:00').to.equal(true);
    expect(badgeOf(page, '13:00')).to.equal(null);
    const slot = page.options().find((button) => button.dataset.value === '17:30')!;
    // The chip says "Offer"; the key above the chips names the offer once, with its times.
    expect(WidgetPage.spoken(slot)).to.include('Offer').and.not.include('Two-for-one cocktails').and.not.include('6+');
    expect(keyOf(page)).to.include('Offers at 17:00–19:00: Two-for-one cocktails').and.not.include('Big group feast');
    await expect(element).to.be.accessible();
  });

  it('while the party size is unknown a badge says its condition, and the offer it promised is on the details step', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}></venue-booking>`,
    );
    const page = new WidgetPage(element);
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    await page.chooseValue('date', TUESDAY);
    await page.waitForStep('time');
    const badge = badgeOf(page, '13:00')!;
    // A time chip's badge is the word; the key names the offer once, with its times and the sizes
    // of the type's parties it is for.
    expect(badge.textContent!.trim()).to.equal('Offer');
    expect(WidgetPage.spoken(badge.closest('button')!)).to.not.include('Big group feast');
    expect(keyOf(page)).to.include('Offers at 12:00–20:00: Big group feast (6–8 people)');
    // After 20:00 no offer of this venue starts: no badge.
    const late = page.options().find((button) => WidgetPage.enabled(button) && WidgetPage.value(button) > '20:00');
    if (late) expect(late.querySelector('[part~="badge"]')).to.equal(null);
    await page.book({ time: '13:00', num_people: 6 });
    const form = await page.form();
    await until(() => form.querySelector(`[name="offer"][value="${FEAST}"]`), 'the promised offer');
    expect(form.querySelector('[part~="offers"]')!.textContent).to.include('Big group feast');
    await page.tick('offer', FEAST);
    const who = guest('feast');
    await page.fillDetails(who);
    page.submit();
    await page.reference();
    const [stored] = await storedBookings(stack, who.email);
    expect(stored.offer).to.equal(FEAST);
  });
});

describe('host pages that re-render', () => {
  afterEach(() => sessionStorage.clear());

  it('a party size the proxy would refuse is not prefilled: no error, the guest chooses', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} num-people="5000" .now=${london(NOW)}></venue-booking>`,
    );
    const page = new WidgetPage(element);
    await page.waitForStep('type');
    expect(page.alert()).to.equal('');
    expect((await clientRequests(stack)).filter((request) => request.url.includes('num_people='))).to.deep.equal([]);
  });

  it('setting `guest` again fills only the fields the guest has not typed in', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const prefill = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 7700 900123' };
    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)} .guest=${prefill}></venue-booking>`,
    );
    const page = new WidgetPage(element);
    await page.completeSteps({ type: (button) => WidgetPage.value(button) === TYPES.table });
    const form = await page.form();
    const value = (name: string) => form.querySelector<HTMLInputElement>(`[name="${name}"]`)!.value;
    expect(value('first_name')).to.equal('Ada');
    await page.fillDetails({ first_name: 'Grace' });
    // A React parent re-renders: a new object with the same prefill, and a corrected email.
    const who = guest('rerender');
    element.guest = { ...prefill, email: who.email };
    await element.updateComplete;
    expect(value('first_name')).to.equal('Grace');
    expect(value('email')).to.equal(who.email, 'an untouched field follows the prefill');
    page.submit();
    await page.reference();
    const [stored] = await storedBookings(stack, who.email);
    expect(stored.first_name).to.equal('Grace');
    expect(stored.last_name).to.equal('Lovelace');
  });

  it('after a reload the restored confirmation fires vb-complete with restored: true', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const events: { reference: string; status: string; restored: boolean }[] = [];
    const listen = (event: Event) => events.push((event as CustomEvent).detail);
    document.addEventListener('vb-complete', listen);
    try {
      const element = await fixture<VenueBooking>(
        html`<venue-booking id="restore" venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}></venue-booking>`,
      );
      const page = new WidgetPage(element);
      await page.completeSteps({ type: (button) => WidgetPage.value(button) === TYPES.table });
      await page.fillDetails(guest('restore'));
      page.submit();
      const reference = await page.reference();
      expect(events.map((event) => [event.reference, event.restored])).to.deep.equal([[reference, false]]);
      element.remove();

      const reloaded = await fixture<VenueBooking>(
        html`<venue-booking id="restore" venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}></venue-booking>`,
      );
      expect(await new WidgetPage(reloaded).reference()).to.equal(reference);
      await until(() => events.length === 2, 'the restored vb-complete');
      expect(events[1]).to.include({ reference, status: events[0].status, restored: true });
      await reloaded.updateComplete;
      expect(events).to.have.length(2, 'fired once per load');
    } finally {
      document.removeEventListener('vb-complete', listen);
    }
  });
});

/**
 * A brunch booking (deposit) up to the hand-off: the URL the widget would send the guest to (the
 * `vb-redirect` is cancelled, so the test page stays).
 */
async function depositHandOff(
  api: string,
  id: string,
  returnUrl = '',
  returnMethod = 'post',
): Promise<{ element: VenueBooking; url: string }> {
  const element = await fixture<VenueBooking>(
    html`<venue-booking
      id=${id}
      venue=${DEMO_VENUE}
      api=${api}
      return-url=${returnUrl}
      return-method=${returnMethod}
      .now=${london(NOW)}
    ></venue-booking>`,
  );
  const page = new WidgetPage(element);
  await page.chooseValue('type', TYPES.brunch);
  await page.leave('type');
  await page.chooseValue('date', '2026-03-21');
  await page.book({ time: '10:30', num_people: 2 });
  await page.waitForStep('redirect');
  let url = '';
  element.addEventListener('vb-redirect', (event) => {
    url = event.detail.url;
    event.preventDefault();
  });
  page.submit();
  return { element, url: await until(() => url, 'the hand-off') };
}

/** The forms a guest's value can take in a URL. */
const inUrlForms = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  new URLSearchParams({ x: secret }).toString().slice(2),
];

/** Expects none of the guest's `secrets`, in any URL form, in any of `seen`. */
function expectNoneOf(secrets: string[], seen: string[]): void {
  for (const text of seen)
    for (const secret of secrets) for (const form of inUrlForms(secret)) expect(text).not.to.include(form);
}

/**
 * A frame standing in for the guest's browser on the booking site: its documents are real, so
 * their forms submit and redirects are followed as navigations. `visit` runs `act` in it and
 * resolves once the frame has loaded the next document; `remove` when done.
 */
function guestFrame() {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  return {
    frame,
    visit(act: (frame: HTMLIFrameElement) => void): Promise<Document> {
      const loaded = new Promise<Document>((resolve) =>
        frame.addEventListener('load', () => resolve(frame.contentDocument!), { once: true }),
      );
      act(frame);
      return loaded;
    },
    /** Fills the booking site's form as the guest would, deposit paid. */
    fillBooking(site: Document, who: Record<string, string>): void {
      for (const [name, value] of Object.entries({ ...who, card_number: '4242 4242 4242 4242' })) {
        const input = site.querySelector<HTMLInputElement>(`[name="${name}"]`);
        if (input) input.value = value;
      }
      site.querySelector<HTMLInputElement>('[name="pay_deposit"]')!.checked = true;
    },
    remove: () => frame.remove(),
  };
}

describe('privacy on the hand-off', () => {
  afterEach(() => sessionStorage.clear());

  it('a deposit booking returns through the proxy’s POST bridge: no personal data in any URL', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const { element, url } = await depositHandOff(stack.api, 'brunch-post');
    const handOff = new URL(url);
    expect(handOff.searchParams.get('return_method')).to.equal('post');
    const bridge = new URL(handOff.searchParams.get('return_url')!);
    expect(bridge.pathname).to.equal(`${stack.api}/return`);
    expect(bridge.searchParams.get('venue')).to.equal(DEMO_VENUE);
    // The signed hand-off id the probe gave: the proxy confirms only a return that carries it.
    expect(bridge.searchParams.get('handoff')).to.match(/^[0-9a-z]+\.[\w-]{16}\.[\w-]{43}$/);
    const left = new URL(bridge.searchParams.get('page')!);
    expect(left.origin + left.pathname).to.equal(location.origin + location.pathname);
    expect(left.searchParams.get('vb_return')).to.equal('brunch-post');

    // The guest on the booking site pays the deposit; its page posts the details back to the bridge.
    const who = { ...guest('bridge'), first_name: 'Grace', last_name: 'Hopper', phone: '07700 900456' };
    const form = new URLSearchParams(handOff.search);
    for (const [key, value] of Object.entries({ ...who, card_number: '4242 4242 4242 4242', pay_deposit: 'yes' }))
      form.set(key, value);
    const hosted = await fetch(`${stack.base}/sandbox/book`, { method: 'POST', body: form });
    expect(hosted.status).to.equal(200);
    const returnForm = new DOMParser()
      .parseFromString(await hosted.text(), 'text/html')
      .querySelector<HTMLFormElement>('form[method="post"]')!;
    expect(returnForm.getAttribute('action')).to.equal(bridge.href);
    const posted = new URLSearchParams();
    for (const input of returnForm.querySelectorAll('input')) posted.set(input.name, input.value);
    expect(posted.get('email')).to.equal(who.email, 'the details travel in the POST body');
    const back = await fetch(returnForm.getAttribute('action')!, { method: 'POST', body: posted });
    expect(back.redirected).to.equal(true);
    const landed = new URL(back.url);
    expect(landed.searchParams.get('vb_return')).to.equal('brunch-post');
    const reference = landed.searchParams.get('reference');
    expect(reference).to.match(/^DMN-/);

    // No URL the venue's page or the proxy received holds the guest's name, email or phone.
    const secrets = [who.first_name, who.last_name, who.email, who.phone];
    const urls = [landed.href, ...(await clientRequests(stack)).map((request) => request.url)];
    expect(urls.some((seen) => seen.includes('/api/return'))).to.equal(true);
    for (const seen of urls)
      for (const secret of secrets)
        for (const form of [secret, encodeURIComponent(secret), new URLSearchParams({ x: secret }).toString().slice(2)])
          expect(seen).not.to.include(form);

    await atReturn(element, landed, 'brunch-post', async (again) => {
      expect(await again.reference()).to.equal(reference);
      expect(again.confirmationStatus()).to.equal('confirmed');
      expect(location.search).not.to.include('reference');
      const [stored] = await storedBookings(stack, who.email);
      expect(stored.reference).to.equal(reference);
    });
  });

  it('the booking page’s own return form (a no-referrer page: Origin null) lands the guest back through the bridge', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    // A landing page of its own (any same-origin page; a 404 loads too): the test page itself must
    // not load inside the frame.
    const { url } = await depositHandOff(stack.api, 'brunch-frame', '/vb-landing.html');
    const guestSite = guestFrame();
    try {
      const site = await guestSite.visit((frame) => (frame.src = url));
      const who = { ...guest('frame'), first_name: 'Ada', last_name: 'Lovelace', phone: '07700 900789' };
      guestSite.fillBooking(site, who);
      const returnPage = await guestSite.visit(() =>
        site.querySelector<HTMLFormElement>('form[method="post"]')!.requestSubmit(),
      );
      const returnForm = returnPage.querySelector<HTMLFormElement>('form[method="post"]')!;
      expect(new URL(returnForm.action).pathname).to.equal(`${stack.api}/return`);
      await guestSite.visit(() => returnForm.requestSubmit());
      const landed = new URL(guestSite.frame.contentWindow!.location.href);
      expect(landed.origin + landed.pathname).to.equal(`${location.origin}/vb-landing.html`);
      expect(landed.searchParams.get('vb_return')).to.equal('brunch-frame');
      expect(landed.searchParams.get('reference')).to.match(/^DMN-/);
      expectNoneOf([who.first_name, who.last_name, who.email], [landed.href]);
    } finally {
      guestSite.remove();
    }
  });

  it('a booking site that comes back by GET with the guest’s details: the bridge lands the guest with only reference and status', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const { element, url } = await depositHandOff(stack.api, 'brunch-get-back', '/vb-landing.html');
    const handOff = new URL(url);
    expect(new URL(handOff.searchParams.get('return_url')!).searchParams.get('lang')).to.equal('en-GB');
    // This booking site ignores `return_method=post`: it redirects to the return URL by GET, the
    // guest's name and email in the query (the sandbox's booking site does so without it).
    handOff.searchParams.delete('return_method');
    const guestSite = guestFrame();
    const who = { ...guest('get-back'), first_name: 'Grace', last_name: 'Hopper', phone: '07700 900321' };
    let landed: URL;
    try {
      const site = await guestSite.visit((frame) => (frame.src = handOff.href));
      guestSite.fillBooking(site, who);
      await guestSite.visit(() => site.querySelector<HTMLFormElement>('form[method="post"]')!.requestSubmit());
      landed = new URL(guestSite.frame.contentWindow!.location.href);
    } finally {
      guestSite.remove();
    }
    expect(landed.origin + landed.pathname).to.equal(`${location.origin}/vb-landing.html`);
    expect(landed.searchParams.get('vb_return')).to.equal('brunch-get-back');
    const reference = landed.searchParams.get('reference');
    expect(reference).to.match(/^DMN-/);
    expect(landed.searchParams.get('status')).to.equal('complete');

    // The booking site did put the details in the bridge's URL (that one request is the booking
    // site's doing); nothing after it, and nothing the proxy logged, holds them.
    const requests = (await clientRequests(stack)).map((request) => request.url);
    const getReturns = requests.filter((seen) => seen.startsWith('/api/return?'));
    expect(getReturns).to.have.length(1);
    expect(getReturns[0]).to.include(`email=${encodeURIComponent(who.email)}`);
    const log = await proxyLog(stack);
    expect(log.some((line) => line.msg === 'booking returned' && line.landed === true)).to.equal(true);
    expectNoneOf(
      [who.first_name, who.last_name, who.email, who.phone],
      [landed.href, JSON.stringify(log), ...requests.filter((seen) => !getReturns.includes(seen))],
    );

    await atReturn(element, landed, 'brunch-get-back', async (again) => {
      expect(await again.reference()).to.equal(reference);
      expect(again.confirmationStatus()).to.equal('confirmed');
      expect(location.search).to.equal('');
      const [stored] = await storedBookings(stack, who.email);
      expect(stored.reference).to.equal(reference);
    });
  });

  it('the documented GET return (reference and status only) lands the guest through the bridge too', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const { element, url } = await depositHandOff(stack.api, 'brunch-get-plain', '/vb-landing.html');
    const handOff = new URL(url);
    const bridge = new URL(handOff.searchParams.get('return_url')!);
    // The booking: the guest pays on the booking site, which here reports the reference it booked.
    const who = { ...guest('get-plain'), first_name: 'Katherine', last_name: 'Johnson', phone: '07700 900654' };
    const form = new URLSearchParams(handOff.search);
    for (const [key, value] of Object.entries({ ...who, card_number: '4242 4242 4242 4242', pay_deposit: 'yes' }))
      form.set(key, value);
    const hosted = await fetch(`${stack.base}/sandbox/book`, { method: 'POST', body: form });
    const booked = new DOMParser().parseFromString(await hosted.text(), 'text/html');
    const reference = booked.querySelector<HTMLInputElement>('input[name="reference"]')!.value;
    const status = booked.querySelector<HTMLInputElement>('input[name="status"]')!.value;
    // It comes back by GET: the return URL the hand-off carried, with the reference and the status.
    bridge.searchParams.set('reference', reference);
    bridge.searchParams.set('status', status);
    const guestSite = guestFrame();
    let landed: URL;
    try {
      await guestSite.visit((frame) => (frame.src = bridge.href));
      landed = new URL(guestSite.frame.contentWindow!.location.href);
    } finally {
      guestSite.remove();
    }
    expect(landed.origin + landed.pathname).to.equal(`${location.origin}/vb-landing.html`);
    expect([...landed.searchParams]).to.deep.equal([
      ['vb_return', 'brunch-get-plain'],
      ['reference', reference],
      ['status', 'complete'],
    ]);
    const requests = (await clientRequests(stack)).map((request) => request.url);
    expect(requests.filter((seen) => seen.startsWith('/api/return?'))).to.have.length(1);
    expectNoneOf(
      [who.first_name, who.last_name, who.email, who.phone],
      [landed.href, JSON.stringify(await proxyLog(stack)), ...requests],
    );

    await atReturn(element, landed, 'brunch-get-plain', async (again) => {
      expect(await again.reference()).to.equal(reference);
      expect(again.confirmationStatus()).to.equal('confirmed');
    });
  });

  it('GET stays the fallback where the proxy offers no bridge', async () => {
    const stack = await newStack({ sandbox: { now: NOW }, proxy: { returnBridge: false } });
    const { url } = await depositHandOff(stack.api, 'brunch-get');
    expect(new URL(url).searchParams.get('return_method')).to.equal(null);
    expect(new URL(new URL(url).searchParams.get('return_url')!).pathname).to.equal(location.pathname);
    const asked = (await clientRequests(stack)).some((request) =>
      request.url.startsWith(`/api/venues/${DEMO_VENUE}/handoff?`),
    );
    expect(asked).to.equal(true, 'the hand-off asked');
  });

  for (const returnMethod of ['post', 'get'])
    it(`a return-url on another origin goes through the bridge (return-method ${returnMethod}): the guest's details never travel there`, async () => {
      const stack = await newStack({ sandbox: { now: NOW } });
      const away = 'https://elsewhere.example/thanks';
      const { url } = await depositHandOff(stack.api, `brunch-away-${returnMethod}`, away, returnMethod);
      const handOff = new URL(url);
      expect(handOff.searchParams.get('return_method')).to.equal('post');
      const bridge = new URL(handOff.searchParams.get('return_url')!);
      expect(bridge.origin + bridge.pathname).to.equal(`${location.origin}${stack.api}/return`);
      expect(bridge.searchParams.get('page')).to.match(/^https:\/\/elsewhere\.example\/thanks\?vb_return=/);
      expect(bridge.searchParams.get('handoff')).to.match(/^[0-9a-z]+\.[\w-]{16}\.[\w-]{43}$/);

      // The booking site posts the details to the bridge, which lands only on origins the proxy
      // serves (this page's, configured ones): it refuses this one, and elsewhere.example gets nothing.
      const who = { ...guest(`away-${returnMethod}`), first_name: 'Edsger', last_name: 'Dijkstra' };
      const form = new URLSearchParams(handOff.search);
      for (const [key, value] of Object.entries({ ...who, card_number: '4242 4242 4242 4242', pay_deposit: 'yes' }))
        form.set(key, value);
      const hosted = await fetch(`${stack.base}/sandbox/book`, { method: 'POST', body: form });
      const returnForm = new DOMParser()
        .parseFromString(await hosted.text(), 'text/html')
        .querySelector<HTMLFormElement>('form[method="post"]')!;
      expect(returnForm.getAttribute('action')).to.equal(bridge.href);
      const posted = new URLSearchParams();
      for (const input of returnForm.querySelectorAll('input')) posted.set(input.name, input.value);
      const back = await fetch(bridge.href, { method: 'POST', body: posted });
      expect(back.redirected).to.equal(false, 'no redirect to elsewhere.example');
      expect(back.status).to.equal(404);
      const told = await back.text();
      expect(JSON.parse(told).payload.errors[0].code).to.equal('no_return_page');
      expectNoneOf([who.first_name, who.last_name, who.email], [told]);
    });
});
