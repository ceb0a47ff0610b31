// The "release" figure of `make bench`: what a returning shopper downloads after a release that
// changes one page's code. Copies the UI's sources to a temporary folder, builds them as they are
// and again with one line added to the product page (src/features/product/Product.tsx), and
// prints as JSON the product page's files (the entry and the chunks it preloads) that the second
// build names differently: those a returning shopper's browser and worker do not hold. React's
// file (vendor-[hash].js) must not be among them.
// Usage: node release.mjs
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, appendFileSync, rmSync, statSync, symlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ui = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'ui');
const work = mkdtempSync(path.join(tmpdir(), 'release-'));
try {
  const copy = path.join(work, 'ui');
  mkdirSync(path.join(work, 'ssr-bundle'), { recursive: true });
  cpSync(path.join(ui, '..', 'ssr-bundle', 'src'), path.join(work, 'ssr-bundle', 'src'), { recursive: true });
  for (const part of ['build.mjs', 'package.json', 'tsconfig.json', 'public', 'src']) {
    cpSync(path.join(ui, part), path.join(copy, part), { recursive: true });
  }
  symlinkSync(path.join(ui, 'node_modules'), path.join(copy, 'node_modules'));
  const build = () => {
    execFileSync('node', ['build.mjs'], { cwd: copy, stdio: 'ignore' });
    const manifest = JSON.parse(readFileSync(path.join(copy, 'dist', 'manifest.json'), 'utf8'));
    return [manifest['client.js'], ...manifest.chunks.product];
  };
  const before = build();
  appendFileSync(path.join(copy, 'src/features/product/Product.tsx'), "\nconsole.debug('the next release');\n");
  const after = build();
  const fetched = after.filter((url) => !before.includes(url));
  const brotli = (url) => statSync(path.join(copy, 'dist', url + '.br')).size;
  console.log(JSON.stringify({
    files: after.length,
    fetched: fetched.map((url) => ({ url, br: brotli(url) })),
    vendorKept: before.some((url) => url.startsWith('/assets/vendor-') && after.includes(url)),
  }));
} finally {
  rmSync(work, { recursive: true, force: true });
}
