import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import { localeModules } from '../../src/i18n/index.js';
import { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, london, newStack, TYPES, until, WidgetPage } from '../support/widget-page.js';

const NOW = '2026-03-16T10:00';

/** The widget in French for a table, on the sandbox, at the date step with its French heading. */
async function frenchAtTheDate(): Promise<WidgetPage> {
  const stack = await newStack({ sandbox: { now: NOW } });
  const element = await fixture<VenueBooking>(
    html`<venue-booking
      locale="fr"
      venue=${DEMO_VENUE}
      api=${stack.api}
      type=${TYPES.table}
      .now=${london(NOW)}
    ></venue-booking>`,
  );
  const page = new WidgetPage(element);
  await page.waitForStep('date');
  await until(() => page.heading()?.textContent === 'Quel jour ?', 'the French heading');
  return page;
}

describe('embedding and developer surface', () => {
  afterEach(() => sessionStorage.clear());

  it('fires bubbling, composed events only on guest actions, and pushes dataLayer events without personal data', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const seen: string[] = [];
    const listener = (event: Event) => {
      expect(event.bubbles && event.composed).to.equal(true);
      seen.push(event.type);
    };
    for (const name of ['vb-step', 'vb-change', 'vb-error']) document.addEventListener(name, listener);
    (window as { dataLayer?: unknown[] }).dataLayer = [];
    try {
      const element = await fixture<VenueBooking>(
        html`<venue-booking analytics venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}></venue-booking>`,
      );
      const page = new WidgetPage(element);
      await page.waitForStep('type');
      element.type = TYPES.table;
      await page.waitForStep('date');
      expect(seen, 'no event for programmatic changes').to.deep.equal([]);
      await page.chooseValue('date', '2026-03-17');
      await page.waitForStep('time');
      await until(() => seen.includes('vb-step'), 'vb-step');
      expect(seen).to.include('vb-change');
      const layer = JSON.stringify((window as { dataLayer?: unknown[] }).dataLayer);
      expect(layer).to.include('"event":"vb_change"').and.include('"event":"vb_step"');
    } finally {
      for (const name of ['vb-step', 'vb-change', 'vb-error']) document.removeEventListener(name, listener);
    }
  });

  it('loads other locales on demand and formats through Intl', async () => {
    const page = await frenchAtTheDate();
    expect(page.root.querySelector('.month')!.textContent).to.equal('mars 2026');
    expect(page.day('2026-03-17')!.getAttribute('aria-label')).to.equal('mardi 17 mars 2026');
  });

  it("the details form speaks the locale module's words, not the English ones of the later steps chunk", async () => {
    const page = await frenchAtTheDate();
    await page.completeSteps();
    const form = await page.form();
    expect(page.heading()!.textContent).to.equal('Vos coordonnées');
    expect(form.querySelector('label[for="vb-first_name"]')!.textContent!.trim()).to.match(/^Prénom/);
  });

  it('a locale module that fails to load keeps English and fires vb-error once, with nothing uncaught', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const original = localeModules.de;
    // As when the script-tag bundle is served by a proxy that does not serve its locale chunks.
    localeModules.de = () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /venue-booking-de.js'));
    const uncaught: unknown[] = [];
    const onRejection = (event: PromiseRejectionEvent) => {
      uncaught.push(event.reason);
      event.preventDefault();
    };
    window.addEventListener('unhandledrejection', onRejection);
    try {
      const errors: unknown[] = [];
      const element = await fixture<VenueBooking>(
        html`<venue-booking
          locale="de"
          venue=${DEMO_VENUE}
          api=${stack.api}
          type=${TYPES.table}
          .now=${london(NOW)}
          @vb-error=${(event: CustomEvent) => errors.push(event.detail)}
        ></venue-booking>`,
      );
      const page = new WidgetPage(element);
      await until(() => errors.length > 0, 'vb-error');
      await page.waitForStep('date');
      expect(page.heading()!.textContent).to.equal('Which day?');
      await page.chooseValue('date', '2026-03-17');
      await page.waitForStep('time');
      expect(errors).to.deep.equal([{ kind: 'locale', status: null, during: 'locale' }]);
      expect(uncaught).to.deep.equal([]);
    } finally {
      localeModules.de = original;
      window.removeEventListener('unhandledrejection', onRejection);
    }
  });

  it('several instances live on one page, and defining twice is harmless', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const wrapper = await fixture<HTMLDivElement>(
      html`<div>
        <venue-booking id="one" venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}></venue-booking>
        <venue-booking id="two" venue="64a1f0c2e4b0a1b2c3d4e502" api=${stack.api} .now=${london(NOW)}></venue-booking>
      </div>`,
    );
    // A second copy of the entry module (another script tag, another bundle) defines nothing twice.
    const again: string = new URL('../../src/index.ts?again', import.meta.url).href;
    await import(again);
    expect(customElements.get('venue-booking')).to.equal(VenueBooking);
    const [one, two] = [...wrapper.querySelectorAll('venue-booking')].map((element) => new WidgetPage(element));
    await one.chooseValue('type', TYPES.table);
    await one.waitForStep('date');
    await two.waitForStep('type');
    expect(
      two
        .options()
        .map((button) => button.textContent)
        .join(),
    ).to.match(/Cocktail/);
    await expect(wrapper).to.be.accessible();
  });

  it('popup mode opens a modal dialog with focus on its heading and returns focus on close', async () => {
    const stack = await newStack({ sandbox: { now: NOW } });
    const element = await fixture<VenueBooking>(
      html`<venue-booking mode="popup" venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}></venue-booking>`,
    );
    const page = new WidgetPage(element);
    const open = await until(() => page.root.querySelector<HTMLButtonElement>('[part~="open"]'), 'the open button');
    await page.waitForStep('type').catch(() => undefined);
    open.click();
    const dialog = page.root.querySelector('dialog')!;
    expect(dialog.open).to.equal(true);
    await until(() => page.focused() === page.heading(), 'focus on the heading');
    await expect(element).to.be.accessible();
    await sendKeys({ press: 'Escape' });
    await until(() => !dialog.open, 'the dialog to close');
    await until(() => page.focused() === open, 'focus back on the button');
  });
});
