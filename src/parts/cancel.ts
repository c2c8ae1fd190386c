/**
 * A change's way out, under the details form when the widget `replaces` a booking: "Cancel this
 * booking instead", a confirm step, and what came of it (cancelled, or refused with the proxy's
 * message and the venue's phone). The state is `Replacing`'s (`controllers/replacing.ts`); this is
 * its template, in the later steps chunk with the form.
 */
import type { html as litHtml, nothing as litNothing } from 'lit';
import type { Replacing } from '../controllers/replacing.js';
import type { LocaleStrings } from '../i18n/en-GB.js';

/**
 * Renders the cancel action, its confirm step or its outcome; Lit's tags come from the bundle, as
 * `details.ts`'s `LitTags` (written out here, as the details form imports this).
 */
export function renderCancel(
  { html, nothing }: { html: typeof litHtml; nothing: typeof litNothing },
  s: LocaleStrings,
  replacing: Replacing,
) {
  const { stage, reference, phone } = replacing;
  const ask = html`<button type="button" class="link" data-cancel-ask @click=${() => replacing.ask()}>
    ${s.cancelInstead}
  </button>`;
  if (stage === 'closed') return html`<p part="cancel" class="cancel">${ask}</p>`;
  if (stage === 'cancelled')
    return html`<div part="cancel" class="cancel" role="status">
      <p data-cancel-outcome tabindex="-1">
        <strong>${replacing.already ? s.alreadyCancelled(reference) : s.cancelled(reference)}</strong>
      </p>
    </div>`;
  // A refusal (inside the venue's notice window, a key that may not cancel) is settled by phone.
  const call = phone
    ? html`<p>${s.phone}: <a href="tel:${phone.replace(/[^\d+]/g, '')}" data-phone>${phone}</a></p>`
    : nothing;
  // The offer stays: a call that got no answer may be tried again (a refusal answers the same).
  if (stage === 'refused')
    return html`<div part="cancel" class="cancel">
      <p class="error" role="alert" data-cancel-outcome tabindex="-1">${replacing.message}</p>
      ${call} ${ask}
    </div>`;
  const sending = stage === 'sending';
  return html`<div part="cancel" class="cancel" role="group" aria-labelledby="vb-cancel-ask">
    <p id="vb-cancel-ask"><strong>${s.cancelAsk(reference)}</strong></p>
    <button
      type="button"
      class="primary"
      data-cancel-yes
      aria-disabled=${sending ? 'true' : 'false'}
      @click=${() => void replacing.cancel(s.errors.network)}
    >
      ${sending ? s.cancelling : s.cancelYes}
    </button>
    <button type="button" class="link" ?disabled=${sending} @click=${() => replacing.keep()}>${s.cancelKeep}</button>
  </div>`;
}
