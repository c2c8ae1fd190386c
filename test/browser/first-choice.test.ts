/**
 * The first choice waits for nothing it does not need (issue 37), through the real proxy and
 * sandbox: on a venue whose offers limit party size (the demo venue's two-for-one for 2 to 8 and
 * group feast for 6 or more), the types show with the types and offers, before the types' booking
 * rules; the badges that need those rules fill in after, in the space kept for them, so nothing on
 * the step moves. The rules' upstream answers are held back by the stack's scripted delay, so the
 * step is seen before they land whatever the machine's speed.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, london, newStack, scriptFaults, TYPES, until, WidgetPage } from '../support/widget-page.js';

const NOW = '2026-03-16T10:00';
/** Long enough that the type step is on screen well before any booking rules answer. */
const HELD_MS = 3000;

/** The widget in a phone-wide column (375 px, as the first-choice bench), on a fresh stack with `path`'s upstream answers held back. */
async function widget(path: string): Promise<WidgetPage> {
  const stack = await newStack({ sandbox: { now: NOW } });
  await scriptFaults(stack, [{ path, status: 200, delay: HELD_MS, times: 10 }]);
  const host = await fixture<HTMLElement>(
    html`<div style="width: 375px; padding: 16px; box-sizing: border-box; font-family: system-ui, sans-serif">
      <venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}></venue-booking>
    </div>`,
  );
  return new WidgetPage(host.querySelector<VenueBooking>('venue-booking')!);
}

/** Each option's box, by value, once the frame is laid out and the step's entrance has run (a transform, which moves no layout). */
async function boxes(page: WidgetPage): Promise<Record<string, string>> {
  await page.element.updateComplete;
  await Promise.all(page.root.getAnimations().map((animation) => animation.finished));
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return Object.fromEntries(
    page.options().map((option) => {
      const { x, y, width, height } = option.getBoundingClientRect();
      return [WidgetPage.value(option), [x, y, width, height].map(Math.round).join(' ')];
    }),
  );
}

/** A type's badge as shown, or '' without one. */
function badge(page: WidgetPage, type: string): string {
  const shown = page.root.querySelector(`[data-value="${type}"] [part~="badge"]`)?.cloneNode(true) as HTMLElement;
  shown?.querySelector('.visually-hidden')?.remove();
  return shown?.textContent?.trim() ?? '';
}

/** Whether every type's badge is the one its party sizes give (party.test.ts "honest offers"). */
const settled = (page: WidgetPage) =>
  badge(page, TYPES.table) === 'Offer' &&
  badge(page, TYPES.privateHire) === 'Big group feast' &&
  badge(page, TYPES.expressLunch) === 'Two-for-one cocktails · 2–4 people';

/**
 * From the type step's first frame until every badge is settled: the options' boxes before and
 * after, and the layout shifts between (Chromium reports them: the Layout Instability API; the
 * boxes are compared in every engine).
 */
async function whileBadgesLand(page: WidgetPage, held: () => void) {
  await page.waitForStep('type');
  const shifts: number[] = [];
  const observer = PerformanceObserver.supportedEntryTypes.includes('layout-shift')
    ? new PerformanceObserver((list) =>
        list.getEntries().forEach((entry) => shifts.push((entry as unknown as { value: number }).value)),
      )
    : null;
  observer?.observe({ type: 'layout-shift' });
  const before = await boxes(page);
  held();
  await until(() => settled(page), 'the badges within each type’s party sizes', HELD_MS + 8000);
  const after = await boxes(page);
  // Entries are queued to the observer after the frame they happened in.
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer?.disconnect();
  return { before, after, shifts };
}

describe('the first choice', () => {
  afterEach(() => sessionStorage.clear());

  it('shows the types before their booking rules arrive; the badges that need them fill in and nothing moves', async () => {
    const page = await widget('booking-rules');
    const { before, after, shifts } = await whileBadgesLand(page, () =>
      // The rules are still held: the badges that need them are not there yet.
      expect(settled(page)).to.equal(false),
    );
    expect(after).to.deep.equal(before);
    expect(shifts, 'layout shifts as the badges arrived').to.deep.equal([]);
  });

  it('waits for the offers, read in the same round trip as the types, so that their badges move nothing either', async () => {
    const page = await widget('/offers');
    const { before, after, shifts } = await whileBadgesLand(page, () => undefined);
    expect(after).to.deep.equal(before);
    expect(shifts, 'layout shifts as the badges arrived').to.deep.equal([]);
  });
});
