/**
 * The party step and a larger party's way on, in the later steps chunk (`later-steps.ts`), which
 * the party step waits for. The step scales with the sizes the rules allow: chips where they are
 * few, the first sizes as chips and the rest in a select where they are many, one line saying
 * which sizes the booking takes (never a wall of disabled sizes), and "More than N people?" with
 * the field for a larger party. A larger party's way on (issue 35): what a dead end offers (the
 * types that take the party and their days, a move to one, the venue's phone and email) and the
 * change of type the service gave the party, said and confirmed. The chunk imports nothing of the
 * bundle: Lit's tags, the option button, the largest size the proxy takes and the formatting come
 * in as arguments.
 */
import type { Availability, Choices, Suggestion } from '../api/normalize.js';
import type { Strings } from '../i18n/en-GB.js';
import { enGBLater } from '../i18n/en-GB-later.js';
import {
  continuedChoices,
  dayText,
  movedChoices,
  restoredChoices,
  type Fit,
  type PartyHelp,
  type Replaced,
} from '../state/party-help.js';
import type { LitTags } from './details.js';
import type { renderOption } from './options.js';

/** The locale's words over en-GB's later words (a locale module has them all; the bundle's en-GB does not). */
const enGBLaterOr = (strings: Strings) => ({ ...enGBLater, ...strings });

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
  /** The bundle's option button (`options.ts`): the chunk imports nothing of the bundle. */
  option: typeof renderOption;
  /** The largest party size the proxy takes (`PARTY_SIZE`). */
  largest: number;
}

/** The party step: the sizes the rules allow, why no others, offers, and a larger party's way on. */
export function renderParty(tags: LitTags, props: PartyProps) {
  const { html, nothing } = tags;
  const { suggestions } = props;
  const s = enGBLaterOr(props.strings);
  const offered = suggestions.filter((item) => {
    const size = Number(item.value);
    return item.valid && (props.min === null || size >= props.min) && (props.max === null || size <= props.max);
  });
  if (!offered.length) return nothing;
  const sizes = offered.map((item) => Number(item.value));
  const min = props.min ?? sizes[0]!;
  // One line of reason for the sizes left out, in place of a wall of disabled buttons.
  const limited = min > 1 || suggestions.some((item) => !item.valid);
  const chips = offered.length <= FEW ? offered : offered.slice(0, CHIPS);
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
        return props.option(
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
    ${rest.length ? renderSizeSelect(tags, props, rest, mark) : nothing} ${renderLargerParty(tags, props, largest)}`;
}

/** What the select needs of the party step's props (`PartyProps`). */
export interface SizeSelectProps {
  strings: Strings;
  chosen: number | undefined;
  qualifies: (size: number) => boolean;
  onChoose: (size: number) => void;
}

/** The sizes past the chips, in a select with a button (a select's change fires on arrow keys). */
export function renderSizeSelect({ html }: LitTags, props: SizeSelectProps, sizes: number[], mark: boolean) {
  const s = enGBLaterOr(props.strings);
  const chosen = sizes.includes(props.chosen ?? 0) ? props.chosen : sizes[0];
  return html`<form
    class="party-more"
    data-party-more
    @submit=${(event: SubmitEvent) => {
      event.preventDefault();
      props.onChoose(Number(new FormData(event.target as HTMLFormElement).get('size')));
    }}
  >
    <label for="party-size">${s.otherSize}</label>
    <select id="party-size" name="size">
      ${sizes.map(
        (size) =>
          html`<option value=${size} data-value=${size} ?selected=${size === chosen}>
            ${s.people(size)}${mark && props.qualifies(size) ? ` · ${s.offer}` : ''}
          </option>`,
      )}
    </select>
    <button type="submit" class="option">${s.choose}</button>
  </form>`;
}

/** What a larger party's way on needs of the party step's props (`PartyProps`). */
export interface LargerProps {
  strings: Strings;
  /** Whether the guest asked to give a larger party's size. */
  asking: boolean;
  /** The largest party size the proxy takes. */
  largest: number;
  onAsk: () => void;
  onLarger: (size: number) => void;
}

/** "More than N people?" (`largest`: the largest size listed), then the field for the party's size. */
export function renderLargerParty(tags: LitTags, props: LargerProps, largest: number) {
  return props.asking
    ? renderLarger(tags, props.strings, largest + 1, props.largest, props.onLarger)
    : tags.html`<p>
        <button type="button" class="link" data-larger-party @click=${props.onAsk}>
          ${enGBLaterOr(props.strings).largerParty(largest)}
        </button>
      </p>`;
}

/** Asks how many people a party larger than the list holds. */
function renderLarger(
  { html }: LitTags,
  strings: Strings,
  from: number,
  max: number,
  onLarger: (size: number) => void,
) {
  const s = enGBLaterOr(strings);
  return html`<form
    class="party-more"
    data-larger-form
    @submit=${(event: SubmitEvent) => {
      event.preventDefault();
      onLarger(Number(new FormData(event.target as HTMLFormElement).get('size')));
    }}
  >
    <label for="larger-size">${s.stepTitles.num_people}</label>
    <input
      id="larger-size"
      name="size"
      type="number"
      inputmode="numeric"
      required
      min=${from}
      max=${max}
      step="1"
      .value=${String(from)}
    />
    <button type="submit" class="primary">${s.findOptions}</button>
  </form>`;
}

/**
 * What a larger party's way on needs of the flow (`parts/flow.ts` hands over its own state and
 * handlers with these): the answer in hand, the words, and the bundle's formatting as a function.
 */
export interface WayOn {
  /** The bundle's words (en-GB's later words are filled in here, from the chunk) and locale. */
  wording: { strings: Strings; locale: string };
  choices: Choices;
  replaced: Replaced | null;
  help: PartyHelp | null;
  answer: Availability;
  /** A value for people (a type's name, a duration). */
  format: (field: 'type' | 'duration', value: string | number) => string;
  send: (event: { type: 'retype'; choices: Choices }) => void;
}

/**
 * What a dead end offers, above the venue's own way to book (the fallback content): for a party
 * no type takes that day, each type that takes it with its party sizes and days, and a button
 * that moves the booking there (an enquiry where the type is one); the venue's phone and email as
 * links. Never the fallback alone when the venue's profile gives a contact.
 */
export function renderPartyHelp({ html, nothing }: LitTags, way: WayOn) {
  const { help, wording } = way;
  const s = enGBLaterOr(wording.strings);
  if (!help) return nothing;
  const { phone, email } = help;
  const range = ({ min, max }: Fit) => (min === null && max === null ? null : s.peopleRange(min, max));
  return html`<div class="party-help" data-party-help>
    ${help.people && !help.fits.length ? html`<p class="note">${s.noTypeTakes(s.people(help.people))}</p>` : nothing}
    ${help.fits.map(
      (fit) =>
        html`<p data-fit=${fit.id}>${s.fitDays(fit.name, range(fit), dayText(fit.days, wording.locale, s))}</p>
          <p>
            <button
              type="button"
              class="primary"
              data-move=${fit.id}
              @click=${() => way.send({ type: 'retype', choices: movedChoices(way.choices, fit) })}
            >
              ${fit.enquiry ? s.enquireAs(fit.name) : s.bookAs(fit.name)}
            </button>
          </p>`,
    )}
    ${
      phone || email
        ? html`<p>${s.talkToVenue}</p>
            <ul class="contact" role="list">
              ${phone ? html`<li>${s.phone}: <a href="tel:${phone.replace(/[^\d+]/g, '')}" data-phone>${phone}</a></li>` : nothing}
              ${email ? html`<li>${s.email}: <a href="mailto:${email}" data-email>${email}</a></li>` : nothing}
            </ul>`
        : nothing
    }
  </div>`;
}

/**
 * The type step when the service gave a larger party another type than the one it replaced
 * (`viewFor`'s `moved`): a heading says so and takes the focus (the step's heading, announced),
 * its description says what changes (an enquiry, the terms and price, a duration that cannot
 * carry over), and the guest continues as that type or goes back to change the party. Nothing the
 * guest chose is dropped unsaid.
 */
export function renderMoved({ html }: LitTags, way: WayOn) {
  const { choices, answer, format, wording } = way;
  const s = enGBLaterOr(wording.strings);
  const replaced = way.replaced!;
  const from = format('type', replaced.type!);
  const to = format('type', choices.type!);
  const carried = continuedChoices(choices, replaced, answer);
  const duration = replaced.duration;
  const lengths =
    answer.fields.duration?.suggestions.filter((item) => item.valid).map((item) => format('duration', item.value)) ??
    [];
  const list = new Intl.ListFormat(wording.locale, { type: 'disjunction' }).format(lengths);
  const said =
    duration === undefined
      ? ''
      : carried.duration === duration
        ? s.durationKept(format('duration', duration))
        : lengths.length
          ? s.durationLost(to, list, format('duration', duration))
          : '';
  // The chosen time's action (or the answer's): an enquiry is said as one. One text node: the
  // description a screen reader reads with the heading joins text nodes without their spaces.
  const action = answer.fields.time?.suggestions.find((item) => item.value === choices.time)?.action ?? answer.action;
  return html`<div role="group" part="step" aria-labelledby="step-title" data-step="type" data-moved>
    <h2 id="step-title" tabindex="-1" aria-describedby="moved-detail">${s.movedTitle(choices.num_people ?? 0, to)}</h2>
    <p id="moved-detail">
      ${`${action === 'enquire' || action === 'may_enquire' ? s.movedEnquiry(to, from) : s.movedTerms(to, from)} ${said}`}
    </p>
    <p>
      <button
        type="button"
        class="primary"
        data-continue
        @click=${() => way.send({ type: 'retype', choices: carried })}
      >
        ${s.continueAs(to)}
      </button>
    </p>
    <p>
      <button
        type="button"
        class="link"
        data-change-party
        @click=${() => way.send({ type: 'retype', choices: restoredChoices(choices, replaced) })}
      >
        ${s.changeParty}
      </button>
    </p>
  </div>`;
}
