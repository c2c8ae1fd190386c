/**
 * The English (UK) words only the later steps use (the details form, the confirmation's body and
 * calendar links): they travel with those templates in the later steps chunk (`later-steps.ts`),
 * so the bundle does not carry them. Every other locale module has its own (`LocaleStrings`).
 */
export const enGBLater = {
  noOffer: 'No offer',
  offerValid: (from: string | null, to: string | null) =>
    from && to ? `Valid ${from} to ${to}` : to ? `Valid until ${to}` : from ? `Valid from ${from}` : '',
  detailsTitle: 'Your details',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  dob: 'Date of birth',
  notes: 'Notes for the venue (optional)',
  marketingTitle: 'Keep in touch (optional)',
  guestErrors: {
    required: (field: string) => `Please enter your ${field.toLowerCase()}.`,
    email: 'Please enter an email address like name@example.com.',
    phone: 'Please enter a phone number, digits only, with an optional +.',
    dob: 'Please enter a date of birth in the past.',
    text: 'Please shorten this and leave out special control characters.',
  },
  submitting: 'Sending…',
  bookNow: 'Book now',
  sendEnquiry: 'Send enquiry',
  sendRequest: 'Send request',
  confirmedBody: 'Your booking is confirmed. We look forward to seeing you.',
  enquiryBody: 'The venue will confirm your booking soon.',
  addToCalendar: 'Add to calendar (.ics)',
  googleCalendar: 'Add to Google Calendar',
  calendarTitle: (venue: string) => `Booking at ${venue}`,
};

/** The words of the later steps, in one locale. */
export type LaterStrings = typeof enGBLater;
