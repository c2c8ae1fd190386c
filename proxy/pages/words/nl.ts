/** Dutch words of the pages, for `locale=nl` and guests whose language is Dutch. */
import type { PageWords } from './en-GB.js';

export const words: PageWords = {
  lang: 'nl',
  practice: 'Oefenmodus: reserveringen hier zijn niet echt.',
  bookingPage: {
    book: (venue) => `Reserveren bij ${venue}`,
    about: (venue) => `Reserveer online een tafel bij ${venue}: kies de dag, de tijd en met hoeveel u bent.`,
    missing: 'Hier is geen reserveringspagina',
    missingAbout: 'Controleer de link, of vraag het restaurant om zijn reserveringspagina.',
    contact: 'Waar u ons vindt',
    phone: 'Telefoon',
    email: 'E-mail',
    busy: 'Te veel verzoeken',
    busyAbout: 'Wacht een minuut en open deze pagina dan opnieuw.',
  },
  fallback: {
    sentence: 'Om te reserveren kunt u %s.',
    page: 'onze reserveringspagina gebruiken',
    call: '%s bellen',
    email: 'mailen naar %s',
    or: ' of ',
    contact: 'Neem contact met ons op om een tafel te reserveren.',
  },
  returnPage: {
    confirmedTitle: 'Reservering bevestigd',
    enquiryTitle: 'Aanvraag ontvangen',
    unknownTitle: 'Terug van de reserveringssite',
    reference: 'Referentie',
    kept: 'Bewaar deze referentie: de locatie kent uw reservering eronder.',
    noReference:
      'De reserveringssite stuurde geen referentie terug. Als u uw reservering hebt afgerond, komt de bevestiging per e-mail.',
    byEmail: 'De reserveringssite bevestigt uw reservering per e-mail.',
    notBack: 'We konden u niet automatisch terugbrengen naar de pagina van de locatie.',
    back: (host) => `Terug naar ${host}`,
  },
};
