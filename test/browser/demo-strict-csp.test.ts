/**
 * Strict CSP: demo/strict-csp.html is served with `default-src 'none'` and only the allowances
 * the README documents (demo/csp-policy.ts) — no 'unsafe-inline', no 'unsafe-eval' — and a guest
 * still books a table there, with not one violation reported.
 */
import { expect } from '@open-wc/testing';
import { STRICT_CSP } from '../../demo/csp-policy.js';
import { openDemo, type DemoFrame } from '../support/demo-frame.js';
import { upstream } from '../support/widget-page.js';

let demo: DemoFrame | null = null;

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  demo?.close();
  demo = null;
});

describe('the widget under a strict Content-Security-Policy', () => {
  it('is served with the documented policy, and the policy is enforced', async () => {
    const response = await fetch('/demo/strict-csp.html');
    expect(response.headers.get('content-security-policy')).to.equal(STRICT_CSP);
    expect(STRICT_CSP).to.contain("default-src 'none'").and.not.contain('unsafe-');

    demo = await openDemo('strict-csp.html');
    // An inline script is exactly what the policy forbids: prove the page is really under it.
    const probe = demo.document.createElement('script');
    probe.textContent = 'window.inlineScriptRan = true;';
    demo.document.body.append(probe);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((demo.window as unknown as { inlineScriptRan?: boolean }).inlineScriptRan).to.equal(undefined);
    expect(demo.problems().some((problem) => problem.startsWith('CSP violation: script-src-elem'))).to.equal(true);
  });

  it('completes a booking with no violation and no console error', async () => {
    demo = await openDemo('strict-csp.html');
    const page = demo.widget();
    await page.completeSteps({
      type: (button) => /^table\b/i.test(button.textContent!.trim()),
      num_people: (button) => button.dataset.value === '2',
    });
    const email = `csp-${Date.now()}@example.com`;
    await page.fillDetails({ first_name: 'Grace', last_name: 'Hopper', email, phone: '+44 7700 900456' });
    page.submit();
    const reference = await page.reference();

    const stored = await upstream(
      demo.stack,
      `/v4/bookings?email=${encodeURIComponent(email)}&status=include_rejected&fields=reference`,
    );
    expect(stored.bookings.map((booking: { reference: string }) => booking.reference)).to.deep.equal([reference]);
    expect(demo.problems().join('\n')).to.equal('');
  });
});
