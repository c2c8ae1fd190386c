/**
 * Every page of the demo gallery loads, renders its widgets, and shows a developer nothing to
 * worry about: no console error, no failed request, no CSP violation, no axe violation. Each page
 * gets a fresh stack (real proxy, real sandbox) through `?api=`.
 */
import { expect } from '@open-wc/testing';
import { formatViolations, openDemo, widgetReady, type DemoFrame } from '../support/demo-frame.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { WidgetPage } from '../support/widget-page.js';

/** The gallery, as linked from every page's navigation. */
const PAGES = [
  'index.html',
  'themes.html',
  'multi-venue.html',
  'popup.html',
  'languages.html',
  'events.html',
  'return.html',
  'strict-csp.html',
];

let demo: DemoFrame | null = null;

beforeEach(() => sessionStorage.clear()); // iframes share the test page's sessionStorage
afterEach(() => {
  demo?.close();
  demo = null;
});

/** Checks the page as it is now: no problem so far, no axe violation. */
async function expectClean(frame: DemoFrame): Promise<void> {
  const violations = await frame.axeViolations();
  expect(formatViolations(violations), 'axe violations').to.equal('');
  expect(frame.problems().join('\n'), 'console problems').to.equal('');
}

describe('the demo gallery', () => {
  it('links every gallery page from the navigation', async () => {
    demo = await openDemo('index.html');
    const links = [...demo.document.querySelectorAll<HTMLAnchorElement>('nav a')].map((link) =>
      new URL(link.href).pathname.replace('/demo/', ''),
    );
    expect(links).to.deep.equal(PAGES);
  });

  for (const page of PAGES) {
    it(`${page} loads with every widget rendered, no console error and no axe violation`, async () => {
      demo = await openDemo(page);
      const widgets = [...demo.document.querySelectorAll('venue-booking')];
      expect(widgets.length).to.be.greaterThan(0);
      for (const element of widgets) await widgetReady(new WidgetPage(element as VenueBooking));
      await expectClean(demo);
    });
  }
});
