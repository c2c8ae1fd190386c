/** The hand-off to the booking site: why (a deposit, or no booking through the API) and the button. */
import { html } from 'lit';
import type { Strings } from '../i18n/en-GB.js';

/** Renders the hand-off step. */
export function renderRedirect(strings: Strings, deposit: boolean, onRedirect: () => void) {
  return html`<div role="group" part="step" aria-labelledby="step-title" data-step="redirect">
    <h2 id="step-title" tabindex="-1">${strings.redirectTitle}</h2>
    <p>${deposit ? strings.depositNote : strings.redirectNote}</p>
    <button class="primary" part="submit" type="button" @click=${onRedirect}>
      ${deposit ? strings.payDeposit : strings.continueToSite}
    </button>
  </div>`;
}
