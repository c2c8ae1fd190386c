/** A failed read: what went wrong, a retry, and the venue's own way to book (the slot). */
import { html } from 'lit';

/** Renders a failed read. */
export function renderError(message: string, retry: string, onRetry: () => void) {
  return html`<div class="problem" part="problem">
    <p class="error" role="alert">${message}</p>
    <button class="primary" type="button" data-retry @click=${onRetry}>${retry}</button>
    <slot></slot>
  </div>`;
}
