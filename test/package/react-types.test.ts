/**
 * A partner's React 19 team, type-checking with `strict` and `jsx: react-jsx`: one
 * `import type {} from 'venue-booking/react'` types `<venue-booking>` with every property,
 * attribute and `onvb-*` event; every type the element's API names is importable from
 * `venue-booking`; and wrong uses fail to compile with the diagnostic one would expect.
 *
 * It type-checks against the source, with `paths` mapping `venue-booking` and
 * `venue-booking/react` to src/index.ts and src/react.ts, rather than against a build: it runs in
 * seconds without building or packing, and it names the source line that broke. That the
 * published files resolve the same way (the `exports` entries, dist/lib/react.d.ts) is
 * test/package/pack.test.ts's part: it type-checks the React page's snippet (docs/developers/react.md), which uses this
 * same import, against the packed package.
 *
 * The consumer's files are virtual, placed under test/package/ so that `react` resolves to the
 * checkout's @types/react as it would in a partner's project; nothing is written to disk.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { analyze, elementOf } from '../../scripts/api-tables.js';
import { COMMAND, REACT_TYPES, renderReactTypes } from '../../scripts/react-types.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Where the virtual consumer files sit, relative to the checkout. */
const CONSUMER = 'test/package/react-consumer/';
const manifest = await analyze();
const element = elementOf(manifest);

/** A strict React 19 project as Vite's react-ts template sets one up, with the package mapped to src/. */
const OPTIONS: ts.CompilerOptions = {
  strict: true,
  jsx: ts.JsxEmit.ReactJSX,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  noEmit: true,
  skipLibCheck: true,
  baseUrl: root,
  paths: { 'venue-booking': ['src/index.ts'], 'venue-booking/react': ['src/react.ts'] },
};

/**
 * One JSX value for every prop the element takes, properties first, then attributes that are not
 * property names, then events. The test below fails when the manifest names a prop missing here,
 * so a new property cannot ship without being exercised.
 */
const EVERY_PROP: Record<string, string> = {
  venue: '"64a1f0c2e4b0a1b2c3d4e501"',
  venueGroup: '"64a1f0c2e4b0a1b2c3d4e500"',
  api: '"/api"',
  steps: '"num_people,date,type,time,duration"',
  locale: '"fr"',
  theme: '"auto"',
  mode: '"popup"',
  returnUrl: '"https://venue.example/thanks"',
  returnMethod: '"get"',
  hideOffers: '{true}',
  partnerSource: '"partner-site"',
  askDob: '"optional"',
  analytics: '{false}',
  metaPixel: '{true}',
  type: '"64a1f0c2e4b0a1b2c3d4e601"',
  date: '"2026-03-23"',
  time: '"19:00"',
  duration: '{120}',
  numPeople: '{4}',
  replaces: '"tok_abc123"',
  now: '{new Date("2026-03-20T10:00:00Z")}',
  guest: '{guest}',
  'venue-group': '"64a1f0c2e4b0a1b2c3d4e500"',
  'return-url': '"https://venue.example/thanks"',
  'return-method': '"post"',
  'hide-offers': '{true}',
  'partner-source': '"partner-site"',
  'ask-dob': '""',
  'meta-pixel': '{true}',
  'num-people': '"4"',
  'onvb-step': '{(event) => log("step", event.detail.step satisfies ShownStep)}',
  'onvb-change': '{(event) => log(event.detail.field, String(event.detail.value))}',
  'onvb-submit': '{(event) => summaries.push(event.detail.booking)}',
  'onvb-complete': '{(event) => onBooked(event.detail.reference, event.detail.booking)}',
  'onvb-changed': '{(event) => log(event.detail.previous, event.detail.reference)}',
  'onvb-cancelled': '{(event) => log("cancelled", event.detail.reference)}',
  'onvb-redirect': '{(event) => event.detail.url.startsWith("https:") || event.preventDefault()}',
  'onvb-error': '{onError}',
};

/** The props the manifest says the element takes, in the order of the generated typings. */
function manifestProps(): string[] {
  const properties = (element.members ?? [])
    .filter((member) => member.kind === 'field' && !member.static && !member.readonly)
    .map((member) => member.name);
  const attributes = (element.attributes ?? []).map((attribute) => attribute.name);
  const events = (element.events ?? []).map((event) => `on${event.name}`);
  return [...new Set([...properties, ...attributes, ...events])];
}

/** A consumer component rendering `<venue-booking>` with the given props, one per line. */
function component(props: string[]): string {
  return `import 'venue-booking';
import type {} from 'venue-booking/react';
import type { BookingSummary, GuestPrefill, ShownStep, VenueBooking, VenueBookingEventDetails } from 'venue-booking';

const guest: GuestPrefill = { first_name: 'Ada', email: 'ada@example.com' };
const summaries: BookingSummary[] = [];
const log = (...parts: string[]) => console.log(parts.join(' '));
const done = (text: string) => log(text);
const onError = (event: CustomEvent<VenueBookingEventDetails['vb-error']>) => log(event.detail.kind);

export function Booking({ onBooked }: { onBooked: (reference: string, booking: BookingSummary) => void }) {
  return (
    <venue-booking
      ref={(widget: VenueBooking | null) => widget?.open()}
      ${props.join('\n      ')}
    />
  );
}
`;
}

/** Wrong uses, one file each: each must fail with exactly the one diagnostic expected. */
const WRONG: { name: string; prop: string; expect: RegExp }[] = [
  {
    name: 'a word as the party size',
    prop: 'num-people="lots"',
    expect: /TS2322 .*property ''num-people'' are incompatible.*Type '"lots"' is not assignable/,
  },
  {
    name: 'a misspelt event name',
    prop: 'onvb-compelte={(event) => done(event.detail.reference)}',
    expect: /TS2339 Property 'detail' does not exist on type 'NoSuchVenueBookingEvent'/,
  },
  { name: 'an unknown theme', prop: 'theme="purple"', expect: /TS2322 Type '"purple"' is not assignable/ },
  {
    name: 'a guest of the wrong shape',
    prop: "guest={{ name: 'Ada Lovelace' }}",
    expect: /TS2353 .*'name' does not exist in type 'Partial<Pick<GuestDetails/,
  },
  {
    name: 'a guest email that is not text',
    prop: 'guest={{ email: 42 }}',
    expect: /TS2322 Type 'number' is not assignable to type 'string'/,
  },
  {
    name: 'a date string as the clock',
    prop: 'now="2026-03-20"',
    expect: /TS2322 Type 'string' is not assignable to type 'Date'/,
  },
  { name: 'an unknown mode', prop: 'mode="modal"', expect: /TS2322 Type '"modal"' is not assignable/ },
  {
    name: 'a string for a boolean attribute',
    prop: 'hide-offers="yes"',
    expect: /TS2322 .*property ''hide-offers'' are incompatible.*Type 'string' is not assignable to type 'boolean/,
  },
  {
    name: 'a handler reading a detail its event lacks',
    prop: 'onvb-complete={(event) => done(event.detail.url)}',
    expect: /TS2339 Property 'url' does not exist/,
  },
];

/** The React page's snippet, which pack.test.ts also checks against the packed package. */
function readmeSnippet(): string {
  const snippet = /```tsx\n([\s\S]*?)```/.exec(
    readFileSync(new URL('../../docs/developers/react.md', import.meta.url), 'utf8'),
  );
  assert.ok(snippet, 'docs/developers/react.md has a tsx block');
  // Checked here in a program where other files load the typings too: the snippet must load them itself.
  assert.match(snippet[1]!, /^import type \{\} from 'venue-booking\/react';$/m);
  assert.doesNotMatch(snippet[1]!, /namespace JSX/, 'no hand-written glue');
  return snippet[1]!;
}

/**
 * Every consumer file in one program (one program takes seconds: the source is checked with it),
 * as virtual files under test/package/react-consumer/ so that `react` resolves as in a project.
 */
function compileConsumers() {
  const files = new Map<string, string>([
    ['every-prop.tsx', component(Object.entries(EVERY_PROP).map(([name, value]) => `${name}=${value}`))],
    ['readme.tsx', readmeSnippet()],
    ['entry.ts', `export * from 'venue-booking';\n`],
    ...WRONG.map((wrong, index): [string, string] => [
      `wrong-${index}.tsx`,
      component(['venue="64a1f0c2e4b0a1b2c3d4e501"', wrong.prop]),
    ]),
  ]);
  const sources = new Map([...files].map(([name, text]) => [root + CONSUMER + name, text]));
  const host = ts.createCompilerHost(OPTIONS);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => sources.has(name) || fileExists.call(host, name);
  host.readFile = (name) => sources.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = sources.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram([...sources.keys()], OPTIONS, host);
  /** `line: TSnnnn message` of each diagnostic, per file relative to the checkout ('' for global ones). */
  const diagnostics = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName.replace(root, '') ?? '';
    const line = diagnostic.file ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1 : 0;
    const text = `${line}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    diagnostics.set(file, [...(diagnostics.get(file) ?? []), text]);
  }
  return { program, files, diagnostics };
}

let compiled: ReturnType<typeof compileConsumers> | undefined;
const consumers = () => (compiled ??= compileConsumers());

/** Follows an import or re-export to the symbol it names. */
function resolved(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

describe('React 19 typings (venue-booking/react)', () => {
  it(`src/react.ts is what custom-elements.json gives (else run \`${COMMAND}\`)`, async () => {
    assert.equal(readFileSync(REACT_TYPES, 'utf8'), await renderReactTypes(manifest));
  });

  it('a strict consumer using every property, attribute and event compiles, and so does the React page’s snippet', () => {
    assert.deepEqual(Object.keys(EVERY_PROP), manifestProps(), 'one example per prop the manifest names');
    assert.equal(manifestProps().length, 38, '22 properties, 8 attributes of their own, 8 events');
    const { diagnostics } = consumers();
    const clean = (file: string) => assert.deepEqual(diagnostics.get(file) ?? [], [], file || 'global diagnostics');
    for (const file of ['', `${CONSUMER}every-prop.tsx`, `${CONSUMER}readme.tsx`]) clean(file);
    // The package's own source compiles in the partner's settings too.
    for (const [file, found] of diagnostics) if (!file.startsWith('test/')) assert.deepEqual(found, [], file);
  });

  it('every type that an exported type or the element names is exported from venue-booking', () => {
    const { program } = consumers();
    const checker = program.getTypeChecker();
    const entry = checker.getExportsOfModule(
      checker.getSymbolAtLocation(program.getSourceFile(`${root}src/index.ts`)!)!,
    );
    const exported = new Set(entry.map((symbol) => resolved(checker, symbol)));
    /** Types named by the public API, transitively; those not exported are the failures. */
    const named = new Set<ts.Symbol>(exported);
    /** Walks type annotations; a class only through its public instance members. */
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node)) {
        for (const member of node.members) {
          const hidden = ts.ModifierFlags.Private | ts.ModifierFlags.Protected | ts.ModifierFlags.Static;
          if (ts.getCombinedModifierFlags(member) & hidden || (member.name && ts.isPrivateIdentifier(member.name)))
            continue;
          if (ts.isPropertyDeclaration(member) && member.type) visit(member.type);
          if (ts.isMethodDeclaration(member))
            for (const child of [...member.parameters, member.type]) if (child) visit(child);
        }
        return;
      }
      if (ts.isTypeReferenceNode(node)) {
        const symbol = checker.getSymbolAtLocation(node.typeName);
        const target = symbol && resolved(checker, symbol);
        const declaration = target?.declarations?.[0];
        const file = declaration?.getSourceFile().fileName ?? '';
        if (target && file.startsWith(`${root}src/`) && !ts.isTypeParameterDeclaration(declaration!)) named.add(target);
      }
      ts.forEachChild(node, visit);
    };
    // A Set iterates over what is added while iterating: this walks every newly named type too.
    for (const symbol of named) for (const declaration of symbol.declarations ?? []) visit(declaration);
    const missing = [...named]
      .filter((symbol) => !exported.has(symbol))
      .map((symbol) => `${symbol.name} (${symbol.declarations![0]!.getSourceFile().fileName.replace(root, '')})`);
    assert.deepEqual(missing, [], 'named by the public API but not exported');
    for (const name of ['VenueBooking', 'GuestPrefill', 'VenueBookingEventDetails', 'BookingSummary'])
      assert.ok(
        entry.some((symbol) => symbol.name === name),
        `venue-booking exports ${name}`,
      );
  });

  WRONG.forEach((wrong, index) => {
    it(`fails to compile: ${wrong.name} (${wrong.prop})`, () => {
      const { files, diagnostics } = consumers();
      const name = `wrong-${index}.tsx`;
      const lines = files.get(name)!.split('\n');
      // TypeScript reports on the attribute, or on the tag when it reports the attributes as a whole.
      const at = [lines.findIndex((text) => text.includes(wrong.prop)) + 1, lines.indexOf('    <venue-booking') + 1];
      const found = diagnostics.get(CONSUMER + name) ?? [];
      assert.equal(found.length, 1, `exactly one diagnostic:\n${found.join('\n')}`);
      assert.ok(at.includes(Number(found[0]!.split(':')[0])), `on line ${at.join(' or ')}: ${found[0]}`);
      assert.match(found[0]!, wrong.expect);
    });
  });
});
