/**
 * The choices made so far, each one button (the field name small above the value): a tap goes
 * back to that step.
 */
import { html, nothing } from 'lit';
import type { Strings } from '../i18n/en-GB.js';
import type { Field, SummaryItem } from '../state/presenter.js';

/** Renders the summary (nothing before the first choice). */
export function renderSummary(strings: Strings, items: SummaryItem[], onEdit: (field: Field) => void) {
  if (items.length === 0) return nothing;
  const item = ({ field, name, value }: SummaryItem) =>
    html`<li>
      <button class="choice" type="button" data-field=${field} @click=${() => onEdit(field)}>
        <span class="visually-hidden">${strings.change}:</span><small>${name}</small>
        <strong>${value}</strong>
      </button>
    </li>`;
  const venue = items[0].field === 'venue' ? items[0] : null;
  const chosen = venue ? items.slice(1) : items;
  return html`<ul class="summary" part="summary" aria-label=${strings.summary}>
    ${venue ? item(venue) : nothing} ${chosen.map(item)}
  </ul>`;
}
