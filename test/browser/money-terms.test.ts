/**
 * Money terms before the hand-off (issue 37): before the guest leaves for the booking site, the
 * widget says what happens there — a deposit, a card check that is not a charge with the most a
 * no-show may cost, pre-orders, for an enquiry a payment link by email — and the venue's policy
 * text, in the guest's language; through the real proxy and the sandbox's deposit scenarios.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, london, newStack, TYPES, until, WidgetPage } from '../support/widget-page.js';

/** Monday 16 March 2026, 10:00 in London; Saturday the 21st takes brunch and tables. */
const NOW = '2026-03-16T10:00';
const SATURDAY = '2026-03-21';

/**
 * A booking of `type` up to the hand-off, in `locale`, on a sandbox with `scenario`: the hand-off's
 * terms (our words) and the venue's policy, once both are shown.
 */
async function handOff(type: string, time: string, locale: string, scenario?: 'card-check' | 'fully-booked') {
  const stack = await newStack({ sandbox: { now: NOW, scenario } });
  const element = await fixture<VenueBooking>(
    html`<venue-booking
      venue=${DEMO_VENUE}
      api=${stack.api}
      locale=${locale}
      steps="type,date,time,num_people"
      .now=${london(NOW)}
    ></venue-booking>`,
  );
  const page = new WidgetPage(element);
  await page.chooseValue('type', type);
  await page.leave('type');
  await page.chooseValue('date', SATURDAY);
  await page.book({ time, num_people: 2 });
  await page.waitForStep('redirect');
  const step = page.root.querySelector<HTMLElement>('[data-step="redirect"]')!;
  const policy = await until(() => step.querySelector<HTMLElement>('[data-policy]'), 'the venue’s policy');
  const items = [...step.querySelectorAll<HTMLElement>('[data-term]')];
  return {
    terms: items.map((item) => item.textContent!.trim()).join('\n'),
    kinds: items.map((item) => item.dataset.term),
    policy: policy.textContent!.trim(),
  };
}

/** What our words must never say: the card check is no hold on the guest's money. */
const HOLD = /\bhold|\bheld|bloqu|retenu|empreinte/i;

describe('money terms before the hand-off', () => {
  it('a deposit per person, with pre-orders: said with the venue’s policy (English)', async () => {
    const { terms, kinds, policy } = await handOff(TYPES.brunch, '10:30', 'en-GB');
    expect(kinds).to.deep.equal(['payment', 'preorders']);
    expect(terms)
      .to.match(/deposit/i)
      .and.match(/pre-order/i);
    expect(policy).to.include('£10 a person');
    expect(terms).not.to.match(HOLD);
  });

  it('a deposit per person, with pre-orders, in French', async () => {
    const { terms, kinds, policy } = await handOff(TYPES.brunch, '10:30', 'fr');
    expect(kinds).to.deep.equal(['payment', 'preorders']);
    expect(terms)
      .to.match(/acompte/i)
      .and.match(/précommande/i);
    expect(policy).to.include('£10 a person');
    expect(terms).not.to.match(HOLD);
  });

  it('a card check with a stated maximum: not a charge, and the most a no-show may cost', async () => {
    for (const [locale, words] of [
      ['en-GB', /not a charge/],
      ['fr', /pas un paiement/],
    ] as const) {
      const { terms, kinds, policy } = await handOff(TYPES.table, '12:30', locale, 'card-check');
      expect(kinds).to.deep.equal(['payment']);
      expect(terms).to.match(words);
      expect(policy).to.match(/no-show may be charged up to £20 a person/);
      expect(terms).not.to.match(HOLD);
    }
  });

  it('an enquiry: a payment link may follow by email', async () => {
    for (const [locale, words] of [
      ['en-GB', /payment link.*email/],
      ['fr', /lien de paiement.*e-mail/],
    ] as const) {
      const { terms, kinds } = await handOff(TYPES.brunch, '10:30', locale, 'fully-booked');
      expect(kinds).to.include('enquiry');
      expect(kinds).not.to.include('payment');
      expect(terms).to.match(words);
      expect(terms).not.to.match(HOLD);
    }
  });
});
