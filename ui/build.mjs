// Builds the front end:
//   dist/assets/client-[hash].js     the browser bundle's entry (hydrates the server's HTML)
//   dist/assets/<Page>-[hash].js     each page's chunk, loaded by its route (src/routes.ts `load`)
//   dist/assets/chunk-[hash].js      code shared by the entry and pages, or by several pages
//   dist/assets/styles-[hash].css    the stylesheet (the server inlines it as critical CSS)
//   dist/assets/accounts-[hash].css  the account pages' stylesheet (linked where needed)
//   dist/assets/*.br, *.gz          their brotli and gzip forms, served as they are
//   dist/manifest.json               logical name -> hashed URL, read by the server; under
//                                    "chunks", per route name, the chunks its page needs besides
//                                    the entry (the page preloads them: no waterfall)
//   dist/routes.json                 the route table (src/routes.ts) for the server
//   ../ssr-bundle/dist/server.js     the server entry for QuickJS
// With --tests it also bundles src/**/*.test.ts into dist-test/ for node --test.
import * as esbuild from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const ssrOut = path.join(here, '..', 'ssr-bundle', 'dist', 'server.js');
const define = { 'process.env.NODE_ENV': '"production"' };

await rm(dist, { recursive: true, force: true });
await mkdir(path.join(dist, 'assets'), { recursive: true });

/**
 * esbuild puts a module in the chunk of the set of entry points that reach it (each page's dynamic
 * import is one), so what the entry shares with only some pages would be split into a chunk per
 * set of pages: a score of small files on every first load. A page is only ever loaded after the
 * entry, so each page's chunk starts from a stand-in that imports the app's root (App.tsx) besides
 * re-exporting the page: everything the entry shares with any page is then reached by every page,
 * and lands in one chunk. The stand-in is named `page:<source of the page>` in the metafile.
 */
const appRoot = path.join(here, 'src/App.tsx');
const pageChunks = {
  name: 'page-chunks',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData?.page) return undefined;
      const { resolveDir, importer, kind } = args;
      const found = await build.resolve(args.path, { resolveDir, importer, kind, pluginData: { page: true } });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: path.relative(here, found.path), namespace: 'page' };
    });
    build.onLoad({ filter: /.*/, namespace: 'page' }, (args) => ({
      contents: `import ${JSON.stringify(appRoot)};\nexport * from ${JSON.stringify(path.join(here, args.path))};\n`,
      resolveDir: here,
      loader: 'js',
    }));
  },
};

const entries = {
  client: 'src/client.tsx',
  styles: 'src/styles.css',
  accounts: 'src/features/accounts/accounts.css',
};
const client = await esbuild.build({
  // Metafile paths relative to this folder, wherever the build is run from.
  absWorkingDir: here,
  entryPoints: entries,
  bundle: true,
  // Each page a chunk of its own: a first visit loads the entry, the shared chunks and its page's.
  splitting: true,
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
  plugins: [pageChunks],
});
const url = (out) => '/assets/' + path.basename(out);
const manifest = {};
const outputOf = {};
for (const [out, meta] of Object.entries(client.metafile.outputs)) {
  // The pages' chunks are entry points too (of their dynamic imports): outputOf finds them.
  if (meta.entryPoint) outputOf[meta.entryPoint] = out;
  if (!Object.values(entries).includes(meta.entryPoint)) continue;
  const name = path.basename(meta.entryPoint).replace(/\.tsx?$/, '.js');
  manifest[name] = url(out);
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

// The route table, evaluated and written as JSON for the server (without the loaders). Built with
// splitting as the browser's bundle is, so each page module is a file of its own: the module
// exporting a route's loaded component is its page, whose chunks (with the entry's) the route lists.
const tableDir = path.join(dist, 'routes-table');
const tableBuild = await esbuild.build({
  absWorkingDir: here,
  entryPoints: { routes: 'src/routes.ts' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  jsx: 'automatic',
  define,
  // The components' packages are CommonJS: give the ES modules a `require` for them.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  outdir: tableDir,
  outExtension: { '.js': '.mjs' },
  metafile: true,
  logLevel: 'warning',
});
const { routes, notFoundRoute, maintenanceRoute, GATE_KEYS } = await import(pathToFileURL(path.join(tableDir, 'routes.mjs')).href);
const table = { routes, notFound: notFoundRoute, maintenance: maintenanceRoute, gate: GATE_KEYS };
await writeFile(path.join(dist, 'routes.json'), JSON.stringify(table, (k, v) => (k === 'load' ? undefined : v), 1));

const pageModules = [];
for (const [out, meta] of Object.entries(tableBuild.metafile.outputs)) {
  if (!meta.entryPoint || meta.entryPoint === 'src/routes.ts') continue;
  pageModules.push({ source: meta.entryPoint, exports: Object.values(await import(pathToFileURL(path.join(here, out)).href)) });
}
/** An output of the client build and the chunks it imports, all the way down. */
function withImports(out, found = new Set()) {
  found.add(out);
  for (const i of client.metafile.outputs[out].imports) {
    if (i.kind === 'import-statement' && !found.has(i.path)) withImports(i.path, found);
  }
  return found;
}
const entry = outputOf[entries.client];
manifest.chunks = {};
for (const route of [...routes, notFoundRoute]) {
  const page = await route.load();
  const modules = pageModules.filter((m) => m.exports.includes(page));
  if (modules.length !== 1) throw new Error(`route ${route.name}: ${modules.length} page modules export its page`);
  const out = outputOf['page:' + modules[0].source];
  if (!out) throw new Error(`route ${route.name}: ${modules[0].source} is no chunk of the client`);
  // The entry's own imports first (the page needs them too), then the page's chunks.
  const needs = new Set([...withImports(entry), ...withImports(out)]);
  needs.delete(entry);
  manifest.chunks[route.name] = [...needs].map(url);
}
await rm(tableDir, { recursive: true });
await writeFile(path.join(dist, 'manifest.json'), JSON.stringify(manifest, null, 1));

// Compressed once here, served from memory by the store (crates/web/src/assets.rs).
for (const out of Object.keys(client.metafile.outputs)) {
  const file = path.join(here, out);
  const bytes = await readFile(file);
  await writeFile(file + '.gz', gzipSync(bytes, { level: 9 }));
  await writeFile(file + '.br', brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
}

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
