// Styles belong to their feature: a feature's stylesheet imports no other feature's
// (what belongs to no feature lives in src/components/, and the stylesheets a page links gather
// them: src/styles.css, src/forms.css), and shared stylesheets import no feature's, as ESLint's
// zones rule the modules. Those zones also cover a stylesheet imported from TS.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

/** The UI's folder (this test runs as dist-test/styles.test.mjs). */
const ui = fileURLToPath(new URL('../', import.meta.url));
const src = path.join(ui, 'src');

/** Every stylesheet under src/ and what it `@import`s, as paths relative to src/. */
function stylesheets(): { file: string; imports: string[] }[] {
  return (readdirSync(src, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.css'))
    .map((f) => {
      const text = readFileSync(path.join(src, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      const imports = [...text.matchAll(/@import\s+(?:url\()?\s*['"]([^'"]+)['"]/g)].map((m) => path.relative(src, path.resolve(src, path.dirname(f), m[1])));
      return { file: f.split(path.sep).join('/'), imports: imports.map((i) => i.split(path.sep).join('/')) };
    });
}

/** The feature a path under src/ belongs to, or null (shared code, the entries). */
const featureOf = (file: string) => /^features\/([^/]+)\//.exec(file)?.[1] ?? null;

test("a feature's stylesheet imports no other feature's; shared ones import no feature's", () => {
  const sheets = stylesheets();
  assert.ok(sheets.some((s) => s.imports.length > 0), 'the entries import the features\' stylesheets');
  for (const { file, imports } of sheets) {
    const own = featureOf(file);
    const shared = /^(components|lib)\//.test(file);
    for (const i of imports) {
      const theirs = featureOf(i);
      if (own) assert.ok(theirs === null || theirs === own, `${file} imports ${i}: a feature's stylesheet is its own; src/forms.css gathers them`);
      if (shared) assert.equal(theirs, null, `${file} is shared and imports ${i}, a feature's`);
    }
  }
});

test("ESLint refuses a feature's TS that imports another feature's stylesheet", async () => {
  const eslint = new ESLint({ cwd: ui });
  const lint = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(src, file) }))[0].messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths');
  assert.equal((await lint('features/catalog/Example.ts', "import '../cart/cart.css';\n")).length, 1);
  assert.equal((await lint('components/Example.ts', "import '../features/cart/cart.css';\n")).length, 1);
  assert.equal((await lint('features/cart/Example.ts', "import './cart.css';\nimport '../../components/shared.css';\n")).length, 0);
});
