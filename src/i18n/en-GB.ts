/**
 * The widget's English (UK) strings: the built-in locale, and with `en-GB-later.ts` the shape every
 * other locale module must fill (`LocaleStrings`), so a missing translation is a type error rather
 * than a blank button. Dates, times, durations and numbers are not here: `Intl` formats them in the
 * widget's locale. The words only the details form and the confirmation use are in `en-GB-later.ts`,
 * which travels with them in the later steps chunk.
 */
import type { LaterStrings } from './en-GB-later.js';

export const enGB = {
  stepTitles: {
    venue: 'Where would you like to book?',
    type: 'What would you like to book?',
    date: 'Which day?',
    time: 'What time?',
    duration: 'For how long?',
    num_people: 'How many people?',
  },
  fieldNames: {
    venue: 'Venue',
    type: 'Booking',
    date: 'Date',
    time: 'Time',
    duration: 'Duration',
    num_people: 'People',
  },
  summary: 'Your choices',
  change: 'Change',
  loading: 'Checking availability…',
  unavailable: 'Not available',
  noOptions: 'Nothing is available for these choices. Try changing an earlier choice.',
  problem: (field: string, value: string) => `${field} ${value} is not available with your other choices.`,
  nearest: 'Nearest alternatives:',
  rejected: 'The venue cannot take this booking.',
  people: (count: number) => (count === 1 ? '1 person' : `${count} people`),
  dayParts: { morning: 'Morning', lunch: 'Lunch', afternoon: 'Afternoon', evening: 'Evening', late: 'After midnight' },
  timesCount: (count: number) => (count === 1 ? '1 time' : `${count} times`),
  legend: 'Key',
  peopleRange: (min: number | null, max: number | null) =>
    min !== null && max !== null
      ? min === max
        ? `${min} people`
        : `${min}–${max} people`
      : min !== null
        ? `${min}+ people`
        : `up to ${max} people`,
  actions: {
    accept: 'Instant confirmation',
    enquire: 'Enquiry: the venue confirms',
    may_enquire: 'Fully booked: send a request',
    reject: 'Not available',
  },
  offer: 'Offer',
  untilClose: 'Until close',
  endsAt: (time: string) => `ends ${time}`,
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  offersAt: 'Offers at',
  redirectTitle: 'Finish on the booking site',
  redirectNote:
    'This booking needs a deposit or extra details: you will finish it on the venue’s booking site and come back here.',
  continueToSite: 'Continue to the booking site',
  depositNeeded: 'Deposit needed on the booking site',
  cannotBookTitle: 'This booking cannot be made here',
  cannotBookNote: 'The booking site is not available from this page right now. Please book with the venue directly.',
  confirmedTitle: 'Booking confirmed',
  enquiryTitle: 'Enquiry received',
  reference: 'Reference',
  bookAgain: 'Make another booking',
  open: 'Book a table',
  close: 'Close',
  retry: 'Try again',
  siteRefused: 'Online booking is not available on this site yet. Please book with the venue directly.',
  errors: {
    network: 'We could not reach the booking service. Check your connection and try again.',
    timeout: 'The booking service is taking too long. Please try again.',
    'rate-limited': 'The booking service is busy right now. Please try again in a moment.',
    server: 'Something went wrong at the booking service. Please try again.',
    invalid: 'The booking service could not accept these details.',
    aborted: '',
  },
};

/** The strings of one locale that the bundle's own templates use (en-GB's are bundled). */
export type Strings = typeof enGB;

/** All the strings of one locale: what every on-demand locale module fills. */
export type LocaleStrings = Strings & LaterStrings;
