/**
 * The architecture holds because CI checks it: the import map of src/, proxy/ and demo/ has no
 * cycle; only proxy/node/ and the CLIs import Node builtins (everything else runs in a browser or
 * an edge runtime); the widget never imports the proxy, and the proxy takes only types from the
 * widget (plus the one rule set they share on purpose); the proxy's layers (proxy/README.md draws
 * them) and the widget's (the table of `src/` in docs/contributing/architecture.md) import downwards only. Each rule is also
 * run on a small planted graph, to prove it can fail.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import {
  forbiddenPackages,
  importCycles,
  importGraph,
  importsLeaving,
  importsOf,
  layerOrderViolations,
  layerViolations,
  type ImportGraph,
  type LayerRules,
  type Layers,
} from './import-graph.js';
import { proxySources, routeLiterals, settingSpellings } from './source-rules.js';
import { API_PREFIX, PATHS } from '../../proxy/paths.js';
import { settingRows } from '../../proxy/settings/read.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const RULES: LayerRules = {
  // The Node entry of the proxy, and the sandbox's CLI.
  nodeAllowed: ['proxy/node/', 'sandbox/cli.ts'],
  // The guest-detail rules the widget's form and the proxy's validation share (README, Decisions:
  // "One rule set for guest details"): pure, no DOM, no imports.
  sharedWithProxy: ['src/api/rules.ts'],
};

/**
 * proxy/README.md draws these layers; keep both in step. The wings: `api/` (what the widget calls)
 * below `pages/` (what venues and guests open), so a page may read through the API but the API
 * never imports a page; the route registry and the assembly above both.
 */
const PROXY_LAYERS: Layers = [
  [['proxy/paths.ts']],
  [['proxy/core/']],
  [['proxy/state/']],
  [['proxy/guards/'], ['proxy/upstream/']],
  [['proxy/config.ts', 'proxy/env.ts', 'proxy/settings/']],
  [['proxy/context.ts']],
  [['proxy/api/']],
  [['proxy/pages/']],
  [['proxy/routes.ts']],
  [['proxy/app.ts', 'proxy/pipeline/', 'proxy/stack.ts', 'proxy/host.ts', 'proxy/index.ts']],
  [['proxy/node/'], ['proxy/worker.ts']],
];

/** The sandbox is a product of its own: it imports nothing of the proxy or the widget. */
const SANDBOX = 'sandbox/';

/**
 * The widget's layers, as the table of `src/` in docs/contributing/architecture.md lists them: what a booking fetches, the
 * strings, the venue and its time, the booking's state and wording, the bot check's side (`pow/`),
 * the controllers, the templates, the element's API and styles, then the element and the
 * package's entry points.
 */
const WIDGET_LAYERS: Layers = [
  [['src/api/']],
  [['src/i18n/']],
  [['src/venue/']],
  [['src/state/']],
  [['src/pow/']],
  [['src/controllers/']],
  [['src/parts/']],
  [['src/element/']],
  [
    [
      'src/venue-booking.ts',
      'src/element-props.ts',
      'src/index.ts',
      'src/node.ts',
      'src/react.ts',
      'src/vue.ts',
      'src/svelte.ts',
    ],
  ],
];
/** The on-demand chunk the booking's reads load (`BookingData.laterSteps`), from a layer below its templates. */
const WIDGET_OPTIONS = { onDemand: ['src/parts/later-steps.ts'], drawnIn: 'docs/contributing/architecture.md' };

const graph = importGraph(root, ['src', 'proxy', 'sandbox', 'demo']);
const sources = proxySources(root);

/** The environment variables the settings registry defines, and where it is. */
const REGISTERED = new Set(
  settingRows()
    .map((row) => row.env)
    .filter((env) => env.startsWith('VENUE_BOOKING_')),
);
const REGISTRY = 'proxy/settings/registry.ts';

/** The route table's paths, and the module that writes them. */
const TABLE_PATHS = new Set<string>(Object.values(PATHS));
const PATHS_MODULE = 'proxy/paths.ts';

/** A synthetic graph from `file: [specifier, typeOnly?][]`, resolved as the real one is. */
function planted(files: Record<string, [string, boolean?][]>): ImportGraph {
  const resolve = (from: string, specifier: string) => {
    if (!specifier.startsWith('.')) return null;
    const parts = from.split('/').slice(0, -1);
    for (const part of specifier.replace(/\.js$/, '.ts').split('/')) {
      if (part === '..') parts.pop();
      else if (part !== '.') parts.push(part);
    }
    return parts.join('/');
  };
  return new Map(
    Object.entries(files).map(([file, imports]) => [
      file,
      imports.map(([specifier, typeOnly = false]) => ({ specifier, typeOnly, target: resolve(file, specifier) })),
    ]),
  );
}

describe('the import map', () => {
  it('reads the whole tree', () => {
    assert.ok(graph.has('proxy/app.ts') && graph.has('src/venue-booking.ts') && graph.has('demo/main.ts'));
    const edges = [...graph.values()].flat();
    assert.ok(edges.length > 300, `${edges.length} imports read`);
    assert.ok(
      edges.every((edge) => !edge.specifier.startsWith('.') || edge.target !== null),
      'every relative import resolves to a file',
    );
  });

  it('has no import cycle', () => {
    const cycles = importCycles(graph).map((cycle) => cycle.path.join(' → '));
    assert.deepEqual(cycles, [], `import cycles:\n  ${cycles.join('\n  ')}`);
  });

  it('keeps Node builtins in proxy/node/ and the CLIs, the widget out of the proxy, and only types the other way', () => {
    assert.deepEqual(layerViolations(graph, RULES), []);
  });

  it("keeps the proxy's layers in order (proxy/README.md)", () => {
    assert.deepEqual(layerOrderViolations(graph, PROXY_LAYERS, 'proxy/'), []);
  });

  it("keeps the widget's layers in order (docs/contributing/architecture.md, the widget by responsibility)", () => {
    assert.deepEqual(layerOrderViolations(graph, WIDGET_LAYERS, 'src/', WIDGET_OPTIONS), []);
  });

  it('keeps the sandbox a product of its own: it imports nothing of the proxy or the widget, and the proxy holds none of it', () => {
    assert.ok(
      [...graph.keys()].some((file) => file.startsWith(SANDBOX)),
      'the sandbox is read',
    );
    assert.deepEqual(importsLeaving(graph, [SANDBOX]), []);
    assert.deepEqual(
      [...graph.keys()].filter((file) => file.startsWith('proxy/sandbox/')),
      [],
    );
  });

  it('keeps Hono out of the guards, the state and the upstream client', () => {
    assert.deepEqual(forbiddenPackages(graph, ['proxy/guards/', 'proxy/state/', 'proxy/upstream/'], ['hono']), []);
  });
});

describe('each fact once', () => {
  it('spells every setting once, in the settings registry (proxy/settings/registry.ts)', () => {
    assert.ok(REGISTERED.size > 30 && sources.has(REGISTRY), `${REGISTERED.size} settings read`);
    assert.deepEqual(settingSpellings(sources, REGISTERED, REGISTRY), []);
  });

  it('writes every route path once, in the route table (proxy/paths.ts, table.ts)', () => {
    assert.ok(TABLE_PATHS.has('/api/bookings') && sources.has(PATHS_MODULE));
    assert.deepEqual(routeLiterals(sources, TABLE_PATHS, API_PREFIX, PATHS_MODULE), []);
  });
});

describe('the source rules fail on a planted violation', () => {
  it('refuses a setting read or declared by name outside the registry, and a name it does not define', () => {
    const problems = settingSpellings(
      new Map([
        [REGISTRY, "const A = { env: 'VENUE_BOOKING_A' };"],
        ['proxy/env.ts', 'const a = env.VENUE_BOOKING_A; // and VENUE_BOOKING_GONE'],
        ['proxy/worker.ts', "const b = env['VENUE_BOOKING_A'];"],
        ['proxy/types.ts', 'interface E {\n  VENUE_BOOKING_A?: string;\n}'],
        ['proxy/guards/x.ts', "log('set VENUE_BOOKING_A to the address'); const c = text(env, 'VENUE_BOOKING_A');"],
        ['proxy/guards/ok.ts', "log('set VENUE_BOOKING_A to the address');"],
      ]),
      new Set(['VENUE_BOOKING_A']),
      REGISTRY,
    );
    assert.deepEqual(problems, [
      `proxy/env.ts names VENUE_BOOKING_GONE, which ${REGISTRY} does not define`,
      `proxy/env.ts spells the setting VENUE_BOOKING_A: read it through ${REGISTRY}`,
      `proxy/guards/x.ts spells the setting VENUE_BOOKING_A: read it through ${REGISTRY}`,
      `proxy/types.ts spells the setting VENUE_BOOKING_A: read it through ${REGISTRY}`,
      `proxy/worker.ts spells the setting VENUE_BOOKING_A: read it through ${REGISTRY}`,
    ]);
  });
});

describe('the route rule fails on a planted violation', () => {
  it('refuses a table path or an API path written outside the table, but not in a comment or the sandbox', () => {
    const problems = routeLiterals(
      new Map([
        [PATHS_MODULE, "export const PATHS = { bookings: '/api/bookings' };"],
        ['proxy/app.ts', "const booking = path === '/api/bookings'; // '/api/return' in a comment is fine"],
        ['proxy/pages/studio.ts', 'const path = `/api/venues/${venue}`;'],
        ['proxy/guards/request.ts', "if (path === '/metrics') challenge(); const api = '/api/';"],
        ['sandbox/routes.ts', "app.get('/api/bookings', answer);"],
        ['proxy/api/ok.ts', "/** `GET /metrics` and '/api/bookings' */ const upstream = '/venues';"],
      ]),
      new Set(['/api/bookings', '/metrics']),
      '/api',
      PATHS_MODULE,
    );
    assert.deepEqual(problems, [
      `proxy/app.ts writes the route path "/api/bookings": name it from ${PATHS_MODULE}`,
      `proxy/guards/request.ts writes the route path "/api/": name it from ${PATHS_MODULE}`,
      `proxy/guards/request.ts writes the route path "/metrics": name it from ${PATHS_MODULE}`,
      `proxy/pages/studio.ts writes the route path "/api/venues/": name it from ${PATHS_MODULE}`,
    ]);
  });
});

describe('the import rules fail on a planted violation', () => {
  it('reads every kind of import, and which bring in types only', () => {
    const text = `
      import type { A } from './a.js';
      import { type B, type C } from './b.js';
      import { d, type E } from './d.js';
      export { f } from './f.js';
      export type { G } from './g.js';
      const h = await import('node:fs');
      let i: typeof import('./i.js');
      import './j.js';`;
    assert.deepEqual(importsOf(text), [
      { specifier: './a.js', typeOnly: true },
      { specifier: './b.js', typeOnly: true },
      { specifier: './d.js', typeOnly: false },
      { specifier: './f.js', typeOnly: false },
      { specifier: './g.js', typeOnly: true },
      { specifier: 'node:fs', typeOnly: false },
      { specifier: './i.js', typeOnly: true },
      { specifier: './j.js', typeOnly: false },
    ]);
  });

  it('names a cycle, type-only imports included', () => {
    const cycles = importCycles(
      planted({
        'proxy/a.ts': [['./b.js']],
        'proxy/b.ts': [['./c.js', true]],
        'proxy/c.ts': [['./a.js']],
        'proxy/d.ts': [['./a.js']],
        'proxy/e.ts': [['./e.js']],
      }),
    );
    assert.deepEqual(
      cycles.map((cycle) => cycle.path.join(' → ')),
      ['proxy/a.ts → proxy/b.ts → proxy/c.ts → proxy/a.ts', 'proxy/e.ts → proxy/e.ts'],
    );
  });

  it('refuses a Node builtin outside proxy/node/, the widget importing the proxy, and the proxy importing widget code', () => {
    const problems = layerViolations(
      planted({
        'proxy/api/x.ts': [['node:crypto'], ['../../src/api/types.js', true], ['../../src/api/rules.js']],
        'proxy/node/main.ts': [['node:http']],
        'proxy/guards/y.ts': [['fs'], ['../../src/view.js']],
        'src/z.ts': [['../proxy/app.js', true]],
      }),
      RULES,
    );
    assert.deepEqual(problems, [
      'proxy/api/x.ts imports node:crypto: Node builtins belong in proxy/node/ (or a CLI)',
      'proxy/guards/y.ts imports ../../src/view.js: the proxy takes only types from src/ (use `import type`)',
      'proxy/guards/y.ts imports fs: Node builtins belong in proxy/node/ (or a CLI)',
      'src/z.ts imports ../proxy/app.js: the widget never imports the proxy',
    ]);
  });

  it("refuses an import up the proxy's layers, between sibling units, and a module in no layer", () => {
    const problems = layerOrderViolations(
      planted({
        'proxy/state/memory.ts': [['../api/reads.js', true]],
        'proxy/guards/budget.ts': [['../upstream/client.js'], ['../state/types.js']],
        'proxy/api/reads.ts': [['../guards/validate.js'], ['./context.js']],
        'proxy/stray.ts': [],
      }),
      PROXY_LAYERS,
      'proxy/',
    );
    assert.deepEqual(problems, [
      'proxy/guards/budget.ts imports proxy/upstream/client.ts: units of one layer stay independent',
      'proxy/state/memory.ts imports proxy/api/reads.ts: a lower layer never imports a higher one',
      'proxy/stray.ts is in no layer: add it to the layer map (and to proxy/README.md)',
    ]);
  });

  it('refuses an API handler importing a page, and a page reaching into the API from above', () => {
    const problems = layerOrderViolations(
      planted({
        'proxy/api/return-bridge.ts': [['../pages/page.js']],
        'proxy/pages/booking-page.ts': [['../api/read-through.js'], ['../routes.js', true]],
      }),
      PROXY_LAYERS,
      'proxy/',
    );
    assert.deepEqual(problems, [
      'proxy/api/return-bridge.ts imports proxy/pages/page.ts: a lower layer never imports a higher one',
      'proxy/pages/booking-page.ts imports proxy/routes.ts: a lower layer never imports a higher one',
    ]);
  });

  it('refuses a sandbox module importing the proxy or the widget', () => {
    const problems = importsLeaving(
      planted({
        'sandbox/app.ts': [['./store.js'], ['../proxy/core/envelope.js', true]],
        'sandbox/store.ts': [['../src/api/types.js']],
        'proxy/stack.ts': [['../sandbox/app.js']],
      }),
      [SANDBOX],
    );
    assert.deepEqual(problems, [
      'sandbox/app.ts imports proxy/core/envelope.ts',
      'sandbox/store.ts imports src/api/types.ts',
    ]);
  });

  it("refuses an import up the widget's layers and a module in no layer, but lets a lower layer load the on-demand chunk", () => {
    const problems = layerOrderViolations(
      planted({
        'src/state/presenter.ts': [['../parts/options.js', true], ['../venue/format.js']],
        'src/venue/format.ts': [['../state/booking-flow.js'], ['./venue-time.js']],
        'src/controllers/booking-data.ts': [['../parts/later-steps.js'], ['../state/view.js', true]],
        'src/parts/flow.ts': [['../controllers/booking-data.js', true], ['./options.js']],
        'src/index.ts': [['./venue-booking.js'], ['./element-props.js', true]],
        'src/stray.ts': [],
      }),
      WIDGET_LAYERS,
      'src/',
      WIDGET_OPTIONS,
    );
    assert.deepEqual(problems, [
      'src/state/presenter.ts imports src/parts/options.ts: a lower layer never imports a higher one',
      'src/stray.ts is in no layer: add it to the layer map (and to docs/contributing/architecture.md)',
      'src/venue/format.ts imports src/state/booking-flow.ts: a lower layer never imports a higher one',
    ]);
  });

  it('refuses Hono in the guards', () => {
    const problems = forbiddenPackages(
      planted({ 'proxy/guards/x.ts': [['hono/body-limit']], 'proxy/app.ts': [['hono']] }),
      ['proxy/guards/'],
      ['hono'],
    );
    assert.deepEqual(problems, ['proxy/guards/x.ts imports hono/body-limit']);
  });
});
