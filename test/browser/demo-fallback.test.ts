/**
 * No-script fallback: the light-DOM content a venue puts inside `<venue-booking>` (a link to the
 * booking site and a phone number) is what a guest sees when the script cannot run, and is
 * replaced by the widget when it can. "Cannot run" is a frame whose sandbox forbids scripts, the
 * same as a browser with JavaScript off.
 */
import { expect } from '@open-wc/testing';
import { openDemo, widgetReady, type DemoFrame } from '../support/demo-frame.js';
import { until } from '../support/widget-page.js';

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
