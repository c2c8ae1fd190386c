/**
 * A step's suggested values as buttons: valid ones selectable, invalid ones shown disabled with
 * the service's reason (or a clear fallback), offer badges where a value carries offers.
 */
import { html, nothing } from 'lit';
import type { Suggestion } from '../api/normalize.js';
import type { Badge, OptionText } from '../state/presenter.js';

/** An offer badge; its text is part of the choice's accessible name. */
export function renderBadge(badge: Badge | null) {
  if (!badge) return nothing;
  return html`<span class="badge" part="badge" title=${badge.name}
    >${badge.label}${badge.condition ? ` · ${badge.condition}` : ''}<span class="visually-hidden"
      >: ${badge.name}</span
    ></span
  >`;
}

/**
 * One choice button of a suggestion, `pressed` when chosen, holding `content`; `title` and
 * `describedBy` (an id) when there are any. Invalid suggestions are disabled.
 */
export function renderOption(
  suggestion: Suggestion,
  pressed: boolean,
  onChoose: (suggestion: Suggestion) => void,
  content: unknown,
  title?: string | null,
  describedBy?: string | null,
) {
  return html`<li>
    <button
      class="option"
      part=${`option${pressed ? ' selected' : ''}${suggestion.valid ? '' : ' unavailable'}`}
      type="button"
      data-value=${String(suggestion.value)}
      data-action=${suggestion.action ?? nothing}
      aria-pressed=${pressed ? 'true' : 'false'}
      aria-describedby=${describedBy ?? nothing}
      title=${title ?? nothing}
      ?disabled=${!suggestion.valid}
      @click=${() => onChoose(suggestion)}
    >
      ${content}
    </button>
  </li>`;
}

/**
 * Renders the option buttons of one step: `chips`, a grid of equal chips, as for party sizes;
 * `rows`, a row each with a line kept for its badge, which may fill in after the options show
 * (`sizedOffers`), so a badge that lands moves nothing.
 */
export function renderOptions(
  suggestions: Suggestion[],
  chosen: string | number | undefined,
  describe: (suggestion: Suggestion) => OptionText,
  onChoose: (suggestion: Suggestion) => void,
  layout?: 'chips' | 'rows',
) {
  const compact = layout === 'chips';
  return html`<ul class="options ${layout}" role="list">
    ${suggestions.map((suggestion) => {
      const text = describe(suggestion);
      const badge = renderBadge(text.badge);
      return renderOption(
        suggestion,
        chosen === suggestion.value,
        onChoose,
        html`<span>${text.label}</span> ${layout === 'rows' ? html`<span class="slot">${badge}</span>` : badge}
          ${text.detail && !compact ? html`<small>${text.detail}</small>` : nothing}`,
        compact ? text.detail : null,
      );
    })}
  </ul>`;
}
