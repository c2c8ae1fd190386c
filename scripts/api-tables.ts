/**
 * The element's reference tables (docs/reference/element.md), rendered from the Custom Elements
 * Manifest.
 *
 * The element's JSDoc is the one source: the analyzer turns it into `custom-elements.json` (for
 * editors and framework tooling), and this module turns the same manifest into the tables between
 * `<!-- api-tables:start -->` and `<!-- api-tables:end -->` in the element's page. `npm run docs`
 * rewrites them; test/package/docs.test.ts fails when the page and the manifest drift apart, so a new attribute,
 * event or part cannot ship undocumented.
 *
 * Run: `node --import tsx scripts/api-tables.ts [--write | --check]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The element's reference page, where the tables are. */
export const ELEMENT_PAGE = `${root}docs/reference/element.md`;
export const CONFIG = 'test/custom-elements-manifest.config.mjs';
export const START = '<!-- api-tables:start -->';
export const END = '<!-- api-tables:end -->';

/** The few manifest shapes the tables read (schema: custom-elements-manifest 2.x). */
interface Described {
  name: string;
  description?: string;
  summary?: string;
  default?: string;
  type?: { text: string };
  deprecated?: boolean | string;
}
interface Member extends Described {
  kind: 'field' | 'method';
  privacy?: 'public' | 'private' | 'protected';
  static?: boolean;
  readonly?: boolean;
  attribute?: string;
  parameters?: Described[];
  return?: { type?: { text: string } };
}
interface Attribute extends Described {
  fieldName?: string;
}
interface ElementDeclaration extends Described {
  kind: string;
  customElement?: boolean;
  tagName?: string;
  attributes?: Attribute[];
  members?: Member[];
  events?: Described[];
  cssParts?: Described[];
  cssProperties?: (Described & { syntax?: string })[];
  slots?: Described[];
}
/** A Custom Elements Manifest (`custom-elements.json`). */
export interface Manifest {
  schemaVersion: string;
  modules: { path: string; declarations?: ElementDeclaration[] }[];
}

/**
 * Analyzes src/ with the same config as `npm run analyze`, without writing anything. The CLI's own
 * entry is used (not `create()` with a hand-made file list) so globs, excludes and plugins cannot
 * differ between the packed manifest and the element's page.
 */
export async function analyze(): Promise<Manifest> {
  const specifier = '@custom-elements-manifest/analyzer/cli.js'; // untyped JS entry
  const { cli } = (await import(specifier)) as {
    cli: (options: { argv: string[]; cwd: string; noWrite: boolean }) => Promise<Manifest>;
  };
  return cli({ argv: ['analyze', '--config', CONFIG, '--quiet'], cwd: root, noWrite: true });
}

/** The declaration of `tag` in the manifest. */
export function elementOf(manifest: Manifest, tag = 'venue-booking'): ElementDeclaration {
  for (const module of manifest.modules) {
    const found = module.declarations?.find((declaration) => declaration.customElement && declaration.tagName === tag);
    if (found) return found;
  }
  throw new Error(`custom-elements.json has no <${tag}>`);
}

/** Table cell text: one line, pipes escaped (GitHub tables split on them even inside code). */
function cell(text: string | undefined): string {
  return (text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** Inline code, or a dash when there is nothing. */
function code(text: string | undefined): string {
  return text ? `\`${cell(text)}\`` : '—';
}

function describe(item: Described): string {
  const text = cell(item.description ?? item.summary);
  return item.deprecated ? `**Deprecated.** ${text}` : text;
}

function table(title: string, head: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return `### ${title}\n\n${empty}\n`;
  const lines = [head, head.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`);
  return `### ${title}\n\n${lines.join('\n')}\n`;
}

/**
 * The Markdown of the API tables (attributes, properties, methods, events, slots, CSS parts, CSS
 * custom properties). Deterministic and order-preserving: rows follow the JSDoc's order, so a
 * reordering in the source is a visible change of the element's page rather than noise.
 */
export function renderTables(manifest: Manifest, tag = 'venue-booking'): string {
  const element = elementOf(manifest, tag);
  const members = (element.members ?? []).filter(
    (member) => member.privacy !== 'private' && member.privacy !== 'protected' && !member.static,
  );
  const fields = members.filter((member) => member.kind === 'field');
  const methods = members.filter((member) => member.kind === 'method');
  const attributes = element.attributes ?? [];
  const attributeOf = (field: Member) =>
    field.attribute ?? attributes.find((attribute) => attribute.fieldName === field.name)?.name;

  const sections = [
    `<!-- Generated from custom-elements.json by \`npm run docs\`; edit the element's JSDoc instead. -->\n`,
    table(
      'Attributes',
      ['Attribute', 'Property', 'Type', 'Default', 'Description'],
      attributes.map((attribute) => {
        const field = fields.find((member) => member.name === attribute.fieldName);
        return [
          code(attribute.name),
          code(attribute.fieldName),
          code((attribute.type ?? field?.type)?.text),
          code(attribute.default ?? field?.default),
          describe(attribute.description ? attribute : (field ?? attribute)),
        ];
      }),
      'None.',
    ),
    table(
      'Properties',
      ['Property', 'Attribute', 'Type', 'Default', 'Description'],
      fields.map((field) => [
        code(field.name) + (field.readonly ? ' (read-only)' : ''),
        code(attributeOf(field)),
        code(field.type?.text),
        code(field.default),
        describe(field),
      ]),
      'None.',
    ),
    methods.length
      ? table(
          'Methods',
          ['Method', 'Signature', 'Description'],
          methods.map((method) => [
            code(method.name),
            code(
              `(${(method.parameters ?? []).map((parameter) => `${parameter.name}${parameter.type ? `: ${parameter.type.text}` : ''}`).join(', ')}) => ${method.return?.type?.text ?? 'void'}`,
            ),
            describe(method),
          ]),
          'None.',
        )
      : '',
    table(
      'Events',
      ['Event', 'Detail', 'Description'],
      (element.events ?? []).map((event) => [code(event.name), code(event.type?.text), describe(event)]),
      'None.',
    ),
    (element.slots ?? []).length
      ? table(
          'Slots',
          ['Slot', 'Description'],
          element.slots!.map((slot) => [slot.name ? code(slot.name) : '(default)', describe(slot)]),
          'None.',
        )
      : '',
    table(
      'CSS parts',
      ['Part', 'Description'],
      (element.cssParts ?? []).map((part) => [code(part.name), describe(part)]),
      'None.',
    ),
    table(
      'CSS custom properties',
      ['Property', 'Default', 'Description'],
      (element.cssProperties ?? []).map((property) => [
        code(property.name),
        code(property.default),
        describe(property),
      ]),
      'None.',
    ),
  ];
  return sections.filter(Boolean).join('\n');
}

/** The text between the markers, or null when the page has no markers. */
export function tablesIn(readme: string): string | null {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start);
  if (start < 0 || end < 0) return null;
  return readme.slice(start + START.length, end).trim();
}

/** The page with `tables` between the markers. */
export function withTables(readme: string, tables: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start);
  if (start < 0 || end < 0) throw new Error(`docs/reference/element.md lacks the markers ${START} … ${END}`);
  return `${readme.slice(0, start + START.length)}\n\n${tables.trim()}\n\n${readme.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const mode = process.argv[2] ?? '--write';
  const tables = renderTables(await analyze());
  const page = readFileSync(ELEMENT_PAGE, 'utf8');
  if (mode === '--check') {
    const same = tablesIn(page) === tables.trim();
    console.log(
      same ? 'The element’s tables match custom-elements.json' : 'The element’s tables are stale: run `npm run docs`',
    );
    process.exit(same ? 0 : 1);
  }
  writeFileSync(ELEMENT_PAGE, withTables(page, tables));
  console.log('docs/reference/element.md: the tables rewritten from the element’s JSDoc');
}
