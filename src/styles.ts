/**
 * The widget's styles, isolated in its shadow root. Hosts theme it through `--vb-*` custom
 * properties and `::part()`; by default it inherits the host page's font and text colour so it
 * looks like part of the venue's site rather than a foreign frame. `theme="dark"` (or `auto` with a
 * dark preference) swaps the defaults; every animation stops under `prefers-reduced-motion`.
 */
import { css } from 'lit';

/** The dark defaults, for `theme="dark"` and for `theme="auto"` under a dark preference. */
const dark = css`
  --_accent: var(--vb-accent, #8cc4ec);
  --_accent-text: var(--vb-accent-text, #0b1a26);
  --_background: var(--vb-background, #161a1f);
  --_surface: var(--vb-background, #161a1f);
  --_text: var(--vb-text, #eef1f4);
  --_muted: var(--vb-muted, #b9c0c8);
  --_border: var(--vb-border, #7d8791);
  --_error: var(--vb-error, #ff8a80);
  color-scheme: dark;
`;

export const styles = css`
  :host {
    display: block;
    --_accent: var(--vb-accent, #1f5f8b);
    --_accent-text: var(--vb-accent-text, #ffffff);
    --_background: var(--vb-background, transparent);
    --_surface: var(--vb-background, #ffffff);
    --_text: var(--vb-text, inherit);
    --_muted: var(--vb-muted, #595959);
    --_border: var(--vb-border, #8a8a8a);
    --_radius: var(--vb-radius, 8px);
    --_error: var(--vb-error, #b00020);
    font-family: var(--vb-font, inherit);
    color: var(--_text);
    background: var(--_background);
  }
  :host([theme='dark']) {
    ${dark}
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      ${dark}
    }
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
  [part~='step'],
  form {
    animation: vb-enter 160ms ease-out;
  }
  @keyframes vb-enter {
    /* Movement only: fading would make contrast checks (and eyes) read washed-out text. */
    from {
      transform: translateY(4px);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    [part~='step'],
    form {
      animation: none !important;
      transition: none !important;
    }
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
  .option.small {
    min-width: 0;
    padding: 0.25em 0.5em;
    margin: 0.15em;
  }
  .option[aria-pressed='true'] {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
  }
  .option:disabled {
    cursor: not-allowed;
    color: var(--_muted);
    border-style: dashed;
  }
  .option small {
    display: block;
    font-size: 0.8em;
  }
  .badge {
    display: inline-block;
    margin-inline-start: 0.4em;
    padding: 0 0.4em;
    border-radius: 999px;
    font-size: 0.75em;
    background: var(--_accent);
    color: var(--_accent-text);
  }
  .option[aria-pressed='true'] .badge {
    background: var(--_accent-text);
    color: var(--_accent);
  }
  .primary {
    padding: 0.6em 1.2em;
    border: none;
    border-radius: var(--_radius);
    background: var(--_accent);
    color: var(--_accent-text);
  }
  .primary:disabled {
    opacity: 0.7;
    cursor: progress;
  }
  .link {
    border: none;
    background: none;
    padding: 0 0.25em;
    text-decoration: underline;
  }
  .problem {
    border-inline-start: 4px solid var(--_accent);
    padding: 0.25em 0.75em;
    margin: 0 0 1em;
  }
  .calendar {
    max-width: 22em;
  }
  .calendar-head {
    display: flex;
    align-items: center;
    justify-content: space-between;
  }
  .month {
    font-weight: 600;
    margin: 0;
  }
  .nav {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: transparent;
    width: 2.25em;
    height: 2.25em;
  }
  .nav:disabled {
    opacity: 0.4;
    cursor: default;
  }
  table {
    border-collapse: collapse;
    width: 100%;
    margin-top: 0.5em;
  }
  th {
    font-weight: 400;
    color: var(--_muted);
    font-size: 0.85em;
  }
  abbr {
    text-decoration: none;
  }
  td {
    text-align: center;
    padding: 2px;
  }
  .day {
    width: 2.4em;
    height: 2.4em;
    border: 1px solid transparent;
    border-radius: 50%;
    background: transparent;
  }
  .day[aria-disabled='true'] {
    color: var(--_muted);
    text-decoration: line-through;
    cursor: not-allowed;
  }
  .day[aria-current='date'] {
    border-color: var(--_border);
    font-weight: 700;
  }
  .day[aria-pressed='true'] {
    background: var(--_accent);
    color: var(--_accent-text);
  }
  .day-reason {
    min-height: 1.5em;
    margin: 0.25em 0 0;
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
    gap: 0.5em;
    align-items: flex-start;
  }
  input,
  textarea {
    font: inherit;
    color: inherit;
    background: transparent;
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
  a {
    color: inherit;
  }
  dialog {
    border: none;
    border-radius: var(--_radius);
    padding: 1.5em;
    width: min(36em, 100vw - 2em);
    background: var(--_surface);
    color: var(--_text);
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.45);
  }
  .close {
    float: right;
    font-size: 1.5em;
    text-decoration: none;
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
