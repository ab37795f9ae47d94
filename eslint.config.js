// `npm run lint` (also the first step of `npm test`). Besides the usual JavaScript, TypeScript, React
// hooks and accessibility checks, it enforces the architecture README.md and src/README.md describe:
// which part of the code may import which (eslint-plugin-boundaries) and the `@/…` / `@shared/…`
// aliases instead of `../../../` chains. tests/unit/eslint-boundaries.test.ts proves the boundaries
// rule still fails on a forbidden import.
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = fileURLToPath(new URL('.', import.meta.url));
const importResolver = fileURLToPath(new URL('./scripts/eslint-import-resolver.cjs', import.meta.url));

const CODE = ['**/*.{ts,tsx,js,mjs,cjs}'];

/** Relative imports that reach into shared/ or src/ from elsewhere: the aliases say where they go. */
const INTO_SHARED_OR_SRC = {
  regex: String.raw`^(\.\./)+(shared|src)(/|$)`,
  message: 'Import shared/ as @shared/… and src/ as @/… instead of a relative path.',
};
/** In the client (src/, sw/) a relative import climbs at most one folder (bulletproof-react's rule). */
const CLIMBS_TWO = {
  regex: String.raw`^\.\./\.\./`,
  message: 'Climbs more than one folder: import through @/… (src/) or @shared/… (shared/).',
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-server/',
      '.tmp/',
      'data/',
      'test-results/',
      'playwright-report/',
      'public/',
      'scripts/*.d.mts',
    ],
  },

  // JavaScript and TypeScript. The syntactic typescript-eslint set, not the type-checked one: `npm
  // run typecheck` already runs the compiler, and type-aware linting would double the time of the
  // step that is meant to fail fast.
  { files: CODE, extends: [js.configs.recommended, tseslint.configs.recommended] },
  {
    files: CODE,
    rules: {
      // An argument or binding named `_…` is unused on purpose (a callback's position, a rest omit).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: globals.node } },
  { files: ['src/**'], languageOptions: { globals: globals.browser } },
  { files: ['sw/**'], languageOptions: { globals: globals.serviceworker } },
  {
    files: ['server/**', 'scripts/**', 'bench/**', 'tests/**', '*.config.ts'],
    languageOptions: { globals: globals.node },
  },
  { files: ['tests/unit/**', 'tests/e2e/**'], languageOptions: { globals: { ...globals.browser, ...globals.node } } },

  // Kysely's own advice: a migration types its database as Kysely<any>, because it must keep working
  // after the schema it started from has changed. Tests read untyped JSON bodies and raw tables.
  {
    files: ['server/db/migrat*', 'server/db/migrations/**', 'tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // eslint-module-utils loads import resolvers with require().
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },

  // React: hooks and accessibility, for the client only.
  // react-hooks 7's `recommended` set adds the React Compiler's rules. The app is not compiled with
  // the React Compiler, and on this code those rules flag patterns that are correct without it: a
  // fetch started in an effect that first sets `loading` (set-state-in-effect, 8 places), Date.now()
  // in a countdown that a timer re-renders anyway (purity), the "latest callback" ref (refs), a retry
  // that schedules itself (immutability). So: the two classic rules, as errors, plus the compiler
  // rules that catch real bugs with or without the compiler (state set during render, components
  // created during render, writes to globals, try/catch around JSX instead of an error boundary).
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'react-hooks/set-state-in-render': 'error',
      'react-hooks/static-components': 'error',
      'react-hooks/globals': 'error',
      'react-hooks/error-boundaries': 'error',
    },
  },
  { files: ['src/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    files: ['src/**/*.tsx'],
    rules: {
      // A label that wraps its input counts, and its text may sit a few spans deep (payment tiles).
      'jsx-a11y/label-has-associated-control': ['error', { assert: 'either', depth: 4 }],
    },
  },

  // Architecture. Every file of src/, sw/, shared/ and server/ belongs to one element; an import is
  // allowed only where the table below says so (default: disallow).
  {
    files: ['src/**', 'sw/**', 'shared/**', 'server/**'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { [importResolver]: {} },
      'boundaries/root-path': root,
      // Lazy pages and modals are `import()`s: they cross boundaries as much as static imports do.
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/elements': [
        { type: 'app', pattern: 'src/app/**', mode: 'full' },
        { type: 'feature', pattern: 'src/features/*/**', mode: 'full', capture: ['feature'] },
        { type: 'component', pattern: 'src/components/**', mode: 'full' },
        { type: 'lib', pattern: 'src/lib/**', mode: 'full' },
        { type: 'sw', pattern: 'sw/**', mode: 'full' },
        { type: 'shared', pattern: 'shared/**', mode: 'full' },
        { type: 'server', pattern: 'server/**', mode: 'full' },
      ],
    },
    rules: {
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          rules: [
            // The composition root wires everything client-side together.
            { from: 'app', allow: ['app', 'feature', 'component', 'lib', 'shared'] },
            // A feature sees only itself: what two features share goes to lib/ or components/.
            { from: 'feature', allow: [['feature', { feature: '{{ from.feature }}' }], 'component', 'lib', 'shared'] },
            { from: 'component', allow: ['component', 'lib', 'shared'] },
            { from: 'lib', allow: ['lib', 'shared'] },
            // The worker runs apart from the page: it shares only what shared/ defines (sw-messages.ts).
            { from: 'sw', allow: ['sw', 'shared'] },
            // What client and server agree on must not depend on either of them.
            { from: 'shared', allow: ['shared'] },
            { from: 'server', allow: ['server', 'shared'] },
          ],
        },
      ],
    },
  },

  // Import paths: aliases instead of `../../../` chains.
  // Not in scripts/ nor the root config files: Vite bundles its config and what that imports (the CSP
  // plugin in scripts/) with its own loader, which takes `@shared/…` for an npm package and fails.
  {
    files: CODE,
    ignores: ['shared/**', 'scripts/**', '*.config.ts', '**/*.{js,mjs,cjs}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [INTO_SHARED_OR_SRC] }] },
  },
  {
    files: ['src/**', 'sw/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            INTO_SHARED_OR_SRC,
            CLIMBS_TWO,
            // A value from a schema module pulls zod (and its `new Function` probe, a CSP violation) into the bundle.
            {
              group: ['@shared/api/*'],
              allowTypeImports: true,
              message:
                'Only `import type` from @shared/api/…: their values bring zod into the browser; constants live in @shared/constants.',
            },
          ],
          // The API's zod schemas stay on the server; the client takes their types with `import type`.
          paths: [
            {
              name: 'zod',
              message: 'zod must not reach the browser bundle: import types from @shared/api/… with `import type`.',
            },
            {
              name: 'dexie-react-hooks',
              importNames: ['useLiveQuery'],
              message: 'useLiveQuery from @/lib/live-query: its answers render as transitions, in slices (issue 25).',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: String.raw`ImportExpression[source.value=/^\.\.\/\.\.\//]`,
          message: CLIMBS_TWO.message,
        },
      ],
    },
  },
);
