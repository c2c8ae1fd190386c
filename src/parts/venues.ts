/** The venue picker (a list of venue ids or a venue group): one button per venue. */
import { html } from 'lit';
import type { WireVenue } from '../api/types.js';
import type { Strings } from '../i18n/en-GB.js';
import { venueName } from '../venue/venue-model.js';

/** What the picker renders. */
export interface VenuesProps {
  strings: Strings;
  venues: readonly WireVenue[];
  /** The picked venue's id. */
  chosen: string | null;
  onChoose: (id: string) => void;
}

/** Renders the venue picker. */
export function renderVenues({ strings, venues, chosen, onChoose }: VenuesProps) {
  return html`<div role="group" part="step" aria-labelledby="step-title" data-step="venue">
    <h2 id="step-title" tabindex="-1">${strings.stepTitles.venue}</h2>
    <ul class="options" role="list">
      ${venues.map(
        (venue) =>
          html`<li>
            <button
              class="option"
              part=${`option${venue._id === chosen ? ' selected' : ''}`}
              type="button"
              data-value=${venue._id}
              aria-pressed=${venue._id === chosen ? 'true' : 'false'}
              @click=${() => onChoose(venue._id)}
            >
              <span>${venueName(venue) || venue._id}</span>
            </button>
          </li>`,
      )}
    </ul>
  </div>`;
}
