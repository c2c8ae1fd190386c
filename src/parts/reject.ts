/** Complete choices the service refuses: why, and the nearest times and dates that work. */
import { html, nothing } from 'lit';
import type { Strings } from '../i18n/en-GB.js';
import { renderAlternatives, type AlternativesProps } from './problems.js';

/** Renders the refusal (`times`, `dates`: the alternatives to the chosen time and date, if any). */
export function renderReject(
  strings: Strings,
  reason: string,
  alternatives: AlternativesProps,
  times: (string | number)[] | null,
  dates: (string | number)[] | null,
) {
  return html`<div role="group" part="step problem" class="problem" aria-labelledby="step-title" data-step="reject">
    <h2 id="step-title" tabindex="-1">${strings.rejected}</h2>
    <p>${reason}</p>
    ${times ? renderAlternatives(alternatives, 'time', times) : nothing}
    ${dates ? renderAlternatives(alternatives, 'date', dates) : nothing}
  </div>`;
}
