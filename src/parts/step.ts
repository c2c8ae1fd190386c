/**
 * A booking step: its group and heading, around the step's own body (the date picker, the times,
 * or option buttons). Party sizes show a compact row of 1–8, then "More" (the rest, then the
 * larger-party enquiry).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Suggestion } from '../api/normalize.js';
import type { Step } from '../booking-flow.js';
import type { Strings } from '../i18n/en-GB.js';
import { renderOptions, type OptionText } from './options.js';

/** Renders a step around its body. */
export function renderStep(step: Step, title: string, body: TemplateResult) {
  return html`<div role="group" part="step" aria-labelledby="step-title" data-step=${step}>
    <h2 id="step-title" tabindex="-1">${title}</h2>
    ${body}
  </div>`;
}

/** What the option buttons of a step (type, duration, party size) render. */
export interface ChoicesProps {
  strings: Strings;
  step: Step;
  suggestions: Suggestion[];
  chosen: string | number | undefined;
  /** The largest party the venue takes online, if it says. */
  max: number | null;
  /** Whether party sizes past the compact row are shown. */
  allSizes: boolean;
  /** Whether a type is chosen (the larger-party enquiry needs one). */
  typed: boolean;
  describe: (suggestion: Suggestion) => OptionText;
  onChoose: (suggestion: Suggestion) => void;
  onMore: () => void;
  onLargerParty: () => void;
}

/** Renders the option buttons of a step. */
export function renderChoices(props: ChoicesProps) {
  const { strings: s, step, suggestions, max } = props;
  const people = step === 'num_people';
  const fits = people && max !== null ? suggestions.filter((item) => Number(item.value) <= max) : suggestions;
  // Party sizes: a compact row of 1–8, then "More" (the rest, then the larger-party enquiry).
  const row = people && !props.allSizes ? fits.filter((item) => Number(item.value) <= 8) : fits;
  const larger = people && max !== null && props.typed;
  const more = people && (row.length < fits.length || larger);
  return html`${suggestions.every((item) => !item.valid) ? html`<p class="note">${s.noOptions}</p>` : nothing}
  ${renderOptions(row, props.chosen, props.describe, props.onChoose, people)}
  ${
    more
      ? html`<p>
          ${
            row.length < fits.length
              ? html`<button type="button" class="option" data-more @click=${props.onMore}>${s.more}</button>`
              : html`<button type="button" class="link" data-larger-party @click=${props.onLargerParty}>
                  ${s.largerParty(max!)}
                </button>`
          }
        </p>`
      : nothing
  }`;
}
