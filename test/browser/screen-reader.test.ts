/**
 * A booking walked as a screen reader user walks it: what is heard comes from the accessibility
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
/** Saturday 28 November 2026: the Cellar is closed on Mondays, open until 00:30 Tuesday to Thursday. */
const NOW = '2026-11-28T10:00';

async function widget() {
  const stack = await newStack({ sandbox: { now: NOW } });
  await fixture<VenueBooking>(
    html`<venue-booking venue=${CELLAR} api=${stack.api} .now=${london(NOW)}></venue-booking>`,
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
});
