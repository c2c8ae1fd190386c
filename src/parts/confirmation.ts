/**
 * The confirmation shown in place once a booking is stored (or on return from the booking site):
 * the reference, wording that differs for a confirmed booking and an enquiry, a summary in venue
 * time and, for a confirmed booking only, add-to-calendar links (an enquiry waits for the venue).
 * It travels in the later steps chunk (`later-steps.ts`), so Lit's tags come in as an argument;
 * if that chunk cannot be loaded, `parts/flow.ts` shows a one-line confirmation in its place.
 */
import type { CalendarEvent, googleCalendarUrl, icsDataUrl } from '../venue/calendar-links.js';
import type { LocaleStrings } from '../i18n/en-GB.js';
import type { LitTags } from './details.js';

/** What the confirmation renders. */
export interface ConfirmationProps {
  /** The locale's strings, en-GB's later words filled in from the chunk (`enGBLater`). */
  strings: LocaleStrings;
  reference: string;
  status: 'confirmed' | 'enquiry';
  /** Label/value lines of the booking, already formatted in venue time. */
  summary: [string, string][];
  /** The calendar entry, when date and time are known. */
  event: CalendarEvent | null;
  /** The add-to-calendar links' code (the same chunk as this template). */
  links: { icsDataUrl: typeof icsDataUrl; googleCalendarUrl: typeof googleCalendarUrl };
  now: Date;
  onAgain: () => void;
}

/** Renders the confirmation. */
export function renderConfirmation({ html, nothing }: LitTags, props: ConfirmationProps) {
  const { strings: s, event, links } = props;
  const confirmed = props.status === 'confirmed';
  return html`<div role="group" part="confirmation" aria-labelledby="step-title" data-status=${props.status}>
    <h2 id="step-title" tabindex="-1">${confirmed ? s.confirmedTitle : s.enquiryTitle}</h2>
    <p>${confirmed ? s.confirmedBody : s.enquiryBody}</p>
    <p>${s.reference}: <strong class="reference">${props.reference}</strong></p>
    ${
      props.summary.length
        ? html`<dl class="booking-summary">
            ${props.summary.map(
              ([label, value]) =>
                html`<dt>${label}</dt>
                  <dd>${value}</dd>`,
            )}
          </dl>`
        : nothing
    }
    ${
      // An enquiry is not a booking yet: no calendar entry until the venue confirms it.
      confirmed && event
        ? html`<p class="calendar-links">
            <a part="ics" href=${links.icsDataUrl(event, props.now)} download=${`booking-${props.reference}.ics`}
              >${s.addToCalendar}</a
            >
            <a part="google-calendar" href=${links.googleCalendarUrl(event)} target="_blank" rel="noopener"
              >${s.googleCalendar}</a
            >
          </p>`
        : nothing
    }
    <button type="button" class="link" @click=${props.onAgain}>${s.bookAgain}</button>
  </div>`;
}
