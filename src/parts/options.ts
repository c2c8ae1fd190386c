/**
 * A step's suggested values as buttons: valid ones selectable, invalid ones shown disabled with
 * the service's reason (or a clear fallback), offer badges where a value carries offers.
 */
import { html, nothing } from 'lit';
import type { Suggestion } from '../api/normalize.js';

/** How one suggestion is worded. */
export interface OptionText {
  label: string;
  /** A second line: the action of a time, the end of a duration, or the reason it is unavailable. */
  detail: string | null;
  /**
   * Offer badge text, when the value carries offers. Visual only (hidden from assistive tech): the
   * step says once, in a note, which values have offers, rather than every button repeating it.
   */
  badge: string | null;
}

/** Renders the option buttons of one step. */
export function renderOptions(
  suggestions: Suggestion[],
  chosen: string | number | undefined,
  describe: (suggestion: Suggestion) => OptionText,
  onChoose: (suggestion: Suggestion) => void,
) {
  return html`<ul class="options" role="list">
    ${suggestions.map((suggestion) => {
      const text = describe(suggestion);
      const pressed = chosen === suggestion.value;
      return html`<li>
        <button
          class="option"
          part=${`option${pressed ? ' selected' : ''}${suggestion.valid ? '' : ' unavailable'}`}
          type="button"
          data-value=${String(suggestion.value)}
          data-action=${suggestion.action ?? nothing}
          aria-pressed=${pressed ? 'true' : 'false'}
          ?disabled=${!suggestion.valid}
          @click=${() => onChoose(suggestion)}
        >
          <span>${text.label}</span>
          ${text.badge ? html`<span class="badge" part="badge" aria-hidden="true">${text.badge}</span>` : nothing}
          ${text.detail ? html`<small>${text.detail}</small>` : nothing}
        </button>
      </li>`;
    })}
  </ul>`;
}
