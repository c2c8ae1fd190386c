/**
 * A booking step: its group and heading, around the step's own body (the date picker, the times,
 * or option buttons). The party step scales with the sizes the rules allow: chips where they are
 * few, the first sizes as chips and the rest in a select where they are many, one line saying
 * which sizes the booking takes (never a wall of disabled sizes), and a way on for a larger party
 * (the select and a larger party's way on are in `party-more.ts`, in the later steps chunk; without
 * that chunk, the venue's own way to book, the fallback content, is a larger party's way on).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Suggestion } from '../api/normalize.js';
import type { Step } from '../state/booking-flow.js';
import type { Strings } from '../i18n/en-GB.js';
import type { renderLargerParty, renderSizeSelect } from './party-more.js';
import type { OptionText } from '../state/presenter.js';
import { renderOption, renderOptions } from './options.js';

/** Renders a step around its body. */
export function renderStep(step: Step, title: string, body: TemplateResult) {
  return html`<div role="group" part="step" aria-labelledby="step-title" data-step=${step}>
    <h2 id="step-title" tabindex="-1">${title}</h2>
    ${body}
  </div>`;
}

/** What the option buttons of a step (type, duration) render. */
export interface ChoicesProps {
  step: Step;
  suggestions: Suggestion[];
  chosen: string | number | undefined;
  describe: (suggestion: Suggestion) => OptionText;
  onChoose: (suggestion: Suggestion) => void;
}

/** Renders the option buttons of a step. */
export function renderChoices(props: ChoicesProps) {
  return renderOptions(props.suggestions, props.chosen, props.describe, props.onChoose);
}

/** The party step's rarely needed parts, from the later steps chunk (`party-more.ts`). */
export interface PartyMore {
  renderSizeSelect: typeof renderSizeSelect;
  renderLargerParty: typeof renderLargerParty;
}

/** Up to this many sizes are all chips; past it, the first `CHIPS` are, and the rest are in a select. */
const FEW = 12;
const CHIPS = 8;

/** What the party step renders. */
export interface PartyProps {
  strings: Strings;
  suggestions: Suggestion[];
  chosen: number | undefined;
  /** The rules' smallest and largest party (null: unset). */
  min: number | null;
  max: number | null;
  /** The chosen type's name, for the line that says which sizes it takes. */
  typeName: string | null;
  /** Whether the guest asked to give a larger party's size. */
  asking: boolean;
  /** Whether an offer can apply to a party of this size. */
  qualifies: (size: number) => boolean;
  /** The offers that apply to some size, named with their sizes. */
  offerNames: string;
  onChoose: (size: number) => void;
  onAsk: () => void;
  onLarger: (size: number) => void;
  /**
   * The rarely needed parts (the select past the chips, a larger party's size), from the later
   * steps chunk, which the step waits for (`view.ts`); null if it could not be loaded: every size
   * is then a chip, and the venue's own way to book (the fallback content) is shown for a larger party.
   */
  more: PartyMore | null;
  /** The largest party size the proxy takes (`PARTY_SIZE`). */
  largest: number;
}

/** The party step: the sizes the rules allow, why no others, offers, and a larger party's way on. */
export function renderParty(props: PartyProps) {
  const { strings: s, suggestions } = props;
  const offered = suggestions.filter((item) => {
    const size = Number(item.value);
    return item.valid && (props.min === null || size >= props.min) && (props.max === null || size <= props.max);
  });
  if (!offered.length) return nothing;
  const sizes = offered.map((item) => Number(item.value));
  const min = props.min ?? sizes[0]!;
  // One line of reason for the sizes left out, in place of a wall of disabled buttons.
  const limited = min > 1 || suggestions.some((item) => !item.valid);
  const { more } = props;
  const chips = offered.length <= FEW || !more ? offered : offered.slice(0, CHIPS);
  const rest = sizes.slice(chips.length);
  // Offers mark the sizes they apply to, explained once; when they apply to every size, no mark is needed.
  const marked = sizes.filter(props.qualifies);
  const mark = marked.length > 0 && marked.length < sizes.length;
  const key = mark ? 'key-offer' : null;
  const largest = sizes[sizes.length - 1]!;
  return html`${limited ? html`<p class="note" data-party-rule>${s.partyFor(props.typeName, min, props.max)}</p>` : nothing}
    ${
      props.offerNames
        ? html`<ul class="legend" aria-label=${s.legend}>
            <li id="key-offer">
              ${mark ? html`<span class="mark" data-kind="offer" aria-hidden="true"></span>${s.offerSizes(props.offerNames)}` : `${s.offersTitle}: ${props.offerNames}`}
            </li>
          </ul>`
        : nothing
    }
    <ul class="options chips" role="list">
      ${chips.map((item) => {
        const size = Number(item.value);
        const offer = mark && props.qualifies(size);
        return renderOption(
          item,
          props.chosen === size,
          () => props.onChoose(size),
          html`<span>${size}</span
            >${offer ? html`<span class="mark" data-kind="offer" aria-hidden="true"></span>` : nothing}`,
          null,
          offer ? key : null,
        );
      })}
    </ul>
    ${more && rest.length ? more.renderSizeSelect({ html, nothing }, props, rest, mark) : nothing}
    ${more ? more.renderLargerParty({ html, nothing }, props, largest) : html`<slot></slot>`}`;
}
