/**
 * "Allow this site" as the manager meets it, in a real browser through the real proxy: the widget
 * pasted on a page of another origin is refused; the manager clicks "Allow this site" on that
 * site's row in the studio; after a reload, the widget there books to the end, through a second
 * instance of the same deployment too. And the studio fits
 * a 360 px phone: no sideways scroll, before and after a site has asked for the widget.
 *
 * The venue's page is on another origin than this test page, so the test cannot reach into it: a
 * small script of the page's own (`driveBooking`, sent as its source) books as a guest would and
 * posts what the widget showed. Two stacks of one shared name (test/support/stacks.ts) are two
 * instances of one deployment on one Redis.
 */
import { expect } from '@open-wc/testing';
import { formatViolations, operatorPageViolations } from '../support/demo-frame.js';
import { closeFrames, openFrame } from '../support/frames.js';
import { DEMO_VENUE, newStack, storedBookings, until, type TestStack } from '../support/widget-page.js';

afterEach(closeFrames);

/** What the venue's page reports: the widget's refusal, or the booking's reference. */
interface Report {
  page: string;
  alert?: string;
  reference?: string;
  stuck?: string;
}

/**
 * Runs in the venue's page, from its source: answers each step of the widget (a table, two people,
 * else the first choice open), fills the guest's details, books, and posts the reference; or posts
 * the alert when the widget cannot book here. It uses nothing but the page's globals.
 */
function driveBooking(email: string): void {
  const report = (data: Record<string, string>) => parent.postMessage({ page: location.href, ...data }, '*');
  const started = Date.now();
  let answered = '';
  const tick = (): void => {
    const root = document.querySelector('venue-booking')?.shadowRoot;
    if (Date.now() - started > 20_000) return report({ stuck: root?.textContent?.replace(/\s+/g, ' ') ?? 'no widget' });
    const reference = root?.querySelector('[part~="confirmation"] .reference')?.textContent?.trim();
    if (reference) return report({ reference });
    const alert = root?.querySelector('[role="alert"]')?.textContent?.trim();
    // An alert before the details form is a refusal; on the form, only once the booking was sent.
    if (alert && (!root?.querySelector('[part~="form"]') || answered === 'details')) return report({ alert });
    const form = root?.querySelector<HTMLFormElement>('[part~="form"]');
    if (form && answered !== 'details') {
      answered = 'details';
      const details: Record<string, string> = {
        first_name: 'Grace',
        last_name: 'Hopper',
        email,
        phone: '+44 7700 900456',
      };
      for (const [name, value] of Object.entries(details)) {
        const input = form.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      }
      setTimeout(() => root!.querySelector<HTMLButtonElement>('[part~="submit"]')!.click(), 100);
    }
    const step = root?.querySelector<HTMLElement>('[part~="step"][data-step]')?.dataset.step;
    if (step && step !== answered) {
      const open = [
        ...root!.querySelectorAll<HTMLButtonElement>('[part~="step"] [part~="option"], [part~="step"] [part~="day"]'),
      ].filter((button) => !button.disabled && button.getAttribute('aria-disabled') !== 'true');
      const preferred =
        step === 'type'
          ? open.find((button) => /^table\b/i.test(button.textContent!.trim()))
          : step === 'num_people'
            ? open.find((button) => button.dataset.value === '2')
            : undefined;
      const choice = preferred ?? open[0];
      if (choice) {
        answered = step;
        choice.click();
      }
    }
    setTimeout(tick, 50);
  };
  tick();
}

/** A page on another origin with what the manager pasted, and the guest's script that books through it. */
async function venuePage(stack: TestStack, pasted: string, email: string): Promise<{ url: string; origin: string }> {
  const response = await fetch(`${stack.base}/__pages`, {
    method: 'POST',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our venue</title></head><body><h1>Book a table</h1>
${pasted}
<script type="module">const __name = (target) => target;\n(${driveBooking.toString()})(${JSON.stringify(email)});</script></body></html>`,
  });
  return response.json();
}

/** Opens the venue's page and waits for its report. */
async function visit(url: string): Promise<Report> {
  const reported = new Promise<Report>((resolve) => {
    const listener = (event: MessageEvent) => {
      if (event.data?.page !== url) return;
      window.removeEventListener('message', listener);
      resolve(event.data);
    };
    window.addEventListener('message', listener);
  });
  await openFrame(url, 'the venue’s own page', { width: 800 });
  return reported;
}

/** The studio in a frame `width` wide, once its preview has drawn. */
async function studio(stack: TestStack, width = 1100, query = `venue=${DEMO_VENUE}`): Promise<HTMLIFrameElement> {
  const frame = await openFrame(`${stack.base}/embed?${query}`, 'embed studio', { width });
  await until(
    () =>
      frame
        .contentDocument!.querySelector('#preview venue-booking')
        ?.shadowRoot?.querySelector('[part~="step"], [part~="open"]'),
    'the preview',
  );
  return frame;
}

/** Clicks a button of the studio that posts a form, and waits for the studio the answer leads back to. */
async function post(frame: HTMLIFrameElement, button: HTMLButtonElement): Promise<Document> {
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  button.click();
  await loaded;
  return frame.contentDocument!;
}

/** The "Allow this site" button of a site's row in the studio. */
function allowButton(doc: Document, origin: string): HTMLButtonElement | undefined {
  const row = [...doc.querySelectorAll('#origins-table tbody tr')].find(
    (tr) => tr.querySelector('th')?.textContent === origin,
  );
  return [...(row?.querySelectorAll<HTMLButtonElement>('button') ?? [])].find((button) =>
    button.textContent!.startsWith('Allow this site'),
  );
}

/** Whether the document scrolls sideways, and what sticks out past its width. */
function sideways(doc: Document): string {
  const { scrollWidth, clientWidth } = doc.documentElement;
  if (scrollWidth <= clientWidth) return '';
  const wide = [...doc.body.querySelectorAll<HTMLElement>('*')]
    .filter((node) => node.getBoundingClientRect().right > clientWidth + 0.5)
    .map(
      (node) =>
        `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}.${node.className} (${Math.round(node.getBoundingClientRect().right)})`,
    );
  // What overflows its own box (text, or a child drawn past it), where no box sticks out itself.
  const spilling = [...doc.body.querySelectorAll<HTMLElement>('*')]
    .filter((node) => node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0)
    .map(
      (node) =>
        `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}.${node.className} (${node.scrollWidth} in ${node.clientWidth})`,
    );
  return `scrollWidth ${scrollWidth} > clientWidth ${clientWidth}: ${wide.slice(0, 12).join(', ')}; spilling: ${spilling.slice(0, 12).join(', ')}`;
}

/** Opens every folded part (the web person's lines), so their width counts too. */
function unfold(doc: Document): void {
  for (const details of doc.querySelectorAll('details')) details.open = true;
}

describe('"Allow this site" in the studio', () => {
  it('a widget on a blocked site is refused; the manager allows the site; after a reload it books to the end', async () => {
    const stack = await newStack({ proxy: { widget: true } });
    const first = await studio(stack);
    const snippet = first.contentDocument!.querySelector<HTMLTextAreaElement>('#snippet')!.value;
    const email = `allowed-${Date.now()}@example.com`;
    const { url, origin } = await venuePage(stack, snippet, email);
    expect(origin).to.not.equal(location.origin);

    const refused = await visit(url);
    expect(refused.alert).to.equal(
      'Online booking is not available on this site yet. Please book with the venue directly.',
    );

    const frame = await studio(stack);
    const button = allowButton(frame.contentDocument!, origin)!;
    expect(button, 'the blocked row’s button').to.not.equal(undefined);
    expect(button.getAttribute('aria-describedby')).to.equal('allow-warning');
    expect(frame.contentDocument!.getElementById('allow-warning')!.textContent).to.contain(
      'Only allow your venue’s own websites',
    );
    const after = await post(frame, button);
    expect(after.querySelector('#site-change')!.textContent).to.contain(`${origin} may now show your booking widget`);
    expect(after.defaultView!.location.search).to.contain(`venue=${DEMO_VENUE}`);
    expect([...after.querySelectorAll('#sites ul.sites code')].map((code) => code.textContent)).to.include(origin);
    expect(allowButton(after, origin), 'no button once allowed').to.equal(undefined);
    expect(formatViolations(await operatorPageViolations(after)), 'axe, with the lists filled').to.equal('');

    const booked = await visit(url);
    expect(booked.stuck ?? booked.alert, 'the widget books').to.equal(undefined);
    const stored = await storedBookings(stack, email);
    expect(stored.map((booking) => booking.reference)).to.deep.equal([booked.reference]);

    // Removed again, the site books no more. (Where the browser kept the reads it was let in to, as
    // Firefox does, the widget may show the guest's last confirmation again, restored from the
    // session, instead of the refusal; the node test checks the refusal itself.)
    const removeButton = [...after.querySelectorAll<HTMLButtonElement>('#sites ul.sites button')].find((node) =>
      node.textContent!.includes(origin),
    )!;
    const removed = await post(frame, removeButton);
    expect(removed.querySelector('#site-change')!.textContent).to.contain('may no longer show your booking widget');
    const again = await visit(url);
    expect(again.alert ?? again.reference).to.be.oneOf([
      'Online booking is not available on this site yet. Please book with the venue directly.',
      booked.reference,
    ]);
    expect((await storedBookings(stack, email)).length, 'no second booking').to.equal(1);
  });
});

describe('"Allow this site" on two instances of one deployment (sharing Redis)', () => {
  it('a site allowed in the studio of one instance books to the end through the other', async () => {
    const name = `allow-${Date.now()}`;
    const one = await newStack({ proxy: { widget: true, shared: name } });
    const two = await newStack({ proxy: { widget: true, shared: name } });
    const email = `second-${Date.now()}@example.com`;
    const snippetOf = async (stack: TestStack) =>
      (await studio(stack)).contentDocument!.querySelector<HTMLTextAreaElement>('#snippet')!.value;
    // The same site, its widget reaching the first instance, then the second (as a load balancer may send it).
    const first = await venuePage(one, await snippetOf(one), email);
    const second = await venuePage(two, await snippetOf(two), email);
    expect(first.origin).to.equal(second.origin);
    expect((await visit(first.url)).alert).to.contain('not available on this site yet');
    expect((await visit(second.url)).alert).to.contain('not available on this site yet');

    const frame = await studio(one);
    const after = await post(frame, allowButton(frame.contentDocument!, first.origin)!);
    expect(after.querySelector('#site-change')!.textContent).to.contain('may now show your booking widget');
    // Every instance takes the list again once a second: the page is reloaded until its widget is let in.
    const allowedAt = Date.now();
    let booked = await visit(second.url);
    while (booked.alert && Date.now() - allowedAt < 5_000) booked = await visit(second.url);
    expect(
      booked.stuck ?? booked.alert,
      `the widget books through the other instance (${Date.now() - allowedAt} ms)`,
    ).to.equal(undefined);
    const stored = await storedBookings(one, email);
    expect(stored.map((booking) => booking.reference)).to.deep.equal([booked.reference]);
  });
});

describe('the studio on a 360 px phone', () => {
  it('does not scroll sideways, before and after a site has asked for the widget, with every part open', async () => {
    const stack = await newStack({ proxy: { widget: true, allowPages: false } });
    const query = `venue=${DEMO_VENUE}&theme=dark&accent=%238b1f3a&text=%23fefefe&link=https://www.a-rather-long-venue-name.example/book-a-table-online`;
    const fresh = await studio(stack, 360, query);
    unfold(fresh.contentDocument!);
    expect(sideways(fresh.contentDocument!), 'before any site').to.equal('');

    const snippet = fresh.contentDocument!.querySelector<HTMLTextAreaElement>('#snippet')!.value;
    const { url, origin } = await venuePage(stack, snippet, `phone-${Date.now()}@example.com`);
    await visit(url);
    const listed = await studio(stack, 360, query);
    unfold(listed.contentDocument!);
    expect(sideways(listed.contentDocument!), 'with a blocked site').to.equal('');
    const allowed = await post(listed, allowButton(listed.contentDocument!, origin)!);
    await until(
      () => allowed.querySelector('#preview venue-booking')?.shadowRoot?.querySelector('[part~="step"]'),
      'the preview',
    );
    unfold(allowed);
    expect(allowed.querySelector('#site-change')!.textContent).to.contain('may now show');
    expect(sideways(allowed), 'with a site allowed').to.equal('');
    // The rows stacked on a phone read as well as the table (axe-core).
    expect(formatViolations(await operatorPageViolations(allowed))).to.equal('');
  });
});
