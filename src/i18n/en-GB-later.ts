/**
 * The English (UK) words only the later steps use (the details form, the confirmation's body and
 * calendar links, the party step, a larger party's way on): they travel with those templates in
 * the later steps chunk (`later-steps.ts`), so the bundle does not carry them. Every other locale
 * module has its own (`LocaleStrings`).
 */
export const enGBLater = {
  otherSize: 'Other party size',
  choose: 'Choose',
  findOptions: 'Find options',
  largerParty: (max: number) => `More than ${max} people?`,
  partyFor: (name: string | null, min: number, max: number | null) =>
    `${name ? `${name} is` : 'Online bookings are'} for ${max === null ? `${min} or more` : min === max ? max : `${min} to ${max}`} guests`,
  offerSizes: (names: string) => `Offer for the marked sizes: ${names}`,
  offersTitle: 'Offers',
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
  // The quick picks beside the notes (`state/requests.ts`): a button's label and the phrase it puts
  // in the notes. No phrase may hold another, or one pick would show pressed for the other's phrase.
  requestsTitle: 'Quick requests',
  requests: [
    ['Birthday', 'Celebrating a birthday'],
    ['Anniversary', 'Celebrating an anniversary'],
    ['Dietary needs', 'Dietary needs:'],
    ['Wheelchair access', 'Wheelchair access needed'],
    ['High chair', 'A high chair, please'],
  ] as [label: string, phrase: string][],
  notesLong: (max: number, length: number) =>
    `Notes can be up to ${max} characters and these have ${length}: please shorten them.`,
  notesSent: 'Your notes',
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
  // Manage, cancel and change (issue 36): the confirmation's link, a change said, its cancel step.
  manageLink: 'Manage or cancel this booking',
  changedTitle: 'Booking changed',
  previousCancelled: (reference: string) => `Your previous booking, ${reference}, is cancelled.`,
  /** A change whose old booking could not be cancelled online: it still stands, and who cancels it. */
  previousKept: (reference: string, phone?: string) =>
    `Your previous booking, ${reference}, could not be cancelled online and still stands: please ${phone ? `call the venue on ${phone}` : 'contact the venue'} to cancel it.`,
  cancelInstead: 'Cancel this booking instead',
  cancelAsk: (reference: string) =>
    `${reference ? `Cancel booking ${reference}?` : 'Cancel this booking?'} This cannot be undone.`,
  cancelYes: 'Yes, cancel it',
  cancelKeep: 'No, keep it',
  cancelling: 'Cancelling…',
  cancelled: (reference: string) => `Booking ${reference} is cancelled.`,
  alreadyCancelled: (reference: string) => `Booking ${reference} was already cancelled.`,
  // A larger party's way on (issue 35): a dead end's help, and a change of type said and confirmed.
  noTypeTakes: (people: string) => `No booking here takes ${people} online.`,
  fitDays: (name: string, range: string | null, days: string) =>
    range ? `${name} takes ${range}, ${days}.` : `${name}: ${days}.`,
  everyDay: 'every day',
  dayRange: (first: string, last: string) => `${first} to ${last}`,
  enquireAs: (name: string) => `Send an enquiry for ${name}`,
  bookAs: (name: string) => `Book ${name}`,
  talkToVenue: 'Or talk to the venue:',
  movedTitle: (people: number, to: string) => `A party of ${people} is booked as ${to}`,
  movedEnquiry: (to: string, from: string) =>
    `${from} does not take a party this size. ${to} is an enquiry: the venue confirms it, and its terms and price may differ.`,
  movedTerms: (to: string, from: string) =>
    `${from} does not take a party this size, and the terms and price of ${to} may differ.`,
  durationLost: (to: string, lengths: string, duration: string) =>
    `${to} lasts ${lengths}, so your ${duration} cannot carry over: you choose its length next.`,
  durationKept: (duration: string) => `Your ${duration} carries over.`,
  continueAs: (to: string) => `Continue as ${to}`,
  changeParty: 'Change the party size',
  // The hand-off's money terms (issue 37): never "hold", for the card check takes no money.
  handoffIntro: 'On the venue’s booking site, before the booking is made:',
  handoffPayment:
    'A deposit is taken, or your card is checked. A card check is not a charge: no money is taken; if you do not come, the venue may later charge no more than the amount its policy states.',
  handoffPreorders: 'You can pre-order food and drink there.',
  handoffEnquiry:
    'This is an enquiry: nothing is paid now. If the venue accepts it and asks for a payment, a payment link may follow by email.',
  handoffPolicy: 'The venue’s policy:',
};

/** The words of the later steps, in one locale. */
export type LaterStrings = typeof enGBLater;
