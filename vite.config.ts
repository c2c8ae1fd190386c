/**
 * `npm start`: Vite serves the demo gallery (demo/*.html) and mounts the whole offline stack
 * (proxy + embedded sandbox) in the same process, so a newcomer books a table with no credentials
 * and no second terminal. `npm run build`: the script-tag bundle `dist/venue-booking.js`, Lit
 * included. `npm run demo:build` (`--mode demo`): the gallery as a static site in dist/demo, which
 * `npm run demo:preview` serves with the same stack — the production build under the strict CSP.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { minify } from 'terser';
import { defineConfig, type Plugin } from 'vite';
import { createStack, SANDBOX_PREFIX } from './proxy/stack.js';
import { STRICT_CSP, STRICT_CSP_PAGES } from './demo/csp-policy.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const demo = `${root}demo/`;

/**
 * The browsers the script-tag bundle is built for, and the README's "Supported browsers". Safari
 * 16.4 is the first Safari to parse class `static {}` blocks, which the minified classes are made
 * of; lowering them for Safari 15 costs about 0.5 KiB gzip, past the 30 KiB budget. Chrome and
 * Edge 98 are the first the build keeps ES2022 classes for unchanged (the bundle is the same as for
 * `es2022`); Firefox 98 is the first with `<dialog>`, which popup mode uses. Older browsers cannot
 * parse the bundle, so none of it runs and the fallback content inside the element stays.
 */
export const SUPPORTED_BROWSERS = ['chrome98', 'edge98', 'firefox98', 'safari16.4'];

/**
 * Paths the stack answers; everything else is Vite's. A guest's manage page (the confirmation links
 * to it) and the booking pages' stylesheet it uses are the stack's too, so the demo's manage link
 * works; its change page shows the venue's phone there instead of the widget, which the stack serves
 * only from the built bundle (`venue-booking-proxy` has it).
 */
const STACK_PATHS = ['/api/', '/healthz', `${SANDBOX_PREFIX}/`, '/manage/', '/book/style.css'];

type Middlewares = { use: (fn: (req: IncomingMessage, res: ServerResponse, next: () => void) => void) => void };

/** Mounts the proxy and sandbox on Vite's dev and preview servers. */
function offlineStack(): Plugin {
  let listener: ReturnType<typeof getRequestListener> | null = null;
  const mount = (middlewares: Middlewares) => {
    middlewares.use((req, res, next) => {
      if (!STACK_PATHS.some((path) => req.url?.startsWith(path))) return next();
      // The sandbox must know its public address for next.web: take it from the first request.
      listener ??= getRequestListener(createStack({ origin: `http://${req.headers.host}` }).fetch);
      void listener(req, res);
    });
  };
  return {
    name: 'venue-booking-offline-stack',
    configureServer: (server) => mount(server.middlewares),
    configurePreviewServer: (server) => mount(server.middlewares),
  };
}

/**
 * Sends the strict Content-Security-Policy header with demo/strict-csp.html, so the page proves in
 * `npm start` what the browser test proves: the widget books under `default-src 'none'`.
 */
function strictCspPages(): Plugin {
  const protect = (middlewares: Middlewares) => {
    middlewares.use((req, res, next) => {
      const path = req.url?.split('?')[0];
      if (path && STRICT_CSP_PAGES.includes(path)) res.setHeader('Content-Security-Policy', STRICT_CSP);
      next();
    });
  };
  return {
    name: 'venue-booking-strict-csp-pages',
    configureServer: (server) => protect(server.middlewares),
    configurePreviewServer: (server) => protect(server.middlewares),
  };
}

/**
 * Pins the on-demand chunks (the locale modules, the later steps): their sha384 is written into
 * the chunk that loads them, in place of src/api/pinned-import.ts's sentinel, keyed by the module's file
 * name without `.ts` (`fr`, `later-steps`); it then preloads each with that integrity before
 * importing it. Done on the finished chunks (after minifying), so the hash is of the bytes served.
 */
function chunkIntegrity(): Plugin {
  const SENTINEL = /(["'`])__VB_CHUNK_INTEGRITY__\1/;
  return {
    name: 'venue-booking-chunk-integrity',
    apply: 'build',
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const loader = chunks.find((chunk) => SENTINEL.test(chunk.code));
      if (!loader) return;
      const table: Record<string, [file: string, integrity: string]> = {};
      for (const chunk of chunks) {
        const name = /\/src\/(?:[\w-]+\/)*([\w-]+)\.ts$/.exec(chunk.facadeModuleId ?? '')?.[1];
        if (!chunk.isDynamicEntry || !name) continue;
        // An import of its own would be fetched unpinned (and, of the bundle, load it twice).
        const imports = [...chunk.imports, ...chunk.dynamicImports];
        if (imports.length)
          this.error(`${chunk.fileName} imports ${imports.join(', ')}: an on-demand chunk imports nothing`);
        const file = posix.relative(posix.dirname(loader.fileName), chunk.fileName);
        const integrity = `sha384-${createHash('sha384').update(chunk.code).digest('base64')}`;
        table[name] = [file, integrity];
      }
      loader.code = loader.code.replace(SENTINEL, JSON.stringify(JSON.stringify(table)));
    },
  };
}

/**
 * A second minifying pass over the finished script-tag bundle (terser, two passes) after the
 * built-in one: 0.26 KiB gzip, which kept the bundle within its 30 KiB budget once the element was
 * split into controllers and parts. It may drop unused trailing parameters (`keep_fargs`: nothing
 * reads a function's `length`) and treats property reads as free of side effects (`pure_getters`:
 * the widget's getters and Lit's compute, and nothing reads one for its effect), 0.04 KiB more. Only the entry chunk: the on-demand chunks' integrity hashes
 * are of their bytes as served. Not on a build with source maps (the bundle bench's composition build),
 * whose map would no longer match.
 */
function secondMinifyPass(): Plugin {
  return {
    name: 'venue-booking-second-minify-pass',
    apply: 'build',
    async generateBundle(options, bundle) {
      if (options.sourcemap) return;
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk' || !file.isEntry) continue;
        const result = await minify(file.code, {
          module: true,
          ecma: 2020,
          compress: { passes: 2, keep_fargs: false, pure_getters: true },
          format: { comments: false },
        });
        if (result.code) file.code = result.code;
      }
    },
  };
}

/**
 * V8's explicit compile hint for the script-tag bundle: `//# allFunctionsCalledOnLoad` as its first
 * line has Chromium compile every function of the file eagerly, on a background thread while the
 * script streams in, instead of each one on the main thread at its first call (most of the
 * widget's functions are called in its first updates). Measured in Chromium's traces of a venue
 * page (unthrottled, 14 runs each, interleaved): the widget's main-thread time 105 ms median
 * against 158 ms without it. Other engines read a comment. After the minifier, which drops comments;
 * not on a build with source maps, whose map would no longer match.
 */
function compileHint(): Plugin {
  return {
    name: 'venue-booking-compile-hint',
    apply: 'build',
    generateBundle(options, bundle) {
      if (options.sourcemap) return;
      for (const file of Object.values(bundle))
        if (file.type === 'chunk' && file.isEntry) file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
    },
  };
}

/**
 * Short names for the widget's internal custom properties (`--_accent`, `--_s2`, `--_tap`, …: its
 * styles name them about a hundred times; the public ones are `--vb-*`), in order of first use in
 * src/element/styles.ts, where they are all defined on `:host`: `--_0`, `--_1`, … Read from that file when
 * the config loads, so every template of a build names each one alike.
 */
const internalProperties = (() => {
  const names = readFileSync(`${root}src/element/styles.ts`, 'utf8').match(/--_[\w-]+/g) ?? [];
  return new Map([...new Set(names)].map((name, index) => [name, `--_${index.toString(36)}`]));
})();

/**
 * Minifies the static text of a `css` template: no comments, no indentation, no spaces around
 * punctuation, short internal custom property names, and the shortest of equal values: hex colours
 * (`#fff`, `#0000` for `transparent`), `border:0` for `border:none`, seconds for milliseconds.
 */
function minifyCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .replace(/([\s:(,-])0\.(\d)/g, '$1.$2')
    .replace(/\[([\w-]+[~|^$*]?=)'([\w-]+)'\]/g, '[$1$2]')
    .replace(/#([\da-f])\1([\da-f])\2([\da-f])\3\b/gi, '#$1$2$3')
    .replace(/\btransparent\b/g, '#0000')
    .replace(/\b(border|outline):none\b/g, '$1:0')
    .replace(
      /([\s:,])(\d+)ms\b/g,
      (_, before: string, ms: string) => `${before}${String(Number(ms) / 1000).replace(/^0\./, '.')}s`,
    )
    .replace(/ \/ /g, '/')
    .replace(/ !important/g, '!important')
    .replace(/--_[\w-]+/g, (name) => internalProperties.get(name) ?? name);
}

/**
 * Compacts the static text of an `html` template: one space where it had a run of white space
 * (HTML renders both the same; the widget has no `<pre>`), no quotes around a whole attribute
 * value of word characters (`class="note"` is `class=note` to the parser), no slash closing a
 * void element.
 */
function compactHtml(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/( [\w-]+)="([\w-]+)"(?=[ />])/g, '$1=$2')
    .replace(/ ?\/>/g, '>');
}

/**
 * Shrinks the widget's `css` and `html` templates in the script-tag bundle (the minifier leaves
 * template text alone): `minifyCss` and `compactHtml`. Runs after the TypeScript transform, on the
 * parsed template parts only, so `${…}` expressions are untouched.
 */
function compactTemplates(): Plugin {
  type Node = { type: string; start: number; end: number; [key: string]: unknown };
  return {
    name: 'venue-booking-compact-templates',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!id.startsWith(`${root}src/`) || !/\b(html|css)`/.test(code)) return null;
      const edits: [number, number, string][] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const current = node as Node;
        const tag = current.tag as { type?: string; name?: string } | undefined;
        if (
          current.type === 'TaggedTemplateExpression' &&
          tag?.type === 'Identifier' &&
          /^(html|css)$/.test(tag.name!)
        ) {
          for (const quasi of (current.quasi as { quasis: Node[] }).quasis) {
            const raw = code.slice(quasi.start, quasi.end);
            const compact = tag.name === 'css' ? minifyCss(raw) : compactHtml(raw);
            if (compact !== raw) edits.push([quasi.start, quasi.end, compact]);
          }
        }
        for (const [key, value] of Object.entries(current))
          if (key !== 'tag' && typeof value === 'object') visit(value);
      };
      visit(this.parse(code));
      let out = code;
      for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0]))
        out = out.slice(0, start) + text + out.slice(end);
      return edits.length ? { code: out, map: null } : null;
    },
  };
}

/**
 * Shortens the element's private members (`_choices`, `_onChoose`, …: class members and state
 * properties of src/venue-booking.ts whose names start with `_`), and those of its controllers
 * (src/controllers/), to `__0`, `__1`, … in the script-tag bundle, where the minifier keeps
 * property names (each file numbers its own: they are members of different objects). Member accesses, the `static
 * properties` keys and string literals naming them (`changed.has('_choices')`) change together;
 * nothing outside the file reads them (TypeScript's `private`). Lit's own private names start with `_$` and are left alone.
 */
function shortPrivateNames(): Plugin {
  type Node = { type: string; start: number; end: number; [key: string]: unknown };
  const walk = (node: unknown, visit: (node: Node) => void): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => walk(child, visit));
    visit(node as Node);
    for (const value of Object.values(node)) if (value && typeof value === 'object') walk(value, visit);
  };
  const privateName = (name: unknown): name is string => typeof name === 'string' && /^_[a-zA-Z]/.test(name);
  return {
    name: 'venue-booking-short-private-names',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (id !== `${root}src/venue-booking.ts` && !id.startsWith(`${root}src/controllers/`)) return null;
      const ast = this.parse(code);
      const names = new Set<string>();
      const stateKeys = (object: Node | undefined) => {
        if (object?.type !== 'ObjectExpression') return;
        for (const property of (object as unknown as { properties: { key: { name?: string } }[] }).properties)
          if (privateName(property.key.name)) names.add(property.key.name);
      };
      walk(ast, (node) => {
        const key = node.key as { name?: string } | undefined;
        // Class members (fields and methods) of the element.
        if ((node.type === 'PropertyDefinition' || node.type === 'MethodDefinition') && privateName(key?.name))
          names.add(key.name);
        // `static properties = { _venue: { state: true }, … }`, as a field or as an assignment.
        if (node.type === 'PropertyDefinition' && key?.name === 'properties') stateKeys(node.value as Node);
        // Fields set in the constructor: any `this._name`.
        const member = node as unknown as { object?: { type?: string }; property?: { name?: string } };
        if (
          node.type === 'MemberExpression' &&
          member.object?.type === 'ThisExpression' &&
          privateName(member.property?.name)
        )
          names.add(member.property.name);
        const left = node.left as { property?: { name?: string } } | undefined;
        if (node.type === 'AssignmentExpression' && left?.property?.name === 'properties')
          stateKeys(node.right as Node);
      });
      const short = new Map([...names].map((name, index) => [name, `__${index.toString(36)}`]));
      const edits: [number, number, string][] = [];
      walk(ast, (node) => {
        if (node.type === 'Identifier' && short.has(node.name as string))
          edits.push([node.start, node.end, short.get(node.name as string)!]);
        if (node.type === 'Literal' && short.has(node.value as string))
          edits.push([node.start, node.end, `'${short.get(node.value as string)}'`]);
      });
      let out = code;
      for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0]))
        out = out.slice(0, start) + text + out.slice(end);
      return { code: out, map: null };
    },
  };
}

/** Every gallery page, as Rollup inputs for the demo build. */
function galleryPages(): Record<string, string> {
  const pages = readdirSync(demo).filter((name) => name.endsWith('.html'));
  return Object.fromEntries(pages.map((name) => [name.replace(/\.html$/, ''), `${demo}${name}`]));
}

/**
 * The server half of the package (`--mode server`): the two bins, the Worker entry and the
 * `venue-booking/proxy` and `venue-booking/sandbox` libraries, as plain ES modules for Node with
 * hono, its Node adapter and date-fns-tz bundled in, so an install needs no TypeScript loader and
 * no server framework of its own. Code shared by several entries lands once, in `chunks/`.
 */
/**
 * How the server half is minified: to keep the package lean (the bundled Redis client alone was
 * 1 MB), with names kept so that an operator's stack trace still names every function. Also the
 * proxy bench's, which builds the proxy it runs in its own process the same way.
 */
export const SERVER_MINIFY = { compress: true, mangle: false, codegen: { removeWhitespace: true } } as const;

const SERVER_ENTRIES = {
  'venue-booking-proxy': 'proxy/node/main.ts',
  'venue-booking-sandbox': 'sandbox/cli.ts',
  proxy: 'proxy/index.ts',
  sandbox: 'sandbox/index.ts',
  worker: 'proxy/worker.ts',
};

/**
 * Leaves ky's progress streams (`utils/body.js`: `onDownloadProgress`, `onUploadProgress`, about
 * 1.3 KiB minified) out of the script-tag bundle: ky calls them only when one of those options is
 * passed, and the widget passes neither (test/package/ky-progress.test.ts holds it to that), so
 * its one import of them resolves to functions that hand the request or response back unchanged.
 */
function kyWithoutProgress(): Plugin {
  const id = '\0ky-without-progress';
  return {
    name: 'venue-booking-ky-without-progress',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === '../utils/body.js' && importer?.includes('/node_modules/ky/') ? id : null;
    },
    load(loaded) {
      return loaded === id
        ? 'export const streamRequest = (request) => request, streamResponse = (response) => response;'
        : null;
    },
  };
}

/**
 * The widget's build starts from an empty `dist/` but for the server's, the demo's and the docs'
 * folders (their own builds empty them): `emptyOutDir` is off because `dist/lib` comes from tsc after this build,
 * so without this, chunks of earlier builds (content-hashed names) and declarations of moved
 * modules stay behind, go into the npm package and mislead the bundle bench.
 */
function freshDist(): Plugin {
  let outDir = '';
  return {
    name: 'venue-booking:fresh-dist',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.emptyOutDir ? '' : config.build.outDir;
    },
    buildStart() {
      // Only the package's own dist/ (a build into a folder of its own empties that itself).
      if (posix.normalize(`${outDir}/`) !== posix.normalize(`${root}dist/`)) return;
      let entries: string[];
      try {
        entries = readdirSync(outDir);
      } catch {
        return; // nothing built yet
      }
      for (const entry of entries)
        if (!['server', 'demo', 'docs'].includes(entry)) rmSync(`${outDir}/${entry}`, { recursive: true, force: true });
    },
  };
}

/** What the docs site's files are served as. */
const DOCS_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the documentation site (`npm run docs:build` into dist/docs, which `npm start` runs first)
 * at /docs/ beside the demo, so a page's live widget loads the widget from source (`/widget.ts`, demo/widget.ts,
 * which Vite serves) and books through the same embedded sandbox.
 */
function docsSite(): Plugin {
  const site = `${root}dist/docs`;
  const serve = (middlewares: Middlewares) => {
    middlewares.use((req, res, next) => {
      const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
      if (path === '/docs') return void res.writeHead(301, { location: '/docs/' }).end();
      if (!path.startsWith('/docs/')) return next();
      const relative = posix.normalize(path.slice('/docs'.length));
      if (relative.startsWith('/..')) return next();
      const file = `${site}${relative.endsWith('/') ? `${relative}index.html` : relative}`;
      let body: Buffer;
      try {
        body = readFileSync(file);
      } catch {
        return next();
      }
      res.writeHead(200, { 'content-type': DOCS_TYPES[posix.extname(file)] ?? 'application/octet-stream' }).end(body);
    });
  };
  return {
    name: 'venue-booking-docs-site',
    configureServer: (server) => serve(server.middlewares),
    configurePreviewServer: (server) => serve(server.middlewares),
  };
}

export default defineConfig(({ command, mode }) => {
  const gallery = command === 'serve' || mode === 'demo';
  if (mode === 'server') {
    return {
      root,
      // The bins live in dist/server/, the widget bundle they serve one level up.
      define: { __WIDGET_DIR__: JSON.stringify('../') },
      ssr: { noExternal: true, target: 'node' },
      build: {
        ssr: true,
        outDir: `${root}dist/server`,
        emptyOutDir: true,
        target: 'node22',
        rolldownOptions: {
          input: Object.fromEntries(Object.entries(SERVER_ENTRIES).map(([name, path]) => [name, `${root}${path}`])),
          output: {
            entryFileNames: '[name].js',
            chunkFileNames: 'chunks/[name]-[hash].js',
            minify: SERVER_MINIFY,
            banner: (chunk) => (chunk.isEntry && chunk.name.startsWith('venue-booking-') ? '#!/usr/bin/env node' : ''),
          },
        },
      },
    };
  }
  return {
    // The demo gallery is the dev server's root; the library build reads src/ directly.
    root: gallery ? demo : root,
    plugins: [
      offlineStack(),
      docsSite(),
      strictCspPages(),
      chunkIntegrity(),
      ...(gallery
        ? []
        : [
            freshDist(),
            kyWithoutProgress(),
            compactTemplates(),
            shortPrivateNames(),
            secondMinifyPass(),
            compileHint(),
          ]),
    ],
    server: { fs: { allow: [root] } },
    build:
      mode === 'demo'
        ? {
            outDir: `${root}dist/demo`, // left out of the npm package (package.json "files")
            emptyOutDir: true,
            target: 'es2022',
            rollupOptions: { input: galleryPages() },
          }
        : {
            outDir: `${root}dist`,
            emptyOutDir: false, // dist/lib comes from tsc in the same `npm run build`
            target: SUPPORTED_BROWSERS,
            // A script-tag bundle is the end of the line, not an input to another bundler, so
            // whitespace goes too (lib mode keeps it by default, for downstream tree-shaking), and
            // so do the `@__PURE__` annotations that only another bundler would read.
            rolldownOptions: { output: { minify: true, comments: { annotation: false } } },
            lib: {
              entry: `${root}src/index.ts`,
              formats: ['es'],
              fileName: () => 'venue-booking.js',
            },
          },
  };
});
