/**
 * The styles of what only the later steps draw (the party step's extras, the details form and a
 * change's cancel step, the confirmation), in the later-steps chunk beside their templates: the first load carries none of
 * them. `adoptLaterStyles` adds them to an element's shadow root when the chunk arrives, before
 * anything that needs them renders. The custom properties are the element's (`styles.ts`); the
 * build minifies this `css` template as it does that one.
 */

/** Plain text, tagged `css` only so the build minifies it (the chunk imports nothing at run time). */
const css = String.raw;

const text = css`
  .party-more {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_s2);
    margin-block: var(--_s3);
  }
  form {
    display: grid;
    gap: 0.75em;
    max-width: 30em;
  }
  .fields {
    display: grid;
    gap: 0.75em;
    grid-template-columns: repeat(auto-fit, minmax(12em, 1fr));
  }
  .field {
    display: grid;
    gap: 0.25em;
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    display: grid;
    gap: 0.5em;
  }
  .check {
    display: flex;
    gap: var(--_s2);
    align-items: flex-start;
    min-height: var(--_tap);
  }
  /* One size for every box and radio, never shrunk by a long label beside it (flex items shrink by default). */
  .check input {
    flex: none;
    width: 1.25rem;
    height: 1.25rem;
    min-height: 0;
    margin: 0.125rem 0 0;
    padding: 0;
  }
  .booking-summary {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0.25em 1em;
  }
  .booking-summary dt {
    font-weight: 600;
  }
  .calendar-links {
    display: flex;
    flex-wrap: wrap;
    gap: 1em;
  }
  .field-error {
    color: var(--_error);
  }
  /* A change's way out (parts/cancel.ts), set apart from the form's own button. */
  .cancel {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_s2) var(--_s4);
    margin: 0;
    padding-block-start: var(--_s3);
    border-block-start: 1px solid var(--_border);
  }
  .cancel p {
    flex-basis: 100%;
    margin: 0;
  }
  /* The outcome takes the focus only so that a screen reader reads it: no ring, as on a step's heading. */
  .cancel [tabindex='-1']:focus {
    outline: none;
  }
`;

let sheet: CSSStyleSheet | undefined;

/**
 * Adds the later steps' styles to a shadow root, once: as a shared constructed sheet, or (in a
 * browser without `adoptedStyleSheets`, as Lit does) a `<style>` with the page's `litNonce`.
 */
export function adoptLaterStyles(root: Element | ShadowRoot | DocumentFragment): void {
  if (!(root instanceof ShadowRoot)) return;
  if ((root as { adoptedStyleSheets?: unknown }).adoptedStyleSheets) {
    if (!sheet) (sheet = new CSSStyleSheet()).replaceSync(text);
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else if (!root.querySelector('style[data-later]')) {
    const style = document.createElement('style');
    const nonce = (globalThis as { litNonce?: string }).litNonce;
    if (nonce) style.setAttribute('nonce', nonce);
    style.dataset.later = '';
    style.textContent = text;
    root.append(style);
  }
}
