/**
 * The confirmation shown in place once a booking is stored (or on return from the booking site):
 * the reference, wording that differs for a confirmed booking, an enquiry and a change (which names
 * the booking it cancelled), a summary in venue time, for a confirmed booking only add-to-calendar
 * links (an enquiry waits for the venue), and the proxy's link to manage or cancel the booking.
 * It travels in the later steps chunk (`later-steps.ts`), so Lit's tags come in as an argument;
 * if that chunk cannot be loaded, `parts/flow.ts` shows a one-line confirmation in its place.
 */
import type { Choices } from '../api/normalize.js';
import type { BookingField } from '../api/types.js';
import type { CalendarEvent, googleCalendarUrl, icsDataUrl } from '../venue/calendar-links.js';
import type { LocaleStrings } from '../i18n/en-GB.js';
import type { LitTags } from './details.js';
import type { GuestForm } from '../controllers/guest-form.js';

/**
 * The stored booking and the bundle's wording of it. The lines and the calendar entry are built
 * here, in the chunk, as only the confirmation shows them; the formatting comes in as functions,
 * so the chunk imports nothing at run time.
 */
export interface Booked {
  /** The locale's strings, en-GB's later words filled in from the chunk (`enGBLater`). */
  strings: LocaleStrings;
  reference: string;
  choices: Choices;
  /** The venue's name, or '' for a single venue. */
  venue: string;
  /** The booking's fields in the order the lines list them (`BOOKING_FIELDS`). */
  fields: readonly BookingField[];
  /** A value for people in venue time, the date in full (the summary's is short). */
  format: (field: BookingField, value: string | number) => string;
  /** Minutes of a duration as the service sent it (`durationMinutes`). */
  minutes: (duration: number) => number;
  /**
   * The notes this page sent with the booking (the form's), shown back and put in the calendar
   * entry; none for a confirmation from the booking site or kept across a reload (notes are not saved).
   */
  notes?: string;
  /** The proxy's page to look up, cancel or change the booking (`manage_url` of its answer). */
  manage_url?: string;
}

/** What the confirmation renders. */
export interface ConfirmationProps extends Omit<Booked, 'notes'> {
  status: 'confirmed' | 'enquiry';
  /** A change: the reference of the booking this one replaced, which the proxy cancelled. */
  previous?: string;
  /** A change whose old booking could not be cancelled online: it still stands. */
  kept?: { reference: string; phone?: string };
  /**
   * The details form, when the later steps are here: its notes are shown back, and it weighs the
   * booking for the ad platforms (`GuestForm.confirmed`).
   */
  form: GuestForm | null;
  /** The add-to-calendar links' code (the same chunk as this template). */
  links: { icsDataUrl: typeof icsDataUrl; googleCalendarUrl: typeof googleCalendarUrl };
  now: Date;
  onAgain: () => void;
}

/**
 * The manage link when it is a web address (the proxy's answer is trusted, but an `href` that ran
 * script would be the page's problem, so anything else is left out).
 */
export const manageLink = (url: string | undefined) => (url && /^https?:\/\//i.test(url) ? url : '');

/** The label/value lines of a stored booking, in venue time. */
export function confirmationLines({ strings, choices, venue, fields, format }: Booked): [string, string][] {
  const names = strings.fieldNames;
  const lines: [string, string][] = venue ? [[names.venue, venue]] : [];
  for (const field of fields) {
    const value = choices[field];
    if (value !== undefined && value !== '') lines.push([names[field], format(field, value)]);
  }
  return lines;
}

/** The calendar entry of a stored booking, when its date and time are known. */
export function calendarEvent({
  strings: s,
  reference,
  choices,
  venue,
  format,
  minutes,
  notes,
  manage_url,
}: Booked): CalendarEvent | null {
  const { date, time, duration, type } = choices;
  if (!date || !time) return null;
  // The manage link in the description too: Google Calendar's links and many calendars show no URL.
  const url = manageLink(manage_url);
  const lines = [`${s.reference}: ${reference}`, notes?.trim(), url && `${s.manageLink}: ${url}`];
  return {
    reference,
    title: venue ? s.calendarTitle(venue) : type ? format('type', type) : s.fieldNames.type,
    date,
    time,
    minutes: duration === undefined ? null : minutes(duration),
    location: venue,
    description: lines.filter(Boolean).join('\n\n'),
    ...(url ? { url } : {}),
  };
}

/** Renders the confirmation. */
export function renderConfirmation({ html, nothing }: LitTags, props: ConfirmationProps) {
  const { strings: s, links, form, choices } = props;
  const booked = { ...props, notes: form?.details.notes };
  const summary = confirmationLines(booked);
  const event = calendarEvent(booked);
  const confirmed = props.status === 'confirmed';
  const notes = booked.notes?.trim();
  const manage = manageLink(props.manage_url);
  const { reference, status, previous, kept } = props;
  const party = Number(choices.num_people) || undefined;
  const type = choices.type ? String(choices.type) : undefined;
  // A change counts no new booking, finished (`previous`) or not (`kept`).
  form?.confirmed(
    { reference, status, type, typeName: type && props.format('type', type), party },
    !!(previous || kept),
  );
  return html`<div role="group" part="confirmation" aria-labelledby="step-title" data-status=${props.status}>
    <h2 id="step-title" tabindex="-1">${previous ? s.changedTitle : confirmed ? s.confirmedTitle : s.enquiryTitle}</h2>
    <p>${confirmed ? s.confirmedBody : s.enquiryBody}</p>
    ${previous ? html`<p data-previous>${s.previousCancelled(previous)}</p>` : nothing}
    ${kept ? html`<p data-kept data-announce>${s.previousKept(kept.reference, kept.phone)}</p>` : nothing}
    <p data-announce>${s.reference}: <strong class="reference">${props.reference}</strong></p>
    ${
      summary.length || notes
        ? html`<dl class="booking-summary">
            ${summary.map(
              ([label, value]) =>
                html`<dt>${label}</dt>
                  <dd>${value}</dd>`,
            )}
            ${
              // The notes' lines as the guest wrote them (a line break each; no inline style, for strict CSP).
              notes
                ? html`<dt>${s.notesSent}</dt>
                    <dd part="notes">
                      ${notes.split('\n').map((line, i) => html`${i ? html`<br />` : nothing}${line}`)}
                    </dd>`
                : nothing
            }
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
    ${manage ? html`<p><a part="manage" href=${manage}>${s.manageLink}</a></p>` : nothing}
    <button type="button" class="link" @click=${props.onAgain}>${s.bookAgain}</button>
  </div>`;
}
