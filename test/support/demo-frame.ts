/**
 * Opens a demo gallery page in an iframe of the test page and watches it like a developer with
 * the console open: errors logged, uncaught errors and rejections, resources that failed or
 * answered 4xx/5xx, and Content-Security-Policy violations are all collected as problems.
 *
 * The page runs as served (its own CSP header, its own scripts); the test only points its widgets
 * at a fresh stack with `?api=` (demo/harness.ts). An iframe rather than a new tab keeps the page
 * reachable from the test: same origin, so the test reads its DOM and drives the widget.
 */
import type { VenueBooking } from '../../src/venue-booking.js';
import { newStack, until, WidgetPage, type TestStack } from './widget-page.js';
import type { StackRequest } from './stacks.js';

/** A demo page loaded in a frame. */
export interface DemoFrame {
  frame: HTMLIFrameElement;
  window: Window & typeof globalThis;
  document: Document;
  stack: TestStack;
  /** Everything a developer would see in red in the console, so far. */
  problems(): string[];
  /** The widget matching `selector` (default: the first), as a page object. */
  widget(selector?: string): WidgetPage;
  /** axe-core's violations for the page as it is now (shadow roots included). */
  axeViolations(): Promise<AxeViolation[]>;
  close(): void;
}

/** The parts of an axe-core violation a failure message needs. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Options of {@link openDemo}. */
export interface OpenOptions {
  /** Query string to add (without `?`), besides `api`. */
  query?: string;
  /** The frame's `sandbox` attribute; `allow-same-origin` alone runs the page with no script. */
  sandbox?: string;
  stack?: StackRequest;
}

/** Yields to the event loop without the 4 ms clamp of nested timers. */
function tick(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  });
}

function describeValue(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'object' && value !== null && 'message' in value)
    return String((value as { message: unknown }).message);
  return String(value);
}

/** Instruments a page's window as early as the test can reach it. */
function watch(win: Window & typeof globalThis, problems: string[]): void {
  const original = win.console.error.bind(win.console);
  win.console.error = (...args: unknown[]) => {
    problems.push(`console.error: ${args.map(describeValue).join(' ')}`);
    original(...args);
  };
  win.addEventListener(
    'error',
    (event) => {
      const target = event.target as (HTMLElement & { src?: string; href?: string }) | null;
      if (event instanceof ErrorEvent) problems.push(`uncaught: ${event.message}`);
      else if (target && target !== (win as unknown))
        problems.push(`failed to load: ${target.src || target.href || target.tagName}`);
    },
    true, // resource errors do not bubble; capture sees them
  );
  win.addEventListener('unhandledrejection', (event) =>
    problems.push(`unhandled rejection: ${describeValue(event.reason)}`),
  );
  win.document.addEventListener('securitypolicyviolation', (event) => {
    problems.push(
      `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
    );
  });
}

/** Requests the page made that failed at the HTTP level (the console's red "Failed to load resource"). */
function failedResources(win: Window): string[] {
  return (win.performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    .filter((entry) => (entry as PerformanceResourceTiming & { responseStatus?: number }).responseStatus! >= 400)
    .map(
      (entry) =>
        `HTTP ${(entry as PerformanceResourceTiming & { responseStatus?: number }).responseStatus} for ${entry.name}`,
    );
}

/** Loads `/demo/<page>` with a fresh stack and starts watching it. */
export async function openDemo(page: string, options: OpenOptions = {}): Promise<DemoFrame> {
  const stack = await newStack(options.stack);
  const problems: string[] = [];
  const frame = document.createElement('iframe');
  frame.title = `demo page ${page}`;
  frame.style.cssText = 'width: 1024px; height: 900px; border: 0;';
  if (options.sandbox !== undefined) frame.setAttribute('sandbox', options.sandbox);
  const query = [`api=${encodeURIComponent(stack.api)}`, options.query].filter(Boolean).join('&');
  const url = `/demo/${page}?${query}`;
  document.body.append(frame);
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = url;

  // The new document replaces about:blank when the response commits; its module scripts run only
  // after their own fetches, so instrumenting at the first tick that sees it is in time for them.
  const start = performance.now();
  for (;;) {
    const doc = frame.contentDocument;
    if (doc && doc.URL.includes(`/demo/${page}`)) break;
    if (performance.now() - start > 10_000) throw new Error(`Timed out opening ${url}`);
    await tick();
  }
  const win = frame.contentWindow as Window & typeof globalThis;
  watch(win, problems);
  await loaded;

  return {
    frame,
    window: win,
    document: frame.contentDocument!,
    stack,
    problems: () => [...problems, ...failedResources(frame.contentWindow!)],
    widget(selector = 'venue-booking') {
      const element = frame.contentDocument!.querySelector<VenueBooking>(selector);
      if (!element) throw new Error(`No ${selector} on ${page}`);
      return new WidgetPage(element);
    },
    async axeViolations() {
      const frameWindow = frame.contentWindow as Window & {
        axe?: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      };
      if (!frameWindow.axe) {
        // Loaded as a same-origin script, so it is allowed by the strict page's `script-src 'self'`.
        const script = frame.contentDocument!.createElement('script');
        script.src = '/node_modules/axe-core/axe.min.js';
        const ready = new Promise((resolve, reject) => {
          script.onload = resolve;
          script.onerror = () => reject(new Error('axe-core did not load'));
        });
        frame.contentDocument!.head.append(script);
        await ready;
      }
      // Colours are only final once entrance animations end (the document's list leaves out shadow trees); they start on
      // the frame after the render, so let two frames pass before asking for them.
      for (let i = 0; i < 2; i++) await new Promise((resolve) => frame.contentWindow!.requestAnimationFrame(resolve));
      const scopes: DocumentOrShadowRoot[] = [
        frame.contentDocument!,
        ...[...frame.contentDocument!.querySelectorAll('venue-booking')].flatMap((host) =>
          host.shadowRoot ? [host.shadowRoot] : [],
        ),
      ];
      await Promise.all(
        scopes.flatMap((scope) => scope.getAnimations()).map((animation) => animation.finished.catch(() => undefined)),
      );
      const results = await frameWindow.axe!.run(frame.contentDocument!, { resultTypes: ['violations'] });
      return results.violations;
    },
    close() {
      frame.remove();
    },
  };
}

/**
 * axe-core's violations for a page in a frame. The operator pages let scripts run only with their
 * answer's nonce, so axe is loaded with the nonce of the page's own script.
 */
export async function operatorPageViolations(doc: Document): Promise<AxeViolation[]> {
  const win = doc.defaultView as Window & { axe?: { run(context: Document): Promise<{ violations: AxeViolation[] }> } };
  const script = doc.createElement('script');
  script.src = '/node_modules/axe-core/axe.min.js';
  script.nonce = doc.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
  const ready = new Promise((resolve, reject) => {
    script.onload = resolve;
    script.onerror = () => reject(new Error('axe-core did not load'));
  });
  doc.head.append(script);
  await ready;
  return (await win.axe!.run(doc)).violations;
}

/** A readable list of axe violations for an assertion message. */
export function formatViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes.map((node) => `  ${JSON.stringify(node.target)} ${node.failureSummary ?? ''}`).join('\n')}`,
    )
    .join('\n');
}

/** Waits until the widget shows its first step, or its popup button. */
export async function widgetReady(page: WidgetPage): Promise<void> {
  await until(
    () => page.root?.querySelector('[part~="step"][data-step], [part~="open"], [part~="form"], [part~="confirmation"]'),
    'the widget to render',
  );
}
