// `npm run lint`: ESLint for correctness, Prettier (run beside it) for layout.
// Syntax-only rules (no type information) keep a lint of the whole tree within seconds on 2 cores.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.test-results/', 'test/screenshots/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // `_`-prefixed names mark parameters a signature needs but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Tests read wire JSON whose shape is the very thing under test: `any` is the honest type there.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The element's rules: Lit template and lifecycle mistakes, custom-element conventions.
  { files: ['src/**/*.ts', 'demo/**/*.ts'], ...lit.configs['flat/recommended'] },
  { files: ['src/**/*.ts', 'demo/**/*.ts'], ...wc.configs['flat/recommended'] },
  // Runtime-free code runs in a browser, an edge runtime and Vite alike: Node builtins only in the
  // proxy's Node entry and the sandbox's CLI (test/package/architecture.test.ts also checks
  // dynamic imports and import cycles).
  {
    files: ['src/**/*.ts', 'demo/**/*.ts', 'proxy/**/*.ts', 'sandbox/**/*.ts'],
    ignores: ['proxy/node/**', 'sandbox/cli.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({ name, message: 'Node builtins belong in proxy/node/ (or a CLI).' })),
          patterns: [{ group: ['node:*'], message: 'Node builtins belong in proxy/node/ (or a CLI).' }],
        },
      ],
    },
  },
  // Functions small enough to read at once: split a longer one into named stages.
  {
    files: ['src/**/*.ts', 'proxy/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }] },
  },
);
