/** The popup mode: a button that opens the flow in a modal `<dialog>`, with a close button. */
import { html } from 'lit';
import type { Strings } from '../i18n/en-GB.js';

/** What the popup renders around the flow. */
export interface PopupProps {
  strings: Strings;
  onOpen: () => void;
  onClose: () => void;
  /** The dialog closed: focus goes back to the open button. */
  onClosed: () => void;
}

/** Renders the popup around the flow. */
export function renderPopup({ strings, onOpen, onClose, onClosed }: PopupProps, flow: unknown) {
  return html`<button class="primary" part="open" type="button" aria-haspopup="dialog" @click=${onOpen}>
      ${strings.open}
    </button>
    <dialog part="dialog" aria-labelledby="step-title" @close=${onClosed}>
      <button type="button" class="close link" @click=${onClose} aria-label=${strings.close}>×</button>
      ${flow}
    </dialog>`;
}
