/**
 * A booking on a phone: 375×740 CSS px with touch (`pointer: coarse`), through the real proxy and
 * sandbox. What guests found on such a screen is checked here: enough times on one screen, no
 * control under 44×44 px, no sentence listing times, and a layout that does not jump (CLS ≤ 0.1).
 */
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, guest, london, newStack, TYPES, WidgetPage } from '../support/widget-page.js';

const NOW = '2026-03-16T10:00';
const TUESDAY = '2026-03-17';
const TIME = /\b\d{1,2}[:.]\d{2}\b/g;

/** Controls a guest can tap, with the box that takes the tap (a label for a box or a radio). */
function targets(root: ShadowRoot): { name: string; box: DOMRect }[] {
  const controls = [...root.querySelectorAll<HTMLElement>('button, a[href], input, textarea, select, summary')];
  return controls
    .filter((control) => control.checkVisibility() && control.getClientRects().length > 0)
    .map((control) => {
      const wrapped = control instanceof HTMLInputElement && /checkbox|radio/.test(control.type);
      const target = wrapped ? (control.closest('label') ?? control) : control;
      const name = `${control.tagName.toLowerCase()} "${(control.textContent || control.getAttribute('name') || '').trim().slice(0, 30)}"`;
      return { name, box: target.getBoundingClientRect() };
    });
}

/** The controls smaller than 44×44 CSS px (rounding allowed). */
function small(root: ShadowRoot): string[] {
  return targets(root)
    .filter(({ box }) => box.width < 43.5 || box.height < 43.5)
    .map(({ name, box }) => `${name} ${Math.round(box.width)}×${Math.round(box.height)}`);
}

/** Elements whose own text holds three or more times: a sentence listing times. */
function timeLists(root: ShadowRoot): string[] {
  const found: string[] = [];
  for (const element of root.querySelectorAll<HTMLElement>('*')) {
    const own = [...element.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent)
      .join(' ');
    const text = element.matches('p, small, dd, li:not(:has(button))') ? element.textContent! : own;
    if ((text.match(TIME) ?? []).length >= 3) found.push(text.trim().slice(0, 80));
  }
  return found;
}

/** Time chips fully inside the viewport once the step's heading is scrolled to the top. */
function timesOnScreen(page: WidgetPage): number {
  page.heading()!.scrollIntoView({ block: 'start' });
  return page
    .options()
    .filter((button) => button.checkVisibility())
    .filter((button) => {
      const box = button.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
    }).length;
}

describe('a booking on a 375×740 touch screen', () => {
  // The runner sizes each page itself; the phone's context brings touch, this its screen.
  before(() => setViewport({ width: 375, height: 740 }));
  afterEach(() => sessionStorage.clear());

  it('fits a phone: 12+ times on one screen, 44 px targets, no time lists, CLS ≤ 0.1 over the booking', async () => {
    expect(innerWidth).to.equal(375);
    expect(matchMedia('(pointer: coarse)').matches, 'touch emulation').to.equal(true);
    let shift = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) shift += entry.value;
    });
    observer.observe({ type: 'layout-shift', buffered: true });

    const stack = await newStack({ sandbox: { now: NOW } });
    // A host page: text above and below, so a jump of the widget would move the page too.
    const host = await fixture<HTMLElement>(
      html`<main style="padding: 0 16px">
        <h1>Harbour &amp; Vine</h1>
        <venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}></venue-booking>
        <footer><p>Open daily. Bookings for 9 or more by phone.</p></footer>
      </main>`,
    );
    const element = host.querySelector<VenueBooking>('venue-booking')!;
    const page = new WidgetPage(element);
    const checkStep = async (step: string) => {
      await page.waitForStep(step);
      await element.updateComplete;
      expect(small(page.root), `controls under 44×44 px on ${step}`).to.deep.equal([]);
      expect(timeLists(page.root), `text listing times on ${step}`).to.deep.equal([]);
    };

    await checkStep('type');
    await page.chooseValue('type', TYPES.table);
    // While the answer is on its way a placeholder holds the place; its words wait 300 ms, so a
    // quick answer never flashes a busy indicator.
    await element.updateComplete;
    const busy = page.root.querySelector<HTMLElement>('.busy');
    if (busy) expect(getComputedStyle(busy.querySelector('.note')!).visibility).to.equal('hidden');
    await checkStep('date');
    await page.chooseValue('date', TUESDAY);
    await checkStep('time');
    expect(timesOnScreen(page)).to.be.at.least(12);
    // Parts of the day come from the venue's own times; one is open, the others reachable.
    const groups = page.timeGroups();
    expect(groups.length).to.be.at.least(2);
    expect(groups.filter((group) => group.open)).to.have.length(1);
    await page.chooseValue('time', '19:00');
    for (let guard = 0; guard < 4; guard++) {
      const step = await page.step();
      if (step === 'details') break;
      await checkStep(step);
      if (step === 'num_people') {
        // The sizes Table takes (2 to 8) as chips, one line saying so, then the larger-party path.
        expect(page.options().map(WidgetPage.value)).to.deep.equal(['2', '3', '4', '5', '6', '7', '8']);
        expect(page.partyRule()).to.equal('Table is for 2 to 8 guests');
        expect(page.root.querySelector('[data-larger-party]')).not.to.equal(null);
      }
      await page.choose(step, (button) => step !== 'num_people' || WidgetPage.value(button) === '2');
      await page.leave(step);
    }
    await checkStep('details');
    await page.fillDetails(guest('phone'));
    page.submit();
    await page.reference();
    await checkStep('confirmation');
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
    observer.disconnect();
    // Layout shifts are reported by Chromium only (Firefox and WebKit lack the Layout Instability
    // API, so their sum would stay 0 and prove nothing): the check is made where it is measured.
    if (PerformanceObserver.supportedEntryTypes.includes('layout-shift'))
      expect(shift, 'cumulative layout shift over the booking').to.be.at.most(0.1);
  });
});
