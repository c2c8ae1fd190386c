/**
 * The embed studio in real Chromium, served by the real proxy of a fresh stack with the widget
 * bundle: its preview is the real widget and books a real table; the snippet it gives, pasted into
 * a plain page on another origin, renders the widget there; and a page on an origin the proxy
 * refuses shows up in the studio as refused, with the setting that fixes it.
 */
import { expect } from '@open-wc/testing';
import type { VenueBooking } from '../../src/venue-booking.js';
import { formatViolations, type AxeViolation } from '../support/demo-frame.js';
import { newStack, storedBookings, until, WidgetPage, type TestStack } from '../support/widget-page.js';

const frames: HTMLIFrameElement[] = [];
afterEach(() => {
  for (const frame of frames.splice(0)) frame.remove();
  sessionStorage.clear();
});

/** Loads `url` in a frame of the test page. */
async function frameOf(url: string, title: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.title = title;
  frame.style.cssText = 'width: 1100px; height: 1200px; border: 0;';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = url;
  document.body.append(frame);
  frames.push(frame);
  await loaded;
  return frame;
}

/**
 * axe-core's violations for a page in a frame. The operator pages let scripts run only with their
 * answer's nonce, so axe is loaded with the nonce of the page's own script.
 */
async function axeViolations(doc: Document): Promise<AxeViolation[]> {
  const win = doc.defaultView as Window & { axe?: { run(context: Document): Promise<{ violations: AxeViolation[] }> } };
  const script = doc.createElement('script');
  script.src = '/node_modules/axe-core/axe.min.js';
  script.nonce = doc.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
  const ready = new Promise((resolve, reject) => {
    script.onload = resolve;
    script.onerror = () => reject(new Error('axe-core did not load'));
  });
  doc.head.append(script);
  await ready;
  return (await win.axe!.run(doc)).violations;
}

/** The studio of a stack, opened as the operator would (from this machine: no token). */
async function openStudio(stack: TestStack): Promise<Document> {
  const frame = await frameOf(`${stack.base}/embed`, 'embed studio');
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
  });

  it('is accessible: labelled controls, landmarks and contrast (axe-core), the preview included', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const doc = await openStudio(stack);
    await until(
      () => doc.querySelector('#preview venue-booking')?.shadowRoot?.querySelector('[part~="step"]'),
      'the preview',
    );
    expect(formatViolations(await axeViolations(doc))).to.equal('');
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
    await frameOf(url, 'the venue’s own page');
    expect((await shown).step).to.equal('type');

    const again = await openStudio(stack);
    expect(originRow(again, origin)).to.deep.equal({ status: 'Allowed', fix: '' });
  });

  it('shows a page on a refused origin as refused, with the setting that lets it in', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const snippet = (await openStudio(stack)).querySelector<HTMLTextAreaElement>('#snippet')!.value;
    const { url, origin } = await postPage(stack, snippet);
    const shown = shownOn(url);
    await frameOf(url, 'a page the proxy does not know');
    expect((await shown).alert).to.not.equal('', 'the widget says it cannot book there');

    const doc = await openStudio(stack);
    const row = originRow(doc, origin)!;
    expect(row.status).to.equal('Refused');
    expect(row.fix).to.contain(`VENUE_BOOKING_ORIGINS=${origin}`);
    expect(row.fix).to.contain('restart the proxy');
  });
});
