/**
 * What create and update read alike: a text field (required, trimmed, bounded), a phone number, a
 * date as availability echoes it; and the venue's own lists (marketing preferences, packages) that
 * a booking's ids are checked against, which the web page and the venue resources read too.
 */

import type { FieldError, Params } from '../http.js';
import type { Store } from '../store.js';
import { isDate } from '../time.js';
import type { Venue } from '../types.js';

/** What a phone number may look like: digits, spaces, brackets and dashes, an optional leading +. */
export const PHONE_RE = /^\+?[0-9 ()-]{6,20}$/;

/** Reads a date that may come back from availability as `YYYY-MM-DDT00:00:00` (live dialect). */
export function plainDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const d = value.trim().replace(/T00:00(:00)?$/, '');
  return isDate(d) ? d : undefined;
}

/**
 * A text field of a booking body: absent or blank is null (an error when required); anything but
 * text or a number, or longer than `max` (200 by default), is an error; else the trimmed text.
 */
export function text(
  params: Params,
  key: string,
  errors: FieldError[],
  opts: { required?: boolean; max?: number } = {},
): string | null {
  const raw = params[key];
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    if (opts.required) errors.push({ code: `missing_${key}`, message: `${label(key)} is required`, fields: [key] });
    return null;
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    errors.push({ code: `invalid_${key}`, message: `${label(key)} must be text`, fields: [key] });
    return null;
  }
  const s = String(raw).trim();
  if (s.length > (opts.max ?? 200)) {
    errors.push({
      code: `invalid_${key}`,
      message: `${label(key)} is too long (at most ${opts.max ?? 200} characters)`,
      fields: [key],
    });
    return null;
  }
  return s;
}

/** A field's name as an error message starts with it (`first_name` → `First name`). */
function label(key: string): string {
  const s = key.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Marketing preference ids defined for a venue (its own and its group's). */
export function preferencesOf(store: Store, venue: Venue) {
  return [
    ...(store.groups.get(venue.venue_group)?.marketing_preferences ?? []),
    ...(venue.marketing_preferences ?? []),
  ];
}

/** Packages a venue offers (its own and its group's). */
export function packagesOf(store: Store, venue: Venue) {
  return [...(store.groups.get(venue.venue_group)?.packages ?? []), ...(venue.packages ?? [])];
}
