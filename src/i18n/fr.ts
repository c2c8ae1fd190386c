/** French strings, loaded on demand when `locale` starts with `fr`. */
import type { LocaleStrings } from './en-GB.js';

export const strings: LocaleStrings = {
  stepTitles: {
    venue: 'Où souhaitez-vous réserver ?',
    type: 'Que souhaitez-vous réserver ?',
    date: 'Quel jour ?',
    time: 'À quelle heure ?',
    duration: 'Pour combien de temps ?',
    num_people: 'Combien de personnes ?',
  },
  fieldNames: {
    venue: 'Établissement',
    type: 'Réservation',
    date: 'Date',
    time: 'Heure',
    duration: 'Durée',
    num_people: 'Personnes',
  },
  summary: 'Vos choix',
  change: 'Modifier',
  loading: 'Vérification des disponibilités…',
  unavailable: 'Indisponible',
  noOptions: 'Rien n’est disponible pour ces choix. Modifiez un choix précédent.',
  problem: (field, value) => `${field} ${value} n’est pas disponible avec vos autres choix.`,
  nearest: 'Alternatives les plus proches :',
  rejected: 'L’établissement ne peut pas accepter cette réservation.',
  people: (count) => (count === 1 ? '1 personne' : `${count} personnes`),
  dayParts: { morning: 'Matin', lunch: 'Déjeuner', afternoon: 'Après-midi', evening: 'Soir', late: 'Après minuit' },
  timesCount: (count) => (count === 1 ? '1 horaire' : `${count} horaires`),
  legend: 'Légende',
  otherSize: 'Autre nombre de personnes',
  choose: 'Choisir',
  largerParty: (max) => `Plus de ${max} personnes ?`,
  findOptions: 'Voir les possibilités',
  // A larger party's way on (issue 35): a dead end's help, and a change of type said and confirmed.
  noTypeTakes: (people) => `Aucune réservation en ligne n’accueille ${people}.`,
  fitDays: (name, range, days) => (range ? `${name} accueille ${range}, ${days}.` : `${name} : ${days}.`),
  everyDay: 'tous les jours',
  dayRange: (first, last) => `du ${first} au ${last}`,
  enquireAs: (name) => `Envoyer une demande pour ${name}`,
  bookAs: (name) => `Réserver ${name}`,
  talkToVenue: 'Ou contactez l’établissement :',
  movedTitle: (people, to) => `Un groupe de ${people} est réservé en ${to}`,
  movedEnquiry: (to, from) =>
    `${from} n’accueille pas un groupe de cette taille. ${to} est une demande : l’établissement la confirme, et ses conditions et son prix peuvent différer.`,
  movedTerms: (to, from) =>
    `${from} n’accueille pas un groupe de cette taille, et les conditions et le prix de ${to} peuvent différer.`,
  durationLost: (to, lengths, duration) =>
    `${to} dure ${lengths} : votre durée de ${duration} ne peut pas être reprise, vous choisirez la sienne ensuite.`,
  durationKept: (duration) => `Votre durée de ${duration} est conservée.`,
  continueAs: (to) => `Continuer avec ${to}`,
  changeParty: 'Changer le nombre de personnes',
  partyFor: (name, min, max) =>
    `${name ? `${name} est` : 'Les réservations en ligne sont'} pour ${max === null ? `${min} personnes ou plus` : min === max ? `${max} personnes` : `${min} à ${max} personnes`}`,
  peopleRange: (min, max) =>
    min !== null && max !== null
      ? min === max
        ? `${min} personnes`
        : `${min}–${max} personnes`
      : min !== null
        ? `${min}+ personnes`
        : `jusqu’à ${max} personnes`,
  offerSizes: (names) => `Offre pour les nombres marqués : ${names}`,
  actions: {
    accept: 'Confirmation immédiate',
    enquire: 'Demande : l’établissement confirme',
    may_enquire: 'Complet : envoyer une demande',
    reject: 'Indisponible',
  },
  offer: 'Offre',
  untilClose: 'Jusqu’à la fermeture',
  endsAt: (time) => `fin ${time}`,
  previousMonth: 'Mois précédent',
  nextMonth: 'Mois suivant',
  offersTitle: 'Offres',
  offersAt: 'Offres à',
  noOffer: 'Aucune offre',
  offerValid: (from, to) =>
    from && to
      ? `Valable du ${from} au ${to}`
      : to
        ? `Valable jusqu’au ${to}`
        : from
          ? `Valable à partir du ${from}`
          : '',
  detailsTitle: 'Vos coordonnées',
  firstName: 'Prénom',
  lastName: 'Nom',
  email: 'E-mail',
  phone: 'Téléphone',
  dob: 'Date de naissance',
  notes: 'Remarques pour l’établissement (facultatif)',
  requestsTitle: 'Demandes rapides',
  requests: [
    ['Anniversaire', 'Nous fêtons un anniversaire'],
    ['Anniversaire de mariage', 'Nous fêtons notre anniversaire de mariage'],
    ['Régime alimentaire', 'Régime alimentaire :'],
    ['Accès fauteuil roulant', 'Accès en fauteuil roulant nécessaire'],
    ['Chaise haute', 'Une chaise haute, s’il vous plaît'],
  ],
  notesLong: (max, length) =>
    `Les remarques peuvent compter jusqu’à ${max} caractères et celles-ci en ont ${length} : merci de les raccourcir.`,
  notesSent: 'Vos remarques',
  marketingTitle: 'Restons en contact (facultatif)',
  guestErrors: {
    required: (field) => `Veuillez indiquer : ${field.toLowerCase()}.`,
    email: 'Veuillez saisir une adresse e-mail du type nom@exemple.fr.',
    phone: 'Veuillez saisir un numéro de téléphone (chiffres, + facultatif).',
    dob: 'Veuillez saisir une date de naissance passée.',
    text: 'Veuillez raccourcir et retirer les caractères de contrôle.',
  },
  bookNow: 'Réserver',
  sendEnquiry: 'Envoyer la demande',
  sendRequest: 'Envoyer la demande',
  redirectTitle: 'Finaliser sur le site de réservation',
  redirectNote:
    'Cette réservation demande un acompte ou des informations supplémentaires : vous la finaliserez sur le site de réservation puis reviendrez ici.',
  continueToSite: 'Continuer vers le site de réservation',
  depositNeeded: 'Acompte à régler sur le site de réservation',
  handoffIntro: 'Sur le site de réservation de l’établissement, avant que la réservation soit faite :',
  handoffPayment:
    'Un acompte est demandé, ou votre carte est vérifiée. Une vérification de carte n’est pas un paiement : aucune somme n’est prélevée ; en cas d’absence non signalée, l’établissement ne pourra facturer ensuite que jusqu’au montant indiqué dans ses conditions.',
  handoffPreorders: 'Vous pourrez y passer des précommandes (plats et boissons commandés à l’avance).',
  handoffEnquiry:
    'Il s’agit d’une demande : rien n’est payé maintenant. Si l’établissement l’accepte et demande un paiement, un lien de paiement pourra suivre par e-mail.',
  handoffPolicy: 'Conditions de l’établissement :',
  cannotBookTitle: 'Cette réservation ne peut pas être faite ici',
  cannotBookNote:
    'Le site de réservation n’est pas accessible depuis cette page pour le moment. Veuillez réserver directement auprès de l’établissement.',
  submitting: 'Envoi…',
  confirmedTitle: 'Réservation confirmée',
  enquiryTitle: 'Demande reçue',
  confirmedBody: 'Votre réservation est confirmée. À bientôt !',
  enquiryBody: 'L’établissement confirmera votre réservation prochainement.',
  reference: 'Référence',
  addToCalendar: 'Ajouter au calendrier (.ics)',
  googleCalendar: 'Ajouter à Google Agenda',
  bookAgain: 'Faire une autre réservation',
  calendarTitle: (venue) => `Réservation chez ${venue}`,
  manageLink: 'Gérer ou annuler cette réservation',
  changedTitle: 'Réservation modifiée',
  previousCancelled: (reference) => `Votre réservation précédente, ${reference}, est annulée.`,
  previousKept: (reference, phone) =>
    `Votre réservation précédente, ${reference}, n’a pas pu être annulée en ligne et reste valable : ${phone ? `appelez l’établissement au ${phone}` : 'contactez l’établissement'} pour l’annuler.`,
  cancelInstead: 'Annuler plutôt cette réservation',
  cancelAsk: (reference) =>
    `${reference ? `Annuler la réservation ${reference} ?` : 'Annuler cette réservation ?'} Cette action est définitive.`,
  cancelYes: 'Oui, l’annuler',
  cancelKeep: 'Non, la garder',
  cancelling: 'Annulation…',
  cancelled: (reference) => `La réservation ${reference} est annulée.`,
  alreadyCancelled: (reference) => `La réservation ${reference} était déjà annulée.`,
  open: 'Réserver une table',
  close: 'Fermer',
  retry: 'Réessayer',
  siteRefused:
    'La réservation en ligne n’est pas encore disponible sur ce site. Veuillez réserver directement auprès de l’établissement.',
  errors: {
    network: 'Impossible de joindre le service de réservation. Vérifiez votre connexion et réessayez.',
    timeout: 'Le service de réservation met trop de temps à répondre. Veuillez réessayer.',
    'rate-limited': 'Le service de réservation est très sollicité. Réessayez dans un instant.',
    server: 'Une erreur est survenue au service de réservation. Veuillez réessayer.',
    invalid: 'Le service de réservation n’a pas pu accepter ces informations.',
    aborted: '',
  },
};
