/**
 * The English (UK) words of the proxy's pages for guests and venues: the reference every other
 * language's module must fill (`PageWords`), so a missing translation is a type error rather than
 * a blank heading. The widget's own words are in src/i18n/, built the same way; the proxy shares
 * only their shape, not their code (it imports nothing but types from the widget). The operator's
 * pages (status, embed studio) speak English only, so their words stay in their modules.
 */
export const enGB = {
  /** The `lang` of a page in these words. */
  lang: 'en-GB',
  /** The banner of a page while the proxy books on a sandbox. */
  practice: 'Practice mode: bookings here are not real.',
  /** The booking page, `/book/<id>` (pages/booking-page.ts). */
  bookingPage: {
    book: (venue: string) => `Book at ${venue}`,
    about: (venue: string) => `Book a table at ${venue} online: choose the day, the time and how many you are.`,
    missing: 'There is no booking page here',
    missingAbout: 'Check the link you followed, or ask the venue for its booking page.',
    /** The venue's address and contact from its profile, above the widget. */
    contact: 'Where to find us',
    phone: 'Phone',
    email: 'Email',
    /** A client over its page limit (429): the page it asked for is there once the wait is over. */
    busy: 'Too many requests',
    busyAbout: 'Please wait a minute, then open this page again.',
  },
  /** A guest's manage page, `/manage/<token>`, and its change page (pages/manage-page.ts). */
  manage: {
    title: 'Your booking',
    about: 'See, change or cancel your booking.',
    missing: 'This booking link is not valid any more',
    missingAbout: 'Please contact the venue about your booking.',
    reference: 'Reference',
    venue: 'Venue',
    date: 'Date',
    time: 'Time',
    people: 'People',
    type: 'Booking',
    status: 'Status',
    /** The service's statuses as a guest reads them; any other is shown as it is. */
    statuses: {
      rejected: 'Cancelled',
      new: 'Awaiting confirmation',
      in_progress: 'Awaiting confirmation',
      complete: 'Confirmed',
    } as Record<string, string>,
    cancel: 'Cancel this booking',
    change: 'Change this booking',
    /** The confirm step of the no-script cancel form. */
    confirm: 'Do you want to cancel this booking?',
    confirmYes: 'Yes, cancel it',
    keep: 'No, keep it',
    cancelled: 'Your booking is cancelled.',
    already: 'This booking was already cancelled.',
    /** Until when (`%s`: a London date and time) the guest may act online. */
    until: 'You can change or cancel online until %s.',
    /** Why the guest may not act online, by the API's `reason`. */
    window: 'It is too close to the booking to change or cancel online.',
    capability: 'This booking cannot be changed or cancelled online.',
    statusRefused: 'This booking can no longer be changed or cancelled online.',
    venueRefused: 'This venue takes changes and cancellations by phone.',
    failed: 'The booking could not be cancelled just now.',
    /** `%s`: the venue's phone from its profile; `contact` where it has none. */
    call: 'Please call the venue on %s.',
    contact: 'Please contact the venue.',
    changeTitle: 'Change your booking',
    changeAbout: 'Choose a new day, time or party size. Your booking stays as it is until the new one is confirmed.',
    back: 'Back to your booking',
    /** A cancel form sent from another site (refused). */
    refused: 'This form can only be sent from this page.',
  },
  /**
   * The widget's fallback (pages/snippet.ts `fallbackOf`), shown where its script cannot run: the
   * ways to book, joined by \`or\` into \`sentence\`, else \`contact\`. Templates with \`%s\`, not
   * functions, because the WordPress plugin gets the same words (its words.php, written into each
   * download) and fills them with PHP's sprintf.
   */
  fallback: {
    sentence: 'Please %s.',
    page: 'book on our booking page',
    call: 'call %s',
    email: 'email %s',
    or: ' or ',
    contact: 'To book a table, please get in touch with us.',
  },
  /**
   * The return page (pages/return-page.ts), where a guest back from the booking site lands when
   * the bridge cannot take them to the venue's page. Its titles and `reference` are the widget's
   * own (test/proxy/return-bridge.test.ts keeps them identical).
   */
  returnPage: {
    confirmedTitle: 'Booking confirmed',
    enquiryTitle: 'Enquiry received',
    /** The title when the booking site sent no usable reference. */
    unknownTitle: 'Back from the booking site',
    reference: 'Reference',
    /** Under the reference: the booking is the booking site's, whatever this page says next. */
    kept: 'Keep this reference: the venue knows your booking by it.',
    /** Without a reference: where the guest learns how the booking went. */
    noReference:
      'The booking site sent no booking reference back. If you completed your booking, its confirmation is on its way to your email.',
    /** A return without a valid hand-off id: the booking site, not this page, confirms. */
    byEmail: 'The booking site will confirm your booking by email.',
    /** Why the guest is on this page rather than the venue's. */
    notBack: 'We could not take you back to the venue’s page automatically.',
    back: (host: string) => `Back to ${host}`,
  },
};

/** The words of one language of the pages: what every language module fills. */
export type PageWords = typeof enGB;
