/**
 * What a change of step does on the page, as a reactive controller: the placeholder that replaces
 * a step keeps that step's height (so the page below moves once, not twice), a new step is told to
 * the element (its events) and announced through the live region, and after a guest's action the
 * focus moves to the step's heading once the answer it waits for is in.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ShownStep, View } from '../state/view.js';

/** The element as this controller sees it. */
export interface StepFocusHost extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** The step's placeholder height, announcement and focus. */
export class StepFocus implements ReactiveController {
  /** Set by a guest action: the next settled render moves the focus to the step's heading. */
  pending = false;
  /** The last step shown, the kind of the view before this update, the height of the step a placeholder replaced. */
  private _step: ShownStep | null = null;
  private _kind: View['kind'] = 'empty';
  private _height = 0;

  constructor(
    private readonly _host: StepFocusHost,
    private readonly _view: () => View,
    /** Whether the answer the step waits for is in: the focus waits for it. */
    private readonly _settled: () => boolean,
    /** Told of each new step shown; answers whether to announce it. */
    private readonly _onStep: (step: ShownStep) => boolean,
  ) {
    _host.addController(this);
  }

  /** Measured before the render, while the step replaced is laid out: a read after each render forces a layout. */
  hostUpdate(): void {
    const kind = this._view().kind;
    if (kind === 'busy' && this._kind !== 'busy')
      this._height = this._host.renderRoot.querySelector<HTMLElement>('[data-step], form')?.offsetHeight ?? 0;
    this._kind = kind;
  }

  hostUpdated(): void {
    const busy = this._host.renderRoot.querySelector<HTMLElement>('.busy');
    if (busy) busy.style.minHeight = `${this._height}px`;
    const step = this._view().step;
    if (step && step !== this._step) {
      this._step = step;
      // Said: the title, with what the step marks `data-announce` (the confirmation's reference): the
      // title alone would leave the one thing a guest must note unsaid.
      if (this._onStep(step))
        this.say(
          [...this._host.renderRoot.querySelectorAll('#step-title, [data-announce]')]
            .map((node) => node.textContent!.trim())
            .join('. '),
        );
    }
    if (this.pending && step && this._settled()) {
      this.pending = false;
      this.focus('#step-title');
    }
  }

  /** Moves the focus to the element `selector` finds in the shadow root. */
  focus(selector: string, options?: FocusOptions & { focusVisible?: boolean }): void {
    this._host.renderRoot.querySelector<HTMLElement>(selector)?.focus(options);
  }

  /** Says a text in the live region; a fresh text node after a tick makes screen readers repeat it. */
  say(text: string): void {
    const region = this._host.renderRoot.querySelector('#live');
    if (region) region.textContent = '';
    setTimeout(() => region && (region.textContent = text), 50);
  }
}
