/**
 * A booking step: its group and heading, around the step's own body (the date picker, the times,
 * or option buttons). The party step's own template is in `party-more.ts`, in the later steps
 * chunk, which that step waits for (`view.ts`).
 */
import { html, type TemplateResult } from 'lit';
import type { Suggestion } from '../api/normalize.js';
import type { Step } from '../state/booking-flow.js';
import type { OptionText } from '../state/presenter.js';
import { renderOptions } from './options.js';

/** Renders a step around its body. */
export function renderStep(step: Step, title: string, body: TemplateResult) {
  return html`<div role="group" part="step" aria-labelledby="step-title" data-step=${step}>
    <h2 id="step-title" tabindex="-1">${title}</h2>
    ${body}
  </div>`;
}

/** What the option buttons of a step (type, duration) render. */
export interface ChoicesProps {
  step: Step;
  suggestions: Suggestion[];
  chosen: string | number | undefined;
  describe: (suggestion: Suggestion) => OptionText;
  onChoose: (suggestion: Suggestion) => void;
  /** A row each, with a line kept for a badge that may fill in later (`renderOptions`). */
  rows?: boolean;
}

/** Renders the option buttons of a step. */
export function renderChoices(props: ChoicesProps) {
  return renderOptions(
    props.suggestions,
    props.chosen,
    props.describe,
    props.onChoose,
    props.rows ? 'rows' : undefined,
  );
}
