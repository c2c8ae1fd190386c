/**
 * Locale loading: en-GB is bundled; fr, de, es and nl are separate modules fetched only when a
 * widget asks for them, so pages in English never pay for other languages (each pinned by its
 * integrity: `pinned-import.ts`).
 */
import { importPinned } from '../api/pinned-import.js';
import { enGB, type Strings } from './en-GB.js';

/**
 * The on-demand locale modules, by language. A table rather than a switch so that a test can make
 * one fail to load, as it does when the script-tag bundle is served without its locale chunks.
 */
export const localeModules: Record<string, () => Promise<{ strings: Strings }>> = {
  fr: () => import('./fr.js'),
  de: () => import('./de.js'),
  es: () => import('./es.js'),
  nl: () => import('./nl.js'),
};

/**
 * The strings module for a BCP 47 tag: its language if we have it, else en-GB. Rejects when the
 * module cannot be fetched or fails its integrity check; the widget then keeps English and reports it.
 */
export async function loadStrings(locale: string): Promise<Strings> {
  const language = locale.toLowerCase().split('-')[0];
  if (!Object.hasOwn(localeModules, language)) return enGB;
  return (await importPinned(language, localeModules[language])).strings;
}
