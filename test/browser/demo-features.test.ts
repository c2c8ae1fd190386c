/**
 * What each gallery page is there to show actually happens on it: the popup opens a dialog, every
 * language renders in that language, the return page shows the confirmation from its address and
 * cleans the address, and the events panel logs what the guest does. Each state is also checked
 * for console problems and axe violations.
 */
import { expect } from '@open-wc/testing';
import { formatViolations, openDemo, widgetReady, type DemoFrame } from '../support/demo-frame.js';
import { DEMO_VENUE, until } from '../support/widget-page.js';
import { enGB } from '../../src/i18n/en-GB.js';
import { strings as de } from '../../src/i18n/de.js';
import { strings as es } from '../../src/i18n/es.js';
import { strings as fr } from '../../src/i18n/fr.js';
import { strings as nl } from '../../src/i18n/nl.js';

let demo: DemoFrame | null = null;

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  demo?.close();
  demo = null;
});

async function expectClean(frame: DemoFrame): Promise<void> {
  expect(formatViolations(await frame.axeViolations()), 'axe violations').to.equal('');
  expect(frame.problems().join('\n'), 'console problems').to.equal('');
}

describe('the demo pages show what they are for', () => {
  it('popup.html opens the flow in a modal dialog', async () => {
    demo = await openDemo('popup.html');
    const page = demo.widget();
    const open = await until(() => page.root.querySelector<HTMLButtonElement>('[part~="open"]'), 'the popup button');
    open.click();
    const dialog = await until(
      () => page.root.querySelector<HTMLDialogElement>('dialog[part~="dialog"][open]'),
      'the open dialog',
    );
    await until(() => dialog.querySelector('[part~="step"][data-step]'), 'a step in the dialog');
    await expectClean(demo);
  });

  for (const [locale, strings] of Object.entries({ fr, de, es, nl })) {
    it(`languages.html?locale=${locale} renders the widget in that language`, async () => {
      // The first step's title in this locale's own strings (checked apart from English, so a
      // locale that fell back to English, or showed another language, fails).
      const expected = strings.stepTitles.type;
      expect(expected).to.not.equal(enGB.stepTitles.type);
      demo = await openDemo('languages.html', { query: `locale=${locale}` });
      const page = demo.widget();
      await widgetReady(page);
      expect(demo.document.querySelector('venue-booking')!.getAttribute('lang')).to.equal(locale);
      const heading = () => page.root.querySelector('[part~="step"] h2')?.textContent?.trim();
      await until(() => heading() === expected, `the ${locale} heading "${expected}" (showing "${heading()}")`);
      await expectClean(demo);
    });
  }

  it('return.html shows the confirmation from the address and removes it from the address bar', async () => {
    demo = await openDemo('return.html', {
      query: `vb_return=${DEMO_VENUE}&reference=DMN-RETURN-1&status=complete&email=ada%40example.com`,
    });
    const page = demo.widget();
    expect(await page.reference()).to.equal('DMN-RETURN-1');
    const address = new URL(demo.window.location.href);
    for (const key of ['reference', 'status', 'email', 'vb_return'])
      expect(address.searchParams.has(key), key).to.equal(false);
    await expectClean(demo);
  });

  it('events.html logs the events of what the guest does', async () => {
    demo = await openDemo('events.html');
    const page = demo.widget();
    await page.choose('type', (button) => /^table\b/i.test(button.textContent!.trim()));
    const log = demo.document.querySelector('#event-log')!;
    await until(
      () => [...log.querySelectorAll('strong')].some((title) => title.textContent === 'vb-change'),
      'vb-change in the log',
    );
    await expectClean(demo);
  });
});
