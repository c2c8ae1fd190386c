import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendKeys, sendMouse } from '@web/test-runner-commands';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import {
  DEMO_VENUE,
  guest,
  london,
  newStack,
  storedBookings,
  TYPES,
  until,
  WidgetPage,
} from '../support/widget-page.js';
import { browserEngine, summaryDate } from '../support/engine.js';

async function widget(now: string, dialect: 'spec' | 'live' = 'spec') {
  const stack = await newStack({ sandbox: { now, dialect } });
  const element = await fixture<VenueBooking>(
    html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(now)}></venue-booking>`,
  );
  return { stack, element, page: new WidgetPage(element) };
}

const focusedDate = (page: WidgetPage) => page.focused()?.dataset.date;

describe('accessibility, keyboard and venue time', () => {
  afterEach(() => sessionStorage.clear());

  it('names each calendar column with the full weekday, in the widget’s language', async () => {
    const { element, page } = await widget('2026-03-16T10:00');
    await page.chooseValue('type', TYPES.table);
    await page.waitForStep('date');
    expect(page.columnHeaders()).to.deep.equal([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
    const letters = [...page.root.querySelectorAll('th')].map((th) =>
      th.textContent!.replace(th.querySelector('.visually-hidden')?.textContent ?? '', '').trim(),
    );
    expect(letters).to.deep.equal(['M', 'T', 'W', 'T', 'F', 'S', 'S']);
    await expect(element).to.be.accessible();
    element.locale = 'fr';
    await until(() => page.columnHeaders()[0] === 'lundi', 'French weekday names');
    expect(page.columnHeaders()).to.deep.equal([
      'lundi',
      'mardi',
      'mercredi',
      'jeudi',
      'vendredi',
      'samedi',
      'dimanche',
    ]);
  });

  it('books with the keyboard alone; focus moves to each new step heading; the calendar answers APG keys', async () => {
    const { stack, element, page } = await widget('2026-03-16T10:00');
    await page.waitForStep('type');
    await expect(element).to.be.accessible();
    page.options()[0].focus();
    await sendKeys({ press: 'Enter' });
    await page.waitForStep('date');
    await until(() => page.focused() === page.heading(), 'focus on the date heading');
    await expect(element).to.be.accessible();

    const today = page.day('2026-03-16')!;
    expect(today.getAttribute('aria-current')).to.equal('date');
    expect(today.getAttribute('aria-label')).to.match(/^Monday,? 16 March 2026$/);
    expect(page.days().filter((day) => day.tabIndex === 0)).to.have.length(1);
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    expect(focusedDate(page)).to.equal('2026-03-16');
    await sendKeys({ press: 'ArrowRight' });
    expect(focusedDate(page)).to.equal('2026-03-17');
    await sendKeys({ press: 'ArrowDown' });
    expect(focusedDate(page)).to.equal('2026-03-24');
    await sendKeys({ press: 'End' });
    expect(focusedDate(page)).to.equal('2026-03-29');
    await sendKeys({ press: 'Home' });
    expect(focusedDate(page)).to.equal('2026-03-23');
    await sendKeys({ press: 'PageDown' });
    expect(focusedDate(page)).to.equal('2026-04-23');
    await sendKeys({ press: 'PageUp' });
    expect(focusedDate(page)).to.equal('2026-03-23');
    await sendKeys({ press: 'Shift+PageDown' });
    expect(focusedDate(page)! < '2027-03-23').to.equal(true, 'a year ahead is clamped to the last bookable date');
    await sendKeys({ press: 'Shift+PageUp' });
    expect(focusedDate(page)).to.equal('2026-03-16');
    await sendKeys({ press: 'ArrowLeft' });
    expect(focusedDate(page)).to.equal('2026-03-16', 'nothing before London today');
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'Enter' });
    await until(
      () => page.root.querySelector('[part~="summary"]')?.textContent?.includes(summaryDate('2026-03-17')),
      'the chosen date',
    );

    for (const step of ['time', 'duration', 'num_people']) {
      await page.waitForStep(step);
      await until(() => page.focused() === page.heading(), `focus on the ${step} heading`);
      await sendKeys({ press: 'Tab' });
      if (step === 'time') {
        // Tab reaches the first part of the day; Enter opens it when collapsed, and its times follow.
        expect(page.focused()?.getAttribute('part')).to.equal('time-group');
        if (page.focused()!.getAttribute('aria-expanded') === 'false') await sendKeys({ press: 'Enter' });
        await until(() => page.timeGroups()[0].open, 'the first time group open');
        await expect(element).to.be.accessible();
        await sendKeys({ press: 'Tab' });
        expect(page.focused()?.dataset.value).to.match(/^\d\d:\d\d$/);
      }
      if (step === 'num_people') {
        // 1 person is below the table's minimum: disabled and skipped by Tab.
        expect(page.focused()?.dataset.value).to.equal('2');
      }
      await sendKeys({ press: 'Enter' });
    }
    await page.form();
    await until(() => page.focused() === page.heading(), 'focus on the details heading');
    const who = guest('keyboard');
    for (const value of [who.first_name, who.last_name, who.email, who.phone]) {
      await sendKeys({ press: 'Tab' });
      await sendKeys({ type: value });
    }
    await sendKeys({ press: 'Enter' });
    await page.reference();
    await until(() => page.focused() === page.heading(), 'focus on the confirmation heading');
    await expect(element).to.be.accessible();
    expect(await storedBookings(stack, who.email)).to.have.length(1);
  });

  it('shows the focus ring when arrow keys move the calendar focus after a click', async () => {
    const { page } = await widget('2026-03-16T10:00');
    await page.chooseValue('type', TYPES.table);
    await page.waitForStep('date');
    // A real click (not a scripted one) on a day that cannot be booked: it takes the focus, shows
    // why, and leaves the guest on the calendar; a mouse focus draws no ring.
    const closed = page.day('2026-03-13')!;
    expect(closed.getAttribute('aria-disabled')).to.equal('true');
    const box = closed.getBoundingClientRect();
    await sendMouse({
      type: 'click',
      position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
    });
    await until(() => focusedDate(page) === '2026-03-13', 'the clicked day focused');
    expect(page.focused()!.matches(':focus-visible'), 'no ring after a click').to.equal(false);
    await sendKeys({ press: 'ArrowRight' });
    await until(() => focusedDate(page) === '2026-03-16', 'focus moved to the first bookable day');
    expect(page.focused()!.matches(':focus-visible'), 'a ring after a keyboard move').to.equal(true);
    await sendKeys({ press: 'ArrowRight' });
    await until(() => focusedDate(page) === '2026-03-17', 'focus moved to the next day');
    expect(page.focused()!.matches(':focus-visible'), 'a ring after each keyboard move').to.equal(true);
  });

  it('explains invalid details inline, focuses the first, and stays accessible', async () => {
    const { element, page } = await widget('2026-03-16T10:00');
    await page.book({ type: TYPES.table, date: '2026-03-17', time: '19:00', num_people: 2 });
    await page.fillDetails({ first_name: 'Ada', email: 'not-an-email', phone: 'abc' });
    page.submit();
    await until(() => page.root.querySelector('.field-error'), 'the inline errors');
    expect(page.focused()?.getAttribute('name')).to.equal('last_name');
    const text = (await page.form()).textContent!;
    expect(text)
      .to.match(/Please enter your last name/)
      .and.match(/name@example\.com/)
      .and.match(/phone number/);
    expect(page.root.querySelector('[name="email"]')!.getAttribute('aria-invalid')).to.equal('true');
    await expect(element).to.be.accessible();
  });

  for (const [label, now, date, utcStart] of [
    ['the spring clock change (2026-03-29)', '2026-03-28T21:00', '2026-03-29', '20260329T110000Z'],
    ['the autumn clock change (2026-10-25)', '2026-10-24T21:00', '2026-10-25', '20261025T120000Z'],
  ] as const) {
    it(`books across ${label} in venue time, with calendar instants right`, async () => {
      const { page } = await widget(now, 'live');
      await page.chooseValue('type', TYPES.table);
      await page.leave('type');
      await page.waitForStep('date');
      expect(page.day(now.slice(0, 10))!.getAttribute('aria-current')).to.equal('date');
      await page.book({ date, time: '12:00', num_people: 2 });
      await page.fillDetails(guest('dst'));
      page.submit();
      await page.reference();
      expect(decodeURIComponent(page.root.querySelector<HTMLAnchorElement>('[part~="ics"]')!.href)).to.include(
        `DTSTART:${utcStart}`,
      );
    });
  }

  it('takes London’s today at London midnight, whatever the visitor’s date', async () => {
    // 00:30 on 1 July in London is still 30 June in Los Angeles.
    const { page } = await widget('2026-07-01T00:30');
    await page.chooseValue('type', TYPES.table);
    await page.waitForStep('date');
    expect(page.day('2026-07-01')!.getAttribute('aria-current')).to.equal('date');
    const previous = page.root.querySelector<HTMLButtonElement>('[part~="calendar-nav"]')!;
    expect(previous.disabled, 'no going back to 30 June').to.equal(true);
    expect(page.day('2026-07-01')!.getAttribute('tabindex')).to.equal('0');
  });

  it('respects reduced motion and themes dark, also through prefers-color-scheme for auto', async function () {
    // Only Chromium's launcher can emulate media features: Puppeteer does it over CDP, which Firefox
    // does not speak, and the WebDriver launcher has no such command. The styles are plain CSS media
    // queries, the same in every engine.
    if (browserEngine() !== 'chromium') this.skip();
    const { element, page } = await widget('2026-03-16T10:00');
    await page.waitForStep('type');
    await emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
    try {
      const step = page.root.querySelector('[part~="step"]')!;
      expect(getComputedStyle(step).animationName).to.equal('none');
      const light = getComputedStyle(element).backgroundColor;
      element.theme = 'auto';
      await element.updateComplete;
      expect(getComputedStyle(element).backgroundColor).to.equal('rgb(22, 26, 31)');
      element.theme = 'dark';
      await element.updateComplete;
      expect(getComputedStyle(element).backgroundColor).to.not.equal(light);
      await expect(element).to.be.accessible();
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference', colorScheme: 'light' });
    }
  });

  it('keeps the chosen type, the chosen day and today apart from the others in forced colours', async function () {
    // Chromium's launcher alone emulates forced colours (as above for the other media features).
    if (browserEngine() !== 'chromium') this.skip();
    const { page } = await widget('2026-03-16T10:00');
    await page.chooseValue('type', TYPES.table);
    await page.chooseValue('date', '2026-03-18');
    await page.waitForStep('time');
    await emulateMedia({ forcedColors: 'active' });
    try {
      const style = (node: Element) => getComputedStyle(node);
      await page.change('date');
      const [today, chosen, plain] = ['2026-03-16', '2026-03-18', '2026-03-19'].map((date) => style(page.day(date)!));
      expect(chosen.backgroundColor, 'the chosen day').to.not.equal(plain.backgroundColor);
      expect(chosen.color, 'the chosen day').to.not.equal(plain.color);
      // Only today has a ring: a day's transparent border would otherwise be painted on every day.
      expect(plain.borderTopColor, 'a day').to.equal('rgba(0, 0, 0, 0)');
      expect(today.borderTopColor, 'today').to.not.equal(plain.borderTopColor);
      await page.change('type');
      const options = page.options();
      const pressed = options.find((option) => option.getAttribute('aria-pressed') === 'true')!;
      const other = options.find((option) => option.getAttribute('aria-pressed') === 'false')!;
      expect(style(pressed).backgroundColor, 'the chosen type').to.not.equal(style(other).backgroundColor);
    } finally {
      await emulateMedia({ forcedColors: 'none' });
    }
  });
});
