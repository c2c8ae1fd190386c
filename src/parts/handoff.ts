/**
 * The hand-off's money terms (issue 37), in the later steps chunk: before the guest leaves for the
 * booking site, what will happen there, in the guest's language — a deposit or a card check (a
 * check of the card that is not a charge, against which the venue may later charge a no-show only
 * up to what its policy states), pre-orders, and for an enquiry that a payment link may follow by
 * email (deposits at booking apply only to bookings confirmed at once) — then the venue's policy
 * text. The service gives no amounts of its own (`depositRequired` and `preordersAvailable` are
 * booleans; the shape of a truthy `depositRequired` has never been seen), so the amounts are the
 * venue's, in its `booking_notes`, shown as text and never as HTML. Imports nothing at run time.
 */
import type { ApiClient } from '../api/client.js';
import type { Choices } from '../api/normalize.js';
import type { WireBookingRules, WireReturnBridge } from '../api/types.js';
import type { LocaleStrings } from '../i18n/en-GB.js';
import type { LitTags } from './details.js';

/** What the hand-off step is handed by the flow: the venue's policy text once read, and the way out. */
export interface HandoffFlow {
  /** The venue's policy text (`booking_notes`), once read; null without one. */
  policy: string | null;
  onRedirect: () => void;
}

/**
 * Renders the hand-off step with its terms, each marked with its kind (`data-term`): `strings`, the
 * locale's with en-GB's later words filled in (`enGBLater`); `availability`, whether the booking
 * site takes money or card details (`depositRequired`) and pre-orders (`preordersAvailable`);
 * `enquiry`, whether the venue confirms the booking itself, and asks for any payment later. The
 * flow hands over no more than this, so the first load carries none of it.
 */
export function renderHandoff(
  { html, nothing }: LitTags,
  s: LocaleStrings,
  availability: { depositRequired?: boolean; preordersAvailable?: boolean },
  enquiry: boolean,
  { policy, onRedirect }: HandoffFlow,
) {
  const terms = [
    availability.depositRequired && !enquiry && (['payment', s.handoffPayment] as const),
    availability.preordersAvailable && (['preorders', s.handoffPreorders] as const),
    enquiry && (['enquiry', s.handoffEnquiry] as const),
  ].filter((term) => !!term);
  return html`<div role="group" part="step" aria-labelledby="step-title" data-step="redirect">
    <h2 id="step-title" tabindex="-1">${s.redirectTitle}</h2>
    <p>${terms.length ? s.handoffIntro : s.redirectNote}</p>
    ${
      terms.length
        ? html`<ul>
            ${terms.map(([kind, text]) => html`<li data-term=${kind}>${text}</li>`)}
          </ul>`
        : nothing
    }
    ${policy ? html`<p data-policy><strong>${s.handoffPolicy}</strong> ${policy}</p>` : nothing}
    <button class="primary" part="submit" type="button" @click=${onRedirect}>${s.continueToSite}</button>
  </div>`;
}

/**
 * The venue's policy text for the chosen type and date (`booking_notes`), or null without one, or
 * when it cannot be read: the hand-off goes on without it.
 */
export async function readPolicy(
  client: ApiClient,
  venue: string,
  { type, date }: Choices,
  signal?: AbortSignal,
): Promise<string | null> {
  if (!type || !date) return null;
  const rules = await client
    .read<WireBookingRules>(`venues/${encodeURIComponent(venue)}/booking-rules`, signal, { type, date })
    .catch(() => null);
  const notes = rules?.booking_notes;
  return typeof notes === 'string' && notes.trim() ? notes.trim() : null;
}

/**
 * The proxy's return bridge for a booking the booking site takes (its availability query): the
 * signed hand-off id ('' without one) when the proxy offers a POST return, else false (also when
 * it cannot be read: the guest then returns by GET). The proxy answers only when that availability
 * hands the guest off. Here, in the chunk, because only a hand-off needs it.
 */
export async function readBridge(
  client: ApiClient,
  venue: string,
  query: Record<string, string | number>,
  signal?: AbortSignal,
): Promise<string | false> {
  const payload = await client
    .read<WireReturnBridge>(`venues/${encodeURIComponent(venue)}/handoff`, signal, query)
    .catch(() => null);
  return Array.isArray(payload?.methods) && payload.methods.includes('post') && String(payload.handoff ?? '');
}
