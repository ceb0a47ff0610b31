// Builds the front end:
//   dist/assets/client-[hash].js     the browser bundle (hydrates the server's HTML)
//   dist/assets/styles-[hash].css    the stylesheet (the server inlines it as critical CSS)
//   dist/assets/accounts-[hash].css  the account pages' stylesheet (linked where needed)
//   dist/assets/*.br, *.gz          their brotli and gzip forms, served as they are
//   dist/manifest.json               logical name -> hashed URL, read by the server
//   dist/routes.json                 the route table (src/routes.ts) for the server
//   ../ssr-bundle/dist/server.js     the server entry for QuickJS
// With --tests it also bundles src/**/*.test.ts into dist-test/ for node --test.
import * as esbuild from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const ssrOut = path.join(here, '..', 'ssr-bundle', 'dist', 'server.js');
const define = { 'process.env.NODE_ENV': '"production"' };

await rm(dist, { recursive: true, force: true });
await mkdir(path.join(dist, 'assets'), { recursive: true });

const client = await esbuild.build({
  entryPoints: {
    client: path.join(here, 'src/client.tsx'),
    styles: path.join(here, 'src/styles.css'),
    accounts: path.join(here, 'src/features/accounts/accounts.css'),
  },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  jsx: 'automatic',
  define,
  outdir: path.join(dist, 'assets'),
  entryNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const manifest = {};
for (const [out, meta] of Object.entries(client.metafile.outputs)) {
  if (!meta.entryPoint) continue;
  const name = path.basename(meta.entryPoint).replace(/\.tsx?$/, '.js');
  manifest[name] = '/assets/' + path.basename(out);
}
await writeFile(path.join(dist, 'manifest.json'), JSON.stringify(manifest, null, 1));
// Compressed once here, served from memory by the store (crates/web/src/assets.rs).
for (const out of Object.keys(client.metafile.outputs)) {
  const bytes = await readFile(out);
  await writeFile(out + '.gz', gzipSync(bytes, { level: 9 }));
  await writeFile(out + '.br', brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
}

await esbuild.build({
  entryPoints: [path.join(here, '..', 'ssr-bundle', 'src', 'entry.tsx')],
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  conditions: ['browser', 'import', 'default'],
  target: ['es2020'],
  jsx: 'automatic',
  define,
  outfile: ssrOut,
  nodePaths: [path.join(here, 'node_modules')],
  legalComments: 'none',
  logLevel: 'warning',
});

// The route table, evaluated and written as JSON for the server (without the components).
const routesJs = path.join(dist, 'routes.mjs');
await esbuild.build({
  entryPoints: [path.join(here, 'src/routes.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  jsx: 'automatic',
  define,
  // The components' packages are CommonJS: give the ES module a `require` for them.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  outfile: routesJs,
  logLevel: 'warning',
});
const { routes, notFoundRoute, maintenanceRoute, GATE_KEYS } = await import(routesJs + '?t=' + Date.now());
const table = { routes, notFound: notFoundRoute, maintenance: maintenanceRoute, gate: GATE_KEYS };
await writeFile(path.join(dist, 'routes.json'), JSON.stringify(table, (k, v) => (k === 'component' ? undefined : v), 1));
await rm(routesJs);

if (process.argv.includes('--tests')) {
  const outdir = path.join(here, 'dist-test');
  await rm(outdir, { recursive: true, force: true });
  const tests = (await readdir(path.join(here, 'src'), { recursive: true }))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(here, 'src', f));
  await esbuild.build({
    entryPoints: tests,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    jsx: 'automatic',
    // Test files that reach components load CommonJS packages: give the ES modules a `require`.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    outdir,
    outbase: path.join(here, 'src'),
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
}
console.log('built', manifest);
