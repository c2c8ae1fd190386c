/**
 * A site the proxy refuses says so, through the real proxy: a plain page on an origin that is not
 * in the stack's VENUE_BOOKING_ORIGINS loads the widget from the proxy; the widget tells the guest
 * that online booking is not available on this site yet, shows the venue's own link and phone
 * (its fallback content), offers no retry, and writes one console warning naming the page's origin
 * and the setting to add it to. The same page on an allowed origin is the control.
 */
import { expect } from '@open-wc/testing';
import { DEMO_VENUE, newStack, type TestStack } from '../support/widget-page.js';

const frames: HTMLIFrameElement[] = [];
afterEach(() => frames.splice(0).forEach((frame) => frame.remove()));

/** What the page reports once the widget shows a step or an alert. */
interface Shown {
  page: string;
  origin: string;
  step: string | null;
  alert: string;
  retry: boolean;
  fallback: boolean;
  warnings: string[];
}

/**
 * A plain page on the stack's other origin: the widget's script from the proxy, fallback content
 * inside the element, and a reporter that records console warnings from the start and posts what
 * the widget shows (after a moment, so that a second warning would be counted).
 */
async function venuePage(stack: TestStack): Promise<{ url: string; origin: string }> {
  const proxy = `${location.origin}${stack.base}`;
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our venue</title>
<script>window.warnings = []; const warn = console.warn; console.warn = (...args) => { warnings.push(args.join(' ')); warn(...args); };</script>
</head><body><h1>Book a table</h1>
<script type="module" src="${proxy}/venue-booking.js"></script>
<venue-booking venue="${DEMO_VENUE}" api="${proxy}/api">
  <p class="fallback">Book online at <a href="${proxy}/sandbox/book?venue_id=${DEMO_VENUE}">our booking page</a> or call <a href="tel:+442079460000">020 7946 0000</a>.</p>
</venue-booking>
<script type="module">
const report = () => {
  const root = document.querySelector('venue-booking')?.shadowRoot;
  const step = root?.querySelector('[part~="step"][data-step]');
  const alert = root?.querySelector('[role="alert"]')?.textContent.trim();
  if (!step && !alert) return setTimeout(report, 50);
  setTimeout(() => {
    const slot = root.querySelector('slot');
    const fallback = Boolean(slot && slot.assignedElements().some((node) => node.getBoundingClientRect().height > 0));
    parent.postMessage({ page: location.href, origin: location.origin, step: step?.dataset.step ?? null, alert: alert ?? '',
      retry: Boolean(root.querySelector('[data-retry]')), fallback, warnings }, '*');
  }, 500);
};
report();
</script></body></html>`;
  const response = await fetch(`${stack.base}/__pages`, { method: 'POST', body: page });
  return response.json();
}

/** Opens the page at `url` in a frame and waits for its report. */
async function open(url: string): Promise<Shown> {
  const shown = new Promise<Shown>((resolve) => {
    const listener = (event: MessageEvent) => {
      if (event.data?.page !== url) return;
      window.removeEventListener('message', listener);
      resolve(event.data);
    };
    window.addEventListener('message', listener);
  });
  const frame = document.createElement('iframe');
  frame.title = 'the venue’s own page';
  frame.style.cssText = 'width: 800px; height: 600px; border: 0;';
  frame.src = url;
  document.body.append(frame);
  frames.push(frame);
  return shown;
}

describe('a site the proxy refuses', () => {
  it('tells the guest online booking is not available here, with the fallback link and phone, and names the setting in the console', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const { url, origin } = await venuePage(stack);
    expect(origin).to.not.equal(location.origin);
    const shown = await open(url);
    expect(shown.step).to.equal(null);
    expect(shown.alert).to.equal(
      'Online booking is not available on this site yet. Please book with the venue directly.',
    );
    expect(shown.retry, 'no retry: only the site’s owner can change this').to.equal(false);
    expect(shown.fallback, 'the venue’s own link and phone').to.equal(true);
    const told = shown.warnings.filter((line) => line.includes('VENUE_BOOKING_ORIGINS'));
    expect(told, shown.warnings.join('\n')).to.have.length(1);
    expect(told[0]).to.contain(origin);
  });

  it('the same page on an allowed origin books as usual, and warns of nothing', async () => {
    const stack = await newStack({ proxy: { widget: true, allowPages: true } });
    const { url } = await venuePage(stack);
    const shown = await open(url);
    expect(shown.step).to.equal('type');
    expect(shown.alert).to.equal('');
    expect(shown.warnings.filter((line) => line.includes('VENUE_BOOKING_ORIGINS'))).to.deep.equal([]);
  });
});
