/**
 * Page-object helpers for browser tests: tests speak of steps, choices and forms, not of shadow-DOM
 * selectors, so a change of markup is fixed here once.
 */
import type { VenueBooking } from '../../src/venue-booking.js';
import type { Fault, StackRequest } from './stacks.js';

/** The demo venue of the default seed. */
export const DEMO_VENUE = '64a1f0c2e4b0a1b2c3d4e501';

/** A fresh proxy + sandbox stack, isolated from every other test. */
export interface TestStack {
  base: string;
  api: string;
}

/** Creates a fresh stack on the test server. */
export async function newStack(options: StackRequest = {}): Promise<TestStack> {
  const response = await fetch('/__stacks', { method: 'POST', body: JSON.stringify(options) });
  return response.json();
}

/** Scripts the next upstream answers of a stack. */
export async function scriptFaults(stack: TestStack, faults: Fault[]): Promise<void> {
  await fetch(`${stack.base}/__faults`, { method: 'POST', body: JSON.stringify(faults) });
}

/** Reads the sandbox's API directly, with a full-access app (to check what was stored). */
export async function upstream<T = any>(stack: TestStack, path: string): Promise<T> {
  const response = await fetch(`${stack.base}/__upstream${path}`);
  const body = await response.json();
  return body.payload;
}

/** Waits until `check` returns a truthy value, or fails with `what`. */
export async function until<T>(check: () => T | null | undefined | false, what: string, timeout = 8000): Promise<T> {
  const start = performance.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (performance.now() - start > timeout) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Drives one `<venue-booking>` element. */
export class WidgetPage {
  constructor(readonly element: VenueBooking) {}

  get root(): ShadowRoot {
    return this.element.shadowRoot!;
  }

  /** The step currently shown, once its options are rendered. */
  async step(): Promise<string> {
    const section = await until(() => this.root.querySelector<HTMLElement>('[part~="step"][data-step]'), 'a step');
    return section.dataset.step!;
  }

  /** Waits for the given step to be shown. */
  async waitForStep(step: string): Promise<void> {
    await until(() => this.root.querySelector(`[part~="step"][data-step="${step}"]`), `step ${step}`);
  }

  /** The option buttons of the current step. */
  options(): HTMLButtonElement[] {
    return [...this.root.querySelectorAll<HTMLButtonElement>('[part~="step"] [part~="option"]')];
  }

  /** Clicks the first enabled option that satisfies `predicate`. */
  async choose(step: string, predicate: (button: HTMLButtonElement) => boolean = () => true): Promise<string> {
    await this.waitForStep(step);
    const button = await until(() => this.options().find((option) => !option.disabled && predicate(option)), `an option of ${step}`);
    const value = button.dataset.value!;
    button.click();
    return value;
  }

  /**
   * Answers whatever step is shown, in whatever order, until the details form appears: with the
   * first enabled option matching `prefer[step]`, else the first enabled option. Steps the widget
   * chose by itself (one valid value) are simply never shown.
   */
  async completeSteps(prefer: Partial<Record<string, (button: HTMLButtonElement) => boolean>> = {}): Promise<string[]> {
    const answered: string[] = [];
    for (let guard = 0; guard < 12; guard++) {
      const next = await until(
        () => this.root.querySelector('[part~="form"]') ? 'details' : this.root.querySelector<HTMLElement>('[part~="step"][data-step]')?.dataset.step,
        'a step or the details form',
      );
      if (next === 'details') return answered;
      await this.choose(next, prefer[next]);
      answered.push(next);
      await until(() => this.root.querySelector(`[part~="step"][data-step="${next}"]`) === null || this.root.querySelector('[part~="form"]'), `the step after ${next}`);
    }
    throw new Error(`Never reached the details form; answered ${answered.join(', ')}`);
  }

  /** Fills the guest details form. */
  async fillDetails(details: Record<string, string>): Promise<void> {
    const form = await until(() => this.root.querySelector<HTMLFormElement>('[part~="form"]'), 'the details form');
    for (const [name, value] of Object.entries(details)) {
      const input = form.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    }
    await this.element.updateComplete;
  }

  /** Submits the details form. */
  submit(): void {
    this.root.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
  }

  /** The reference shown by the confirmation, once shown. */
  async reference(): Promise<string> {
    const node = await until(() => this.root.querySelector('[part~="confirmation"] .reference'), 'the confirmation');
    return node.textContent!.trim();
  }
}
