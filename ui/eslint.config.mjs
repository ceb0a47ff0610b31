// ESLint for the UI (`make lint`, `make test`): typescript-eslint, the React hooks rules, and the
// import rule of the UI's organisation. Imports point one way:
//
//   App.tsx, client.tsx, parts.tsx, routes.ts  ->  features/<name>/  ->  components/  ->  lib/, api/
//
//   - a feature (src/features/<name>/) has a public face, its `index.ts`: what other features and
//     the app may use of it. Another feature, components/ and the app's files may import a
//     feature's `index.ts` and its `queries.ts` (query definitions, for the pages' data), never
//     another file of it (its components, state, rules or stylesheets);
//   - the app's files (App.tsx, client.tsx, parts.tsx, routes.ts, pages.gen.ts) may also import a
//     feature's `pages.ts` (its routes);
//   - components/ holds what is truly shared: pieces that belong to no feature. Of the features it
//     uses only their faces (components/Layout.tsx shows the cart's and the gate's pieces; the
//     others are handed in by App.tsx);
//   - a face exports what its importers' pages load anyway: esbuild puts a file in the chunk of the
//     pages that reach it, and a face makes each of its files reachable from each importer. A
//     piece only some pages load, shared by two features and knowing neither (the Order Summary,
//     the refill form), stays in components/;
//   - lib/, api/, page.tsx and head.tsx are shared and feature-free: they import no feature at all;
//   - a feature's queries.ts defines queries and nothing else (no functions, so no hooks);
//   - stylesheets count as any import: a feature's TS may import no other feature's CSS (the
//     zones below resolve `import '../cart/cart.css'` as they resolve a module); the stylesheets'
//     own `@import`s follow the same rule, checked by src/styles.test.ts;
//   - no import cycles (a face re-exports its own files only, so the faces make none);
// and no function of src/ over 80 lines.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** What anyone may import of a feature: its face and its queries (paths relative to src/features). */
const faces = features.flatMap((f) => [`./${f}/index.ts`, `./${f}/queries.ts`]);
/** What the app's files may import besides: each feature's routes. */
const routeFiles = features.map((f) => `./${f}/pages.ts`);

const zones = [
  // Each feature: of the other features, their faces and queries only.
  ...features.map((f) => ({
    target: `./src/features/${f}`,
    from: './src/features',
    except: [`./${f}`, ...faces],
    message: "A feature may use another feature's index.ts (its public face) and queries.ts only; export what it needs there.",
  })),
  // The shared components: the features' faces and queries only.
  {
    target: './src/components',
    from: './src/features',
    except: faces,
    message: "Shared components may use a feature's index.ts (its public face) and queries.ts only.",
  },
  // The shared, feature-free layers: no feature at all.
  ...['./src/lib', './src/api', './src/page.tsx', './src/head.tsx'].map((target) => ({
    target,
    from: './src/features',
    message: 'lib/, api/, page.tsx and head.tsx know no feature: move the piece into its feature, or hand it in.',
  })),
  // The app's files: the features' faces, queries and routes.
  ...['./src/App.tsx', './src/client.tsx', './src/parts.tsx', './src/routes.ts', './src/pages.gen.ts'].map((target) => ({
    target,
    from: './src/features',
    except: [...faces, ...routeFiles],
    message: "The app may use a feature's index.ts, queries.ts and pages.ts only.",
  })),
];

export default tseslint.config(
  { ignores: ['dist/', 'dist-test/', 'node_modules/', 'src/api/contract.gen.ts'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      // The files import-x reads to follow imports (for no-cycle), and their parser.
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] })],
    },
    rules: {
      // `const { omitted, ...rest } = x` leaves `omitted` out on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': 'error',
    },
  },
  {
    // A screen per function: no function of the UI over 80 lines, blank lines and
    // comments aside, as clippy's too_many_lines counts the Rust side; tests and generated files
    // aside. A long component splits into named parts (components, hooks) of its file.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.ts', 'src/**/*.gen.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/features/*/queries.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'FunctionDeclaration, FunctionExpression, ArrowFunctionExpression, ClassDeclaration',
          message: "A feature's queries.ts holds its queries only (other features import it); export hooks and helpers others use from the feature's index.ts.",
        },
      ],
    },
  },
  {
    files: ['e2e/**/*.mjs', 'build.mjs', 'scripts/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Browser tests: code passed to page.evaluate runs in the page.
    files: ['e2e/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
