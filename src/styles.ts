/**
 * The widget's styles, isolated in its shadow root. Hosts theme it through `--vb-*` custom
 * properties and `::part()`; by default it inherits the host page's font and text colour so it
 * looks like part of the venue's site rather than a foreign frame.
 */
import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
    --_accent: var(--vb-accent, #1f5f8b);
    --_accent-text: var(--vb-accent-text, #ffffff);
    --_background: var(--vb-background, transparent);
    --_text: var(--vb-text, inherit);
    --_muted: var(--vb-muted, #5a5a5a);
    --_border: var(--vb-border, #c4c4c4);
    --_radius: var(--vb-radius, 8px);
    --_error: var(--vb-error, #b00020);
    font-family: var(--vb-font, inherit);
    color: var(--_text);
    background: var(--_background);
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  h2 {
    font-size: 1.15em;
    margin: 0 0 0.75em;
  }
  h2:focus {
    outline: none;
  }
  .summary {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
    margin: 0 0 1em;
    padding: 0;
    list-style: none;
  }
  .summary li {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.25em 0.5em;
  }
  .options {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
  }
  .option {
    min-width: 4.5em;
    padding: 0.5em 0.75em;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: transparent;
    text-align: start;
  }
  .option[aria-pressed='true'] {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
  }
  .option:disabled {
    cursor: not-allowed;
    color: var(--_muted);
    text-decoration: line-through;
  }
  .option small {
    display: block;
    font-size: 0.8em;
  }
  .primary {
    padding: 0.6em 1.2em;
    border: none;
    border-radius: var(--_radius);
    background: var(--_accent);
    color: var(--_accent-text);
  }
  .primary:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  .link {
    border: none;
    background: none;
    padding: 0 0.25em;
    text-decoration: underline;
  }
  form {
    display: grid;
    gap: 0.75em;
    max-width: 28em;
  }
  label {
    display: grid;
    gap: 0.25em;
  }
  input,
  textarea {
    font: inherit;
    padding: 0.45em;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
  }
  .field-error,
  .error {
    color: var(--_error);
  }
  .note {
    color: var(--_muted);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
`;
