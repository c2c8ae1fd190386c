/**
 * The widget's English (UK) strings: the built-in locale, and the shape every other locale module
 * must fill (`Strings`), so a missing translation is a type error rather than a blank button.
 */
export const enGB = {
  stepTitles: {
    type: 'What would you like to book?',
    date: 'Which day?',
    time: 'What time?',
    duration: 'For how long?',
    num_people: 'How many people?',
  },
  fieldNames: {
    type: 'Booking',
    date: 'Date',
    time: 'Time',
    duration: 'Duration',
    num_people: 'People',
  },
  change: 'Change',
  loading: 'Checking availability…',
  unavailable: 'Not available',
  cleared: (fields: string) => `${fields} no longer available with your new choice, please choose again.`,
  noOptions: 'Nothing is available for these choices. Try changing an earlier choice.',
  people: (count: number) => (count === 1 ? '1 person' : `${count} people`),
  detailsTitle: 'Your details',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  notes: 'Notes for the venue (optional)',
  required: (field: string) => `Please enter your ${field.toLowerCase()}.`,
  invalidEmail: 'Please enter an email address like name@example.com.',
  invalidPhone: 'Please enter a phone number.',
  bookNow: 'Book now',
  sendEnquiry: 'Send enquiry',
  continueToPay: 'Continue to the booking site',
  submitting: 'Sending…',
  confirmedTitle: 'Booking confirmed',
  enquiryTitle: 'Enquiry received',
  enquiryBody: 'The venue will confirm your booking soon.',
  reference: 'Reference',
  retry: 'Try again',
  errors: {
    network: 'We could not reach the booking service. Check your connection and try again.',
    timeout: 'The booking service is taking too long. Please try again.',
    'rate-limited': 'The booking service is busy right now. Please try again in a moment.',
    server: 'Something went wrong at the booking service. Please try again.',
    invalid: 'The booking service could not accept these details.',
    aborted: '',
  },
};

/** The strings of one locale. */
export type Strings = typeof enGB;
