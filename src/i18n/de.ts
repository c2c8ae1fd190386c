/** German strings, loaded on demand when `locale` starts with `de`. */
import type { LocaleStrings } from './en-GB.js';

export const strings: LocaleStrings = {
  stepTitles: {
    venue: 'Wo möchten Sie reservieren?',
    type: 'Was möchten Sie reservieren?',
    date: 'An welchem Tag?',
    time: 'Um wie viel Uhr?',
    duration: 'Für wie lange?',
    num_people: 'Für wie viele Personen?',
  },
  fieldNames: {
    venue: 'Lokal',
    type: 'Reservierung',
    date: 'Datum',
    time: 'Uhrzeit',
    duration: 'Dauer',
    num_people: 'Personen',
  },
  summary: 'Ihre Auswahl',
  change: 'Ändern',
  loading: 'Verfügbarkeit wird geprüft…',
  unavailable: 'Nicht verfügbar',
  noOptions: 'Für diese Auswahl ist nichts verfügbar. Ändern Sie eine frühere Auswahl.',
  problem: (field, value) => `${field} ${value} ist mit Ihrer übrigen Auswahl nicht verfügbar.`,
  nearest: 'Nächste Alternativen:',
  rejected: 'Das Lokal kann diese Reservierung nicht annehmen.',
  people: (count) => (count === 1 ? '1 Person' : `${count} Personen`),
  dayParts: { morning: 'Morgen', lunch: 'Mittag', afternoon: 'Nachmittag', evening: 'Abend', late: 'Nach Mitternacht' },
  timesCount: (count) => (count === 1 ? '1 Uhrzeit' : `${count} Uhrzeiten`),
  legend: 'Legende',
  otherSize: 'Andere Personenzahl',
  choose: 'Auswählen',
  largerParty: (max) => `Mehr als ${max} Personen?`,
  findOptions: 'Möglichkeiten anzeigen',
  // A larger party's way on (issue 35): a dead end's help, and a change of type said and confirmed.
  noTypeTakes: (people) => `Online nimmt keine Buchungsart ${people} an.`,
  fitDays: (name, range, days) => (range ? `${name} ist für ${range}, ${days}.` : `${name}: ${days}.`),
  everyDay: 'jeden Tag',
  dayRange: (first, last) => `${first} bis ${last}`,
  enquireAs: (name) => `Anfrage für ${name} senden`,
  bookAs: (name) => `${name} buchen`,
  talkToVenue: 'Oder sprechen Sie mit dem Lokal:',
  movedTitle: (people, to) => `Eine Gruppe von ${people} wird als ${to} gebucht`,
  movedEnquiry: (to, from) =>
    `${from} nimmt keine Gruppe dieser Größe an. ${to} ist eine Anfrage: Das Lokal bestätigt sie, und Bedingungen und Preis können abweichen.`,
  movedTerms: (to, from) =>
    `${from} nimmt keine Gruppe dieser Größe an, und Bedingungen und Preis von ${to} können abweichen.`,
  durationLost: (to, lengths, duration) =>
    `${to} dauert ${lengths}, daher kann Ihre Dauer von ${duration} nicht übernommen werden: Sie wählen sie als Nächstes.`,
  durationKept: (duration) => `Ihre Dauer von ${duration} wird übernommen.`,
  continueAs: (to) => `Weiter mit ${to}`,
  changeParty: 'Personenzahl ändern',
  partyFor: (name, min, max) =>
    `${name ? `${name} ist` : 'Online-Reservierungen sind'} für ${max === null ? `${min} oder mehr` : min === max ? max : `${min} bis ${max}`} Gäste`,
  peopleRange: (min, max) =>
    min !== null && max !== null
      ? min === max
        ? `${min} Personen`
        : `${min}–${max} Personen`
      : min !== null
        ? `ab ${min} Personen`
        : `bis ${max} Personen`,
  offerSizes: (names) => `Angebot für die markierten Personenzahlen: ${names}`,
  actions: {
    accept: 'Sofortige Bestätigung',
    enquire: 'Anfrage: das Lokal bestätigt',
    may_enquire: 'Ausgebucht: Anfrage senden',
    reject: 'Nicht verfügbar',
  },
  offer: 'Angebot',
  untilClose: 'Bis Betriebsschluss',
  endsAt: (time) => `bis ${time}`,
  previousMonth: 'Vorheriger Monat',
  nextMonth: 'Nächster Monat',
  offersTitle: 'Angebote',
  offersAt: 'Angebote um',
  noOffer: 'Kein Angebot',
  offerValid: (from, to) =>
    from && to ? `Gültig vom ${from} bis ${to}` : to ? `Gültig bis ${to}` : from ? `Gültig ab ${from}` : '',
  detailsTitle: 'Ihre Angaben',
  firstName: 'Vorname',
  lastName: 'Nachname',
  email: 'E-Mail',
  phone: 'Telefon',
  dob: 'Geburtsdatum',
  notes: 'Hinweise für das Lokal (optional)',
  requestsTitle: 'Häufige Wünsche',
  requests: [
    ['Geburtstag', 'Wir feiern einen Geburtstag'],
    ['Jahrestag', 'Wir feiern einen Jahrestag'],
    ['Ernährung', 'Besondere Ernährung:'],
    ['Rollstuhlzugang', 'Wir brauchen einen rollstuhlgerechten Zugang'],
    ['Hochstuhl', 'Bitte einen Hochstuhl'],
  ],
  notesLong: (max, length) =>
    `Hinweise dürfen bis zu ${max} Zeichen lang sein, diese haben ${length}: Bitte kürzen Sie sie.`,
  notesSent: 'Ihre Hinweise',
  marketingTitle: 'In Kontakt bleiben (optional)',
  guestErrors: {
    required: (field) => `Bitte geben Sie Folgendes ein: ${field}.`,
    email: 'Bitte geben Sie eine E-Mail-Adresse wie name@beispiel.de ein.',
    phone: 'Bitte geben Sie eine Telefonnummer ein (Ziffern, optional mit +).',
    dob: 'Bitte geben Sie ein Geburtsdatum in der Vergangenheit ein.',
    text: 'Bitte kürzer und ohne Steuerzeichen.',
  },
  bookNow: 'Jetzt reservieren',
  sendEnquiry: 'Anfrage senden',
  sendRequest: 'Anfrage senden',
  redirectTitle: 'Auf der Buchungsseite abschließen',
  redirectNote:
    'Für diese Reservierung ist eine Anzahlung oder weitere Angaben nötig: Sie schließen sie auf der Buchungsseite ab und kommen dann hierher zurück.',
  continueToSite: 'Weiter zur Buchungsseite',
  depositNeeded: 'Anzahlung auf der Buchungsseite nötig',
  handoffIntro: 'Auf der Buchungsseite des Lokals, bevor die Buchung entsteht:',
  handoffPayment:
    'Eine Anzahlung wird erhoben oder Ihre Karte geprüft. Eine Kartenprüfung ist keine Zahlung: Es wird kein Geld abgebucht; erscheinen Sie nicht, darf das Lokal später höchstens den in seinen Bedingungen genannten Betrag berechnen.',
  handoffPreorders: 'Dort können Sie Speisen und Getränke vorbestellen.',
  handoffEnquiry:
    'Dies ist eine Anfrage: Jetzt wird nichts bezahlt. Nimmt das Lokal sie an und verlangt eine Zahlung, kann ein Zahlungslink per E-Mail folgen.',
  handoffPolicy: 'Bedingungen des Lokals:',
  cannotBookTitle: 'Diese Reservierung ist hier nicht möglich',
  cannotBookNote:
    'Die Buchungsseite ist von dieser Seite aus gerade nicht erreichbar. Bitte reservieren Sie direkt beim Lokal.',
  submitting: 'Wird gesendet…',
  confirmedTitle: 'Reservierung bestätigt',
  enquiryTitle: 'Anfrage erhalten',
  confirmedBody: 'Ihre Reservierung ist bestätigt. Wir freuen uns auf Sie.',
  enquiryBody: 'Das Lokal bestätigt Ihre Reservierung in Kürze.',
  reference: 'Referenz',
  addToCalendar: 'Zum Kalender hinzufügen (.ics)',
  googleCalendar: 'Zu Google Kalender hinzufügen',
  bookAgain: 'Weitere Reservierung',
  calendarTitle: (venue) => `Reservierung bei ${venue}`,
  manageLink: 'Diese Reservierung verwalten oder stornieren',
  changedTitle: 'Reservierung geändert',
  previousCancelled: (reference) => `Ihre vorherige Reservierung ${reference} ist storniert.`,
  previousKept: (reference, phone) =>
    `Ihre vorherige Reservierung ${reference} konnte nicht online storniert werden und besteht weiter: Bitte ${phone ? `rufen Sie das Lokal unter ${phone} an` : 'wenden Sie sich an das Lokal'}, um sie zu stornieren.`,
  cancelInstead: 'Stattdessen diese Reservierung stornieren',
  cancelAsk: (reference) =>
    `${reference ? `Reservierung ${reference} stornieren?` : 'Diese Reservierung stornieren?'} Das lässt sich nicht rückgängig machen.`,
  cancelYes: 'Ja, stornieren',
  cancelKeep: 'Nein, behalten',
  cancelling: 'Wird storniert…',
  cancelled: (reference) => `Reservierung ${reference} ist storniert.`,
  alreadyCancelled: (reference) => `Reservierung ${reference} war bereits storniert.`,
  open: 'Tisch reservieren',
  close: 'Schließen',
  retry: 'Erneut versuchen',
  siteRefused:
    'Online-Reservierungen sind auf dieser Website noch nicht verfügbar. Bitte reservieren Sie direkt beim Betrieb.',
  errors: {
    network: 'Der Reservierungsdienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    timeout: 'Der Reservierungsdienst antwortet zu langsam. Bitte versuchen Sie es erneut.',
    'rate-limited': 'Der Reservierungsdienst ist gerade ausgelastet. Bitte versuchen Sie es gleich noch einmal.',
    server: 'Beim Reservierungsdienst ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut.',
    invalid: 'Der Reservierungsdienst konnte diese Angaben nicht annehmen.',
    aborted: '',
  },
};
