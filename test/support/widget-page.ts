/**
 * Page-object helpers for browser tests: tests speak of steps, choices and forms, not of shadow-DOM
 * selectors, so a change of markup is fixed here once.
 */
import { fixture, html } from '@open-wc/testing';
import type { VenueBooking } from '../../src/venue-booking.js';
import { venueInstant } from '../../src/venue/venue-instant.js';
import type { ClientRequest, Fault, StackRequest } from './stacks.js';

/** The demo venue of the default seed. */
export const DEMO_VENUE = '64a1f0c2e4b0a1b2c3d4e501';

/** Booking type ids of the demo venue. */
export const TYPES = {
  table: '64a1f0c2e4b0a1b2c3d4e601',
  brunch: '64a1f0c2e4b0a1b2c3d4e602',
  privateHire: '64a1f0c2e4b0a1b2c3d4e603',
  expressLunch: '64a1f0c2e4b0a1b2c3d4e604',
  bar: '64a1f0c2e4b0a1b2c3d4e605',
} as const;

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

/** The requests a stack received and what became of each (`departed`: the browser cancelled it). */
export async function clientRequests(stack: TestStack): Promise<ClientRequest[]> {
  return (await fetch(`${stack.base}/__requests`)).json();
}

/** Every line a stack's proxy logged, as its operator would read them. */
export async function proxyLog(stack: TestStack): Promise<Record<string, unknown>[]> {
  return (await fetch(`${stack.base}/__log`)).json();
}

/** The scripted faults of a stack that no upstream call has met yet. */
export async function pendingFaults(stack: TestStack): Promise<Fault[]> {
  return (await fetch(`${stack.base}/__faults`)).json();
}

/** Reads the sandbox's API directly, with a full-access app (to check what was stored). */
export async function upstream<T = any>(stack: TestStack, path: string): Promise<T> {
  const response = await fetch(`${stack.base}/__upstream${path}`);
  const body = await response.json();
  return body.payload;
}

/** Writes to the sandbox's API directly (to seed bookings that fill a slot). */
export async function upstreamPost<T = any>(stack: TestStack, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${stack.base}/__upstream${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()).payload;
}

/** The instant of a London wall-clock time (`2026-03-28T12:00`), for the element's `now`. */
export function london(wall: string): Date {
  return venueInstant(wall.slice(0, 10), wall.slice(11, 16));
}

/** The bookings the sandbox stored for an email address. */
export async function storedBookings(stack: TestStack, email: string): Promise<any[]> {
  const fields =
    'reference,first_name,last_name,num_people,email,phone,date,time,duration,type,status,notes,partner_source,source,offer,user_id';
  const found = await upstream(
    stack,
    `/v4/bookings?email=${encodeURIComponent(email)}&status=include_rejected&fields=${fields}`,
  );
  return found.bookings;
}

/** Waits until `check` returns (or resolves to) a truthy value, or fails with `what`. */
export async function until<T>(
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  what: string,
  timeout = 8000,
): Promise<T> {
  const start = performance.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() - start > timeout) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A unique guest for one test. */
export function guest(name = 'ada') {
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`,
    phone: '+44 7700 900123',
  };
}

// Resource Timing keeps 250 entries by default and drops the rest: a file of tests in one page
// (each booking now fetches its proof's challenge too) passes that, and a count would come up short.
performance.setResourceTimingBufferSize(100_000);

/** How many requests this page has made whose URL contains `part` (Resource Timing: nothing mocked). */
export function requestsTo(part: string): string[] {
  return performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => name.includes(part));
}

/**
 * Mounts the widget again where the booking site sent the guest back: the page's address becomes
 * `landed` (as after the redirect), a fresh `<venue-booking>` with `id` and the venue, proxy and
 * clock of `element` replaces it, and `check` runs on it. The test page's own address and the
 * session's storage are restored after.
 */
export async function atReturn(
  element: VenueBooking,
  landed: URL,
  id: string,
  check: (page: WidgetPage) => Promise<void>,
): Promise<void> {
  const original = location.href;
  history.replaceState(null, '', landed.pathname + landed.search);
  try {
    const { venue, api, now } = element;
    element.remove();
    const returned = await fixture<VenueBooking>(
      html`<venue-booking id=${id} venue=${venue} api=${api} .now=${now}></venue-booking>`,
    );
    await check(new WidgetPage(returned));
  } finally {
    history.replaceState(null, '', original);
    sessionStorage.clear();
  }
}

/** Drives one `<venue-booking>` element. */
export class WidgetPage {
  constructor(readonly element: VenueBooking) {}

  get root(): ShadowRoot {
    return this.element.shadowRoot!;
  }

  /** The step currently shown, once it is rendered (`details`, `redirect`, `reject`, or a field). */
  async step(): Promise<string> {
    return until(() => this.currentStep(), 'a step');
  }

  /** The step shown right now, or null while loading. */
  currentStep(): string | null {
    if (this.root.querySelector('[part~="confirmation"]')) return 'confirmation';
    if (this.root.querySelector('[part~="form"]')) return 'details';
    return this.root.querySelector<HTMLElement>('[part~="step"][data-step]')?.dataset.step ?? null;
  }

  /** Waits for the given step to be shown. */
  async waitForStep(step: string): Promise<void> {
    await until(() => this.currentStep() === step, `step ${step} (showing ${this.currentStep()})`);
  }

  /** The option buttons of the current step (day buttons on the date step). */
  options(): HTMLButtonElement[] {
    return [
      ...this.root.querySelectorAll<HTMLButtonElement>('[part~="step"] [part~="option"], [part~="step"] [part~="day"]'),
    ];
  }

  /** What assistive tech reads for an element: its text without the aria-hidden parts. */
  static spoken(node: HTMLElement): string {
    const copy = node.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
    return copy.textContent!.replace(/\s+/g, ' ').trim();
  }

  /** Whether an option can be chosen. */
  static enabled(button: HTMLButtonElement): boolean {
    return !button.disabled && button.getAttribute('aria-disabled') !== 'true';
  }

  /** The value of an option (a day's date, or an option's value). */
  static value(button: HTMLButtonElement): string {
    return button.dataset.date ?? button.dataset.value!;
  }

  /** Clicks the first enabled option that satisfies `predicate`. */
  async choose(step: string, predicate: (button: HTMLButtonElement) => boolean = () => true): Promise<string> {
    await this.waitForStep(step);
    const button = await until(
      () =>
        this.options().find((option) => WidgetPage.enabled(option) && predicate(option)) ??
        // Party sizes past the chips are in a select (its options carry `data-value` too).
        this.sizeOptions().find((option) => predicate(option as unknown as HTMLButtonElement)),
      `an option of ${step}`,
    );
    const value = WidgetPage.value(button as HTMLButtonElement);
    if (button instanceof HTMLOptionElement) {
      const select = button.closest('select')!;
      select.value = button.value;
      select.form!.requestSubmit();
      return value;
    }
    await this.reveal(button);
    button.click();
    return value;
  }

  /** Goes back to a step through its button in the summary. */
  async change(field: string): Promise<void> {
    const button = await until(
      () => this.root.querySelector<HTMLButtonElement>(`[part~="summary"] [data-field="${field}"]`),
      `the summary's ${field}`,
    );
    button.click();
    await this.waitForStep(field);
  }

  /** The party sizes in the party step's select (those past its chips). */
  sizeOptions(): HTMLOptionElement[] {
    return [...this.root.querySelectorAll<HTMLOptionElement>('[part~="step"] select option')];
  }

  /** Every party size the party step offers: its enabled chips, then its select's sizes. */
  partySizes(): number[] {
    const chips = this.options().filter(WidgetPage.enabled).map(WidgetPage.value);
    return [...chips, ...this.sizeOptions().map((option) => option.value)].map(Number);
  }

  /** The controls of the shown step a guest can operate: buttons, selects and fields. */
  stepControls(): HTMLElement[] {
    return [...this.root.querySelectorAll<HTMLElement>('[part~="step"] :is(button, select, input, a[href])')].filter(
      (node) => !(node as HTMLButtonElement).disabled && node.getAttribute('aria-disabled') !== 'true',
    );
  }

  /** The party step's line saying which sizes the booking takes (empty when it takes every size listed). */
  partyRule(): string {
    return this.root.querySelector('[data-party-rule]')?.textContent?.trim() ?? '';
  }

  /** Asks for a party larger than the party step lists: "More than N people?", the size, then the search. */
  async largerParty(size: number): Promise<void> {
    await this.waitForStep('num_people');
    const ask = await until(
      () => this.root.querySelector<HTMLButtonElement>('[data-larger-party]'),
      'the larger-party button',
    );
    ask.click();
    const input = await until(() => this.root.querySelector<HTMLInputElement>('#larger-size'), 'the party size field');
    input.value = String(size);
    input.form!.requestSubmit();
  }

  /** Opens the collapsed time group holding `button`, as a guest would before tapping it. */
  async reveal(button: HTMLButtonElement): Promise<void> {
    const region = button.closest<HTMLElement>('[hidden]');
    if (!region) return;
    this.root.querySelector<HTMLButtonElement>(`[aria-controls="${region.id}"]`)!.click();
    await this.element.updateComplete;
  }

  /** What a choice says to assistive tech and the eye: its text plus the legend entries it points to. */
  described(button: HTMLElement): string {
    const ids = button.getAttribute('aria-describedby')?.split(' ') ?? [];
    const extra = ids.map((id) => this.root.getElementById(id)?.textContent ?? '');
    return [button.textContent, ...extra].join(' ').replace(/\s+/g, ' ').trim();
  }

  /** The time group disclosures: their day part and whether each is open. */
  timeGroups(): { part: string; open: boolean }[] {
    return [...this.root.querySelectorAll<HTMLButtonElement>('[part~="time-group"]')].map((button) => ({
      part: button.dataset.part!,
      open: button.getAttribute('aria-expanded') === 'true',
    }));
  }

  /** Chooses the option whose value is `value`, paging the calendar to its month when needed. */
  async chooseValue(step: string, value: string | number): Promise<void> {
    await this.waitForStep(step);
    if (step === 'date') await this.showMonth(String(value));
    await this.choose(step, (button) => WidgetPage.value(button) === String(value));
  }

  /** Pages the calendar until the month of `date` is shown. */
  async showMonth(date: string): Promise<void> {
    for (let guard = 0; guard < 24; guard++) {
      const days = [...this.root.querySelectorAll<HTMLButtonElement>('[part~="day"]')];
      if (days.some((day) => day.dataset.date === date)) return;
      const forward = days.length === 0 || days[days.length - 1].dataset.date! < date;
      const navs = this.root.querySelectorAll<HTMLButtonElement>('[part~="calendar-nav"]');
      navs[forward ? 1 : 0].click();
      await this.element.updateComplete;
    }
    throw new Error(`Could not page the calendar to ${date}`);
  }

  /** Waits until the shown step is no longer `step` (an answer arrived). */
  async leave(step: string): Promise<void> {
    await until(() => {
      const now = this.currentStep();
      return now !== null && now !== step;
    }, `the step after ${step}`);
  }

  /**
   * Answers whatever step is shown, in whatever order, until the details form (or the redirect
   * step) appears: with the first enabled option matching `prefer[step]`, else the first enabled
   * option. Steps the widget chose by itself (one valid value) are simply never shown.
   */
  async completeSteps(prefer: Partial<Record<string, (button: HTMLButtonElement) => boolean>> = {}): Promise<string[]> {
    const answered: string[] = [];
    for (let guard = 0; guard < 12; guard++) {
      const next = await this.step();
      if (
        next === 'details' ||
        next === 'redirect' ||
        next === 'unavailable' ||
        next === 'reject' ||
        next === 'confirmation'
      )
        return answered;
      await this.choose(next, prefer[next]);
      answered.push(next);
      await this.leave(next);
    }
    throw new Error(`Never reached the details form; answered ${answered.join(', ')}`);
  }

  /** Chooses exact values for fields, in whatever order the steps come. */
  async book(values: Partial<Record<string, string | number>>): Promise<string[]> {
    const prefer: Record<string, (button: HTMLButtonElement) => boolean> = {};
    for (const [field, value] of Object.entries(values))
      prefer[field] = (button) => WidgetPage.value(button) === String(value);
    const answered: string[] = [];
    for (let guard = 0; guard < 12; guard++) {
      const next = await this.step();
      if (
        next === 'details' ||
        next === 'redirect' ||
        next === 'unavailable' ||
        next === 'reject' ||
        next === 'confirmation'
      )
        return answered;
      if (next === 'date' && values.date) await this.showMonth(String(values.date));
      await this.choose(next, prefer[next]);
      answered.push(next);
      await this.leave(next);
    }
    throw new Error(`Never reached the end of the steps; answered ${answered.join(', ')}`);
  }

  /** The details form. */
  async form(): Promise<HTMLFormElement> {
    return until(() => this.root.querySelector<HTMLFormElement>('[part~="form"]'), 'the details form');
  }

  /** Fills the guest details form. */
  async fillDetails(details: Record<string, string>): Promise<void> {
    const form = await this.form();
    for (const [name, value] of Object.entries(details)) {
      const input = form.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    }
    await this.element.updateComplete;
  }

  /** Ticks a marketing preference or picks an offer by its id. */
  async tick(name: 'marketing_preferences' | 'offer', value: string): Promise<void> {
    const form = await this.form();
    const input = await until(
      () => form.querySelector<HTMLInputElement>(`[name="${name}"][value="${value}"]`),
      `${name} ${value}`,
    );
    input.click();
    await this.element.updateComplete;
  }

  /** The submit button (or the continue-to-the-booking-site button). */
  submitButton(): HTMLButtonElement {
    return this.root.querySelector<HTMLButtonElement>('[part~="submit"]')!;
  }

  /** Submits the details form. */
  submit(): void {
    this.submitButton().click();
  }

  /** The reference shown by the confirmation, once shown. */
  async reference(): Promise<string> {
    const node = await until(() => this.root.querySelector('[part~="confirmation"] .reference'), 'the confirmation');
    return node.textContent!.trim();
  }

  /** The confirmation: `confirmed` or `enquiry`. */
  confirmationStatus(): string | null {
    return this.root.querySelector<HTMLElement>('[part~="confirmation"]')?.dataset.status ?? null;
  }

  /** The text of the problem notes (refused choices, errors). */
  problems(): string {
    return [...this.root.querySelectorAll('[part~="problem"]')]
      .map((node) => node.textContent!.replace(/\s+/g, ' ').trim())
      .join(' | ');
  }

  /** The alternative buttons offered for a refused field. */
  alternatives(field: string): HTMLButtonElement[] {
    return [...this.root.querySelectorAll<HTMLButtonElement>(`[data-alternative="${field}"]`)];
  }

  /** Whether the venue's light-DOM fallback is slotted into the widget and visible. */
  fallbackShown(): boolean {
    const slot = this.root.querySelector('slot');
    const nodes = slot?.assignedElements() ?? [];
    return nodes.length > 0 && nodes.every((node) => node.checkVisibility() && node.getBoundingClientRect().height > 0);
  }

  /** The retry button of an error. */
  retryButton(): HTMLButtonElement | null {
    return this.root.querySelector<HTMLButtonElement>('[data-retry]');
  }

  /** The alert text, if any. */
  alert(): string {
    return this.root.querySelector('[role="alert"]')?.textContent?.trim() ?? '';
  }

  /** The element that has focus inside the widget, if any. */
  focused(): HTMLElement | null {
    return this.root.activeElement as HTMLElement | null;
  }

  /** The current step's heading. */
  heading(): HTMLElement | null {
    return this.root.querySelector<HTMLElement>('#step-title');
  }

  /** The calendar's column headers as assistive tech reads them (text outside `aria-hidden`). */
  columnHeaders(): string[] {
    return [...this.root.querySelectorAll<HTMLElement>('[part~="calendar"] th')].map((th) => {
      const copy = th.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('[aria-hidden="true"]').forEach((node) => node.remove());
      return copy.textContent!.trim();
    });
  }

  /** The day buttons of the calendar. */
  days(): HTMLButtonElement[] {
    return [...this.root.querySelectorAll<HTMLButtonElement>('[part~="day"]')];
  }

  /** The day button of a date. */
  day(date: string): HTMLButtonElement | null {
    return this.root.querySelector<HTMLButtonElement>(`[part~="day"][data-date="${date}"]`);
  }

  /** The change of booking type a larger party was given, once shown: its heading and what it says changes. */
  async typeChange(): Promise<{ title: string; detail: string }> {
    const step = await until(
      () => this.root.querySelector<HTMLElement>('[part~="step"][data-moved]'),
      `the change of booking type (showing ${this.currentStep()})`,
    );
    const text = (selector: string) => step.querySelector(selector)!.textContent!.replace(/\s+/g, ' ').trim();
    return { title: text('#step-title'), detail: text('#moved-detail') };
  }

  /** Answers the change of booking type: continue as the new type, or go back to change the party. */
  async answerTypeChange(answer: 'continue' | 'change-party'): Promise<void> {
    await this.typeChange();
    this.root.querySelector<HTMLButtonElement>(`[data-moved] [data-${answer}]`)!.click();
    await until(() => !this.root.querySelector('[data-moved]') && this.currentStep(), 'the step after the change');
  }

  /** What a dead end offers (the types that take the party, the venue's contact), once shown. */
  async partyHelp(): Promise<HTMLElement> {
    return until(() => this.root.querySelector<HTMLElement>('[data-party-help]'), 'what the dead end offers');
  }

  /** Presses a key on the focused element of the widget (a real keydown event). */
  async press(key: string, shiftKey = false): Promise<void> {
    const target = this.focused() ?? this.element;
    target.dispatchEvent(new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, composed: true }));
    await this.element.updateComplete;
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}
