/**
 * The party step's rarely needed parts: the select for the sizes past the chips, and the field for
 * a party larger than the list. They travel in the later steps chunk (`later-steps.ts`), which
 * imports nothing: Lit's tags and the largest size the proxy takes come in as arguments.
 */
import type { Strings } from '../i18n/en-GB.js';
import type { LitTags } from './details.js';

/** What the select needs of the party step's props (`PartyProps`). */
export interface SizeSelectProps {
  strings: Strings;
  chosen: number | undefined;
  qualifies: (size: number) => boolean;
  onChoose: (size: number) => void;
}

/** The sizes past the chips, in a select with a button (a select's change fires on arrow keys). */
export function renderSizeSelect({ html }: LitTags, props: SizeSelectProps, sizes: number[], mark: boolean) {
  const s = props.strings;
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

/** Asks how many people a party larger than the list holds. */
export function renderLarger(
  { html }: LitTags,
  s: Strings,
  from: number,
  max: number,
  onLarger: (size: number) => void,
) {
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
