/**
 * Party sizes and offers as a guest meets them (issue 28), through the real proxy and sandbox: a
 * larger party always has a way on, a type for 10 to 60 offers its sizes in a couple of dozen
 * controls and says so, and offer badges promise only what a party the type takes can get.
 */
import { expect, fixture, html } from '@open-wc/testing';
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
  type TestStack,
} from '../support/widget-page.js';

const NOW = '2026-03-16T10:00';
const TUESDAY = '2026-03-17';
const SATURDAY = '2026-03-21';
const SUNDAY = '2026-03-22';
const MONDAY = '2026-03-23';

/** A widget on a fresh stack, with the venue's own way to book as its fallback content. */
async function widget(stack?: TestStack): Promise<WidgetPage> {
  stack ??= await newStack({ sandbox: { now: NOW } });
  const element = await fixture<VenueBooking>(
    html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}
      ><p>Call us on <a href="tel:+442079460000">020 7946 0000</a> or <a href="/book">book here</a>.</p></venue-booking
    >`,
  );
  return new WidgetPage(element);
}

/** Chooses a type, a date and a time, and the longest duration when one is asked. */
async function upTo(page: WidgetPage, type: string, date: string, time: string): Promise<void> {
  await page.chooseValue('type', type);
  await page.leave('type');
  await page.chooseValue('date', date);
  await page.leave('date');
  await page.chooseValue('time', time);
  await page.leave('time');
  if ((await page.step()) === 'duration') {
    const longest = page
      .options()
      .filter(WidgetPage.enabled)
      .map(WidgetPage.value)
      .map(Number)
      .sort((a, b) => b - a)[0];
    await page.chooseValue('duration', longest!);
    await page.leave('duration');
  }
}

/** The summary's text. */
const summary = (page: WidgetPage) =>
  page.root.querySelector('[part~="summary"]')?.textContent?.replace(/\s+/g, ' ') ?? '';

describe('a larger party always has a way on', () => {
  afterEach(() => sessionStorage.clear());

  it('a party of 20 from Table on a Sunday at 19:00 is offered Private Hire, confirms it, keeps its date and time, and sends an enquiry', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const page = await widget(stack);
    await upTo(page, TYPES.table, SUNDAY, '19:00');
    await page.waitForStep('num_people');
    expect(page.partySizes()).to.deep.equal([2, 3, 4, 5, 6, 7, 8]);
    expect(page.partyRule()).to.equal('Table is for 2 to 8 guests');
    await page.largerParty(20);
    // The only type that takes 20 that evening is given, said, and confirmed by the guest.
    expect((await page.typeChange()).title).to.equal('A party of 20 is booked as Private Hire');
    await page.answerTypeChange('continue');
    // With the date, time and party kept.
    await until(() => /Private Hire/.test(summary(page)), 'Private Hire in the summary');
    // The date as this engine's Intl words it ("Sun 22 Mar", "Sun, 22 Mar").
    const sunday = new Intl.DateTimeFormat('en-GB', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    expect(summary(page)).to.contain(sunday.format(new Date(`${SUNDAY}T12:00Z`)));
    expect(summary(page))
      .to.match(/19:00/)
      .and.match(/20 people/);
    await page.completeSteps();
    expect(await page.step()).to.equal('details');
    expect(page.root.querySelector('[data-confirm-note]')?.textContent).to.match(/venue confirms/);
    const details = guest('larger');
    await page.fillDetails(details);
    page.submit();
    await page.reference();
    expect(page.confirmationStatus()).to.equal('enquiry');
    // Not confirmed yet: nothing to put in a calendar.
    expect(page.root.querySelector('[part~="ics"], [part~="google-calendar"]')).to.equal(null);
    const [stored] = await storedBookings(stack, details.email);
    expect(stored.num_people).to.equal(20);
    expect(stored.type.id ?? stored.type).to.equal(TYPES.privateHire);
  });

  it('where no type takes the party, the guest is told so and given the venue’s own way to book, and can go back', async () => {
    const page = await widget();
    // No private hire on Saturdays: nothing at the venue takes 20 then.
    await upTo(page, TYPES.table, SATURDAY, '19:00');
    await page.largerParty(20);
    await page.waitForStep('type');
    await until(() => page.root.querySelector('[data-none]'), 'the nothing-fits note');
    expect(page.options().filter(WidgetPage.enabled)).to.deep.equal([]);
    expect(page.fallbackShown()).to.equal(true);
    // Each type says why; the summary goes back to the date.
    expect(page.options().map((option) => option.textContent)).to.satisfy((texts: string[]) =>
      texts.some((text) => /Table is for 2 to 8 people/.test(text)),
    );
    expect(page.root.querySelector('[part~="summary"] button')).not.to.equal(null);
  });
});

describe('a type for many guests', () => {
  afterEach(() => sessionStorage.clear());

  it('Private Hire shows its sizes in at most two dozen controls, states its minimum, and takes any size it lists', async () => {
    const page = await widget();
    await upTo(page, TYPES.privateHire, MONDAY, '18:00');
    await page.waitForStep('num_people');
    expect(page.partyRule()).to.equal('Private Hire is for 10 to 60 guests');
    expect(page.stepControls().length).to.be.at.most(24);
    // No wall of disabled sizes: every size shown can be chosen, and every size it takes is there.
    expect(page.options().filter((option) => !WidgetPage.enabled(option))).to.deep.equal([]);
    expect(page.partySizes()).to.deep.equal(Array.from({ length: 51 }, (_, index) => index + 10));
    const select = page.root.querySelector<HTMLSelectElement>('#party-size')!;
    expect(page.root.querySelector(`label[for="party-size"]`)?.textContent?.trim()).to.equal('Other party size');
    expect(select.labels?.length).to.equal(1);
    await page.chooseValue('num_people', 25);
    await page.leave('num_people');
    expect(summary(page)).to.match(/25 people/);
  });
});

describe('honest offers', () => {
  afterEach(() => sessionStorage.clear());

  /** The badge of each type option, by type id, once the types' party sizes are read. */
  async function typeBadges(page: WidgetPage): Promise<Record<string, { shown: string; spoken: string } | null>> {
    await page.waitForStep('type');
    // Private Hire's badge settles once the types' sizes are known: the 2–8 offer is not for it.
    await until(() => {
      const badge = page.root.querySelector(`[data-value="${TYPES.privateHire}"] .badge`);
      return badge && !badge.textContent!.includes('Two-for-one');
    }, 'the badges within each type’s party sizes');
    const badges: Record<string, { shown: string; spoken: string } | null> = {};
    for (const option of page.options()) {
      const badge = option.querySelector<HTMLElement>('.badge');
      badges[WidgetPage.value(option)] = badge && {
        shown: WidgetPage.spoken(badge.cloneNode(true) as HTMLElement).replace(/:.*$/, ''),
        spoken: badge.textContent!.replace(/\s+/g, ' ').trim(),
      };
    }
    return badges;
  }

  it('a type shows a badge only for offers a party it takes can get, named, with ranges in people', async () => {
    const page = await widget();
    const badges = await typeBadges(page);
    // Private Hire (10–60): the group feast (6+) covers every party; the two-for-one (2–8) none.
    expect(badges[TYPES.privateHire]!.spoken).to.not.match(/Two-for-one|2–8/);
    expect(badges[TYPES.privateHire]!.shown).to.equal('Big group feast');
    // Express Lunch (1–4): only the two-for-one, for 2 to 4 of its parties.
    expect(badges[TYPES.expressLunch]!.shown).to.equal('Two-for-one cocktails · 2–4 people');
    // Table (2–8): both; the word, every offer in its accessible name, the feast's sizes cut to the type's.
    expect(badges[TYPES.table]!.shown).to.equal('Offer');
    expect(badges[TYPES.table]!.spoken).to.contain('Two-for-one cocktails, Big group feast (6–8 people)');
    const ranges: Record<string, number[]> = {
      [TYPES.table]: [2, 8],
      [TYPES.brunch]: [2, 10],
      [TYPES.privateHire]: [10, 60],
      [TYPES.expressLunch]: [1, 4],
      [TYPES.bar]: [2, 6],
    };
    for (const [type, badge] of Object.entries(badges)) {
      if (!badge) continue;
      for (const match of badge.spoken.matchAll(/(\d+)(?:–(\d+)|(\+))? people/g)) {
        const low = Number(match[1]);
        const high = match[2] ? Number(match[2]) : match[3] ? Infinity : low;
        const [min, max] = ranges[type]!;
        expect(low <= max! && high >= min!, `${badge.spoken} on ${type}`).to.equal(true);
      }
      expect(badge.spoken.replace(/\d+(?:–\d+|\+)? people/g, ''), 'a range says people').to.not.match(/\d/);
    }
  });

  it('the time key names the offers; on the party step, offers mark the sizes they apply to, explained once, with no badge on each size', async () => {
    const page = await widget();
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    await page.chooseValue('date', TUESDAY);
    await page.waitForStep('time');
    // The time chips' badges are the word; the key names each offer they stand for once, with its times and sizes.
    expect(page.root.querySelector('ul.legend')!.textContent!.replace(/\s+/g, ' '))
      .to.contain('Offers at 17:00–19:00: Two-for-one cocktails')
      .and.contain('Offers at 12:00–20:00: Big group feast (6–8 people)');
    await page.chooseValue('time', '13:00');
    await page.leave('time');
    await page.choose('duration');
    await page.leave('duration');
    await page.waitForStep('num_people');
    const legend = page.root.querySelector('#key-offer')!.textContent!.replace(/\s+/g, ' ').trim();
    expect(legend).to.equal('Offer for the marked sizes: Big group feast (6–8 people)');
    expect(page.root.querySelector('[data-step="num_people"] .badge')).to.equal(null);
    const marked = page
      .options()
      .filter((option) => option.querySelector('.mark[data-kind="offer"]'))
      .map(WidgetPage.value);
    expect(marked).to.deep.equal(['6', '7', '8']);
    const six = page.options().find((option) => WidgetPage.value(option) === '6')!;
    expect(page.described(six)).to.contain('Big group feast');
  });
});

describe('time groups', () => {
  afterEach(() => sessionStorage.clear());

  it('a group of one time reads as that time, never as a range of one with a count', async () => {
    const page = await widget();
    // Brunch on a Saturday starts 10:30 to 13:30: the morning holds 10:30 alone.
    await page.chooseValue('type', TYPES.brunch);
    await page.leave('type');
    await page.chooseValue('date', SATURDAY);
    await page.waitForStep('time');
    const groups = [...page.root.querySelectorAll<HTMLElement>('[part~="time-group"]')].map((group) =>
      group.textContent!.replace(/\s+/g, ' ').trim(),
    );
    expect(groups[0]).to.equal('Morning 10:30');
    expect(groups[1]).to.match(/^Lunch 11:00–13:30 · \d+ times$/);
  });
});
