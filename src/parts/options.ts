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
  /** Offer badge text (`Offer`, or its party-size condition `Offer 6+`), where an offer can still apply. */
  badge: string | null;
  /** The offers' names: the badge's tooltip and part of the option's accessible name. */
  badgeName?: string | null;
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
          title=${text.badgeName ?? nothing}
          ?disabled=${!suggestion.valid}
          @click=${() => onChoose(suggestion)}
        >
          <span>${text.label}</span>
          ${
            text.badge
              ? html`<span class="badge" part="badge" title=${text.badgeName ?? nothing}
                  >${text.badge}${text.badgeName ? html`<span class="visually-hidden">: ${text.badgeName}</span>` : nothing}</span
                >`
              : nothing
          }
          ${text.detail ? html`<small>${text.detail}</small>` : nothing}
        </button>
      </li>`;
    })}
  </ul>`;
}
