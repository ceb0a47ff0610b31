// ESLint for the UI (`make lint`, `make test`): typescript-eslint, the React hooks rules, and the
// import rule of the UI's organisation:
//   - a feature (src/features/<name>/) may use another feature's queries (`queries.ts`), never its
//     components, form helpers or state; what two features share lives in src/components/ or src/lib/;
//   - src/components/, src/lib/, src/api/ and src/page.tsx use no feature but its queries;
//   - a feature's queries.ts defines queries and nothing else (no functions, so no hooks): what
//     other features share of it, such as the cart's hooks, lives in src/lib/ or src/components/;
//   - stylesheets count as any import: a feature's TS may import no other feature's CSS (the
//     zones below resolve `import '../cart/cart.css'` as they resolve a module); the stylesheets'
//     own `@import`s follow the same rule, checked by src/styles.test.ts;
//   - no import cycles;
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
const queries = features.map((f) => `./${f}/queries.ts`);

const zones = [
  // Each feature: everything of the other features but their queries is out of reach.
  ...features.map((f) => ({
    target: `./src/features/${f}`,
    from: './src/features',
    except: [`./${f}`, ...queries],
    message: 'A feature may use another feature\'s queries only; move what they share to src/components/ or src/lib/.',
  })),
  // The shared pieces under features: queries only.
  ...['./src/components', './src/lib', './src/api', './src/page.tsx', './src/head.tsx'].map((target) => ({
    target,
    from: './src/features',
    except: queries,
    message: 'Shared code may use a feature\'s queries only; App.tsx passes feature pieces in.',
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
    // A screen per function (issue 25): no function of the UI over 80 lines, blank lines and
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
          message: "A feature's queries.ts holds its queries only (other features import it); put shared hooks and helpers in src/lib/ or src/components/.",
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
