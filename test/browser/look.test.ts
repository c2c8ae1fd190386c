/**
 * What a guest sees of the widget's type and alignment, in every engine: it draws in the page's
 * font, its controls too (`--vb-font` still overrides); the details form's boxes and radios are one
 * size and in line; "Make another booking" lines up with the links above it; every entry of the
 * times' key has its mark.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, guest, london, newStack, TYPES, until, WidgetPage } from '../support/widget-page.js';

/** Monday 16 March 2026, 10:00 in London: the sandbox's and the element's clock. */
const NOW = '2026-03-16T10:00';
const TUESDAY = '2026-03-17';
const FEAST = '64a1f0c2e4b0a1b2c3d4e706';

/** A page whose own font is not any browser's default, holding the widget. */
async function widgetOnPage(style = '') {
  const stack = await newStack({ sandbox: { now: NOW } });
  const host = await fixture<HTMLDivElement>(
    html`<div style="font-family: 'Courier New', Courier, monospace; ${style}">
      <p>The venue's own text</p>
      <venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}></venue-booking>
    </div>`,
  );
  const element = host.querySelector<VenueBooking>('venue-booking')!;
  return { stack, host, element, page: new WidgetPage(element) };
}

/** The details form of a Tuesday lunch for 6: the offers' radios and the marketing boxes in view. */
async function detailsForm(page: WidgetPage): Promise<HTMLFormElement> {
  await page.chooseValue('type', TYPES.table);
  await page.leave('type');
  await page.chooseValue('date', TUESDAY);
  await page.book({ time: '13:00', num_people: 6 });
  const form = await page.form();
  await until(() => form.querySelector(`[name="offer"][value="${FEAST}"]`), 'the offers');
  await until(() => form.querySelectorAll('[name="marketing_preferences"]').length >= 2, 'the marketing boxes');
  return form;
}

const family = (node: Element) => getComputedStyle(node).fontFamily;

describe("the page's font", () => {
  afterEach(() => sessionStorage.clear());

  it("draws the widget's text and every control in the host page's font", async () => {
    const { host, page } = await widgetOnPage();
    const pageFont = family(host.querySelector('p')!);
    expect(pageFont).to.match(/Courier New/);
    await page.waitForStep('type');
    expect(family(page.heading()!)).to.equal(pageFont);
    expect(family(page.options()[0]!)).to.equal(pageFont);
    const form = await detailsForm(page);
    const controls = form.querySelectorAll('input, textarea, select, button, label, legend');
    expect(controls.length).to.be.greaterThan(8);
    for (const control of controls)
      expect(family(control), `${control.localName} ${control.getAttribute('name') ?? ''}`).to.equal(pageFont);
  });

  it("takes --vb-font over the page's font, through to the controls", async () => {
    const { page } = await widgetOnPage('--vb-font: Georgia, serif;');
    await page.waitForStep('type');
    expect(family(page.heading()!)).to.match(/^Georgia/);
    expect(family(page.options()[0]!)).to.match(/^Georgia/);
  });
});

describe('alignment', () => {
  afterEach(() => sessionStorage.clear());

  it('draws every marketing box and offer radio at one size, their left edges in line', async () => {
    const { page } = await widgetOnPage();
    const form = await detailsForm(page);
    const boxes = [...form.querySelectorAll<HTMLInputElement>('.check input')];
    expect(boxes.map((box) => box.type)).to.include.members(['radio', 'checkbox']);
    const rects = boxes.map((box) => box.getBoundingClientRect());
    const sizes = new Set(rects.map((rect) => `${rect.width.toFixed(1)}×${rect.height.toFixed(1)}`));
    expect([...sizes], 'one size').to.have.length(1);
    const radios = rects.filter((_, index) => boxes[index]!.type === 'radio').map((rect) => rect.left);
    const checks = rects.filter((_, index) => boxes[index]!.type === 'checkbox').map((rect) => rect.left);
    expect(new Set(radios.map((left) => left.toFixed(1))).size, 'radios in line').to.equal(1);
    expect(new Set(checks.map((left) => left.toFixed(1))).size, 'boxes in line').to.equal(1);
  });

  it('lines "Make another booking" up with the calendar links above it', async () => {
    const { page } = await widgetOnPage();
    await detailsForm(page);
    await page.fillDetails(guest('aligned'));
    page.submit();
    await page.reference();
    const root = page.root;
    const link = await until(() => root.querySelector<HTMLAnchorElement>('[part~="ics"]'), 'the calendar links');
    const again = [...root.querySelectorAll<HTMLButtonElement>('[part~="confirmation"] button')].find((button) =>
      /another booking/i.test(button.textContent!),
    )!;
    // Where the words start, not the boxes: a button's padding would move its words alone.
    const textLeft = (node: Element) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range.getBoundingClientRect().left;
    };
    expect(Math.abs(textLeft(again) - textLeft(link))).to.be.below(1);
    expect(Math.abs(textLeft(again) - textLeft(root.querySelector('[part~="confirmation"] p')!))).to.be.below(1);
  });
});

describe("the times' key", () => {
  afterEach(() => sessionStorage.clear());

  it('gives every entry of the key a mark, the first one included', async () => {
    const { page } = await widgetOnPage();
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    await page.chooseValue('date', TUESDAY);
    await page.waitForStep('time');
    const entries = [...page.root.querySelectorAll('.legend li')];
    expect(entries.length).to.be.greaterThan(0);
    for (const entry of entries) {
      const mark = entry.querySelector('.mark, .badge');
      expect(mark, entry.textContent!.trim()).to.not.equal(null);
      const rect = mark!.getBoundingClientRect();
      expect(rect.width * rect.height, `${entry.textContent!.trim()}: a visible mark`).to.be.greaterThan(4);
    }
  });
});
