/**
 * Locale loading: en-GB is bundled; fr, de, es and nl are separate modules fetched only when a
 * widget asks for them, so pages in English never pay for other languages.
 */
import { enGB, type Strings } from './en-GB.js';

/** The locales with their own strings. */
export const LOCALES = ['en-GB', 'fr', 'de', 'es', 'nl'] as const;

/** The strings module for a BCP 47 tag: its language if we have it, else en-GB. */
export async function loadStrings(locale: string): Promise<Strings> {
  switch (locale.toLowerCase().split('-')[0]) {
    case 'fr': return (await import('./fr.js')).strings;
    case 'de': return (await import('./de.js')).strings;
    case 'es': return (await import('./es.js')).strings;
    case 'nl': return (await import('./nl.js')).strings;
    default: return enGB;
  }
}
