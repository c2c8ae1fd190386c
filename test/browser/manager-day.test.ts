/**
 * A venue manager's day (issue 35), in the studio of the real proxy on the real sandbox, as the
 * manager would take it: they save the venue's phone in the studio, and a guest's party of 12 on
 * the Friday gets that phone and a way to enquire; they choose dark and a colour, and the QR code
 * and the WordPress plugin they download carry that look and the venue's name. (Allowing a blocked
 * site, on one instance and on a second one sharing Redis, is studio-sites.test.ts; the QR files'
 * modules decoded, test/proxy/qr.test.ts; the plugin in a real WordPress, test/wordpress/.)
 */
import { expect, fixture, html } from '@open-wc/testing';
import { strFromU8, unzipSync } from 'fflate';
import '../../src/index.js';
import type { VenueBooking } from '../../src/venue-booking.js';
import { DEMO_VENUE, london, newStack, TYPES, WidgetPage, type TestStack } from '../support/widget-page.js';

const NOW = '2026-11-28T10:00';
const FRIDAY = '2026-12-04';
const PHONE = '+44 20 7946 0555';

const frames: HTMLIFrameElement[] = [];
afterEach(() => {
  for (const frame of frames.splice(0)) frame.remove();
  sessionStorage.clear();
});

/** The studio at `query`, in a frame of the test page, as the manager opens it (from this machine). */
async function studio(stack: TestStack, query: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.title = 'embed studio';
  frame.style.cssText = 'width: 1100px; height: 900px; border: 0;';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `${stack.base}/embed?${query}`;
  document.body.append(frame);
  frames.push(frame);
  await loaded;
  return frame;
}

const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

describe('a venue manager’s day', () => {
  it('saves the venue’s phone in the studio, and a party of 12 on the Friday is given it with a way to enquire', async () => {
    const stack = await newStack({ sandbox: { now: NOW }, proxy: { widget: true } });
    const frame = await studio(stack, `venue=${DEMO_VENUE}`);
    const form = frame.contentDocument!.querySelector<HTMLFormElement>('form.venue-profile')!;
    form.querySelector<HTMLInputElement>('input[name="phone"]')!.value = PHONE;
    // Saved as the manager saves it: the form's own button, a same-origin POST, back to the studio.
    const saved = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    form.querySelector<HTMLButtonElement>('button[type="submit"], button:not([type])')!.click();
    await saved;
    expect(text(frame.contentDocument!.querySelector('form.venue-profile [role="status"]'))).to.equal('Saved.');

    const element = await fixture<VenueBooking>(
      html`<venue-booking venue=${DEMO_VENUE} api=${stack.api} .now=${london(NOW)}
        ><p>To book a table, please <a href="/contact">get in touch</a>.</p></venue-booking
      >`,
    );
    const page = new WidgetPage(element);
    await page.chooseValue('type', TYPES.table);
    await page.leave('type');
    await page.chooseValue('date', FRIDAY);
    await page.leave('date');
    await page.chooseValue('time', '19:30');
    await page.leave('time');
    await page.chooseValue('duration', 2);
    await page.leave('duration');
    await page.largerParty(12);
    const help = await page.partyHelp();
    const phone = help.querySelector<HTMLAnchorElement>('[data-phone]');
    expect(phone?.getAttribute('href'), 'the phone the manager saved, as a link a phone can call').to.equal(
      'tel:+442079460555',
    );
    expect(text(help.querySelector(`[data-move="${TYPES.privateHire}"]`))).to.equal('Send an enquiry for Private Hire');
  });

  it('chooses dark and a colour: the QR code downloaded and the plugin carry that look and the venue’s name', async () => {
    const stack = await newStack({ sandbox: { now: NOW }, proxy: { widget: true } });
    const doc = (await studio(stack, `venue=${DEMO_VENUE}&theme=dark&accent=%238cc4ec`)).contentDocument!;
    const png = doc.querySelector<HTMLAnchorElement>('#qr-download-png')!;
    const svg = doc.querySelector<HTMLAnchorElement>('#qr-download')!;
    expect(png.hasAttribute('download') && svg.hasAttribute('download'), 'real download links').to.equal(true);
    for (const link of [png, svg]) {
      const query = new URL(link.href).searchParams;
      expect([query.get('theme'), query.get('accent')], link.id).to.deep.equal(['dark', '#8cc4ec']);
    }
    const file = await fetch(png.href);
    expect([file.status, file.headers.get('content-type')]).to.deep.equal([200, 'image/png']);
    // The coloured link's code is not the bare link's: the file follows the studio's choices.
    const [coloured, bare] = await Promise.all([
      fetch(svg.href).then((response) => response.text()),
      fetch(`${stack.base}/book/${DEMO_VENUE}/qr.svg`).then((response) => response.text()),
    ]);
    expect(coloured).to.not.equal(bare);

    const plugin = doc.querySelector<HTMLAnchorElement>('#wordpress-plugin')!;
    const zip = unzipSync(new Uint8Array(await (await fetch(plugin.href)).arrayBuffer()));
    const defaults = strFromU8(zip['venue-booking/defaults.php']!);
    expect(defaults).to.contain("'theme' => 'dark',");
    expect(defaults).to.contain("'accent' => '#8cc4ec',");
    const venueName = text(doc.querySelector('form.venue-profile h3'));
    expect(venueName, 'the venue’s name in the studio').to.not.equal('');
    expect(defaults, 'the venue by its name in the plugin').to.contain(venueName.replace(/'/g, "\\'"));
  });
});
