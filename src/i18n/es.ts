/** Spanish strings, loaded on demand when `locale` starts with `es`. */
import type { LocaleStrings } from './en-GB.js';

export const strings: LocaleStrings = {
  stepTitles: {
    venue: '¿Dónde quiere reservar?',
    type: '¿Qué quiere reservar?',
    date: '¿Qué día?',
    time: '¿A qué hora?',
    duration: '¿Durante cuánto tiempo?',
    num_people: '¿Cuántas personas?',
  },
  fieldNames: {
    venue: 'Local',
    type: 'Reserva',
    date: 'Fecha',
    time: 'Hora',
    duration: 'Duración',
    num_people: 'Personas',
  },
  summary: 'Su selección',
  change: 'Cambiar',
  loading: 'Comprobando disponibilidad…',
  unavailable: 'No disponible',
  noOptions: 'No hay disponibilidad para esta selección. Cambie una elección anterior.',
  problem: (field, value) => `${field} ${value} no está disponible con el resto de su selección.`,
  nearest: 'Alternativas más cercanas:',
  rejected: 'El local no puede aceptar esta reserva.',
  people: (count) => (count === 1 ? '1 persona' : `${count} personas`),
  dayParts: { morning: 'Mañana', lunch: 'Almuerzo', afternoon: 'Tarde', evening: 'Noche', late: 'Madrugada' },
  timesCount: (count) => (count === 1 ? '1 hora' : `${count} horas`),
  legend: 'Leyenda',
  otherSize: 'Otro número de personas',
  choose: 'Elegir',
  largerParty: (max) => `¿Más de ${max} personas?`,
  findOptions: 'Ver opciones',
  // A larger party's way on (issue 35): a dead end's help, and a change of type said and confirmed.
  noTypeTakes: (people) => `Ninguna reserva en línea admite ${people}.`,
  fitDays: (name, range, days) => (range ? `${name} admite ${range}, ${days}.` : `${name}: ${days}.`),
  everyDay: 'todos los días',
  dayRange: (first, last) => `de ${first} a ${last}`,
  enquireAs: (name) => `Enviar una solicitud de ${name}`,
  bookAs: (name) => `Reservar ${name}`,
  talkToVenue: 'O hable con el local:',
  movedTitle: (people, to) => `Un grupo de ${people} se reserva como ${to}`,
  movedEnquiry: (to, from) =>
    `${from} no admite un grupo de este tamaño. ${to} es una solicitud: el local la confirma, y sus condiciones y su precio pueden ser distintos.`,
  movedTerms: (to, from) =>
    `${from} no admite un grupo de este tamaño, y las condiciones y el precio de ${to} pueden ser distintos.`,
  durationLost: (to, lengths, duration) =>
    `${to} dura ${lengths}, así que su duración de ${duration} no se mantiene: elegirá la duración a continuación.`,
  durationKept: (duration) => `Se mantiene su duración de ${duration}.`,
  continueAs: (to) => `Continuar como ${to}`,
  changeParty: 'Cambiar el número de personas',
  partyFor: (name, min, max) =>
    `${name ? `${name} es` : 'Las reservas en línea son'} para ${max === null ? `${min} o más` : min === max ? max : `${min} a ${max}`} personas`,
  peopleRange: (min, max) =>
    min !== null && max !== null
      ? min === max
        ? `${min} personas`
        : `${min}–${max} personas`
      : min !== null
        ? `${min}+ personas`
        : `hasta ${max} personas`,
  offerSizes: (names) => `Oferta para los números marcados: ${names}`,
  actions: {
    accept: 'Confirmación inmediata',
    enquire: 'Solicitud: el local confirma',
    may_enquire: 'Completo: enviar una solicitud',
    reject: 'No disponible',
  },
  offer: 'Oferta',
  untilClose: 'Hasta el cierre',
  endsAt: (time) => `termina ${time}`,
  previousMonth: 'Mes anterior',
  nextMonth: 'Mes siguiente',
  offersTitle: 'Ofertas',
  offersAt: 'Ofertas a las',
  noOffer: 'Sin oferta',
  offerValid: (from, to) =>
    from && to ? `Válida del ${from} al ${to}` : to ? `Válida hasta el ${to}` : from ? `Válida desde el ${from}` : '',
  detailsTitle: 'Sus datos',
  firstName: 'Nombre',
  lastName: 'Apellidos',
  email: 'Correo electrónico',
  phone: 'Teléfono',
  dob: 'Fecha de nacimiento',
  notes: 'Notas para el local (opcional)',
  requestsTitle: 'Peticiones rápidas',
  requests: [
    ['Cumpleaños', 'Celebramos un cumpleaños'],
    ['Aniversario', 'Celebramos un aniversario'],
    ['Necesidades dietéticas', 'Necesidades dietéticas:'],
    ['Acceso en silla de ruedas', 'Necesitamos acceso para silla de ruedas'],
    ['Trona', 'Una trona, por favor'],
  ],
  notesLong: (max, length) =>
    `Las notas pueden tener hasta ${max} caracteres y estas tienen ${length}: acórtelas, por favor.`,
  notesSent: 'Sus notas',
  marketingTitle: 'Mantengámonos en contacto (opcional)',
  guestErrors: {
    required: (field) => `Indique: ${field.toLowerCase()}.`,
    email: 'Indique un correo electrónico como nombre@ejemplo.es.',
    phone: 'Indique un número de teléfono (dígitos, + opcional).',
    dob: 'Indique una fecha de nacimiento pasada.',
    text: 'Acórtelo y no use caracteres de control.',
  },
  bookNow: 'Reservar',
  sendEnquiry: 'Enviar solicitud',
  sendRequest: 'Enviar solicitud',
  redirectTitle: 'Terminar en la web de reservas',
  redirectNote:
    'Esta reserva requiere un depósito o más datos: la terminará en la web de reservas del local y volverá aquí.',
  continueToSite: 'Continuar a la web de reservas',
  depositNeeded: 'Depósito en la web de reservas',
  handoffIntro: 'En la web de reservas del local, antes de hacer la reserva:',
  handoffPayment:
    'Se cobra un depósito o se comprueba su tarjeta. La comprobación de la tarjeta no es un cobro: no se carga ningún importe; si no se presenta, el local solo podrá cobrar después hasta el importe que indiquen sus condiciones.',
  handoffPreorders: 'Allí puede encargar comida y bebida por adelantado.',
  handoffEnquiry:
    'Esto es una solicitud: ahora no se paga nada. Si el local la acepta y pide un pago, puede llegarle un enlace de pago por correo electrónico.',
  handoffPolicy: 'Condiciones del local:',
  cannotBookTitle: 'Esta reserva no se puede hacer aquí',
  cannotBookNote:
    'La web de reservas no está disponible desde esta página en este momento. Reserve directamente con el local.',
  submitting: 'Enviando…',
  confirmedTitle: 'Reserva confirmada',
  enquiryTitle: 'Solicitud recibida',
  confirmedBody: 'Su reserva está confirmada. ¡Le esperamos!',
  enquiryBody: 'El local confirmará su reserva en breve.',
  reference: 'Referencia',
  addToCalendar: 'Añadir al calendario (.ics)',
  googleCalendar: 'Añadir a Google Calendar',
  bookAgain: 'Hacer otra reserva',
  calendarTitle: (venue) => `Reserva en ${venue}`,
  open: 'Reservar mesa',
  close: 'Cerrar',
  retry: 'Reintentar',
  siteRefused: 'La reserva en línea aún no está disponible en este sitio. Reserve directamente con el local.',
  errors: {
    network: 'No se pudo contactar con el servicio de reservas. Compruebe su conexión e inténtelo de nuevo.',
    timeout: 'El servicio de reservas tarda demasiado. Inténtelo de nuevo.',
    'rate-limited': 'El servicio de reservas está ocupado. Inténtelo de nuevo en un momento.',
    server: 'Algo falló en el servicio de reservas. Inténtelo de nuevo.',
    invalid: 'El servicio de reservas no pudo aceptar estos datos.',
    aborted: '',
  },
};
