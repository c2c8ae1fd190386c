/**
 * The date step's month calendar, cally style: a real `<table>` of day `<button>`s with full-date
 * accessible labels, `aria-pressed` on the chosen day, `aria-current="date"` on London's today and
 * one roving `tabindex`. Unavailable days stay focusable (`aria-disabled`) so keyboard users hear
 * why; the reason of the focused day is shown under the table. State is exposed as part tokens.
 */
import { html, nothing } from 'lit';
import type { Suggestion } from '../api/normalize.js';
import { createMonth, weekdayDates } from '../month-grid.js';
import type { Strings } from '../i18n/en-GB.js';
import { formatVenueDate } from '../venue-time.js';

/** What the calendar renders. */
export interface DatePickerProps {
  /** The day holding the roving tabindex; its month is shown. */
  focus: string;
  selected: string | undefined;
  /** London's today. */
  today: string;
  min: string;
  max: string;
  /** The date suggestions of the latest answer, by date. */
  days: Map<string, Suggestion>;
  locale: string;
  strings: Strings;
  onPick: (date: string, valid: boolean) => void;
  onKey: (event: KeyboardEvent) => void;
  onMonth: (delta: number) => void;
}

/** Renders the month of `props.focus`. */
export function renderDatePicker(props: DatePickerProps) {
  const { focus, selected, today, min, max, days, locale, strings } = props;
  const month = createMonth(focus);
  const focusDay = days.get(focus);
  const reason = focusDay?.valid ? null : (focusDay?.message ?? strings.unavailable);
  const title = formatVenueDate(`${month.month}-01`, locale, { month: 'long', year: 'numeric' });
  return html`<div class="calendar" part="calendar">
    <div class="calendar-head">
      <button
        type="button"
        class="nav"
        part="calendar-nav"
        aria-label=${strings.previousMonth}
        ?disabled=${month.month <= min.slice(0, 7)}
        @click=${() => props.onMonth(-1)}
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
        @click=${() => props.onMonth(1)}
      >
        ›
      </button>
    </div>
    <table aria-labelledby="month-title" @keydown=${props.onKey}>
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
                const suggestion = days.get(day.date);
                const valid = Boolean(suggestion?.valid) && day.date >= min && day.date <= max;
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
                    aria-describedby=${!valid && day.date === focus ? 'day-reason' : nothing}
                    @click=${() => props.onPick(day.date, valid)}
                  >
                    ${day.day}
                  </button>
                </td>`;
              })}
            </tr>`,
        )}
      </tbody>
    </table>
    <p class="note day-reason" id="day-reason">
      ${reason ? `${formatVenueDate(focus, locale, { weekday: 'short', day: 'numeric', month: 'short' })}: ${reason}` : nothing}
    </p>
  </div>`;
}
