/**
 * Choices the service refused or cleared, each with its reason and the nearest values that work,
 * as buttons that choose them.
 */
import { html, nothing } from 'lit';
import type { Step } from '../state/booking-flow.js';

/** One refused or cleared choice, worded. */
export interface ProblemText {
  field: Step;
  text: string;
  reason: string | null;
  alternatives: (string | number)[];
}

/** The nearest values that work, as buttons (`format` words a value). */
export interface AlternativesProps {
  nearest: string;
  format: (field: Step, value: string | number) => string;
  onChoose: (field: Step, value: string | number) => void;
}

/** Renders the alternatives to a refused value of a field (nothing when there are none). */
export function renderAlternatives(props: AlternativesProps, field: Step, values: (string | number)[]) {
  if (values.length === 0) return nothing;
  return html`<p class="alternatives">
    ${props.nearest}
    ${values.map((value) => html`<button type="button" class="option small" data-alternative=${field} data-value=${String(value)} @click=${() => props.onChoose(field, value)}>${props.format(field, value)}</button>`)}
  </p>`;
}

/** Renders the refused or cleared choices. */
export function renderProblems(props: AlternativesProps, problems: ProblemText[]) {
  if (problems.length === 0) return nothing;
  return html`${problems.map(
    (problem) =>
      html`<div class="problem" part="problem" role="status">
        <p>${problem.text} ${problem.reason ?? ''}</p>
        ${renderAlternatives(props, problem.field, problem.alternatives)}
      </div>`,
  )}`;
}
