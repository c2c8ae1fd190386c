/**
 * The date step's month calendar, cally style: a real `<table>` of day `<button>`s with full-date
 * accessible labels, `aria-pressed` on the chosen day, `aria-current="date"` on London's today and
 * one roving `tabindex`. Unavailable days stay focusable (`aria-disabled`) and each is described by
 * its reason, so it is heard however the day is reached (focus, a screen reader's browsing); the
 * reason of the focused day is shown under the table, and said when the day is activated. State
 * is exposed as part tokens.
 */
import { html, nothing } from 'lit';
import type { Suggestion } from '../api/normalize.js';
import { addMonths, clampDate, createMonth, moveFocus, weekdayDates } from '../venue/month-grid.js';
import type { Strings } from '../i18n/en-GB.js';
import { addPlainDays, formatVenueDate } from '../venue/venue-time.js';

/** What the calendar renders. */
export interface DatePickerProps {
  /** The day the guest moved the roving tabindex to, or null (then `calendarRange` picks one). */
  focus: string | null;
  selected: string | undefined;
  /** London's today, the first day that can be picked. */
  today: string;
  /** The date suggestions of the latest answer. */
  suggestions: Suggestion[];
  locale: string;
  strings: Strings;
  /** A day was clicked: `reason` is null when it can be booked, else why not (to be said); its button takes the focus. */
  onPick: (date: string, reason: string | null) => void;
  /** The focus moves to `date`: by the keyboard (`key`: focus its button once rendered) or by a month button. */
  onFocus: (date: string, key: boolean) => void;
}

/**
 * The days the calendar spans and the one it shows: from today to the last suggested date (a year
 * ahead without any), focused on the guest's focus, else the chosen date, else the first bookable one.
 */
export function calendarRange(
  suggestions: readonly Pick<Suggestion, 'value' | 'valid'>[],
  focus: string | null,
  selected: string | undefined,
  today: string,
): { focus: string; max: string } {
  const last = suggestions[suggestions.length - 1];
  const first = suggestions.find((item) => item.valid)?.value;
  return {
    focus: focus ?? selected ?? (first ? String(first) : today),
    max: last ? String(last.value) : addPlainDays(today, 365),
  };
}

/** Renders the month of the focused day. */
export function renderDatePicker(props: DatePickerProps) {
  const { selected, today, locale, strings } = props;
  const min = today;
  const { focus, max } = calendarRange(props.suggestions, props.focus, selected, today);
  const days = new Map(props.suggestions.map((item) => [String(item.value), item]));
  const onKey = (event: KeyboardEvent) => {
    const next = moveFocus(focus, event.key, event.shiftKey, min, max);
    if (!next) return;
    event.preventDefault();
    props.onFocus(next, true);
  };
  const onMonth = (delta: number) => {
    props.onFocus(clampDate(addMonths(focus, delta), min, max), false);
  };
  const month = createMonth(focus);
  // Why a day cannot be booked, null when it can; each distinct reason is one hidden description,
  // `why-N` for the Nth (1-based: a reason not listed yet is pushed, and its number is the new length).
  const why = (date: string) => {
    const day = days.get(date);
    return day?.valid && date >= min && date <= max ? null : (day?.message ?? strings.unavailable);
  };
  const reasons: string[] = [];
  const reason = why(focus);
  const title = formatVenueDate(`${month.month}-01`, locale, { month: 'long', year: 'numeric' });
  return html`<div class="calendar" part="calendar">
    <div class="calendar-head">
      <button
        type="button"
        class="nav"
        part="calendar-nav"
        aria-label=${strings.previousMonth}
        ?disabled=${month.month <= min.slice(0, 7)}
        @click=${() => onMonth(-1)}
      >
        ‹
      </button>
      <p class="month" id="month-title" aria-live="polite">${title}</p>
      <button
        type="button"
        class="nav"
        part="calendar-nav"
        aria-label=${strings.nextMonth}
        ?disabled=${month.month >= max.slice(0, 7)}
        @click=${() => onMonth(1)}
      >
        ›
      </button>
    </div>
    <table aria-labelledby="month-title" @keydown=${onKey}>
      <thead>
        <tr>
          ${weekdayDates().map(
            // The letter is for the eye; assistive tech reads the full name (an abbr title is not read).
            (date) => {
              const name = formatVenueDate(date, locale, { weekday: 'long' });
              return html`<th scope="col">
                <abbr title=${name} aria-hidden="true">${formatVenueDate(date, locale, { weekday: 'narrow' })}</abbr
                ><span class="visually-hidden">${name}</span>
              </th>`;
            },
          )}
        </tr>
      </thead>
      <tbody>
        ${month.weeks.map(
          (week) =>
            html`<tr>
              ${week.map((day) => {
                if (day.outside) return html`<td></td>`;
                const refused = why(day.date);
                const valid = !refused;
                const pressed = day.date === selected;
                const parts = [
                  'day',
                  valid ? 'available' : 'unavailable',
                  pressed ? 'selected' : '',
                  day.date === today ? 'today' : '',
                ]
                  .filter(Boolean)
                  .join(' ');
                return html`<td>
                  <button
                    type="button"
                    class="day"
                    part=${parts}
                    data-date=${day.date}
                    tabindex=${day.date === focus ? 0 : -1}
                    aria-label=${formatVenueDate(day.date, locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })}
                    aria-pressed=${pressed ? 'true' : 'false'}
                    aria-current=${day.date === today ? 'date' : nothing}
                    aria-disabled=${valid ? nothing : 'true'}
                    aria-describedby=${refused ? `why-${reasons.indexOf(refused) + 1 || reasons.push(refused)}` : nothing}
                    @click=${() => props.onPick(day.date, refused)}
                  >
                    ${day.day}
                  </button>
                </td>`;
              })}
            </tr>`,
        )}
      </tbody>
    </table>
    ${reasons.map((text, index) => html`<span id="why-${index + 1}" hidden>${text}</span>`)}
    <p class="note day-reason" id="day-reason">
      ${reason ? `${formatVenueDate(focus, locale, { weekday: 'short', day: 'numeric', month: 'short' })}: ${reason}` : nothing}
    </p>
  </div>`;
}
