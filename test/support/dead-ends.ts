/**
 * The no-dead-ends walk (issue 28): every booking type of a venue, on the days given, as a guest
 * would take it: type → date → the first and the last time → each duration → the smallest, the
 * largest and one more than the largest party. Every screen reached must offer an enabled way
 * forward (a choice, a form, a hand-off, the venue's own way to book) or back (the summary), and
 * a step with nothing to choose must say why. The browser test walks a sample of days; the bench
 * (`test/bench/dead-ends.bench.ts`) walks every day of two weeks with the same code.
 */
import { fixture, html } from '@open-wc/testing';
import type { VenueBooking } from '../../src/venue-booking.js';
import { london, until, WidgetPage, type TestStack } from './widget-page.js';

/** What a walk found: how many screens it checked, and where a guest would be stuck. */
export interface WalkReport {
  screens: number;
  deadEnds: string[];
}

/** The screens that end the choosing: the form, a hand-off, a refusal, a cannot-book note. */
const ENDS = ['details', 'redirect', 'reject', 'unavailable', 'confirmation'];

/** A step's choices in view: enabled option buttons (or days) and the sizes of the party select. */
function choices(page: WidgetPage): string[] {
  return [
    ...page.options().filter(WidgetPage.enabled).map(WidgetPage.value),
    ...page.sizeOptions().map((option) => option.value),
  ];
}

/**
 * Records whether the screen shown offers a way on or back (`on`: a way on, as a larger party
 * must have: a choice, the form, a hand-off or the venue's own way to book), and a reason for an
 * empty list.
 */
async function check(page: WidgetPage, report: WalkReport, where: string, on = false): Promise<string> {
  const step = await page.step();
  report.screens++;
  const back = page.root.querySelectorAll('[part~="summary"] button').length > 0;
  const forward = step === 'details' || page.stepControls().length > 0 || page.fallbackShown();
  if (!forward && (on || !back))
    report.deadEnds.push(`${where}: ${step} offers no way ${on ? 'on' : 'forward or back'}`);
  // A change of booking type for a larger party (`data-moved`) says why in its heading, and is confirmed there.
  if (
    !ENDS.includes(step) &&
    step !== 'date' &&
    choices(page).length === 0 &&
    !page.root.querySelector('[data-none], [data-moved]')
  )
    report.deadEnds.push(`${where}: ${step} lists nothing and says not why`);
  return step;
}

/** Chooses `value` on `step` when that step is shown; false when it is not (chosen for the guest). */
async function pick(page: WidgetPage, step: string, value: string): Promise<boolean> {
  if ((await page.step()) !== step) return false;
  if (step === 'date') await page.showMonth(value);
  await page.chooseValue(step, value);
  await page.leave(step);
  return true;
}

/** Walks one venue's booking types on `days`; `now` is the sandbox's clock. */
export async function walkVenue(stack: TestStack, venue: string, days: string[], now: string): Promise<WalkReport> {
  const report: WalkReport = { screens: 0, deadEnds: [] };
  let element = null as VenueBooking | null;
  /** A fresh widget, with the venue's own way to book as its fallback content, and the path replayed. */
  const fresh = async (path: [string, string][]) => {
    element?.remove();
    // A fresh guest: nothing saved from the walk's previous widget is restored.
    sessionStorage.clear();
    element = await fixture<VenueBooking>(
      html`<venue-booking venue=${venue} api=${stack.api} .now=${london(now)}
        ><p>Call <a href="tel:+442079460000">020 7946 0000</a> or <a href="/book">book online</a>.</p></venue-booking
      >`,
    );
    const page = new WidgetPage(element);
    for (const [step, value] of path) await pick(page, step, value);
    return page;
  };
  let page = await fresh([]);
  await page.waitForStep('type');
  const types = page.options().map(WidgetPage.value);
  for (const type of types)
    for (const day of days) {
      const where = `${venue.slice(-4)} ${type.slice(-4)} ${day}`;
      page = await fresh([['type', type]]);
      if ((await check(page, report, where)) !== 'date') continue;
      await page.showMonth(day);
      const button = page.options().find((option) => WidgetPage.value(option) === day);
      if (!button || !WidgetPage.enabled(button)) {
        // A closed day: it cannot be chosen, and says why once focused (as by a tap).
        button?.click();
        await element!.updateComplete;
        if (!page.root.querySelector('#day-reason')?.textContent?.trim()) report.deadEnds.push(`${where}: no reason`);
        continue;
      }
      await walkDay(page, report, where, [['type', type]], day, fresh);
    }
  element?.remove();
  return report;
}

/** The times of a day: the first and the last, each with each duration and the party sizes. */
async function walkDay(
  page: WidgetPage,
  report: WalkReport,
  where: string,
  path: [string, string][],
  day: string,
  fresh: (path: [string, string][]) => Promise<WidgetPage>,
): Promise<void> {
  const atDate: [string, string][] = [...path, ['date', day]];
  await pick(page, 'date', day);
  if ((await check(page, report, where)) !== 'time') return;
  const times = choices(page);
  let reuse = true;
  for (const time of new Set([times[0]!, times[times.length - 1]!])) {
    if (!reuse) page = await fresh(atDate);
    reuse = false;
    await pick(page, 'time', time);
    const atTime: [string, string][] = [...atDate, ['time', time]];
    const step = await check(page, report, `${where} ${time}`);
    const durations = step === 'duration' ? choices(page) : [null];
    for (const [index, duration] of durations.entries()) {
      // The larger party takes the type back: each further duration starts again from its time.
      if (duration) {
        if (index > 0) page = await fresh(atTime);
        await pick(page, 'duration', duration);
        await check(page, report, `${where} ${time} ${duration}`);
      }
      await walkParty(page, report, `${where} ${time} ${duration ?? '-'}`);
    }
  }
}

/** Waits for the answer to a choice on `from`: another step, or the same one saying what it refused. */
async function settle(page: WidgetPage, from: string, where: string): Promise<void> {
  await until(
    () => {
      const now = page.currentStep();
      return now !== null && (now !== from || page.root.querySelector('[part~="problem"]'));
    },
    `the answer to ${from} at ${where}, showing ${page.currentStep()}: ${page.root.textContent?.replace(/\s+/g, ' ').slice(0, 300)}`,
  );
}

/** The smallest, the largest and one more than the largest party. */
async function walkParty(page: WidgetPage, report: WalkReport, where: string): Promise<void> {
  if ((await page.step()) !== 'num_people') return;
  const sizes = page.partySizes();
  if (!sizes.length) return;
  const [smallest, largest] = [sizes[0]!, sizes[sizes.length - 1]!];
  for (const size of new Set([smallest, largest])) {
    if ((await page.step()) !== 'num_people') await page.change('num_people');
    await page.chooseValue('num_people', size);
    await settle(page, 'num_people', `${where} ${size}`);
    await check(page, report, `${where} ${size}`);
  }
  if ((await page.step()) !== 'num_people') await page.change('num_people');
  await page.largerParty(largest + 1);
  await settle(page, 'num_people', `${where} ${largest + 1}`);
  await check(page, report, `${where} ${largest + 1}`, true);
}
