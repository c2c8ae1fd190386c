/**
 * Screenshot baselines of every step of one booking, compared with
 * `@web/test-runner-visual-regression` (see test/web-test-runner.config.mjs: a missing baseline
 * fails; `UPDATE_VISUAL_BASELINE=1` writes them, never under CI). The booking is fixed in time
 * (sandbox and element clocks), motion is reduced so no step is caught mid-animation, and the
 * reference number, the only value that changes between runs, is hidden. The widget draws in its
 * page's font, so the host sets one (a plain venue page's sans-serif, not the test page's serif).
 */
import { fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import { visualDiff } from '@web/test-runner-visual-regression';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, guest, london, newStack, TYPES, until, WidgetPage } from './widget-page.js';

const NOW = '2026-03-16T10:00';

/** Books a table step by step, comparing a screenshot of each step as `${prefix}-${n}-${step}`. */
export async function screenshotEveryStep(prefix: string, theme: 'light' | 'dark', width: number): Promise<void> {
  await emulateMedia({ reducedMotion: 'reduce', colorScheme: theme });
  const stack = await newStack({ sandbox: { now: NOW } });
  const host = await fixture<HTMLElement>(
    html`<div
      style=${`width: ${width}px; padding: 16px; box-sizing: border-box; font-family: system-ui, sans-serif; background: ${theme === 'dark' ? '#0d1014' : '#ffffff'}`}
    >
      <venue-booking venue=${DEMO_VENUE} api=${stack.api} theme=${theme} .now=${london(NOW)}></venue-booking>
    </div>`,
  );
  const element = host.querySelector<VenueBooking>('venue-booking')!;
  const page = new WidgetPage(element);
  let n = 0;
  const shoot = async (step: string) => {
    await page.waitForStep(step);
    // Every type of the venue has an offer: its badge fills in once the types' booking rules land.
    if (step === 'type')
      await until(() => page.options().every((option) => option.querySelector('[part~="badge"]')), 'the type badges');
    await element.updateComplete;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await visualDiff(host, `${prefix}-${++n}-${step}`);
  };
  const values: Record<string, string> = { type: TYPES.table, date: '2026-03-17', time: '19:00', num_people: '2' };
  for (let guard = 0; guard < 8; guard++) {
    const step = await page.step();
    if (step === 'details') break;
    await shoot(step);
    const value = values[step];
    if (value) await page.chooseValue(step, value);
    else await page.choose(step);
    await page.leave(step);
  }
  await shoot('details');
  await page.fillDetails(guest('screens'));
  page.submit();
  await page.reference();
  page.root.querySelector<HTMLElement>('.reference')!.style.visibility = 'hidden';
  await shoot('confirmation');
}
