/** German words of the pages, for `locale=de` and guests whose language is German. */
import type { PageWords } from './en-GB.js';

export const words: PageWords = {
  lang: 'de',
  practice: 'Übungsmodus: Reservierungen hier sind nicht echt.',
  bookingPage: {
    book: (venue) => `Bei ${venue} reservieren`,
    about: (venue) => `Reservieren Sie online einen Tisch bei ${venue}: Tag, Uhrzeit und Personenzahl wählen.`,
    missing: 'Hier gibt es keine Reservierungsseite',
    missingAbout: 'Prüfen Sie den Link, oder fragen Sie das Lokal nach seiner Reservierungsseite.',
    contact: 'So finden Sie uns',
    phone: 'Telefon',
    email: 'E-Mail',
    busy: 'Zu viele Anfragen',
    busyAbout: 'Bitte warten Sie eine Minute und öffnen Sie diese Seite dann erneut.',
  },
  fallback: {
    sentence: 'Bitte %s.',
    page: 'buchen Sie auf unserer Buchungsseite',
    call: 'rufen Sie uns unter %s an',
    email: 'schreiben Sie an %s',
    or: ' oder ',
    contact: 'Um einen Tisch zu reservieren, nehmen Sie bitte Kontakt mit uns auf.',
  },
  returnPage: {
    confirmedTitle: 'Reservierung bestätigt',
    enquiryTitle: 'Anfrage erhalten',
    unknownTitle: 'Zurück von der Buchungsseite',
    reference: 'Referenz',
    kept: 'Bewahren Sie diese Referenz auf: Unter ihr kennt das Lokal Ihre Reservierung.',
    noReference:
      'Die Buchungsseite hat keine Referenz zurückgeschickt. Wenn Sie Ihre Reservierung abgeschlossen haben, kommt die Bestätigung per E-Mail.',
    byEmail: 'Die Buchungsseite bestätigt Ihre Reservierung per E-Mail.',
    notBack: 'Wir konnten Sie nicht automatisch zur Seite des Lokals zurückbringen.',
    back: (host) => `Zurück zu ${host}`,
  },
};
