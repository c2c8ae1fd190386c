/** A failed read: what went wrong, a retry (when one can help), and the venue's own way to book (the slot). */
import { html, nothing } from 'lit';

/** Renders a failed read; `retry`: the retry button's label, or null for none. */
export function renderError(message: string, retry: string | null, onRetry: () => void) {
  return html`<div class="problem" part="problem">
    <p class="error" role="alert">${message}</p>
    ${retry ? html`<button class="primary" type="button" data-retry @click=${onRetry}>${retry}</button>` : nothing}
    <slot></slot>
  </div>`;
}
