/**
 * The repository's import map, read the way the compiler reads it, and the rules the architecture
 * test holds it to. Kept apart from the test so that the rules can be run on a small synthetic
 * graph too: a check that cannot fail proves nothing.
 *
 * Every edge counts: static `import`, `export … from`, `import type`, `import('…')` with a string
 * literal and `typeof import('…')` types. A type-only import still couples two modules (a cycle of
 * types is a cycle of meaning), so cycles are found over all of them; only the rule on what the
 * proxy may take from the widget tells types from values.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** One import of a module: what it names, where that resolved, and whether only types come through. */
export interface ImportEdge {
  /** The specifier as written, e.g. `./app.js`, `node:fs`, `hono`. */
  specifier: string;
  /** The imported file relative to the root (`proxy/app.ts`), or null for a package or builtin. */
  target: string | null;
  typeOnly: boolean;
}

/** Modules (paths relative to the root, `/`-separated) and their imports. */
export type ImportGraph = Map<string, ImportEdge[]>;

const SOURCE = /\.(?:ts|mts|js|mjs)$/;
const BUILTINS = new Set(builtinModules);
/**
 * Folders of files that are data to this package, not its modules: the WordPress plugin's plain
 * scripts run inside WordPress, and reach the proxy only as strings it zips.
 */
const NOT_MODULES = new Set(['proxy/pages/wordpress/venue-booking']);

/** Every source file under `dirs` (relative to `root`), tests, declaration files and NOT_MODULES left out. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) return NOT_MODULES.has(path) ? [] : walk(path);
      return SOURCE.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.test.ts') ? [path] : [];
    });
  return dirs.filter((dir) => existsSync(join(root, dir))).flatMap(walk);
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources), or null. */
function resolveRelative(root: string, from: string, specifier: string): string | null {
  const base = join(dirname(join(root, from)), specifier);
  const stem = base.replace(/\.(?:js|mjs|ts|mts)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.js`, `${stem}.mjs`, `${base}/index.ts`];
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  return found ? relative(root, found).split('\\').join('/') : null;
}

/** Whether an import declaration brings in types only (`import type`, or only `type` names). */
function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x.js'`: run for its effects
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** Whether an export declaration re-exports types only. */
function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((element) => element.isTypeOnly)
  );
}

/** The specifiers one source text imports, each with whether only types come through. */
export function importsOf(text: string, fileName = 'module.ts'): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: importIsTypeOnly(node) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: exportIsTypeOnly(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 &&
      ts.isStringLiteralLike(node.arguments[0]!)
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The import graph of every source file under `dirs`. */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root, dirs)) {
    const edges = importsOf(readFileSync(join(root, file), 'utf8'), file).map(({ specifier, typeOnly }) => ({
      specifier,
      typeOnly,
      target: specifier.startsWith('.') ? resolveRelative(root, file, specifier) : null,
    }));
    graph.set(file, edges);
  }
  return graph;
}

/** Whether a specifier names a Node builtin (`node:fs`, or a bare `fs`). */
export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]!);
}

/** One import cycle: the modules that import each other round, and one path that closes it. */
export interface ImportCycle {
  /** Every module of the strongly connected component, sorted. */
  members: string[];
  /** A shortest path from the first member back to itself: `a.ts, b.ts, a.ts`. */
  path: string[];
}

/** Every import cycle among the graph's own modules, one per strongly connected component. */
export function importCycles(graph: ImportGraph): ImportCycle[] {
  // Tarjan's strongly connected components, then one cycle through each component.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const targets = (file: string) =>
    (graph.get(file) ?? []).flatMap((edge) => (edge.target && graph.has(edge.target) ? [edge.target] : []));
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of targets(file)) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || targets(file).includes(file)) components.push(component);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return components.map((component) => {
    const members = component.sort();
    return { members, path: cycleThrough(members[0]!, new Set(members), targets) };
  });
}

/** A shortest path from `start` back to itself inside one component (breadth first). */
function cycleThrough(start: string, members: Set<string>, targets: (file: string) => string[]): string[] {
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    for (const target of targets(file)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = file; at !== start; at = from.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!from.has(target)) {
        from.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** The layer rules of the repository's import map. */
export interface LayerRules {
  /** Files (prefixes ending in `/`, or whole paths) that may import Node builtins. */
  nodeAllowed: readonly string[];
  /** Modules of the widget that the proxy may import at run time (pure, shared on purpose). */
  sharedWithProxy: readonly string[];
}

const within = (file: string, places: readonly string[]) =>
  places.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place));

/** Every import that breaks a layer rule, one line each, naming the file and the import. */
export function layerViolations(graph: ImportGraph, rules: LayerRules): string[] {
  const problems: string[] = [];
  for (const [file, edges] of graph) {
    for (const edge of edges) {
      const named = `${file} imports ${edge.specifier}`;
      if (isNodeBuiltin(edge.specifier) && !within(file, rules.nodeAllowed))
        problems.push(`${named}: Node builtins belong in proxy/node/ (or a CLI)`);
      if (file.startsWith('src/') && edge.target?.startsWith('proxy/'))
        problems.push(`${named}: the widget never imports the proxy`);
      if (
        file.startsWith('proxy/') &&
        edge.target?.startsWith('src/') &&
        !edge.typeOnly &&
        !rules.sharedWithProxy.includes(edge.target)
      )
        problems.push(`${named}: the proxy takes only types from src/ (use \`import type\`)`);
    }
  }
  return problems.sort();
}

/**
 * Layers (the proxy's, the widget's), lowest first. Each layer is a list of units (folders ending
 * in `/`, or files); a module may import its own unit and any unit of a lower layer, never a
 * higher layer nor another unit of its own (siblings stay independent).
 */
export type Layers = readonly (readonly (readonly string[])[])[];

/** What a layer map allows beside the order, and where it is drawn for people. */
export interface LayerOptions {
  /**
   * On-demand chunks: modules fetched at run time by `import()` as a chunk of their own that imports
   * nothing (vite.config.ts refuses one that does), so a lower layer may name them to load them later.
   */
  onDemand?: readonly string[];
  /** The document that draws the layers, named when a module is in none. */
  drawnIn?: string;
}

/** Every import inside `prefix` that breaks the layer order, and every module no layer names. */
export function layerOrderViolations(
  graph: ImportGraph,
  layers: Layers,
  prefix: string,
  { onDemand = [], drawnIn = 'proxy/README.md' }: LayerOptions = {},
): string[] {
  const placeOf = (file: string) => {
    for (const [rank, units] of layers.entries())
      for (const [unit, places] of units.entries()) if (within(file, places)) return { rank, unit };
    return null;
  };
  const problems: string[] = [];
  for (const [file, edges] of graph) {
    if (!file.startsWith(prefix)) continue;
    const from = placeOf(file);
    if (!from) {
      problems.push(`${file} is in no layer: add it to the layer map (and to ${drawnIn})`);
      continue;
    }
    for (const edge of edges) {
      if (!edge.target?.startsWith(prefix) || onDemand.includes(edge.target)) continue;
      const to = placeOf(edge.target);
      if (!to || to.rank < from.rank || (to.rank === from.rank && to.unit === from.unit)) continue;
      problems.push(
        to.rank > from.rank
          ? `${file} imports ${edge.target}: a lower layer never imports a higher one`
          : `${file} imports ${edge.target}: units of one layer stay independent`,
      );
    }
  }
  return problems.sort();
}

/** Every import of a package named in `packages` by a module under one of `places`. */
export function forbiddenPackages(
  graph: ImportGraph,
  places: readonly string[],
  packages: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const [file, edges] of graph) {
    if (!within(file, places)) continue;
    for (const edge of edges)
      if (packages.some((name) => edge.specifier === name || edge.specifier.startsWith(`${name}/`)))
        problems.push(`${file} imports ${edge.specifier}`);
  }
  return problems.sort();
}

/**
 * Imports from a product that stands apart (`places`) into the rest of the tree: the sandbox is
 * the v4 service emulated, and knows nothing of the proxy or the widget that call it.
 */
export function importsLeaving(graph: ImportGraph, places: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [file, edges] of graph) {
    if (!within(file, places)) continue;
    for (const edge of edges)
      if (edge.target !== null && !within(edge.target, places)) problems.push(`${file} imports ${edge.target}`);
  }
  return problems.sort();
}
