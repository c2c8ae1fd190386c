/**
 * What survives a reload, and how the guest's return from the booking site is read.
 *
 * Decision: sessionStorage holds only the booking choices (venue, type, date, time, duration,
 * party size, offer id) with the type's and venue's display names, the Idempotency-Key of a
 * booking being sent (with a SHA-256 of its details, never the details) and, across the redirect, a
 * marker that this widget sent the guest away. It never holds the guest's name, email, phone, date
 * of birth, notes or consent: a reload asks for them again, which is the price of never leaving
 * personal data in the browser's storage. sessionStorage (not localStorage) ends with the tab.
 */
import type { Choices } from '../api/normalize.js';
import type { BookingConfirmation } from './element-types.js';

/** The saved state of one widget. */
export interface SavedBooking {
  venue: string | null;
  choices: Choices;
  offer: string | null;
  /** Set while the guest is on the booking site. */
  redirected?: boolean;
  /**
   * The last confirmation (reference, status, the manage link and a change's old reference; no
   * personal data, as the manage page shows none), so a reload keeps showing it, link and all.
   */
  confirmation?: BookingConfirmation | null;
  /**
   * Display names of the chosen booking type and venue (not personal data): on the return from the
   * booking site no availability answer names them, and the confirmation must not show raw ids.
   */
  names?: { type?: string; venue?: string };
}

/** What a page load brings back: the booking site's confirmation on a return, and the saved booking. */
export interface Restored {
  back: NonNullable<SavedBooking['confirmation']> | null;
  saved: SavedBooking | null;
}

const PREFIX = 'venue-booking:';

/** The storage of the page, or null where there is none or it refuses (private modes, SSR). */
function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** Reads a saved booking; anything unreadable counts as nothing saved. */
export function loadBooking(key: string): SavedBooking | null {
  try {
    const raw = storage()?.getItem(PREFIX + key);
    const value = raw ? (JSON.parse(raw) as SavedBooking) : null;
    return value && typeof value === 'object' && typeof value.choices === 'object' ? value : null;
  } catch {
    return null;
  }
}

/** Saves (or, with null, forgets) a booking in progress. */
export function saveBooking(key: string, value: SavedBooking | null): void {
  try {
    if (value) storage()?.setItem(PREFIX + key, JSON.stringify(value));
    else storage()?.removeItem(PREFIX + key);
  } catch {
    // Storage full or blocked: the booking still works, it just will not survive a reload.
  }
}

/** Where the Idempotency-Key of a booking being sent is kept (`pending-booking.ts`, in the later steps chunk). */
export function pendingStore(key: string): { store: Storage | null; name: string } {
  return { store: storage(), name: `${PREFIX}pending:${key}` };
}

/** The query key that tells which widget a return from the booking site belongs to. */
export const RETURN_KEY = 'vb_return';

/** Query keys the booking site may put on the return URL: all removed from the address bar. */
const RETURN_PARAMS = [
  RETURN_KEY,
  'reference',
  'status',
  'first_name',
  'last_name',
  'email',
  'phone',
  'dob',
  'num_people',
  'date',
  'time',
  'duration',
];

/** The return URL for the booking site: `base` (the `return-url`, else the page) tagged with this widget's key. */
export function returnUrlFor(base: string, page: string, key: string): string {
  const url = new URL(withoutReturn(new URL(base || page, page).href));
  url.searchParams.set(RETURN_KEY, key);
  return url.href;
}

/** What the booking site said on return, or null when the URL is not a return to this widget. */
export function readReturn(
  href: string,
  key: string,
  expected: boolean,
): { reference: string; status: 'confirmed' | 'enquiry' } | null {
  const url = new URL(href);
  const reference = url.searchParams.get('reference');
  const mine = url.searchParams.get(RETURN_KEY) === key || (expected && !url.searchParams.has(RETURN_KEY));
  if (!reference || !mine) return null;
  return { reference, status: url.searchParams.get('status') === 'complete' ? 'confirmed' : 'enquiry' };
}

/** The address without the return's values (names, email… must not stay in history or be shared). */
export function withoutReturn(href: string): string {
  const url = new URL(href);
  for (const name of RETURN_PARAMS) url.searchParams.delete(name);
  return url.href;
}
