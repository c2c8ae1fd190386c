/**
 * The one rule set for what a guest types: the widget checks the details form with it (so a
 * mistake is explained next to its field) and the proxy validates the booking request with it
 * (`proxy/guards/validate.ts` imports this module; the proxy's build bundles it). Two copies drifted: the
 * widget once accepted `a@b.c` and `ada@example.com.` that the proxy refused, and the guest saw a
 * form-level error instead of a message by the field. Pure, no DOM, no dependencies.
 */

/** Longest values accepted, in characters (after trimming). */
export const LIMITS = {
  /** First and last name. */
  name: 100,
  /** The guest's notes (newlines allowed). */
  notes: 2000,
  /** RFC 5321's limit on a forward path. */
  email: 254,
  /** Free-text labels (`partner_source`). */
  label: 100,
} as const;

/** Party sizes the proxy passes on; the venue's own bounds come from the service's answers. */
export const PARTY_SIZE = { min: 1, max: 1000 } as const;

/** A local part without spaces or specials, then a host name of letters, digits and hyphens with a dot. */
export const EMAIL_RE =
  /^[^\s@<>()",;:\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/;

/** Digits with spaces, brackets, dots or hyphens, an optional leading `+`; 6 to 25 characters. */
export const PHONE_RE = /^\+?[0-9 ().-]{6,25}$/;

// Control characters (newlines only where allowed), bidi overrides and other invisible formatting.
// eslint-disable-next-line no-control-regex -- control and bidi characters are exactly what is refused
export const CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/** Line breaks and tabs: refused in one-line fields. */
export const NEWLINE_RE = /[\r\n\t]/;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for an email address the proxy passes on (`text` already trimmed). */
export function isEmail(text: string): boolean {
  return text.length <= LIMITS.email && EMAIL_RE.test(text);
}

/** True for a phone number the proxy passes on (`text` already trimmed). */
export function isPhone(text: string): boolean {
  return PHONE_RE.test(text);
}

/** Why a free text is refused (`long`, `characters`), or null when it is fine. */
export function textProblem(text: string, max: number, multiline = false): 'long' | 'characters' | null {
  if (text.length > max) return 'long';
  if (CONTROL_RE.test(text) || (!multiline && NEWLINE_RE.test(text))) return 'characters';
  return null;
}

/** True for a real calendar date `YYYY-MM-DD` with a year from `minYear` to 2100. */
export function isCalendarDate(value: string, minYear = 2000): boolean {
  const match = DATE_RE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < minYear || year > 2100 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * True for a date of birth: a real date from 1900 (booking dates start in 2000, people do not)
 * that is not after `today` (`YYYY-MM-DD`).
 */
export function isBirthDate(value: string, today: string): boolean {
  return isCalendarDate(value, 1900) && value <= today;
}

/** True for a whole party size within {@link PARTY_SIZE}. */
export function isPartySize(value: number): boolean {
  return Number.isSafeInteger(value) && value >= PARTY_SIZE.min && value <= PARTY_SIZE.max;
}

/**
 * Whether a created booking is confirmed, decided once for the widget (src/booking-state.ts) and
 * the proxy's booking metrics (proxy/api/bookings.ts): the service's word when it gives one,
 * its `bookingStatus` (`confirmed`, or `complete`; an enquiry is `received`), else the booking's
 * own `status`; when it says nothing, `otherwise` (the widget: a time that books at once).
 */
export function isConfirmed(
  created: { bookingStatus?: unknown; booking?: { status?: unknown } | null },
  otherwise = false,
): boolean {
  const said = String(created.bookingStatus ?? created.booking?.status ?? '').toLowerCase();
  return said ? said === 'confirmed' || said === 'complete' : otherwise;
}

/**
 * The widget's languages, by the `locale` attribute's value, each named in itself (src/i18n:
 * en-GB built in, the others loaded on demand). The embed studio and the booking page offer these.
 */
export const LOCALES = {
  'en-GB': 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  nl: 'Nederlands',
} as const;

/** A language of the widget. */
export type Locale = keyof typeof LOCALES;

/**
 * Orders of the steps a venue may pick (the widget's `steps`: the fields it asks first, the rest in
 * its own order), described for the venue's staff; `''` is the widget's default order.
 */
export const STEP_ORDERS = {
  '': 'Type, day, time, party size (the usual order)',
  'num_people,type,date,time': 'Party size first',
  'date,type,time,num_people': 'Day first',
  'date,time,type,num_people': 'Day and time first',
} as const;

/** A time of day `HH:MM`, 24-hour. */
export const TIME_RE = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** True for a time of day `HH:MM`. */
export function isTime(value: string): boolean {
  return TIME_RE.test(value);
}
