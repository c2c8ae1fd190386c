/**
 * The confirmation shown in place once a booking is stored (or on return from the booking site):
 * the reference, wording that differs for a confirmed booking and an enquiry, a summary in venue
 * time and, for a confirmed booking only, add-to-calendar links (an enquiry waits for the venue).
 */
import { html, nothing } from 'lit';
import type { CalendarEvent } from '../venue/calendar-links.js';
import type { CalendarLinks } from '../controllers/booking-data.js';
import type { Strings } from '../i18n/en-GB.js';

/** What the confirmation renders. */
export interface ConfirmationProps {
  strings: Strings;
  reference: string;
  status: 'confirmed' | 'enquiry';
  /** Label/value lines of the booking, already formatted in venue time. */
  summary: [string, string][];
  /** The calendar entry, when date and time are known. */
  event: CalendarEvent | null;
  /** The add-to-calendar links' code (null: it could not be loaded, and the links are left out). */
  links: CalendarLinks | null;
  now: Date;
  onAgain: () => void;
}

/** Renders the confirmation. */
export function renderConfirmation(props: ConfirmationProps) {
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
      confirmed && event && links
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
