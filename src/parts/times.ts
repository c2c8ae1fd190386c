/**
 * The time step: compact chips, grouped by part of the day (only the parts the venue's own times
 * fall in), each group a disclosure; the group of the chosen (or prefilled) time, else the one with
 * the most bookable times, starts open. What happens on submit (instant, request, deposit) is a
 * small mark on each chip, explained once by a legend that each chip references with
 * `aria-describedby`; when every time does the same, chips carry no mark and one sentence says it.
 */
import { html, nothing } from 'lit';
import type { Suggestion } from '../api/normalize.js';
import type { Strings } from '../i18n/en-GB.js';
import { NIGHT_END } from '../venue/venue-time.js';
import { renderOption } from './options.js';

/** What happens when a time is booked: the service's action, or `deposit` (paid on the booking site). */
export type TimeKind = 'accept' | 'enquire' | 'may_enquire' | 'deposit';

/** A part of the day. */
export type DayPart = keyof Strings['dayParts'];

/**
 * The part of the day of an `HH:mm` time (boundaries in venue time); a time after midnight is the
 * end of the date's night (before `NIGHT_END`), `late`, never the morning.
 */
export function dayPart(time: string): DayPart {
  return time < NIGHT_END
    ? 'late'
    : time < '11:00'
      ? 'morning'
      : time < '15:00'
        ? 'lunch'
        : time < '17:30'
          ? 'afternoon'
          : 'evening';
}

/** What the time step renders. */
export interface TimesProps {
  strings: Strings;
  /** In the order of the venue's night (`nightMinutes`): the groups follow it. */
  suggestions: Suggestion[];
  chosen: string | undefined;
  /** Parts the guest opened or closed, over the default. */
  toggled: Partial<Record<DayPart, boolean>>;
  /** Whether the chosen type needs a deposit (nothing is then confirmed here). */
  deposit: boolean;
  format: (time: string) => string;
  /** Whether an offer can apply at a time (never a refused one): its chip shows the word (`offers` name them). */
  offered: (suggestion: Suggestion) => boolean;
  /** The offers the times' badges stand for, a line each, named once with their times and sizes (`timeOffers`). */
  offers: string[];
  onChoose: (suggestion: Suggestion) => void;
  onToggle: (part: DayPart, open: boolean) => void;
}

function kindOf(suggestion: Suggestion, deposit: boolean): TimeKind | null {
  if (!suggestion.valid || !suggestion.action || suggestion.action === 'reject') return null;
  return deposit && suggestion.action === 'accept' ? 'deposit' : suggestion.action;
}

/** Renders the grouped time chips and their legend. */
export function renderTimes(props: TimesProps) {
  const { strings: s, suggestions, chosen, deposit } = props;
  const groups = new Map<DayPart, Suggestion[]>();
  for (const item of suggestions) {
    const part = dayPart(String(item.value));
    groups.set(part, [...(groups.get(part) ?? []), item]);
  }
  const kinds = new Set(suggestions.map((item) => kindOf(item, deposit)).filter(Boolean) as TimeKind[]);
  const marked = kinds.size > 1;
  const bookable = (items: Suggestion[]) => items.filter((item) => item.valid).length;
  const parts = [...groups.keys()];
  const likely =
    (chosen && dayPart(chosen)) ||
    parts.reduce((a, b) => (bookable(groups.get(b)!) > bookable(groups.get(a)!) ? b : a));
  const what = (kind: TimeKind) => (kind === 'deposit' ? s.depositNeeded : s.actions[kind]);
  // One kind for every time: a sentence, not a key entry (a key entry without its mark reads as a mistake).
  const only = marked ? null : [...kinds][0];
  const legend = (kind: TimeKind) =>
    html`<li id="key-${kind}"><span class="mark" data-kind=${kind} aria-hidden="true"></span>${what(kind)}</li>`;
  const chips = (items: Suggestion[]) =>
    html`<ul class="options chips" role="list">
      ${items.map((item) => {
        const value = String(item.value);
        const kind = kindOf(item, deposit);
        return renderOption(
          item,
          chosen === value,
          props.onChoose,
          html`${props.format(value)}${marked && kind ? html`<span class="mark" data-kind=${kind} aria-hidden="true"></span>` : nothing}${props.offered(item) ? html`<span class="badge" part="badge">${s.offer}</span>` : nothing}`,
          item.valid ? null : (item.message ?? s.unavailable),
          kind && `key-${kind}`,
        );
      })}
    </ul>`;
  return html`${only ? html`<p class="legend" id="key-${only}">${what(only)}</p>` : nothing}${
    marked || props.offers.length
      ? html`<ul class="legend" aria-label=${s.legend}>
          ${marked ? [...kinds].map(legend) : nothing}${props.offers.map((line) => html`<li><span class="badge" aria-hidden="true">${s.offer}</span>${line}</li>`)}
        </ul>`
      : nothing
  }
  ${
    parts.length < 2
      ? chips(suggestions)
      : parts.map((part) => {
          const items = groups.get(part)!;
          const open = props.toggled[part] ?? part === likely;
          const first = props.format(String(items[0]!.value));
          const last = props.format(String(items[items.length - 1]!.value));
          // One bookable time reads as itself ("Morning · 10:30"), never as a range of one with a count;
          // one refused time keeps its count ("00:00 · 0 times"), or the group would read as bookable.
          const count = bookable(items);
          const span = first === last ? first : `${first}–${last}`;
          const times = first === last && count ? first : `${span} · ${s.timesCount(count)}`;
          return html`<section class="times">
            <h3>
              <button
                type="button"
                class="group"
                part="time-group"
                aria-expanded=${open ? 'true' : 'false'}
                aria-controls="times-${part}"
                data-part=${part}
                @click=${() => props.onToggle(part, !open)}
              >
                <span>${s.dayParts[part]}</span> <small>${times}</small>
              </button>
            </h3>
            <div id="times-${part}" ?hidden=${!open}>${chips(items)}</div>
          </section>`;
        })
  }`;
}
