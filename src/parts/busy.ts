/**
 * The placeholder while an answer is on its way: grey blocks where a step's title and choices
 * will be, so nothing jumps when it arrives; its words (and shimmer) show only after 300 ms, so a
 * quick answer never flashes a busy indicator.
 */
import { html } from 'lit';

/** Renders the placeholder (`loading`: its words). */
export function renderBusy(loading: string) {
  return html`<div class="busy" role="status" aria-busy="true">
    <div class="bone title"></div>
    <div class="bones">${[1, 2, 3, 4, 5, 6, 7, 8].map(() => html`<div class="bone"></div>`)}</div>
    <p class="note">${loading}</p>
  </div>`;
}
