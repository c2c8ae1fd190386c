/**
 * No-script fallback: the light-DOM content a venue puts inside `<venue-booking>` (a link to the
 * booking site and a phone number) is what a guest sees when the script cannot run, and is
 * replaced by the widget when it can. "Cannot run" is a frame whose sandbox forbids scripts, the
 * same as a browser with JavaScript off.
 */
import { expect } from '@open-wc/testing';
import { openDemo, widgetReady, type DemoFrame } from '../support/demo-frame.js';
import { DEMO_VENUE, newStack, until } from '../support/widget-page.js';

let demo: DemoFrame | null = null;

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  demo?.close();
  demo = null;
});

/** True when the element takes up space on screen. */
function shown(element: Element | null): boolean {
  return Boolean(element && element.checkVisibility() && element.getBoundingClientRect().height > 0);
}

const frames: HTMLIFrameElement[] = [];
afterEach(() => frames.splice(0).forEach((frame) => frame.remove()));

/**
 * A page with the demo's fallback inside `<venue-booking>` and one module script importing
 * `modules`, in a frame; the errors it reports are collected from before its module runs.
 */
async function fallbackPage(modules: string[]) {
  const { api } = await newStack();
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width: 800px; height: 400px; border: 0;';
  frame.srcdoc = `<!doctype html><html lang="en-GB"><body>
    <script>window.errors = []; addEventListener('error', (event) => errors.push(String(event.message)));</script>
    <venue-booking venue="${DEMO_VENUE}" api="${api}">
      <p class="fallback">Book online at <a href="/sandbox/book?venue_id=${DEMO_VENUE}">our booking page</a>
      or call <a href="tel:+442079460000">020 7946 0000</a>.</p>
    </venue-booking>
    <script type="module">${modules.map((module) => `import '${module}';`).join(' ')}</script>
  </body></html>`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  frames.push(frame);
  await loaded;
  const win = frame.contentWindow as Window & typeof globalThis & { errors: string[] };
  return { window: win, errors: win.errors, element: frame.contentDocument!.querySelector('venue-booking')! };
}

describe('the no-script fallback', () => {
  it('shows the booking link and the phone number when scripts cannot run', async () => {
    demo = await openDemo('index.html', { sandbox: 'allow-same-origin' });
    const element = demo.document.querySelector('venue-booking')!;
    await new Promise((resolve) => setTimeout(resolve, 300)); // time in which a script would have run
    expect(demo.window.customElements.get('venue-booking'), 'the script did not run').to.equal(undefined);
    expect(element.shadowRoot).to.equal(null);
    const link = element.querySelector<HTMLAnchorElement>('a[href*="book"]');
    const phone = element.querySelector<HTMLAnchorElement>('a[href^="tel:"]');
    expect(shown(link), 'booking link shown').to.equal(true);
    expect(shown(phone), 'phone number shown').to.equal(true);
    expect(phone!.textContent).to.match(/\d{3}/);
    // The link works: the booking site starts a booking for that venue (no "Unknown booking type").
    // `npm start` serves the sandbox at /sandbox; here it is the demo's stack's.
    const href = new URL(link!.href);
    expect(href.pathname).to.equal('/sandbox/book');
    const booking = await fetch(`${demo.stack.base}${href.pathname}${href.search}`);
    expect(booking.status).to.equal(200);
    const page = await booking.text();
    expect(page).to.not.match(/could not open this booking/);
    expect(page).to.match(/<form method="get" action="book">/);
  });

  it('stays where the engine cannot parse the module, as in a browser older than the supported ones', async () => {
    // Every engine this suite runs parses the bundle's `static {}` blocks; Safari before 16.4 does
    // not. What it meets is a module graph with a module that does not parse, and such a graph runs
    // none of its modules: one is put in front of the widget's entry here, and the same page without
    // it is the control that the page would otherwise load the widget.
    const unparsable = URL.createObjectURL(
      new Blob(['export class Widget { static { this.styles = []; }'], { type: 'text/javascript' }),
    );
    try {
      const broken = await fallbackPage([unparsable, '/src/index.ts']);
      await until(() => broken.errors.length > 0, 'the SyntaxError');
      expect(broken.errors.join(' ')).to.match(/syntax|unexpected|expected/i);
      await new Promise((resolve) => setTimeout(resolve, 300)); // time in which the widget would have rendered
      expect(broken.window.customElements.get('venue-booking'), 'no part of the graph ran').to.equal(undefined);
      expect(broken.element.shadowRoot).to.equal(null);
      expect(shown(broken.element.querySelector('a[href*="book"]')), 'booking link shown').to.equal(true);
      expect(shown(broken.element.querySelector('a[href^="tel:"]')), 'phone number shown').to.equal(true);

      const control = await fallbackPage(['/src/index.ts']);
      await until(() => control.element.shadowRoot, 'the widget to run in the control page');
      expect(control.errors).to.deep.equal([]);
    } finally {
      URL.revokeObjectURL(unparsable);
    }
  });

  it('is replaced by the widget when the script runs', async () => {
    demo = await openDemo('index.html');
    const page = demo.widget();
    await widgetReady(page);
    const fallback = await until(
      () => demo!.document.querySelector('venue-booking .fallback'),
      'the fallback in the light DOM',
    );
    expect(shown(fallback), 'fallback hidden once the widget renders').to.equal(false);
  });
});
