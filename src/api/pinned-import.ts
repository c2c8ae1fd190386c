/**
 * The script-tag bundle's on-demand chunks (the locale modules, the later steps), each pinned by
 * its Subresource Integrity. The page's `integrity` attribute covers the bundle only, and the
 * chunks are cached `immutable`, so the build (vite.config.ts, `chunkIntegrity`) writes each chunk's
 * path and sha384 here, in place of the sentinel, and a chunk is preloaded with that integrity
 * before it is imported. A chunk imports nothing, so no import of its own can fetch code around its
 * pin. Source, dev servers, tests and `dist/lib` load modules, not chunks: the sentinel stays and
 * nothing is pinned.
 */
const PINNED = '__VB_CHUNK_INTEGRITY__';

/** The built chunk of a module (its file name without `.ts`): its path relative to this module, and its sha384. */
function pinnedChunk(name: string): [file: string, integrity: string] | undefined {
  try {
    return (JSON.parse(PINNED) as Record<string, [string, string]>)[name];
  } catch {
    return undefined;
  }
}

/** Preloads a chunk with its integrity for the `import()` that follows; a mismatch rejects: nothing unchecked runs. */
function verifiedPreload(href: string, integrity: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement('link'), {
      rel: 'modulepreload',
      href,
      integrity,
      crossOrigin: 'anonymous',
      onload: () => resolve(),
      onerror: () => reject(new Error(`${href} failed its integrity check`)),
    });
    document.head.append(link);
  });
}

/**
 * Imports an on-demand module (`name`: its file name without `.ts`; `load`: its `import()`), its
 * chunk verified first where the build pinned it. Rejects when the module cannot be fetched or its
 * chunk fails the integrity check.
 */
export async function importPinned<T>(name: string, load: () => Promise<T>): Promise<T> {
  const pinned = pinnedChunk(name);
  if (pinned) await verifiedPreload(new URL(pinned[0], import.meta.url).href, pinned[1]);
  return load();
}
