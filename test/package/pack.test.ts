/**
 * The npm package as an adopter gets it: `npm pack`, then install the tarball into an empty
 * project and use it there — import in Node (server rendering, no `window`, with and without the
 * `browser` condition), type-check a strict TypeScript consumer under node10, node16 and bundler
 * resolution, the React page's snippet (docs/developers/) and each framework's typings (React with tsc, Vue with
 * vue-tsc, Svelte with svelte-check: correct use passes, wrong props, values and event fields
 * fail), run a manifest-driven generator over the packed custom-elements.json, start both bins.
 * The tarball is packed once for all of these.
 *
 * The tarball is built in a copy of the checkout (sharing node_modules through a symlink), so
 * this test never rewrites the `dist/` that other tests and engineers are using at the same time.
 * The consumer installs from the npm cache first (`--prefer-offline`): after `npm ci` every
 * dependency is there, so the test needs no network on CI.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { elementOf, type Manifest } from '../../scripts/api-tables.js';
import { withProof } from '../support/bot-proof.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TYPESCRIPT = join(root, 'node_modules/typescript/bin/tsc');
const VUE_TSC = join(root, 'node_modules/vue-tsc/bin/vue-tsc.js');
const SVELTE_CHECK = join(root, 'node_modules/svelte-check/bin/svelte-check');
/** The framework consumers' files (Vue and Svelte components), copied into the consumer project. */
const CONSUMERS = join(root, 'test/package/consumers');
/** A dev dependency's version in this checkout, so the consumer installs it from the npm cache. */
const versionOf = (name: string) =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;
/** What the checkout copy needs to build: everything but the bulky and the generated. */
const SKIP = new Set(['node_modules', '.git', 'dist', '.test-results', 'test']);

const work = mkdtempSync(join(tmpdir(), 'venue-booking-pack-'));
const checkout = join(work, 'checkout');
const consumer = join(work, 'consumer');
let tarball = '';
let packed: string[] = [];
let frontEnd: Inventory = { packages: [], bytes: 0, binaries: [] };

function sh(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status}) in ${cwd}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/** Installs into the consumer as a partner would, from the npm cache first. */
function install(specs: string[]): void {
  sh(
    'npm',
    ['install', ...specs, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
    consumer,
  );
}

/** What an install put into node_modules: package names, total bytes, native binaries. */
interface Inventory {
  packages: string[];
  bytes: number;
  binaries: string[];
}

const ELF = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

function inventory(modules: string): Inventory {
  const found: Inventory = { packages: [], bytes: 0, binaries: [] };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) continue; // .bin links point at files counted where they live
      if (entry.isDirectory()) {
        if (existsSync(join(path, 'package.json')) && basename(dirname(path)).match(/^(node_modules|@[\w.-]+)$/)) {
          found.packages.push(relative(modules, path).replace(/^(.*\/)?node_modules\//, ''));
        }
        walk(path);
        continue;
      }
      const size = statSync(path).size;
      found.bytes += size;
      const head = Buffer.alloc(4);
      const fd = openSync(path, 'r');
      readSync(fd, head, 0, 4, 0);
      closeSync(fd);
      if (entry.name.endsWith('.node') || head.equals(ELF)) found.binaries.push(relative(modules, path));
    }
  };
  walk(modules);
  found.packages.sort();
  return found;
}

/** Books a table through a running proxy on its embedded sandbox, as the widget does; returns the reference. */
async function bookThrough(base: string): Promise<string> {
  const venue = '64a1f0c2e4b0a1b2c3d4e501';
  const headers = { origin: base, 'content-type': 'application/json' };
  const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const ask = async (query: Record<string, string | number>) => {
    const response = await fetch(`${base}/api/venues/${venue}/booking-availability`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: '64a1f0c2e4b0a1b2c3d4e601', date, num_people: 2, ...query }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { payload: Record<string, any> }).payload;
  };
  const open = (field: { suggestedValues?: { value?: unknown; time?: unknown; valid?: boolean }[] } | undefined) => {
    const item = field?.suggestedValues?.find((suggestion) => suggestion.valid !== false);
    return item && (item.time ?? item.value);
  };
  let answer = await ask({});
  const time = open(answer.validation.time);
  assert.ok(time, 'the sandbox offers a time a fortnight ahead');
  answer = await ask({ time: String(time) });
  const duration = open(answer.validation.duration);
  if (duration !== undefined) answer = await ask({ time: String(time), duration: Number(duration) });
  assert.ok(answer.bookingDetails, `a complete choice is bookable: ${JSON.stringify(answer.validation)}`);
  const { venue_group: _group, payments: _payments, ...details } = answer.bookingDetails;
  // With a proof of work solved as the widget solves it: the installed proxy's bot check is on.
  const url = `${base}/api/bookings`;
  const response = await fetch(
    url,
    await withProof(fetch, url, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'pack-test-booking-0001' },
      body: JSON.stringify({ ...details, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }),
    }),
  );
  const body = (await response.json()) as { payload: { booking?: { reference?: string } } };
  assert.equal(response.status, 200, JSON.stringify(body));
  return body.payload.booking!.reference!;
}

/** Runs tsc in the consumer project; returns its diagnostics (empty when it type-checks). */
function typecheck(project: string): string {
  const result = spawnSync(process.execPath, [TYPESCRIPT, '-p', project, '--pretty', 'false'], {
    cwd: consumer,
    encoding: 'utf8',
  });
  return result.status === 0 ? '' : `${result.stdout}${result.stderr}` || `tsc exited ${result.status}`;
}

/** Writes a tsconfig into the consumer: strict, DOM, no ambient types, with `options` over that. */
function writeConfig(name: string, options: Record<string, unknown>, files: { files?: string[]; include?: string[] }) {
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: [],
    skipLibCheck: true,
    ...options,
  };
  writeFileSync(join(consumer, name), JSON.stringify({ compilerOptions, ...files }));
}

/** Runs a checker's script with Node in the consumer: its output, and whether it exited 0. */
function check(script: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: consumer, encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/** The lines of a Svelte file that follow an `expect-error` comment (1-based). */
function expectedErrorLines(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, index) => (line.includes('<!-- expect-error:') ? [index + 2] : []));
}

/** The first fenced block of `lang` on a framework's page of the docs (docs/developers/<page>.md). */
function docsSnippet(page: string, lang: string): string {
  const text = readFileSync(join(root, 'docs/developers', `${page}.md`), 'utf8');
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(text);
  assert.ok(block, `docs/developers/${page}.md has a \`\`\`${lang} block`);
  return block![1]!;
}

/** Starts a bin on a free port, waits for its "listening on http://localhost:N" line. */
async function startBin(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(join(consumer, 'node_modules/.bin', name), args, {
    cwd: consumer,
    env: { ...process.env, ...env },
  });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/localhost:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`${name} exited ${code}:\n${output}`)));
  });
  return { child, base };
}

describe('the packed npm package, installed into an empty project', () => {
  before(() => {
    mkdirSync(checkout);
    cpSync(root, checkout, {
      recursive: true,
      filter: (source) => !SKIP.has(source.slice(root.length).split('/')[0]!),
    });
    mkdirSync(join(checkout, 'test'));
    cpSync(
      join(root, 'test/custom-elements-manifest.config.mjs'),
      join(checkout, 'test/custom-elements-manifest.config.mjs'),
    );
    symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'dir');
    // `prepack` runs `npm run build`; running it explicitly keeps its log out of `npm pack --json`.
    sh('npm', ['run', 'build', '--silent'], checkout);
    const [info] = JSON.parse(
      sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], checkout),
    ) as { filename: string; files: { path: string }[] }[];
    tarball = join(work, info!.filename);
    packed = info!.files.map((file) => file.path);

    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    install([tarball]);
    frontEnd = inventory(join(consumer, 'node_modules'));
    // The React types come after the inventory: they are the partner's own dependency, not ours.
    install([`@types/react@${versionOf('@types/react')}`, `vue@${versionOf('vue')}`, `svelte@${versionOf('svelte')}`]);
    cpSync(CONSUMERS, join(consumer, 'frameworks'), { recursive: true });
    // The docs' Vue and Svelte snippets are checked with the components (they must pass).
    writeFileSync(join(consumer, 'frameworks/Readme.vue'), docsSnippet('vue', 'vue'));
    writeFileSync(join(consumer, 'frameworks/Readme.svelte'), docsSnippet('svelte', 'svelte'));
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  it('packs the bundle, the ESM build with declarations, the manifest and both bins, and no tests', () => {
    for (const path of [
      'dist/venue-booking.js',
      'dist/lib/index.js',
      'dist/lib/index.d.ts',
      'dist/custom-elements.json',
      'dist/server/venue-booking-proxy.js',
      'dist/server/venue-booking-sandbox.js',
      'dist/server/proxy.js',
      'dist/server/proxy.d.ts',
      'dist/server/sandbox.js',
      'dist/server/sandbox.d.ts',
      'dist/server/worker.js',
      'dist/server/openapi.json',
      'README.md',
      'LICENSE',
    ]) {
      assert.ok(packed.includes(path), `${path} is in the tarball`);
    }
    assert.deepEqual(
      packed.filter((path) => /(^|\/)test\/|\.test\.ts$|^demo\/|^dist\/demo\/|^proxy\//.test(path)),
      [],
      'no tests, demo pages or proxy sources in the tarball (the proxy ships compiled)',
    );
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/venue-booking/package.json'), 'utf8'));
    assert.ok(
      existsSync(join(consumer, 'node_modules/venue-booking', manifest.customElements)),
      'package.json customElements points at a packed file',
    );
    for (const bin of Object.values(manifest.bin as Record<string, string>))
      assert.ok(packed.includes(bin.replace(/^\.\//, '')), `bin ${bin} is packed`);
    // package.json `sideEffects` must never let a bundler drop the module that defines the element.
    const bundle = readFileSync(join(consumer, 'node_modules/venue-booking/dist/venue-booking.js'), 'utf8');
    assert.match(bundle, /customElements\.define\(/);
    // V8's compile hint is the script tag's first line, where Chromium reads it (vite.config.ts `compileHint`).
    assert.ok(bundle.startsWith('//# allFunctionsCalledOnLoad\n'), 'the compile hint opens the bundle');
  });

  it('imports in Node, where there is no window, without throwing', () => {
    const script = `
      const module = await import('venue-booking');
      if (typeof module.VenueBooking !== 'function') throw new Error('VenueBooking is not exported');
      if (typeof window !== 'undefined') throw new Error('the test should run without a window');
      const manifest = await import('venue-booking/custom-elements.json', { with: { type: 'json' } });
      if (!manifest.default.modules.length) throw new Error('empty manifest');
      console.log('ok');`;
    assert.equal(sh(process.execPath, ['--input-type=module', '-e', script], consumer).trim(), 'ok');
  });

  it('type-checks a strict TypeScript consumer under NodeNext and bundler resolution', () => {
    const packageManifest = JSON.parse(
      readFileSync(join(consumer, 'node_modules/venue-booking/dist/custom-elements.json'), 'utf8'),
    ) as Manifest;
    const element = elementOf(packageManifest);
    // Every documented event must be typed in HTMLElementEventMap, with a detail to read.
    const events = (element.events ?? []).map(
      (event) =>
        `element.addEventListener('${event.name}', (event) => { const detail: unknown = event.detail; void detail; });`,
    );
    // Every documented attribute's property must exist on the typed element.
    const properties = (element.attributes ?? [])
      .filter((attribute) => attribute.fieldName)
      .map((attribute) => `void element.${attribute.fieldName};`);
    writeFileSync(
      join(consumer, 'consumer.ts'),
      `import { VenueBooking } from 'venue-booking';
const element = document.createElement('venue-booking');
const typed: VenueBooking = element; // HTMLElementTagNameMap knows the tag
const found: VenueBooking | null = document.querySelector('venue-booking');
element.venue = '64a1f0c2e4b0a1b2c3d4e501';
// @ts-expect-error a misspelt property is a type error, not a silent no-op
element.venu = 'x';
${properties.join('\n')}
${events.join('\n')}
void typed; void found;
`,
    );
    const base = {
      strict: true,
      noEmit: true,
      target: 'ES2022',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      types: [],
      skipLibCheck: false,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
    };
    writeFileSync(
      join(consumer, 'tsconfig.nodenext.json'),
      JSON.stringify({
        compilerOptions: { ...base, module: 'NodeNext', moduleResolution: 'NodeNext' },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(
      join(consumer, 'tsconfig.bundler.json'),
      JSON.stringify({
        compilerOptions: { ...base, module: 'ESNext', moduleResolution: 'Bundler' },
        files: ['consumer.ts'],
      }),
    );
    assert.equal(typecheck('tsconfig.nodenext.json'), '');
    assert.equal(typecheck('tsconfig.bundler.json'), '');
  });

  it('type-checks the React page’s snippet as JSX', () => {
    writeFileSync(join(consumer, 'booking.tsx'), docsSnippet('react', 'tsx'));
    writeFileSync(
      join(consumer, 'tsconfig.react.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          jsx: 'react-jsx',
          types: [],
          skipLibCheck: false,
        },
        files: ['booking.tsx'],
      }),
    );
    assert.equal(typecheck('tsconfig.react.json'), '');
  });

  it('imports in Node with the browser condition too, and every typings entry, without throwing', () => {
    const script = `
      const module = await import('venue-booking');
      for (const entry of ['venue-booking/react', 'venue-booking/vue', 'venue-booking/svelte']) await import(entry);
      console.log(typeof module.VenueBooking);`;
    const run = (conditions: string[]) =>
      sh(process.execPath, [...conditions, '--input-type=module', '-e', script], consumer).trim();
    assert.equal(run([]), 'function', "plain Node loads the class on Lit's server build");
    // Lit's browser build needs a DOM at import: without one the class is undefined, and nothing throws.
    assert.equal(run(['--conditions=browser']), 'undefined');
  });

  it('resolves the types of every entry under node10, node16 and bundler resolution', () => {
    writeFileSync(
      join(consumer, 'resolve.ts'),
      `import type { VenueBooking, VenueBookingPropertyValues, VenueBookingStepDetail } from 'venue-booking';
import type { VenueBookingProps } from 'venue-booking/react';
import type { VenueBookingVueProps } from 'venue-booking/vue';
import type { VenueBookingSvelteAttributes } from 'venue-booking/svelte';
import type { ProxyConfig } from 'venue-booking/proxy';
import type { SandboxOptions } from 'venue-booking/sandbox';
export type All = [VenueBooking, VenueBookingPropertyValues, VenueBookingStepDetail, VenueBookingProps,
  VenueBookingVueProps, VenueBookingSvelteAttributes, ProxyConfig, SandboxOptions];
// @ts-expect-error a theme the element does not have
export const wrong: VenueBookingPropertyValues = { theme: 'blue' };
`,
    );
    for (const [resolution, module] of [
      ['node10', 'CommonJS'],
      ['node16', 'Node16'],
      ['bundler', 'ESNext'],
    ]) {
      writeConfig(`tsconfig.${resolution}.json`, { module, moduleResolution: resolution }, { files: ['resolve.ts'] });
      assert.equal(typecheck(`tsconfig.${resolution}.json`), '', resolution);
    }
  });

  it('React: wrong props, values and event fields fail to compile', () => {
    writeFileSync(
      join(consumer, 'wrong.tsx'),
      `import type {} from 'venue-booking/react';
export const uses = [
  // @ts-expect-error a theme the element does not have
  <venue-booking theme="blue" />,
  // @ts-expect-error a venue id is a string
  <venue-booking venue={42} />,
  // @ts-expect-error a guest's names are strings
  <venue-booking guest={{ first_name: 1 }} />,
  // @ts-expect-error vb-step's detail has no reference
  <venue-booking onvb-step={(event) => event.detail.reference} />,
  <venue-booking theme="dark" onvb-step={(event) => event.detail.step} />,
];
`,
    );
    writeConfig(
      'tsconfig.react-wrong.json',
      { module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', skipLibCheck: false },
      { files: ['wrong.tsx'] },
    );
    assert.equal(typecheck('tsconfig.react-wrong.json'), '');
  });

  it('Vue: vue-tsc (strictTemplates) passes correct use and fails each wrong prop, value and event field', () => {
    writeConfig(
      'tsconfig.vue.json',
      { module: 'ESNext', moduleResolution: 'Bundler', jsx: 'preserve' },
      { include: ['frameworks/*.vue'] },
    );
    const config = JSON.parse(readFileSync(join(consumer, 'tsconfig.vue.json'), 'utf8'));
    writeFileSync(
      join(consumer, 'tsconfig.vue.json'),
      JSON.stringify({ ...config, vueCompilerOptions: { strictTemplates: true } }),
    );
    // Wrong.vue marks each wrong use with @vue-expect-error: a use that type-checks fails the run.
    const result = check(VUE_TSC, ['-p', 'tsconfig.vue.json', '--pretty', 'false']);
    assert.equal(result.output.trim(), '');
    assert.ok(result.ok);
  });

  it('Svelte: svelte-check passes correct use and reports each wrong prop, value and event field', () => {
    writeConfig(
      'tsconfig.svelte.json',
      { module: 'ESNext', moduleResolution: 'Bundler', verbatimModuleSyntax: true },
      { include: ['frameworks/*.svelte'] },
    );
    const { output } = check(SVELTE_CHECK, ['--tsconfig', './tsconfig.svelte.json', '--output', 'machine']);
    const errors = [...output.matchAll(/ ERROR "([^"]+)" (\d+):\d+ "(.*)"$/gm)].map(([, file, line, text]) => ({
      file: file!,
      line: Number(line),
      text: text!,
    }));
    assert.ok(/COMPLETED/.test(output), output);
    assert.deepEqual(
      errors.filter((error) => !error.file.endsWith('Wrong.svelte')),
      [],
      'correct use passes',
    );
    const reported = [...new Set(errors.map((error) => error.line))].sort((a, b) => a - b);
    assert.deepEqual(reported, expectedErrorLines(join(CONSUMERS, 'Wrong.svelte')), output);
  });

  it('the packed manifest drives a generator: custom-element-vuejs-integration output type-checks', async () => {
    const manifest = JSON.parse(
      readFileSync(join(consumer, 'node_modules/venue-booking/dist/custom-elements.json'), 'utf8'),
    ) as Manifest;
    const declarations = manifest.modules.flatMap((module) => module.declarations ?? []);
    assert.deepEqual(
      declarations.filter((declaration) => declaration.customElement).map((declaration) => declaration.name),
      ['VenueBooking'],
      'one custom element',
    );
    const paths = JSON.stringify(manifest).match(/"(path|module)":"[^"]+"/g) ?? [];
    for (const entry of paths) {
      const path = entry.split('"')[3]!;
      if (!path.startsWith('.')) assert.ok(packed.includes(path), `${path} is in the package`);
    }
    const entry = readFileSync(join(consumer, 'node_modules/venue-booking/dist/lib/index.d.ts'), 'utf8');
    for (const event of elementOf(manifest).events ?? []) {
      assert.match(event.type?.text ?? '', /^VenueBooking\w+Detail$/, `${event.name}: a named detail type`);
      assert.ok(entry.includes(event.type!.text), `${event.type!.text} is exported`);
    }
    const specifier = join(root, 'node_modules/custom-element-vuejs-integration/index.js');
    const { generateVuejsTypes } = (await import(specifier)) as {
      generateVuejsTypes: (manifest: unknown, options: Record<string, unknown>) => void;
    };
    generateVuejsTypes(manifest, {
      outdir: join(consumer, 'generated'),
      fileName: 'venue-booking-vue.d.ts',
      globalTypePath: 'venue-booking',
      hideLogs: true,
    });
    // Checked as a source file (not skipped as a library's .d.ts), without checking Vue's own declarations.
    const generated = join(consumer, 'generated/venue-booking-vue');
    writeFileSync(`${generated}.ts`, readFileSync(`${generated}.d.ts`));
    writeFileSync(
      join(consumer, 'generated/use.ts'),
      `import type { CustomElements } from './venue-booking-vue.js';
type Props = CustomElements['venue-booking'] extends new (...args: never[]) => { $props: infer P } ? P : never;
export const ok: Props = { venue: 'x', theme: 'dark', 'onvb-step': (event) => event.detail.step };
// @ts-expect-error a theme the element does not have
export const wrong: Props = { theme: 'blue' };
// @ts-expect-error vb-step's detail has no reference
export const field: Props = { 'onvb-step': (event) => event.detail.reference };
`,
    );
    writeConfig(
      'tsconfig.generated.json',
      { module: 'ESNext', moduleResolution: 'Bundler', noImplicitAny: true },
      { files: ['generated/venue-booking-vue.ts', 'generated/use.ts'] },
    );
    assert.equal(typecheck('tsconfig.generated.json'), '');
  });

  it("gives a front-end only the widget's runtime: small, no native binary, no loader, no server framework", () => {
    const allowed = new Set([
      'venue-booking',
      'lit',
      'lit-html',
      'lit-element',
      '@lit/reactive-element',
      '@lit/task',
      '@lit-labs/ssr-dom-shim',
      '@types/trusted-types',
      'ky',
    ]);
    assert.deepEqual(
      frontEnd.packages.filter((name) => !allowed.has(name)),
      [],
      `only the widget and its runtime are installed: ${frontEnd.packages.join(', ')}`,
    );
    assert.deepEqual(frontEnd.binaries, [], 'no native binary');
    const mib = frontEnd.bytes / 1024 / 1024;
    assert.ok(mib <= 8, `node_modules is ${mib.toFixed(2)} MiB (at most 8)`);
  });

  it('gives an operator the proxy in the same install: help, start on the embedded sandbox, serve the widget, book', async () => {
    // `npx` finds the installed bin; plain Node runs it (no TypeScript loader is installed).
    const help = sh('npx', ['--no-install', 'venue-booking-proxy', '--help'], consumer);
    assert.match(help, /Usage: venue-booking-proxy/);
    const proxy = await startBin('venue-booking-proxy', ['--port', '0']);
    try {
      assert.equal((await fetch(`${proxy.base}/healthz`)).status, 200);
      const script = await fetch(`${proxy.base}/venue-booking.js`);
      assert.equal(script.status, 200, 'the proxy serves the packed widget bundle');
      assert.match(await script.text(), /customElements\.define\(/);
      const reference = await bookThrough(proxy.base);
      assert.match(reference, /^\S+$/, 'the embedded sandbox took the booking and gave a reference');
    } finally {
      proxy.child.kill();
    }
  });

  it('runs the sandbox bin, and imports the proxy, sandbox and Worker entries as libraries', async () => {
    const sandbox = await startBin('venue-booking-sandbox', ['--port', '0']);
    try {
      const response = await fetch(`${sandbox.base}/v4/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability`);
      assert.equal(response.status, 401, 'the sandbox answers, and asks for credentials like the real service');
    } finally {
      sandbox.child.kill();
    }
    const script = `
      const { createProxy, createStack } = await import('venue-booking/proxy');
      const { createSandbox, SANDBOX_APP } = await import('venue-booking/sandbox');
      const worker = (await import('venue-booking/worker')).default;
      const sandbox = createSandbox();
      const proxy = createProxy({ upstream: 'http://sandbox.internal/v4', appId: SANDBOX_APP.id, apiKey: SANDBOX_APP.key,
        venues: ['64a1f0c2e4b0a1b2c3d4e501'], fetch: (request) => sandbox.fetch(request) });
      const health = await proxy.fetch(new Request('http://proxy.local/healthz'));
      const stack = createStack({ origin: 'http://stack.local' });
      const stackHealth = await stack.fetch(new Request('http://stack.local/healthz'));
      const workerHealth = await worker.fetch(new Request('http://worker.local/healthz'), {});
      console.log([health.status, stackHealth.status, workerHealth.status].join(' '));`;
    // The handlers log each request as a JSON line; the script's own answer is the last line.
    const output = sh(process.execPath, ['--input-type=module', '-e', script], consumer).trim().split('\n');
    assert.equal(output.at(-1), '200 200 200');
  });

  it('type-checks the proxy and sandbox libraries for a strict consumer without their server libraries', () => {
    writeFileSync(
      join(consumer, 'server.ts'),
      `import { createProxy, createStack, type ProxyConfig } from 'venue-booking/proxy';
import { createSandbox, SANDBOX_APP } from 'venue-booking/sandbox';
const sandbox = createSandbox({ dialect: 'live' });
const config: ProxyConfig = { upstream: 'https://api.example/v4', appId: SANDBOX_APP.id, apiKey: 'k', venues: [] };
const handlers: { fetch(request: Request): Promise<Response> }[] = [createProxy(config), createStack({ origin: 'http://x' }), sandbox];
// @ts-expect-error the upstream is required
createProxy({ appId: 'a', apiKey: 'k', venues: [] });
void handlers;
`,
    );
    writeFileSync(
      join(consumer, 'tsconfig.server.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: [],
          skipLibCheck: false,
        },
        files: ['server.ts'],
      }),
    );
    assert.equal(typecheck('tsconfig.server.json'), '');
  });
});
