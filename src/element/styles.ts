/**
 * The widget's styles, isolated in its shadow root. Hosts theme it through `--vb-*` custom
 * properties and `::part()`. Type: the page's own font family (inherited; `--vb-font` sets another),
 * at 1rem with a small scale (0.8125, 1, 1.25), and every control (button, input, select, textarea)
 * takes it too, where browsers would draw their own. Spacing
 * follows one scale (`--_s1`…`--_s5`). Under `(pointer: coarse)` every control is at least 44×44
 * CSS px; a mouse gets a denser layout. It inherits the page's text colour. `theme="dark"` (or `auto` with a
 * dark preference) swaps the defaults; every animation stops under `prefers-reduced-motion`.
 */
import { css } from 'lit';

/** The dark defaults, for `theme="dark"` and for `theme="auto"` under a dark preference. */
const dark = css`
  --_accent: var(--vb-accent, #8cc4ec);
  --_accent-text: var(--vb-accent-text, var(--_on-accent, #0b1a26));
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
    /* On a custom accent with no text colour named: white or black, whichever reads (OKLab
       lightness against 0.56, where both contrast alike). Without --vb-accent this is invalid, so
       the theme's default text colour stands. */
    --_on-accent: oklch(from var(--vb-accent) clamp(0, (0.56 - l) * 1000, 1) 0 0);
    --_accent-text: var(--vb-accent-text, var(--_on-accent, #ffffff));
    --_background: var(--vb-background, transparent);
    --_surface: var(--vb-background, #ffffff);
    --_text: var(--vb-text, inherit);
    --_muted: var(--vb-muted, #595959);
    --_border: var(--vb-border, #8a8a8a);
    --_radius: var(--vb-radius, 8px);
    --_error: var(--vb-error, #b00020);
    --_s1: 0.25rem;
    --_s2: 0.5rem;
    --_s3: 0.75rem;
    --_s4: 1rem;
    --_s5: 1.5rem;
    --_tap: 2.25rem;
    --_tint: color-mix(in srgb, currentColor 8%, transparent);
    font-size: 1rem;
    line-height: 1.5;
    /* Unset, --vb-font makes this declaration invalid at computed-value time: the family is then inherited from the page. */
    font-family: var(--vb-font);
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
  @media (pointer: coarse) {
    :host {
      --_tap: 44px;
    }
  }
  h2 {
    font-size: 1.25em;
    line-height: 1.3;
    margin: 0 0 var(--_s3);
  }
  h3 {
    font-size: 1em;
    margin: 0;
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
    :not(.busy > .note) {
      animation: none !important;
      transition: none !important;
    }
  }
  .summary {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_s2);
    margin: 0 0 var(--_s4);
    padding: 0;
    list-style: none;
    font-size: 0.8125em;
  }
  .choice {
    display: grid;
    min-height: var(--_tap);
    padding: 0 var(--_s2);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: none;
    text-align: start;
    line-height: 1.25;
  }
  .choice small {
    color: var(--_muted);
    font-size: 0.6875rem;
  }
  .options,
  .legend {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_s2);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .chips {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(4.5rem, 1fr));
  }
  [data-step='num_people'] .chips {
    grid-template-columns: repeat(auto-fill, minmax(var(--_tap), 1fr));
    max-width: 28rem;
  }
  .chips .option {
    position: relative;
    min-width: 0;
    width: 100%;
    text-align: center;
    padding-inline: var(--_s1);
  }
  .legend {
    gap: var(--_s1) var(--_s4);
    margin-bottom: var(--_s3);
    font-size: 0.8125em;
    color: var(--_muted);
  }
  .mark {
    display: inline-block;
    width: 0.5rem;
    height: 0.5rem;
    margin-inline: var(--_s1);
    border: 2px solid currentColor;
    border-radius: 50%;
    background: currentColor;
  }
  .mark[data-kind='enquire'],
  .mark[data-kind='may_enquire'] {
    background: none;
  }
  .mark[data-kind='may_enquire'],
  .mark[data-kind='deposit'] {
    border-radius: 0;
  }
  .mark[data-kind='offer'] {
    color: var(--_accent);
    transform: rotate(45deg);
    border-radius: 0;
  }
  .group {
    display: flex;
    width: 100%;
    min-height: var(--_tap);
    align-items: center;
    gap: var(--_s2);
    padding: var(--_s2) 0;
    border: none;
    border-top: 1px solid var(--_border);
    background: none;
    font-weight: 600;
    text-align: start;
  }
  .group small {
    flex: 1;
    font-weight: 400;
    font-size: 0.8125em;
    color: var(--_muted);
  }
  .group::after {
    content: '';
    width: 0.5em;
    height: 0.5em;
    margin-inline-end: var(--_s2);
    border: solid currentColor;
    border-width: 0 2px 2px 0;
    transform: rotate(45deg);
  }
  .group[aria-expanded='true']::after {
    transform: rotate(225deg);
  }
  .times > div {
    padding-bottom: var(--_s3);
  }
  .busy {
    min-height: 18rem;
  }
  .bone {
    height: var(--_tap);
    border-radius: var(--_radius);
    background: var(--_tint);
    animation: vb-pulse 1s 300ms infinite alternate;
  }
  .bone.title {
    width: 60%;
    height: 1.5rem;
    margin-bottom: var(--_s4);
  }
  .bones {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(4.5rem, 1fr));
    gap: var(--_s2);
  }
  .busy > .note {
    visibility: hidden;
    animation: vb-show 0s 300ms forwards;
  }
  @keyframes vb-show {
    to {
      visibility: visible;
    }
  }
  @keyframes vb-pulse {
    to {
      opacity: 0.4;
    }
  }
  button,
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
  }
  button {
    cursor: pointer;
  }
  .option {
    min-width: 4.5em;
    min-height: var(--_tap);
    padding: var(--_s1) var(--_s3);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: transparent;
    text-align: start;
  }
  .option.small {
    min-width: var(--_tap);
    padding: 0 var(--_s2);
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
    margin-inline: var(--_s1);
    padding: 0 0.4em;
    border-radius: 999px;
    font-size: 0.6875rem;
    line-height: 1.4;
    white-space: nowrap;
    background: var(--_accent);
    color: var(--_accent-text);
  }
  .option[aria-pressed='true'] .badge {
    background: var(--_accent-text);
    color: var(--_accent);
  }
  .rows {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr));
  }
  .rows .option {
    width: 100%;
  }
  .slot {
    display: flex;
    height: 1rem;
  }
  .slot .badge {
    margin: 0;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .chips .badge {
    position: absolute;
    top: -0.6rem;
    inset-inline-end: -0.25rem;
  }
  .primary {
    min-height: var(--_tap);
    padding: var(--_s2) var(--_s5);
    font-weight: 600;
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
    min-height: var(--_tap);
    min-width: var(--_tap);
    border: none;
    background: none;
    /* No inset: its words line up with the text and links above it. */
    padding: 0;
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
    width: var(--_tap);
    height: var(--_tap);
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
    padding: 1px;
  }
  .day {
    width: max(2.4em, var(--_tap));
    height: max(2.4em, var(--_tap));
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
  input,
  select,
  textarea {
    background: transparent;
    min-height: var(--_tap);
    padding: var(--_s2);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
  }
  .error {
    color: var(--_error);
  }
  .note {
    color: var(--_muted);
  }
  a {
    display: inline-flex;
    align-items: center;
    min-height: var(--_tap);
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
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }
  /* Forced colours would paint every day's transparent ring and every chosen value like the
     others: days and options keep their own marks, in the user's system colours (chosen ones in
     Highlight, refused ones GrayText, a ring on today alone). */
  @media (forced-colors: active) {
    :host {
      --_accent: Highlight;
      --_accent-text: HighlightText;
      --_muted: GrayText;
      --_border: CanvasText;
    }
    .day,
    .option {
      forced-color-adjust: none;
      color: CanvasText;
    }
  }
`;
