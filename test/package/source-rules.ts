/**
 * Rules the architecture test holds the proxy's source text to, beside its import map
 * (import-graph.ts): each fact is written once. Kept apart from the test so that each rule also
 * runs on a small planted source, to prove it can fail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './import-graph.js';

/** Sources as `path → text` (paths relative to the root). */
export type Sources = Map<string, string>;

/** The proxy's sources (tests left out), read from `root`. */
export function proxySources(root: string): Sources {
  return new Map(
    sourceFiles(root, ['proxy'])
      .filter((path) => !GENERATED_DATA.has(path))
      .map((path) => [path, readFileSync(join(root, path), 'utf8')]),
  );
}

/**
 * Modules that are another program's source held as data: the WordPress plugin's PHP and scripts
 * (generated from proxy/pages/wordpress/venue-booking/ by the build, drift-tested on their own), whose own
 * constants and paths are the plugin's, not the proxy's settings or routes.
 */
const GENERATED_DATA = new Set(['proxy/pages/wordpress/wordpress-files.ts']);

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

/** The string literals of a module (template heads included), as the compiler reads them: comments are not code. */
export function stringLiterals(text: string): string[] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node))
      found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * Route paths written outside the route table's path column (proxy/paths.ts): a literal that is a
 * table path, or that starts with the API's prefix and a slash (a route of the API, whole or
 * begun, or the bare `/api/`). The sandbox is another service with routes of its own.
 */
export function routeLiterals(
  sources: Sources,
  tablePaths: ReadonlySet<string>,
  apiPrefix: string,
  pathsModule: string,
): string[] {
  const problems: string[] = [];
  for (const [path, text] of sources) {
    if (path === pathsModule || path.startsWith('sandbox/')) continue;
    for (const literal of new Set(stringLiterals(text))) {
      const route = tablePaths.has(literal) || literal.startsWith(`${apiPrefix}/`);
      if (route) problems.push(`${path} writes the route path "${literal}": name it from ${pathsModule}`);
    }
  }
  return problems.sort();
}
