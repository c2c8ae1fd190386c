/**
 * The page a guest sees when the return bridge cannot send them back to the venue's page (no
 * allowed page to go to, an unknown venue, a return without a reference): the booking site has
 * already taken the booking, often with a deposit, so the guest gets a readable page with the
 * reference and a way back, never the API's JSON.
 *
 * The proxy imports nothing but types from the widget, so the few strings it needs are carried
 * here, in the widget's languages; `test/proxy/return-page.test.ts` keeps the titles the two
 * share identical. The language is the widget's (`lang` on the return URL), else the browser's.
 */
import { base64Digest } from '../core/encoding.js';

/** A page's words in one language. */
interface PageStrings {
  /** The `lang` of the page. */
  tag: string;
  confirmedTitle: string;
  enquiryTitle: string;
  /** The title when the booking site sent no usable reference. */
  unknownTitle: string;
  reference: string;
  /** Under the reference: the booking is the booking site's, whatever this page says next. */
  kept: string;
  /** Without a reference: where the guest learns how the booking went. */
  noReference: string;
  /** A return without a valid hand-off id: the booking site, not this page, confirms. */
  byEmail: string;
  /** Why the guest is on this page rather than the venue's. */
  notBack: string;
  back: (host: string) => string;
}

const STRINGS: Record<string, PageStrings> = {
  en: {
    tag: 'en-GB',
    confirmedTitle: 'Booking confirmed',
    enquiryTitle: 'Enquiry received',
    unknownTitle: 'Back from the booking site',
    reference: 'Reference',
    kept: 'Keep this reference: the venue knows your booking by it.',
    noReference:
      'The booking site sent no booking reference back. If you completed your booking, its confirmation is on its way to your email.',
    byEmail: 'The booking site will confirm your booking by email.',
    notBack: 'We could not take you back to the venue’s page automatically.',
    back: (host) => `Back to ${host}`,
  },
  fr: {
    tag: 'fr',
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
  de: {
    tag: 'de',
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
  es: {
    tag: 'es',
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
  nl: {
    tag: 'nl',
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

/** The page's languages, for the test that keeps its titles in step with the widget's. */
export const RETURN_PAGE_STRINGS: Readonly<
  Record<string, Pick<PageStrings, 'tag' | 'confirmedTitle' | 'enquiryTitle' | 'reference'>>
> = STRINGS;

/**
 * The strings of the widget's language (`lang`, a BCP 47 tag from the return URL), else of the
 * browser's first language we have (`Accept-Language`), else English.
 */
export function pageStrings(lang: string | null, acceptLanguage: string | null): PageStrings {
  const wanted = [lang ?? '', ...(acceptLanguage ?? '').split(',').slice(0, 10)];
  for (const tag of wanted) {
    const language = tag.trim().split(/[-_;]/)[0]!.toLowerCase();
    if (Object.hasOwn(STRINGS, language)) return STRINGS[language]!;
  }
  return STRINGS.en!;
}

/** Text for element content and double-quoted attributes. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE =
  'body{font-family:system-ui,sans-serif;color:#1d2430;background:#f6f4ef;margin:0}' +
  'main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.75rem}' +
  'h1{font-size:1.4rem;margin:0 0 1rem}strong{font-size:1.2rem}a{color:#1f5f8b}';

// The page's one stylesheet, allowed by its hash: the page runs no script and loads nothing.
let styleSource: Promise<string> | undefined;
const styleHash = () =>
  (styleSource ??= base64Digest('SHA-256', new TextEncoder().encode(STYLE)).then((hash) => `'sha256-${hash}'`));

/** What the page says: the booking site's reference and status when they were usable. */
export interface ReturnPage {
  reference: string | null;
  confirmed: boolean;
  /**
   * The return carried no valid hand-off id (api/handoff.ts): anyone could have sent it, so the
   * page shows no reference and confirms nothing; the booking site's email will.
   */
  unproven?: boolean;
  /** The venue's page to offer as a link (on an origin the proxy serves), when one is known. */
  back: URL | null;
  strings: PageStrings;
}

/**
 * The readable page: 200 when it shows a reference (the booking stands, only the way back failed)
 * or an unproven return (the booking site confirms by email), 400 when the return had no reference. No script, no referrer, not stored, not framed elsewhere.
 */
export async function returnPageResponse(page: ReturnPage): Promise<Response> {
  const { strings: s, back } = page;
  const reference = page.unproven ? null : page.reference;
  const title = reference ? (page.confirmed ? s.confirmedTitle : s.enquiryTitle) : s.unknownTitle;
  const body =
    `<h1>${escapeHtml(title)}</h1>` +
    (reference
      ? `<p>${escapeHtml(s.reference)}: <strong>${escapeHtml(reference)}</strong></p><p>${escapeHtml(s.kept)}</p>`
      : `<p>${escapeHtml(page.unproven ? s.byEmail : s.noReference)}</p>`) +
    `<p>${escapeHtml(s.notBack)}</p>` +
    (back ? `<p><a href="${escapeHtml(back.href)}">${escapeHtml(s.back(back.host))}</a></p>` : '');
  const html =
    `<!doctype html><html lang="${s.tag}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>` +
    `<style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status: reference || page.unproven ? 200 : 400,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; style-src ${await styleHash()}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  });
}
