/**
 * Rules the architecture test holds the proxy's source text to, beside its import map
 * (import-graph.ts): each fact is written once. Kept apart from the test so that each rule also
 * runs on a small planted source, to prove it can fail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './import-graph.js';

/** Sources as `path → text` (paths relative to the root). */
export type Sources = Map<string, string>;

/** The proxy's sources (tests left out), read from `root`. */
export function proxySources(root: string): Sources {
  return new Map(sourceFiles(root, ['proxy']).map((path) => [path, readFileSync(join(root, path), 'utf8')]));
}

const SETTING_NAME = /\bVENUE_BOOKING_[A-Z0-9_]+\b/g;

/**
 * Settings drift: a variable named anywhere in the proxy that the registry does not define (a
 * renamed or removed setting still mentioned), and a variable read, declared or compared by its
 * name outside the registry (a second spelling of a setting: property access, an index or a key
 * that is exactly the name, a quoted string that is exactly the name; a Markdown code span in a comment is a mention). Messages that mention a
 * setting inside a sentence are fine as long as the name exists.
 */
export function settingSpellings(sources: Sources, registered: ReadonlySet<string>, registry: string): string[] {
  const problems: string[] = [];
  for (const [path, text] of sources) {
    for (const name of new Set(text.match(SETTING_NAME) ?? []))
      if (!registered.has(name)) problems.push(`${path} names ${name}, which ${registry} does not define`);
    if (path === registry) continue;
    for (const name of registered) {
      const spelled = new RegExp(
        `\\.${name}\\b|\\[\\s*['"\`]${name}['"\`]\\s*\\]|(['"])${name}\\1|^\\s*${name}\\??\\s*:`,
        'm',
      );
      if (spelled.test(text)) problems.push(`${path} spells the setting ${name}: read it through ${registry}`);
    }
  }
  return problems.sort();
}
