// `npm run lint`: ESLint for correctness, Prettier (run beside it) for layout.
// Syntax-only rules (no type information) keep a lint of the whole tree within seconds on 2 cores.
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
);
