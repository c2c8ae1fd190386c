/**
 * The embed studio in real Chromium, served by the real proxy of a fresh stack with the widget
 * bundle: its preview is the real widget and books a real table; the snippet it gives, pasted into
 * a plain page on another origin, renders the widget there; and a page on an origin the proxy
 * refuses shows up in the studio as refused, with "Allow this site" and the setting that fixes it.
 */
import { expect } from '@open-wc/testing';
import type { VenueBooking } from '../../src/venue-booking.js';
import { formatViolations, operatorPageViolations } from '../support/demo-frame.js';
import { closeFrames, openFrame } from '../support/frames.js';
import {
  DEMO_VENUE,
  newStack,
  storedBookings,
  TYPES,
  until,
  WidgetPage,
  type TestStack,
} from '../support/widget-page.js';

/** The studio as an operator's desktop browser shows it. */
const DESKTOP = { width: 1100, height: 1200 };

afterEach(() => {
  closeFrames();
  sessionStorage.clear();
});

/** The studio of a stack, opened as the operator would (from this machine: no token). */
async function openStudio(stack: TestStack): Promise<Document> {
  const frame = await openFrame(`${stack.base}/embed`, 'embed studio', DESKTOP);
  return frame.contentDocument!;
}

/** A plain page on another origin holding `html`, with a reporter that tells this page what the widget shows. */
async function postPage(stack: TestStack, html: string): Promise<{ url: string; origin: string }> {
  const reporter = `<script type="module">
const report = () => {
  const root = document.querySelector('venue-booking')?.shadowRoot;
  const step = root?.querySelector('[part~="step"][data-step]');
  const alert = root?.querySelector('[role="alert"]')?.textContent.trim();
  if (step || alert) parent.postMessage({ page: location.href, step: step?.dataset.step ?? null, alert: alert ?? '' }, '*');
  else setTimeout(report, 50);
};
report();
</script>`;
  const response = await fetch(`${stack.base}/__pages`, {
    method: 'POST',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our venue</title></head><body><h1>Book a table</h1>\n${html}\n${reporter}</body></html>`,
  });
  return response.json();
}

/** What the widget on the page at `url` first shows, as its reporter posts it. */
function shownOn(url: string): Promise<{ step: string | null; alert: string }> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      if (event.data?.page !== url) return;
      window.removeEventListener('message', listener);
      resolve(event.data);
    };
    window.addEventListener('message', listener);
  });
}

/** The studio's row for a site: whether the widget is allowed there, and the fix. */
function originRow(doc: Document, origin: string): { status: string; fix: string } | null {
  const row = [...doc.querySelectorAll('#origins-table tbody tr')].find(
    (tr) => tr.querySelector('th')?.textContent === origin,
  );
  if (!row) return null;
  const cells = row.querySelectorAll('td');
  return { status: cells[0]!.textContent!, fix: cells[3]!.textContent! };
}

/** The studio at `query`, once its preview widget has drawn its first step. */
async function studioAt(stack: TestStack, query: string): Promise<Document> {
  const frame = await openFrame(`${stack.base}/embed?${query}`, 'embed studio', DESKTOP);
  const doc = frame.contentDocument!;
  await until(
    () => doc.querySelector('#preview venue-booking')?.shadowRoot?.querySelector('[part~="step"], [part~="open"]'),
    'the preview',
  );
  return doc;
}

/** A CSS colour as sRGB bytes, however the browser writes its computed value (`oklch(1 0 0)` is white). */
function rgbOf(colour: string): number[] {
  const context = document.createElement('canvas').getContext('2d')!;
  context.fillStyle = colour;
  context.fillRect(0, 0, 1, 1);
  return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
}

/** Sets a form control's value as a person would, and waits for the studio to redraw. */
async function change(doc: Document, control: HTMLInputElement | HTMLSelectElement, value: string): Promise<void> {
  const drawn = doc.body.dataset.drawn;
  control.focus();
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
  await until(() => doc.body.dataset.drawn !== drawn && doc.body.dataset.drawn, 'the studio to redraw');
}

describe('the embed studio', () => {
  it('previews the real widget, which books a real table through the proxy', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const doc = await openStudio(stack);
    expect(doc.querySelector('h1')!.textContent).to.equal('Put the booking widget on your site');
    const element = await until(
      () =>
        doc.querySelector<VenueBooking>('#preview venue-booking')?.shadowRoot &&
        doc.querySelector<VenueBooking>('#preview venue-booking'),
      'the preview widget',
    );
    const page = new WidgetPage(element);
    await page.completeSteps({
      type: (button) => /^table\b/i.test(button.textContent!.trim()),
      num_people: (button) => button.dataset.value === '2',
    });
    const email = `studio-${Date.now()}@example.com`;
    await page.fillDetails({ first_name: 'Grace', last_name: 'Hopper', email, phone: '+44 7700 900456' });
    page.submit();
    const reference = await page.reference();
    const stored = await storedBookings(stack, email);
    expect(stored.map((booking) => booking.reference)).to.deep.equal([reference]);
    // "Test your tracking": every push to the tags, as it fired, the booking's conversion once.
    const heard = [...doc.querySelectorAll('#tracking-events li')].map((item) => item.textContent!);
    expect(heard.some((line) => line.startsWith('dataLayer: {"event":"vb_step"'))).to.equal(true);
    const purchases = heard.filter((line) => line.includes('"event":"purchase"'));
    expect(purchases).to.have.length(1);
    expect(purchases[0]).to.include(`"transaction_id":"${reference}"`);
    expect(heard.filter((line) => line.startsWith('Meta: ["track","Purchase"'))).to.have.length(1);
    expect(heard.join('\n')).not.to.include(email);
  });

  it('starts the preview afresh after a reload, and keeps its journey through the form’s redraws', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const frame = await openFrame(`${stack.base}/embed`, 'embed studio', DESKTOP);
    const preview = (doc: Document) =>
      until(
        () =>
          doc.querySelector<VenueBooking>('#preview venue-booking')?.shadowRoot?.querySelector('[part~="step"]') &&
          new WidgetPage(doc.querySelector<VenueBooking>('#preview venue-booking')!),
        'the preview',
      );
    const first = await (await preview(frame.contentDocument!)).step();
    expect(first).to.equal('type');
    await (
      await preview(frame.contentDocument!)
    ).choose('type', (button) => /^table\b/i.test(button.textContent!.trim()));
    const later = await until(() => {
      const step = new WidgetPage(
        frame.contentDocument!.querySelector<VenueBooking>('#preview venue-booking')!,
      ).currentStep();
      return step && step !== 'type' && step;
    }, 'the next step');
    // A redraw that makes a new preview element (another language) keeps the test journey.
    const doc = frame.contentDocument!;
    await change(doc, doc.querySelector<HTMLSelectElement>('select[name="locale"]')!, 'fr');
    await until(
      () => doc.querySelector('#preview venue-booking')?.getAttribute('locale') === 'fr',
      'the French preview',
    );
    expect(await (await preview(doc)).step()).to.equal(later);
    // A reload is a new test: the preview starts at its first step.
    const reloaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.contentWindow!.location.reload();
    await reloaded;
    expect(await (await preview(frame.contentDocument!)).step()).to.equal(first);
  });

  it('is accessible: labelled controls, landmarks and contrast (axe-core), the preview included', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const doc = await openStudio(stack);
    await until(
      () => doc.querySelector('#preview venue-booking')?.shadowRoot?.querySelector('[part~="step"]'),
      'the preview',
    );
    expect(formatViolations(await operatorPageViolations(doc))).to.equal('');
    // Every control of the form has a label a screen reader reads.
    for (const control of doc.querySelectorAll<HTMLInputElement>('#studio-form input, #studio-form select'))
      expect(control.labels?.length ?? 0, control.name).to.be.greaterThan(0);
  });

  it('changes the preview and the snippet as the form changes, without leaving the form', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const doc = await openStudio(stack);
    const popup = doc.querySelector<HTMLInputElement>('input[name="mode"][value="popup"]')!;
    popup.focus();
    popup.click();
    await until(
      () => doc.querySelector<HTMLTextAreaElement>('#snippet')!.value.includes('mode="popup"'),
      'the snippet',
    );
    await until(
      () => doc.querySelector('#preview venue-booking')?.shadowRoot?.querySelector('[part~="open"]'),
      'the popup button in the preview',
    );
    expect(doc.activeElement).to.equal(popup, 'focus stays on the choice');
    expect(doc.defaultView!.location.search).to.contain('mode=popup');
  });

  it('gives a snippet that, pasted into a plain page on another origin, renders the widget; that site shows as allowed', async () => {
    const stack = await newStack({ proxy: { widget: true, allowPages: true } });
    const doc = await openStudio(stack);
    doc.querySelector<HTMLButtonElement>('#copy')!.click();
    await until(() => doc.querySelector('#copied')!.textContent, 'the copy button to answer');
    const snippet = doc.querySelector<HTMLTextAreaElement>('#snippet')!.value;
    expect(snippet).to.match(/integrity="sha384-[A-Za-z0-9+/=]+"/);
    expect(snippet).to.contain(`src="${location.origin}${stack.base}/venue-booking.js"`);
    expect(snippet).to.contain(`<link rel="preconnect" href="${location.origin}" crossorigin>`);
    const { url, origin } = await postPage(stack, snippet);
    expect(origin).to.not.equal(location.origin);
    const shown = shownOn(url);
    await openFrame(url, 'the venue’s own page', DESKTOP);
    expect((await shown).step).to.equal('type');

    const again = await openStudio(stack);
    expect(originRow(again, origin)).to.deep.equal({ status: 'Shows the widget', fix: '' });
  });

  it('shows a page on a refused origin as refused, with the button and the setting that let it in', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const snippet = (await openStudio(stack)).querySelector<HTMLTextAreaElement>('#snippet')!.value;
    const { url, origin } = await postPage(stack, snippet);
    const shown = shownOn(url);
    await openFrame(url, 'a page the proxy does not know', DESKTOP);
    expect((await shown).alert).to.not.equal('', 'the widget says it cannot book there');

    const doc = await openStudio(stack);
    const row = originRow(doc, origin)!;
    expect(row.status).to.equal('Blocked');
    // The manager allows it here (test/browser/studio-sites.test.ts), or the web person in the settings.
    expect(row.fix).to.contain('Allow this site');
    // The exact setting, folded away for the web person.
    expect(row.fix).to.contain(`VENUE_BOOKING_ORIGINS=${origin}`);
    expect(row.fix).to.contain('restart the booking service');
  });

  it('offers the venue’s booking types by name in a select; the one chosen goes into the snippet by its id', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const doc = await studioAt(stack, `venue=${DEMO_VENUE}`);
    expect(doc.querySelector('input[name="type"]'), 'no box to type an id into').to.equal(null);
    const select = doc.querySelector<HTMLSelectElement>('select[name="type"]')!;
    const names = [...select.options].map((option) => option.textContent);
    expect(names).to.include.members(['Let the guest choose', 'Table', 'Bottomless Brunch', 'Private Hire']);
    const table = [...select.options].find((option) => option.textContent === 'Table')!;
    await change(doc, select, table.value);
    expect(doc.querySelector<HTMLTextAreaElement>('#snippet')!.value).to.contain(`type="${TYPES.table}"`);
    // The party size takes what a table takes (2 to 8 at this venue), from its booking rules.
    const people = await until(
      () => doc.querySelector<HTMLInputElement>('input[name="num-people"][max="8"]'),
      'the party sizes of a table',
    );
    expect(people.min).to.equal('2');
    expect(doc.querySelector('#problems')!.textContent).to.equal('');
    // A type typed into the address by name is left out, and said.
    const typed = await studioAt(stack, `venue=${DEMO_VENUE}&type=Table`);
    expect(typed.querySelector('#problems')!.textContent).to.contain('Booking type: not one of the choices');
    expect(typed.querySelector<HTMLTextAreaElement>('#snippet')!.value).to.not.contain('type="Table"');
  });

  it('warns that the dark theme’s accent #8b1f3a is hard to see; the widget picks white text on it', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const doc = await studioAt(stack, `venue=${DEMO_VENUE}&mode=popup`);
    expect(doc.querySelector('#contrast')!.textContent).to.equal('');
    doc.querySelector<HTMLInputElement>('input[name="theme"][value="dark"]')!.click();
    const own = doc.querySelector<HTMLInputElement>('input[data-colour="accent"]')!;
    own.click();
    const picker = doc.querySelector<HTMLInputElement>('input[type="color"][name="accent"]')!;
    expect(picker.disabled).to.equal(false, 'ticking the colour turns its picker on');
    await change(doc, picker, '#8b1f3a');
    const warning = doc.querySelector('#contrast')!.textContent!;
    expect(warning).to.contain('Hard to read in the dark theme');
    expect(warning).to.contain('1.96:1');
    expect(doc.querySelector<HTMLTextAreaElement>('#snippet')!.value).to.contain('--vb-accent: #8b1f3a;');
    const button = await until(
      () => doc.querySelector('#preview venue-booking')?.shadowRoot?.querySelector<HTMLElement>('[part~="open"]'),
      'the popup button',
    );
    await until(() => getComputedStyle(button).backgroundColor === 'rgb(139, 31, 58)', 'the accent on the button');
    // No text colour named: white on the red (8.6:1), not the dark theme's #0b1a26 (1.98:1).
    expect(rgbOf(getComputedStyle(button).color)).to.deep.equal([255, 255, 255]);
  });

  it('says practice mode while the proxy runs on the sandbox, and never that bookings are real', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const doc = await openStudio(stack);
    const banner = doc.querySelector('.practice')!;
    expect(banner.textContent).to.contain('Practice mode: bookings here are not real.');
    expect(banner.getBoundingClientRect().top).to.be.lessThan(200, 'at the top of the page');
    expect(doc.body.textContent).to.not.match(/bookings (made there )?are real|books for real/);
  });

  it('redraws the preview as the form changes, and keeps it in view while the form scrolls', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const doc = await studioAt(stack, `venue=${DEMO_VENUE}`);
    await change(doc, doc.querySelector<HTMLSelectElement>('select[name="locale"]')!, 'fr');
    const element = await until(
      () => doc.querySelector<VenueBooking>('#preview venue-booking[locale="fr"]'),
      'the French preview',
    );
    await until(() => element.shadowRoot?.querySelector('[part~="step"]'), 'the French preview’s first step');
    expect(element.shadowRoot!.querySelector('[part~="step"] h2, [part~="step"] legend')?.textContent).to.match(
      /réserv|type|choisi/i,
    );
    expect(doc.defaultView!.location.search).to.contain('locale=fr');
    const preview = doc.querySelector<HTMLElement>('.studio-preview')!;
    expect(getComputedStyle(preview).position).to.equal('sticky');
    doc.querySelector('#prefill')!.scrollIntoView();
    const box = preview.getBoundingClientRect();
    expect(box.top).to.be.at.least(0);
    expect(box.top).to.be.lessThan(doc.defaultView!.innerHeight);
  });

  it('links the booking page and its QR code, and the WordPress plugin for the chosen venue', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const doc = await studioAt(stack, `venue=${DEMO_VENUE}&locale=de`);
    const link = doc.querySelector<HTMLAnchorElement>('#booking-link')!;
    expect(link.href).to.equal(`${location.origin}${stack.base}/book/${DEMO_VENUE}?locale=de`);
    // The code encodes the link marked as the QR code's, so /status tells its bookings apart.
    expect(doc.querySelector('#links svg[role="img"]')!.getAttribute('aria-label')).to.equal(
      `QR code of ${link.href}&via=qr`,
    );
    const qr = await fetch(doc.querySelector<HTMLAnchorElement>('#qr-download')!.href);
    expect(qr.headers.get('content-type')).to.equal('image/svg+xml; charset=utf-8');
    // The link to paste into Google's Business Profile is the same page, and follows the form.
    expect(doc.querySelector<HTMLInputElement>('#google-link-0')!.value).to.equal(link.href);
    await change(doc, doc.querySelector<HTMLSelectElement>('select[name="locale"]')!, 'fr');
    await until(
      () => doc.querySelector<HTMLInputElement>('#google-link-0')!.value.endsWith('?locale=fr'),
      'the Google link in French',
    );
    await change(doc, doc.querySelector<HTMLSelectElement>('select[name="locale"]')!, 'de');
    // The plugin carries the studio's choices too: here the language.
    expect(doc.querySelector<HTMLAnchorElement>('#wordpress-plugin')!.href).to.equal(
      `${location.origin}${stack.base}/embed/wordpress-plugin.zip?venue=${DEMO_VENUE}&locale=de`,
    );
    // Without a booking page of the venue's own, the widget's fallback points to this one, in German.
    expect(doc.querySelector<HTMLTextAreaElement>('#snippet')!.value).to.contain(
      `<p>Bitte <a href="${location.origin}${stack.base}/book/${DEMO_VENUE}?locale=de">buchen Sie auf unserer Buchungsseite</a>.</p>`,
    );
  });
});
