/** Dutch strings, loaded on demand when `locale` starts with `nl`. */
import type { LocaleStrings } from './en-GB.js';

export const strings: LocaleStrings = {
  stepTitles: {
    venue: 'Waar wilt u reserveren?',
    type: 'Wat wilt u reserveren?',
    date: 'Welke dag?',
    time: 'Hoe laat?',
    duration: 'Hoe lang?',
    num_people: 'Met hoeveel personen?',
  },
  fieldNames: {
    venue: 'Locatie',
    type: 'Reservering',
    date: 'Datum',
    time: 'Tijd',
    duration: 'Duur',
    num_people: 'Personen',
  },
  summary: 'Uw keuzes',
  change: 'Wijzigen',
  loading: 'Beschikbaarheid controleren…',
  unavailable: 'Niet beschikbaar',
  noOptions: 'Er is niets beschikbaar voor deze keuzes. Wijzig een eerdere keuze.',
  problem: (field, value) => `${field} ${value} is niet beschikbaar met uw andere keuzes.`,
  nearest: 'Dichtstbijzijnde alternatieven:',
  rejected: 'De locatie kan deze reservering niet aannemen.',
  people: (count) => (count === 1 ? '1 persoon' : `${count} personen`),
  dayParts: { morning: 'Ochtend', lunch: 'Lunch', afternoon: 'Middag', evening: 'Avond', late: 'Na middernacht' },
  timesCount: (count) => (count === 1 ? '1 tijd' : `${count} tijden`),
  legend: 'Legenda',
  otherSize: 'Ander aantal personen',
  choose: 'Kiezen',
  largerParty: (max) => `Meer dan ${max} personen?`,
  findOptions: 'Mogelijkheden tonen',
  // A larger party's way on (issue 35): a dead end's help, and a change of type said and confirmed.
  noTypeTakes: (people) => `Geen enkele reservering online is voor ${people}.`,
  fitDays: (name, range, days) => (range ? `${name} is voor ${range}, ${days}.` : `${name}: ${days}.`),
  everyDay: 'elke dag',
  dayRange: (first, last) => `${first} t/m ${last}`,
  enquireAs: (name) => `Aanvraag voor ${name} sturen`,
  bookAs: (name) => `${name} reserveren`,
  talkToVenue: 'Of neem contact op met de zaak:',
  movedTitle: (people, to) => `Een groep van ${people} wordt geboekt als ${to}`,
  movedEnquiry: (to, from) =>
    `${from} is niet voor een groep van deze grootte. ${to} is een aanvraag: de zaak bevestigt die, en voorwaarden en prijs kunnen verschillen.`,
  movedTerms: (to, from) =>
    `${from} is niet voor een groep van deze grootte, en de voorwaarden en prijs van ${to} kunnen verschillen.`,
  durationLost: (to, lengths, duration) =>
    `${to} duurt ${lengths}, dus uw duur van ${duration} kan niet mee: u kiest straks de duur.`,
  durationKept: (duration) => `Uw duur van ${duration} blijft staan.`,
  continueAs: (to) => `Doorgaan als ${to}`,
  changeParty: 'Aantal personen wijzigen',
  partyFor: (name, min, max) =>
    `${name ? `${name} is` : 'Online reserveringen zijn'} voor ${max === null ? `${min} of meer` : min === max ? max : `${min} tot ${max}`} gasten`,
  peopleRange: (min, max) =>
    min !== null && max !== null
      ? min === max
        ? `${min} personen`
        : `${min}–${max} personen`
      : min !== null
        ? `${min}+ personen`
        : `tot ${max} personen`,
  offerSizes: (names) => `Aanbieding voor de gemarkeerde aantallen: ${names}`,
  actions: {
    accept: 'Direct bevestigd',
    enquire: 'Aanvraag: de locatie bevestigt',
    may_enquire: 'Volgeboekt: stuur een aanvraag',
    reject: 'Niet beschikbaar',
  },
  offer: 'Aanbieding',
  untilClose: 'Tot sluitingstijd',
  endsAt: (time) => `tot ${time}`,
  previousMonth: 'Vorige maand',
  nextMonth: 'Volgende maand',
  offersTitle: 'Aanbiedingen',
  offersAt: 'Aanbiedingen om',
  noOffer: 'Geen aanbieding',
  offerValid: (from, to) =>
    from && to ? `Geldig van ${from} tot ${to}` : to ? `Geldig tot ${to}` : from ? `Geldig vanaf ${from}` : '',
  detailsTitle: 'Uw gegevens',
  firstName: 'Voornaam',
  lastName: 'Achternaam',
  email: 'E-mail',
  phone: 'Telefoon',
  dob: 'Geboortedatum',
  notes: 'Opmerkingen voor de locatie (optioneel)',
  requestsTitle: 'Snelle verzoeken',
  requests: [
    ['Verjaardag', 'We vieren een verjaardag'],
    ['Jubileum', 'We vieren een jubileum'],
    ['Dieetwensen', 'Dieetwensen:'],
    ['Rolstoeltoegang', 'Rolstoeltoegankelijkheid nodig'],
    ['Kinderstoel', 'Graag een kinderstoel'],
  ],
  notesLong: (max, length) =>
    `Opmerkingen mogen tot ${max} tekens lang zijn en deze hebben er ${length}: maak ze korter.`,
  notesSent: 'Uw opmerkingen',
  marketingTitle: 'Op de hoogte blijven (optioneel)',
  guestErrors: {
    required: (field) => `Vul uw ${field.toLowerCase()} in.`,
    email: 'Vul een e-mailadres in zoals naam@voorbeeld.nl.',
    phone: 'Vul een telefoonnummer in (cijfers, eventueel met +).',
    dob: 'Vul een geboortedatum in het verleden in.',
    text: 'Maak dit korter, zonder stuurtekens.',
  },
  bookNow: 'Nu reserveren',
  sendEnquiry: 'Aanvraag versturen',
  sendRequest: 'Aanvraag versturen',
  redirectTitle: 'Afronden op de reserveringssite',
  redirectNote:
    'Voor deze reservering is een aanbetaling of meer informatie nodig: u rondt haar af op de reserveringssite en komt daarna hier terug.',
  continueToSite: 'Verder naar de reserveringssite',
  depositNeeded: 'Aanbetaling via de reserveringssite',
  handoffIntro: 'Op de reserveringssite van de zaak, voordat de reservering wordt gemaakt:',
  handoffPayment:
    'Er wordt een aanbetaling gevraagd of uw kaart wordt gecontroleerd. Een kaartcontrole is geen betaling: er wordt geen geld afgeschreven; komt u niet, dan mag de zaak later hooguit het bedrag rekenen dat in haar voorwaarden staat.',
  handoffPreorders: 'Daar kunt u eten en drinken vooraf bestellen.',
  handoffEnquiry:
    'Dit is een aanvraag: u betaalt nu niets. Als de zaak de aanvraag aanneemt en om betaling vraagt, kan er een betaallink per e-mail volgen.',
  handoffPolicy: 'Voorwaarden van de zaak:',
  cannotBookTitle: 'Deze reservering kan hier niet worden gemaakt',
  cannotBookNote:
    'De reserveringssite is op dit moment niet bereikbaar vanaf deze pagina. Reserveer rechtstreeks bij de zaak.',
  submitting: 'Versturen…',
  confirmedTitle: 'Reservering bevestigd',
  enquiryTitle: 'Aanvraag ontvangen',
  confirmedBody: 'Uw reservering is bevestigd. Tot ziens!',
  enquiryBody: 'De locatie bevestigt uw reservering binnenkort.',
  reference: 'Referentie',
  addToCalendar: 'Toevoegen aan agenda (.ics)',
  googleCalendar: 'Toevoegen aan Google Agenda',
  bookAgain: 'Nog een reservering maken',
  calendarTitle: (venue) => `Reservering bij ${venue}`,
  open: 'Tafel reserveren',
  close: 'Sluiten',
  retry: 'Opnieuw proberen',
  siteRefused: 'Online reserveren is op deze site nog niet beschikbaar. Reserveer rechtstreeks bij de zaak.',
  errors: {
    network: 'De reserveringsdienst is niet bereikbaar. Controleer uw verbinding en probeer het opnieuw.',
    timeout: 'De reserveringsdienst reageert te traag. Probeer het opnieuw.',
    'rate-limited': 'De reserveringsdienst is even druk. Probeer het zo opnieuw.',
    server: 'Er ging iets mis bij de reserveringsdienst. Probeer het opnieuw.',
    invalid: 'De reserveringsdienst kon deze gegevens niet aannemen.',
    aborted: '',
  },
};
