/**
 * Special requests (issue 37): the quick picks beside the notes box fill the notes in the guest's
 * language, the guest's own text beside them; the notes reach the sandbox's booking through the
 * real proxy, come back on the confirmation and in both calendar links; notes past the service's
 * limit stop the form with a clear message and keep what was typed.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { LIMITS } from '../../src/api/rules.js';
import { browserEngine } from '../support/engine.js';
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

const NOW = '2026-03-16T10:00';

async function widget(locale = 'en-GB') {
  const stack = await newStack({ sandbox: { now: NOW } });
  const element = await fixture<VenueBooking>(
    html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} locale=${locale} .now=${london(NOW)}></venue-booking>`,
  );
  const page = new WidgetPage(element);
  await page.book({ type: TYPES.table, date: '2026-03-17', time: '19:00', num_people: 2 });
  await page.form();
  return { stack, element, page };
}

const notes = (page: WidgetPage) => page.root.querySelector<HTMLTextAreaElement>('[name="notes"]')!;
const picks = (page: WidgetPage) => [...page.root.querySelectorAll<HTMLButtonElement>('[part~="request"]')];
const pick = (page: WidgetPage, name: RegExp) => picks(page).find((button) => name.test(button.textContent!.trim()))!;
const pressed = (button: HTMLButtonElement) => button.getAttribute('aria-pressed');

async function type(page: WidgetPage, text: string) {
  const box = notes(page);
  box.value = text;
  box.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  await page.element.updateComplete;
}

describe('special requests', () => {
  afterEach(() => sessionStorage.clear());

  it('a quick pick and typed text reach the booking’s notes, the confirmation and the calendar links', async () => {
    const { stack, element, page } = await widget();
    const group = page.root.querySelector<HTMLElement>('[part~="requests"]')!;
    expect(group.getAttribute('role')).to.equal('group');
    expect(WidgetPage.spoken(group)).to.include('Quick requests');
    expect(picks(page).map((button) => button.textContent!.trim())).to.deep.equal([
      'Birthday',
      'Anniversary',
      'Dietary needs',
      'Wheelchair access',
      'High chair',
    ]);
    for (const button of picks(page)) {
      expect(button.type).to.equal('button');
      expect(pressed(button)).to.equal('false');
    }
    await type(page, 'Window table if possible');
    // The keyboard alone: focus a pick, Enter presses it.
    pick(page, /^Birthday$/).focus();
    await sendKeys({ press: 'Enter' });
    await element.updateComplete;
    expect(notes(page).value).to.equal('Window table if possible\nCelebrating a birthday');
    expect(pressed(pick(page, /^Birthday$/))).to.equal('true');
    expect(pick(page, /^Birthday$/).matches(':focus-visible'), 'a ring on the focused pick').to.equal(true);
    // Pressed again: the phrase goes, it is never added twice.
    pick(page, /^Birthday$/).click();
    await element.updateComplete;
    expect(notes(page).value).to.equal('Window table if possible');
    expect(pressed(pick(page, /^Birthday$/))).to.equal('false');
    pick(page, /^High chair$/).click();
    pick(page, /^Birthday$/).click();
    await element.updateComplete;
    // The guest edits a phrase away: its pick is no longer pressed.
    await type(page, notes(page).value.replace('A high chair, please', 'Two high chairs; thanks'));
    expect(pressed(pick(page, /^High chair$/))).to.equal('false');
    expect(pressed(pick(page, /^Birthday$/))).to.equal('true');
    await expect(element).to.be.accessible();
    const sent = 'Window table if possible\nTwo high chairs; thanks\nCelebrating a birthday';
    expect(notes(page).value).to.equal(sent);
    const who = guest('requests');
    await page.fillDetails(who);
    page.submit();
    await page.reference();
    const [stored] = await storedBookings(stack, who.email);
    expect(stored.notes).to.equal(sent);
    const shown = page.root.querySelector('[part~="confirmation"] [part~="notes"]')!;
    expect(shown.textContent).to.include('Celebrating a birthday').and.include('Window table if possible');
    const ics = decodeURIComponent(page.root.querySelector<HTMLAnchorElement>('[part~="ics"]')!.href);
    // RFC 5545: backslash, semicolon, comma and line breaks escaped; long lines folded (CRLF + space).
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).to.include('Window table if possible\\nTwo high chairs\\; thanks\\nCelebrating a birthday');
    for (const line of ics.split('\r\n')) expect(new TextEncoder().encode(line).length).to.be.at.most(75);
    const google = new URL(page.root.querySelector<HTMLAnchorElement>('[part~="google-calendar"]')!.href);
    expect(google.searchParams.get('details')).to.include(sent);
  });

  it('picks in the guest’s language, and notes past the limit stop the form with a message, keeping the text', async () => {
    const { stack, page } = await widget('fr');
    expect(WidgetPage.spoken(page.root.querySelector('[part~="requests"]')!)).to.include('Demandes rapides');
    pick(page, /^Anniversaire$/).click();
    await page.element.updateComplete;
    expect(notes(page).value).to.equal('Nous fêtons un anniversaire');
    expect(notes(page).hasAttribute('maxlength'), 'pasted text is never cut').to.equal(false);
    const long = `${'a'.repeat(LIMITS.notes - 10)}`;
    await type(page, long);
    // A pick that would pass the limit is added all the same and the message says so: the guest chooses what to cut.
    pick(page, /^Chaise haute$/).click();
    await page.element.updateComplete;
    const message = await until(() => page.root.querySelector('#vb-notes-error'), 'the notes’ message');
    expect(message.textContent).to.include('2000');
    expect(notes(page).getAttribute('aria-invalid')).to.equal('true');
    expect(notes(page).value.startsWith(long)).to.equal(true);
    const who = guest('requests-long');
    await page.fillDetails(who);
    page.submit();
    await until(() => page.focused() === notes(page), 'the focus on the notes');
    expect(notes(page).value.startsWith(long)).to.equal(true);
    expect(await storedBookings(stack, who.email)).to.deep.equal([]);
  });

  it('fits a 360 px screen, and a pressed pick stands out in forced colours', async function () {
    // Chromium's launcher alone emulates forced colours (as access.test.ts does).
    if (browserEngine() !== 'chromium') this.skip();
    await setViewport({ width: 360, height: 740 });
    try {
      const { element, page } = await widget();
      pick(page, /^Wheelchair access$/).click();
      await element.updateComplete;
      const box = notes(page).getBoundingClientRect();
      for (const button of picks(page)) {
        const { left, right } = button.getBoundingClientRect();
        expect(
          left >= box.left - 1 && right <= box.right + 1,
          `${button.textContent!.trim()} within the form`,
        ).to.equal(true);
      }
      expect(document.documentElement.scrollWidth).to.be.at.most(360);
      await emulateMedia({ forcedColors: 'active' });
      const [on, off] = [pick(page, /^Wheelchair access$/), pick(page, /^Birthday$/)].map((b) => getComputedStyle(b));
      expect(on.backgroundColor, 'the pressed pick').to.not.equal(off.backgroundColor);
      expect(on.color, 'the pressed pick').to.not.equal(off.color);
    } finally {
      await emulateMedia({ forcedColors: 'none' });
      await setViewport({ width: 800, height: 600 });
    }
  });
});
