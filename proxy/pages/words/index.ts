/**
 * The words of the proxy's pages, one module per language as the widget's src/i18n/ has them
 * (en-GB the reference, `PageWords`), in the widget's languages. All are bundled: a page is
 * rendered here, so nothing loads on demand.
 */
import type { Locale } from '../../../src/api/rules.js';
import { words as de } from './de.js';
import { enGB, type PageWords } from './en-GB.js';
import { words as es } from './es.js';
import { words as fr } from './fr.js';
import { words as nl } from './nl.js';

export type { PageWords } from './en-GB.js';

/** The English words: the operator's pages speak nothing else, and every page falls back to them. */
export const ENGLISH: PageWords = enGB;

/** A tag's primary language (`fr-CA` → `fr`, `nl;q=0.9` → `nl`). */
const languageOf = (tag: string) => tag.trim().split(/[-_;]/)[0]!.toLowerCase();

/**
 * The pages' words by primary language, for each of the widget's locales (a missing one is a type
 * error). A Map, so that no `__proto__` or `toString` in a link or a header picks anything but English.
 */
export const PAGE_LANGUAGES: ReadonlyMap<string, PageWords> = new Map(
  Object.entries({ 'en-GB': enGB, fr, de, es, nl } satisfies Record<Locale, PageWords>).map(([locale, words]) => [
    languageOf(locale),
    words,
  ]),
);

/**
 * The words of the first tag whose language the pages speak (a widget `locale`, a `lang`, the
 * entries of an `Accept-Language`), else English.
 */
export function pageWords(...tags: readonly (string | null | undefined)[]): PageWords {
  for (const tag of tags) {
    const words = tag ? PAGE_LANGUAGES.get(languageOf(tag)) : undefined;
    if (words) return words;
  }
  return ENGLISH;
}
