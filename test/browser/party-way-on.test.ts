/**
 * No big party stranded (issue 35), through the real proxy and sandbox: on a Friday, when no type
 * takes a party of 12, the guest is told which type does and on which days, can move to it as an
 * enquiry, and still has the venue's own way to book; on a Thursday, the type the service gives the
 * party is said (heard, in the accessibility tree), and the guest confirms it or goes back, with
 * the duration that cannot carry over said too.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import type { AxNode as CdpNode } from '../support/accessibility-tree.js';
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
import { browserEngine } from '../support/engine.js';

const NOW = '2026-11-28T10:00';
const THURSDAY = '2026-12-03';
/** The venue's profile as its manager keeps it with the proxy (the proxy's seed, as its profiles file holds it). */
const PROFILE = { phone: '020 7946 0000', email: 'events@harbour-and-vine.example' };
const FRIDAY = '2026-12-04';

/** A node of the accessibility tree, as a screen reader reads it. */
interface AxNode {
  role: string;
  name: string;
  description: string;
  focused: boolean;
}

/**
 * Chromium's accessibility tree, as a screen reader walks it (the `ax-tree` command of
 * test/support/accessibility-tree.ts), its nodes that are not ignored; null in an engine whose
 * launcher cannot give it (the command refuses there), where the test says what it cannot check.
 */
async function accessibilityTree(): Promise<AxNode[] | null> {
  let nodes: CdpNode[];
  try {
    nodes = await executeServerCommand<CdpNode[], undefined>('ax-tree');
  } catch {
    return null;
  }
  return nodes
    .filter((node) => !node.ignored)
    .map((node) => ({
      role: node.role?.value ?? '',
      name: node.name?.value ?? '',
      description: node.description?.value ?? '',
      focused:
        node.properties?.some((property) => property.name === 'focused' && property.value.value === true) ?? false,
    }));
}

/** A widget on a fresh stack, with the venue's own way to book as its fallback content. */
async function widget(stack: TestStack): Promise<WidgetPage> {
  const element = await fixture<VenueBooking>(
    html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}
      ><p>To book a table, please <a href="/contact">get in touch</a>.</p></venue-booking
    >`,
  );
  return new WidgetPage(element);
}

/** Table → day → time → 2 hrs → "More than 8 people?" → 12, as the manager took it. */
async function largerPartyOn(page: WidgetPage, day: string, time: string): Promise<void> {
  await page.chooseValue('type', TYPES.table);
  await page.leave('type');
  await page.chooseValue('date', day);
  await page.leave('date');
  await page.chooseValue('time', time);
  await page.leave('time');
  await page.chooseValue('duration', 2);
  await page.leave('duration');
  await page.largerParty(12);
}

const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

describe('no big party stranded', () => {
  afterEach(() => sessionStorage.clear());

  it('a party of 12 on a Friday is told the days Private Hire takes it and the venue’s phone and email, moves there as an enquiry and sends it, the fallback still below', async () => {
    const stack = await newStack({ sandbox: { now: NOW }, proxy: { profiles: { [DEMO_VENUE]: PROFILE } } });
    const page = await widget(stack);
    await largerPartyOn(page, FRIDAY, '19:30');
    const help = await page.partyHelp();
    expect(text(help.querySelector(`[data-fit="${TYPES.privateHire}"]`))).to.equal(
      'Private Hire takes 10–60 people, Sunday to Thursday.',
    );
    // The venue's phone and email, from its profile, as links a phone can call and write to.
    const phone = help.querySelector<HTMLAnchorElement>('[data-phone]')!;
    const email = help.querySelector<HTMLAnchorElement>('[data-email]')!;
    expect([phone.getAttribute('href'), text(phone)]).to.deep.equal(['tel:02079460000', PROFILE.phone]);
    expect([email.getAttribute('href'), text(email)]).to.deep.equal([`mailto:${PROFILE.email}`, PROFILE.email]);
    // Never "get in touch" alone: the venue's own way to book is still there, below.
    expect(page.fallbackShown()).to.equal(true);
    const move = help.querySelector<HTMLButtonElement>(`[data-move="${TYPES.privateHire}"]`)!;
    expect(text(move)).to.equal('Send an enquiry for Private Hire');
    move.click();
    // Private Hire does not run on Fridays: the guest picks one of its days; Friday says why not.
    await page.waitForStep('date');
    expect(page.day(FRIDAY)?.getAttribute('aria-disabled')).to.equal('true');
    await page.chooseValue('date', THURSDAY);
    await page.leave('date');
    await page.chooseValue('time', '19:00');
    await page.leave('time');
    await page.completeSteps();
    expect(await page.step()).to.equal('details');
    const details = guest('friday-party');
    await page.fillDetails(details);
    page.submit();
    await page.reference();
    expect(page.confirmationStatus()).to.equal('enquiry');
    const [stored] = await storedBookings(stack, details.email);
    expect([stored.num_people, stored.type.id ?? stored.type, stored.date.slice(0, 10)]).to.deep.equal([
      12,
      TYPES.privateHire,
      THURSDAY,
    ]);
  });

  it('a party no type takes at all is told so, with the venue’s own way to book', async () => {
    const page = await widget(await newStack({ sandbox: { now: NOW } }));
    await largerPartyOn(page, FRIDAY, '19:30');
    await page.partyHelp();
    // Back to the party, and one more than any type takes.
    await page.change('num_people');
    await page.largerParty(61);
    const help = await page.partyHelp();
    await until(() => /61 people/.test(text(help)), 'the larger party in the help');
    expect(text(help)).to.equal('No booking here takes 61 people online.');
    // No profile kept for the venue (the proxy answers 404): no contact, and no error either.
    expect(help.querySelector('a')).to.equal(null);
    expect(page.alert()).to.equal('');
    expect(page.fallbackShown()).to.equal(true);
  });

  it('a party of 12 on a Thursday hears Private Hire said, must confirm it, and is told the 2 hours cannot carry over', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const page = await widget(stack);
    await largerPartyOn(page, THURSDAY, '19:00');
    const change = await page.typeChange();
    expect(change.title).to.equal('A party of 12 is booked as Private Hire');
    expect(change.detail).to.match(/^Table does not take a party this size\. Private Hire is an enquiry/);
    expect(change.detail).to.match(/Private Hire lasts 3 hr(s)? or 4 hrs, so your 2 hrs cannot carry over/);
    // Nothing goes on until the guest confirms: no duration step behind the guest's back.
    expect(page.currentStep()).to.equal('type');
    // The focus is on the sentence's heading, which is announced; the tree a screen reader walks carries it.
    await until(() => page.focused() === page.heading(), 'the focus on the change');
    await until(
      () => page.root.querySelector('#live')?.textContent === change.title,
      'the change announced in the live region',
    );
    const tree = await accessibilityTree();
    // Chromium gives its tree; Firefox and WebKit's launchers cannot (the DOM checks above hold there).
    expect(tree === null).to.equal(browserEngine() !== 'chromium');
    if (tree) {
      const heading = tree.find((node) => node.role === 'heading' && node.name === change.title);
      expect(heading, 'the heading in the accessibility tree').to.not.equal(undefined);
      expect(heading!.focused).to.equal(true);
      // Its description is read with it on focus: what changes, the duration included.
      expect(heading!.description.replace(/\s+/g, ' ').trim()).to.equal(change.detail);
      const button = tree.find((node) => node.role === 'button' && node.name === 'Continue as Private Hire');
      expect(button, 'the confirm button in the accessibility tree').to.not.equal(undefined);
    }
    // Confirmed with the keyboard: the heading holds the focus, the next Tab reaches the button.
    await sendKeys({ press: 'Tab' });
    expect(text(page.focused())).to.equal('Continue as Private Hire');
    await sendKeys({ press: 'Enter' });
    await page.waitForStep('duration');
    expect(page.options().filter(WidgetPage.enabled).map(WidgetPage.value)).to.deep.equal(['3', '4']);
    await page.chooseValue('duration', 3);
    await page.leave('duration');
    expect(await page.step()).to.equal('details');
    const details = guest('thursday-party');
    await page.fillDetails(details);
    page.submit();
    await page.reference();
    const [stored] = await storedBookings(stack, details.email);
    expect([stored.num_people, stored.type.id ?? stored.type, stored.time]).to.deep.equal([
      12,
      TYPES.privateHire,
      '19:00',
    ]);
  });

  it('going back from the change of type restores the table and its 2 hours, at the party step', async () => {
    const page = await widget(await newStack({ sandbox: { now: NOW } }));
    await largerPartyOn(page, THURSDAY, '19:00');
    await page.answerTypeChange('change-party');
    await page.waitForStep('num_people');
    expect(page.partyRule()).to.equal('Table is for 2 to 8 guests');
    const summary = text(page.root.querySelector('[part~="summary"]'));
    expect(summary).to.contain('Table').and.to.match(/2 hrs/);
    await page.chooseValue('num_people', 8);
    await page.leave('num_people');
    expect(await page.step()).to.equal('details');
  });
});
