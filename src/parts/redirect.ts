/**
 * The hand-off to the booking site when the later steps chunk, home of its money terms
 * (`handoff.ts`), could not be loaded: why in one line, and the button.
 */
import { html } from 'lit';
import type { Strings } from '../i18n/en-GB.js';

/** Renders the hand-off step. */
export function renderRedirect(strings: Strings, onRedirect: () => void) {
  return html`<div role="group" part="step" aria-labelledby="step-title" data-step="redirect">
    <h2 id="step-title" tabindex="-1">${strings.redirectTitle}</h2>
    <p>${strings.redirectNote}</p>
    <button class="primary" part="submit" type="button" @click=${onRedirect}>${strings.continueToSite}</button>
  </div>`;
}
