/** A ready booking that cannot be sent from here: say so, and show the venue's own way to book. */
import { html } from 'lit';
import type { Strings } from '../i18n/en-GB.js';

/** Renders the cannot-book step. */
export function renderUnavailable(strings: Strings) {
  return html`<div
    role="group"
    part="step problem"
    class="problem"
    aria-labelledby="step-title"
    data-step="unavailable"
  >
    <h2 id="step-title" tabindex="-1">${strings.cannotBookTitle}</h2>
    <p>${strings.cannotBookNote}</p>
    <slot></slot>
  </div>`;
}
