/** Spanish words of the pages, for `locale=es` and guests whose language is Spanish. */
import type { PageWords } from './en-GB.js';

export const words: PageWords = {
  lang: 'es',
  practice: 'Modo de prueba: las reservas hechas aquí no son reales.',
  bookingPage: {
    book: (venue) => `Reservar en ${venue}`,
    about: (venue) => `Reserve mesa en ${venue} en línea: elija el día, la hora y cuántos son.`,
    missing: 'Aquí no hay ninguna página de reservas',
    missingAbout: 'Compruebe el enlace, o pida al local su página de reservas.',
    contact: 'Dónde encontrarnos',
    phone: 'Teléfono',
    email: 'Correo electrónico',
    busy: 'Demasiadas solicitudes',
    busyAbout: 'Espere un minuto y vuelva a abrir esta página.',
  },
  fallback: {
    sentence: 'Para reservar, %s.',
    page: 'visite nuestra página de reservas',
    call: 'llame al %s',
    email: 'escriba a %s',
    or: ' o ',
    contact: 'Para reservar una mesa, póngase en contacto con nosotros.',
  },
  returnPage: {
    confirmedTitle: 'Reserva confirmada',
    enquiryTitle: 'Solicitud recibida',
    unknownTitle: 'De vuelta de la web de reservas',
    reference: 'Referencia',
    kept: 'Guarde esta referencia: el local conoce su reserva por ella.',
    noReference:
      'La web de reservas no devolvió ninguna referencia. Si completó su reserva, la confirmación le llegará por correo electrónico.',
    byEmail: 'La web de reservas le confirmará su reserva por correo electrónico.',
    notBack: 'No hemos podido llevarle de vuelta a la página del local automáticamente.',
    back: (host) => `Volver a ${host}`,
  },
};
