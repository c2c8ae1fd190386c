/**
 * A booking walked as a screen reader user walks it (a closed day's reason, the offers, the
 * reference; a larger party's change of booking type): what is heard comes from the accessibility
 * tree Chromium exposes (never from the DOM), and every move is a real key press or a reader's
 * activation (the focus moved to a node of the tree, then Enter). Chromium only: the tree is read
 * over CDP (`test/support/accessibility-tree.ts`).
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { browserEngine } from '../support/engine.js';
import { ScreenReader, type Line } from '../support/screen-reader.js';
import { guest, london, newStack, storedBookings } from '../support/widget-page.js';

const CELLAR = '64a1f0c2e4b0a1b2c3d4e502';
const HARBOUR = '64a1f0c2e4b0a1b2c3d4e501';
/** Saturday 28 November 2026: the Cellar is closed on Mondays, open until 00:30 Tuesday to Thursday. */
const NOW = '2026-11-28T10:00';

async function widget(venue = CELLAR) {
  const stack = await newStack({ sandbox: { now: NOW } });
  await fixture<VenueBooking>(
    html`<venue-booking venue=${venue} api=${stack.api} .now=${london(NOW)}></venue-booking>`,
  );
  return { stack, reader: new ScreenReader() };
}

const button = (name: RegExp) => (line: Line) => line.role === 'button' && name.test(line.name);
/** A date's accessible name without the comma some ICU versions put after the weekday. */
const plain = (text: string) => text.replace(/^(\w+day),/, '$1');

describe('a screen reader walk', function () {
  before(function () {
    if (browserEngine() !== 'chromium') this.skip();
  });
  afterEach(() => sessionStorage.clear());

  it("hears a closed day's reason however it is reached, each offer named once, and the reference when booked", async () => {
    const { stack, reader } = await widget();
    await reader.activate(button(/^Cocktail Table/), 'the Cocktail Table');
    await reader.find((line) => line.role === 'heading' && line.name === 'Which day?', 'the date step');

    // Browsing the calendar: every closed day says why, none reads as a bare "disabled".
    const days = (await reader.browse()).filter(button(/ 2026$/));
    const closed = days.filter((line) => line.states.includes('disabled'));
    expect(closed.map((line) => plain(line.name))).to.include('Monday 30 November 2026');
    for (const line of closed) expect(line.description, line.speech).to.not.equal('');
    expect(closed.find((line) => plain(line.name) === 'Monday 30 November 2026')!.description).to.equal(
      'The Vine Cellar is closed on Mondays',
    );

    // The keyboard: into the grid, then the arrow keys onto the Monday.
    const today = await reader.tabTo(button(/ 2026$/));
    expect(plain(today.name)).to.equal('Saturday 28 November 2026');
    await reader.press('ArrowRight');
    const monday = (await reader.press('ArrowRight'))!;
    expect(plain(monday.speech)).to.equal(
      'Monday 30 November 2026, button, disabled, The Vine Cellar is closed on Mondays',
    );
    // Activated, it says why in the live region.
    await reader.press('Enter');
    await reader.hear(/^The Vine Cellar is closed on Mondays$/);

    const tuesday = (await reader.press('ArrowRight'))!;
    expect(plain(tuesday.speech)).to.equal('Tuesday 1 December 2026, button');
    await reader.press('Enter');
    await reader.find((line) => line.role === 'heading' && line.name === 'What time?', 'the time step');

    // The night's groups in its order, the time after midnight last and not bookable, as the answer says.
    const groups = (await reader.browse()).filter((line) => line.states.some((s) => /expanded|collapsed/.test(s)));
    expect(groups.map((line) => line.name)).to.deep.equal([
      'Afternoon 17:00',
      'Evening 17:30–23:30 · 11 times',
      'After midnight 00:00 · 0 times',
    ]);
    // Happy hour (17:00–19:00 on Tuesdays) is named once, in the key, not in each of the chips it marks.
    const lines = await reader.browse();
    expect(lines.filter((line) => /Happy hour/.test(line.speech)).map((line) => line.speech)).to.deep.equal([
      'Offers at 17:00–19:00: Happy hour',
    ]);
    expect(lines.find(button(/^18:00/))!.speech).to.equal('18:00 Offer, button, Instant confirmation');
    expect(lines.find(button(/^23:00/))!.speech).to.equal(
      '23:00, button, disabled, Would finish after closing time (00:30)',
    );
    await reader.activate(button(/^After midnight/), 'the after-midnight group');
    const midnight = await reader.find(button(/^00:00$/), 'the 00:00 chip');
    expect(midnight.speech).to.equal('00:00, button, disabled, Would finish after closing time (00:30)');

    await reader.activate(button(/^21:30$/), '21:30');
    await reader.find((line) => line.role === 'heading' && line.name === 'For how long?', 'the duration step');
    await reader.activate(button(/^2 hr/), 'two hours');
    await reader.find((line) => line.role === 'heading' && line.name === 'How many people?', 'the party step');
    await reader.activate(button(/^2$/), 'two people');
    await reader.find((line) => line.role === 'heading' && line.name === 'Your details', 'the details form');
    const who = guest('reader');
    await reader.type('First name', who.first_name);
    await reader.type('Last name', who.last_name);
    await reader.type('Email', who.email);
    await reader.type('Phone', who.phone);
    await reader.activate(button(/^Book now$/), 'Book now');

    // The confirmation is announced with its reference, the one the venue stored.
    const said = await reader.hear(/^Booking confirmed\. Reference: /);
    const [stored] = await storedBookings(stack, who.email);
    expect(said).to.equal(`Booking confirmed. Reference: ${stored.reference}`);
  });

  it('hears a change of booking type for a larger party, and confirms it from the keyboard', async () => {
    const { reader } = await widget(HARBOUR);
    await reader.activate(button(/^Table/), 'the Table');
    await reader.find((line) => line.role === 'heading' && line.name === 'Which day?', 'the date step');
    await reader.activate(button(/^Next month$/), 'the next month');
    await reader.activate(
      (line) => line.role === 'button' && plain(line.name) === 'Thursday 3 December 2026',
      'Thursday',
    );
    await reader.find((line) => line.role === 'heading' && line.name === 'What time?', 'the time step');
    const evening = await reader.find(button(/^Evening/), 'the evening’s times');
    if (evening.states.includes('collapsed')) await reader.activate(button(/^Evening/), 'the evening’s times');
    await reader.activate(button(/^19:00\b/), '19:00');
    await reader.find((line) => line.role === 'heading' && line.name === 'For how long?', 'the duration step');
    await reader.activate(button(/^2 hrs/), 'two hours');
    await reader.find((line) => line.role === 'heading' && line.name === 'How many people?', 'the party step');
    await reader.activate(button(/^More than \d+ people\?$/), 'a larger party');
    await reader.type('How many people?', '12', true);
    await reader.activate(button(/^Find options$/), 'Find options');

    // The type the service gives a party of 12 is said, and why, before anything else is asked.
    await reader.hear(/^A party of 12 is booked as Private Hire/);
    const heading = await reader.find(
      (line) => line.role === 'heading' && line.name === 'A party of 12 is booked as Private Hire',
      'the change of type',
    );
    expect(heading.description).to.match(/^Table does not take a party this size\. Private Hire is an enquiry/);
    expect(heading.description).to.contain('your 2 hrs cannot carry over');
    // Confirmed from the keyboard, it goes on to Private Hire's own lengths.
    await reader.tabTo(button(/^Continue as Private Hire$/));
    await reader.press('Enter');
    await reader.find((line) => line.role === 'heading' && line.name === 'For how long?', 'Private Hire’s lengths');
  });
});
