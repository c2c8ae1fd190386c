/** French words of the pages, for `locale=fr` and guests whose language is French. */
import type { PageWords } from './en-GB.js';

export const words: PageWords = {
  lang: 'fr',
  practice: 'Mode d’essai : les réservations faites ici ne sont pas réelles.',
  bookingPage: {
    book: (venue) => `Réserver chez ${venue}`,
    about: (venue) =>
      `Réservez une table chez ${venue} en ligne : choisissez le jour, l’heure et le nombre de personnes.`,
    missing: 'Il n’y a pas de page de réservation ici',
    missingAbout: 'Vérifiez le lien suivi, ou demandez sa page de réservation à l’établissement.',
    contact: 'Où nous trouver',
    phone: 'Téléphone',
    email: 'E-mail',
    busy: 'Trop de demandes',
    busyAbout: 'Veuillez patienter une minute, puis rouvrir cette page.',
  },
  fallback: {
    sentence: 'Pour réserver, %s.',
    page: 'rendez-vous sur notre page de réservation',
    call: 'appelez le %s',
    email: 'écrivez à %s',
    or: ' ou ',
    contact: 'Pour réserver une table, contactez-nous.',
  },
  returnPage: {
    confirmedTitle: 'Réservation confirmée',
    enquiryTitle: 'Demande reçue',
    unknownTitle: 'De retour du site de réservation',
    reference: 'Référence',
    kept: 'Conservez cette référence : l’établissement connaît votre réservation sous ce nom.',
    noReference:
      'Le site de réservation n’a renvoyé aucune référence. Si vous avez terminé votre réservation, sa confirmation arrive par e-mail.',
    byEmail: 'Le site de réservation vous confirmera votre réservation par e-mail.',
    notBack: 'Nous n’avons pas pu vous ramener automatiquement à la page de l’établissement.',
    back: (host) => `Retour à ${host}`,
  },
};
