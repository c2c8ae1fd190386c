/**
 * Locale loading: en-GB is bundled; fr, de, es and nl are separate modules fetched only when a
 * widget asks for them, so pages in English never pay for other languages.
 */
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
 * The built locale chunks and their Subresource Integrity, baked in by the build (vite.config.ts,
 * `localeIntegrity`): language → chunk path relative to this module, and its sha384. The page's
 * `integrity` attribute covers the bundle only, and the chunks are cached `immutable`, so each is
 * pinned here. Source, dev servers and tests load modules, not chunks: the sentinel stays and
 * nothing is pinned.
 */
const PINNED = '__VB_LOCALE_INTEGRITY__';

function pinnedChunk(language: string): { file: string; integrity: string } | undefined {
  try {
    return (JSON.parse(PINNED) as Record<string, { file: string; integrity: string }>)[language];
  } catch {
    return undefined;
  }
}

/**
 * Fetches a chunk through a `modulepreload` link carrying its integrity: the verified module is
 * the one a following `import()` of that URL gets. On a mismatch it rejects, and nothing is
 * imported (an `import()` after a failed preload would fetch the chunk again, unchecked).
 */
function verifiedPreload(href: string, integrity: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    link.integrity = integrity;
    link.crossOrigin = 'anonymous';
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => reject(new Error('A locale chunk failed its integrity check')));
    document.head.append(link);
  });
}

/**
 * The strings module for a BCP 47 tag: its language if we have it, else en-GB. Rejects when the
 * module cannot be fetched or fails its integrity check; the widget then keeps English and reports it.
 */
export async function loadStrings(locale: string): Promise<Strings> {
  const language = locale.toLowerCase().split('-')[0];
  if (!Object.hasOwn(localeModules, language)) return enGB;
  const pinned = pinnedChunk(language);
  if (pinned) await verifiedPreload(new URL(pinned.file, import.meta.url).href, pinned.integrity);
  return (await localeModules[language]()).strings;
}
