// Builds the front end:
//   dist/assets/client-[hash].js     the browser bundle's entry (hydrates the server's HTML, with
//                                    the route it finds in the page's chunk)
//   dist/assets/vendor-[hash].js     React, react-dom's client and TanStack Query, built alone
//   dist/assets/<Page>-[hash].js     each page's chunk, with its page's routes (`pageRoutes`)
//   dist/assets/<Part>-[hash].js     what pages fetch later: parts of pages (src/page.tsx,
//                                    `lazyPart`), the offline side, the writes' machinery...
//   dist/assets/chunk-[hash].js      code shared by the entry and pages, or by several pages
//   dist/assets/styles-[hash].css    the stylesheet (the server inlines it as critical CSS)
//   dist/assets/accounts-[hash].css  the second stylesheet (src/forms.css: pages with forms and
//                                    members' pages; linked where needed)
//   dist/assets/*.br, *.gz          their brotli and gzip forms, served as they are
//   dist/manifest.json               logical name -> hashed URL (`client.js`, `vendor.js`, the
//                                    stylesheets), read by the server; under
//                                    "chunks", per route name, the chunks its page needs besides
//                                    the entry (the page preloads them: no waterfall)
//   dist/routes.json                 the route table (src/routes.ts) for the server
//   dist/root/sw.js                  the service worker (src/features/offline/worker.ts), at /sw.js
//   dist/root/manifest.webmanifest   the web app manifest (public/manifest.webmanifest)
//   src/pages.gen.ts                 the list of the features' pages.ts, written before the bundles
//   ../ssr-bundle/dist/server.js     the server entry for QuickJS
// With --tests it also bundles src/**/*.test.ts into dist-test/ for node --test.
import * as esbuild from 'esbuild';
import { minify } from 'terser';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const ssrOut = path.join(here, '..', 'ssr-bundle', 'dist', 'server.js');
const define = { 'process.env.NODE_ENV': '"production"' };
/**
 * The browsers' JavaScript: ES2022 as it is (class fields and private members: TanStack Query's
 * classes, which es2020 wrote out as WeakMaps, 1.2 KB of brotli more on every first load). That is
 * Chrome and Edge 84, Safari 15 and Firefox 90 and later, below what the app already calls
 * (`Array.prototype.at`, Safari 15.4); an older browser runs none of it and has the store as
 * without JavaScript, where every page and form works. The server bundle (QuickJS) stays es2020.
 */
const BROWSER_TARGET = ['es2022'];
/**
 * Terser after esbuild on the browsers' files (React's file, the entry and the chunks): its
 * mangler names a module's variables by how often they are used, which brotli compresses better
 * than esbuild's names (1.8 KB less of a first load; no property renamed, nothing unsafe). Files
 * keep esbuild's names: the banner (the pinned terser's version and these options, which terser
 * drops with every comment) puts them in esbuild's hash, so a new terser or other options name
 * every file anew.
 */
const require = createRequire(import.meta.url);
const TERSER = { module: true, ecma: 2020, compress: { passes: 2 }, format: { comments: false } };
const terserBanner = { js: `/* terser ${require('terser/package.json').version} ${JSON.stringify(TERSER)} */` };
/**
 * The server's renderer: React's synchronous `renderToString` (react-dom/server's legacy build for
 * browsers), on its own. `react-dom/server` for browsers bundles the streaming renderer beside it
 * (286 KB more to parse in every QuickJS runtime), and that one needs MessageChannel and
 * TextEncoder, which QuickJS lacks; this one needs no global QuickJS lacks (crates/ssr's test
 * `the_bundle_loads_without_polyfills`). The package's `exports` do not name the file, so it is
 * resolved by its path.
 */
const reactDomServer = {
  name: 'react-dom-server',
  setup(build) {
    build.onResolve({ filter: /^react-dom\/server$/ }, () => ({
      path: path.join(here, 'node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.js'),
    }));
  },
};

/**
 * The features' pages: each feature that has pages declares them in src/features/<feature>/pages.ts
 * (`export const pages: FeaturePage[]`). This writes src/pages.gen.ts, which imports every such
 * file (features in name order) for src/routes.ts, so adding a page or a feature edits no list:
 * every build and test run writes it afresh (and only when it changed), and it is committed so that
 * tsc and ESLint see it before a build. The route table's order is the pages' `order`, not this.
 */
async function writePagesIndex() {
  const features = (await readdir(path.join(here, 'src/features'), { withFileTypes: true }))
    .filter((d) => d.isDirectory() && existsSync(path.join(here, 'src/features', d.name, 'pages.ts')))
    .map((d) => d.name)
    .sort();
  const id = (feature) => feature.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  const text = [
    '// Generated by build.mjs from src/features/*/pages.ts on every build and test run: do not edit.',
    "import type { FeaturePage } from './lib/route';",
    ...features.map((f) => `import { pages as ${id(f)} } from './features/${f}/pages';`),
    '',
    '/** Every feature\'s pages, in no particular order (routes.ts orders them). */',
    `export const featurePages: FeaturePage[] = [${features.map((f) => `...${id(f)}`).join(', ')}];`,
    '',
  ].join('\n');
  const file = path.join(here, 'src/pages.gen.ts');
  const old = await readFile(file, 'utf8').catch(() => null);
  if (old !== text) await writeFile(file, text);
}
await writePagesIndex();

await rm(dist, { recursive: true, force: true });
await mkdir(path.join(dist, 'assets'), { recursive: true });

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
  pageModules.push({ source: meta.entryPoint, exports: Object.entries(await import(pathToFileURL(path.join(here, out)).href)) });
}
/** Each route's page: the module (its source) that exports the route's loaded component, and the export's name. */
const pageOfRoute = new Map();
for (const route of [...routes, notFoundRoute]) {
  const page = await route.load();
  const modules = pageModules.filter((m) => m.exports.some(([, value]) => value === page));
  if (modules.length !== 1) throw new Error(`route ${route.name}: ${modules.length} page modules export its page`);
  const [name] = modules[0].exports.find(([, value]) => value === page);
  pageOfRoute.set(route, { source: modules[0].source, name });
}
await rm(tableDir, { recursive: true });

/**
 * The pages a shopper opens first (the worker fetches their chunks when it installs, below). What
 * their modules import (but not the pages themselves) is imported by the entry and by every page
 * (a module `first-shared`, below), so it lands in the chunk every page shares: on a link of 800
 * ms round trips each file is a round trip, and a first visit of these pages fetches three files (the entry, that chunk and the page's
 * own) instead of a score of small chunks, without the other first pages' code. The other pages
 * load those shared parts too (a few KB, kept by the worker from then on).
 */
const FIRST_PAGES = ['home', 'buy-beer', 'product', 'offline'];
const firstSources = FIRST_PAGES.map((name) => {
  const route = [...routes, notFoundRoute].find((r) => r.name === name);
  if (!route) throw new Error(`the first pages: no route ${name}`);
  return pageOfRoute.get(route).source;
});
/** The source files `source` imports, all the way down (esbuild's metafile of the route table). */
function importsOf(source, found = new Set()) {
  for (const i of tableBuild.metafile.inputs[source]?.imports ?? []) {
    if (i.kind === 'import-statement' && !i.external && !found.has(i.path)) {
      found.add(i.path);
      importsOf(i.path, found);
    }
  }
  return found;
}
/**
 * The parts of pages in chunks of their own (src/page.tsx: `lazyPart(() => import('./Part')...)`,
 * found in the sources): a gate's steps, the cart's Error modal, home's notice after deleting an
 * account. Out of every first load: fetched when shown, before hydrating where the server's HTML
 * holds one, else once a page is idle, and by the worker when it installs (below). What they import
 * is in the chunk every page shares (with the first pages' shared modules), so that a part is one
 * file to fetch, not a chain of round trips.
 */
async function lazyPartSources() {
  const found = new Set();
  for (const file of await readdir(path.join(here, 'src'), { recursive: true })) {
    if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
    const text = await readFile(path.join(here, 'src', file), 'utf8');
    for (const [, spec] of text.matchAll(/lazyPart\(\s*\(\) =>\s*import\('([^']+)'\)/g)) {
      const base = path.posix.join('src', path.dirname(file).split(path.sep).join('/'), spec);
      const source = ['.tsx', '.ts'].map((ext) => base + ext).find((f) => tableBuild.metafile.inputs[f]);
      if (!source) throw new Error(`src/${file}: the part ${spec} is no module of the route table`);
      found.add(source);
    }
  }
  return [...found].sort();
}
const lazyParts = await lazyPartSources();
const firstShared = [...new Set([...firstSources, ...lazyParts].flatMap((source) => [...importsOf(source)]))]
  .filter((source) => !firstSources.includes(source) && !lazyParts.includes(source) && !source.split('/').includes('node_modules'))
  .sort();

/**
 * The browser's routes: of each route only what the browser reads (its name, guard, shell and query
 * parameters, and its page); the titles, descriptions, data and forms' actions are the server's
 * (routes.json), and with them every feature's pages.ts stays out of the first load. There is no
 * table of every route in the browser: each page's chunk (its stand-in, below) exports the routes
 * of its page (`pageRoutes`), and the entry finds the route the server rendered the page for in
 * the page's chunk among those the server's HTML preloads (`routeOf`). So the first load carries
 * no other page's route, and a release that changes one page changes that page's chunk alone, not
 * the entry. The client build reads this for `./routes` (client.tsx alone); the server bundle and
 * the tests read src/routes.ts itself.
 */
const routesOfPage = new Map();
for (const route of [...routes, notFoundRoute]) {
  const { source } = pageOfRoute.get(route);
  routesOfPage.set(source, [...(routesOfPage.get(source) ?? []), route]);
}
/** A page's stand-in's `pageRoutes`: its routes by name, each with its page's export (`p<i>`). */
const pageRoutesOf = (source) => {
  const own = routesOfPage.get(source) ?? [];
  const names = [...new Set(own.map((route) => pageOfRoute.get(route).name))];
  const lines = names.map((name, i) => `import { ${name} as p${i} } from ${JSON.stringify(path.join(here, source))};`);
  const entries = own.map((route) => {
    const page = `p${names.indexOf(pageOfRoute.get(route).name)}`;
    const shell = route.shell === 'shop' ? '' : ` shell: ${JSON.stringify(route.shell)},`;
    return `${JSON.stringify(route.name)}: { name: ${JSON.stringify(route.name)}, guard: ${JSON.stringify(route.guard)},${shell} params: ${JSON.stringify(route.params)}, load: () => Promise.resolve(${page}) }`;
  });
  return [...lines, `export const pageRoutes = { ${entries.join(', ')} };`];
};
const browserRoutes = {
  name: 'browser-routes',
  setup(build) {
    build.onResolve({ filter: /^\.\/routes$/ }, (args) => {
      if (path.dirname(args.importer) !== path.join(here, 'src')) return undefined;
      // Another module of src/ importing the routes would bring the server's table (every pages.ts)
      // into the first load (App.tsx is handed its route instead).
      if (args.importer !== path.join(here, 'src/client.tsx')) {
        return { errors: [{ text: `${path.relative(here, args.importer)} imports ./routes: in the browser only client.tsx may (the browser's routes)` }] };
      }
      return { path: 'routes', namespace: 'browser-routes' };
    });
    build.onLoad({ filter: /.*/, namespace: 'browser-routes' }, () => ({
      contents: [
        "export { loadPage, pageOf } from './src/lib/route';",
        "import 'first-shared';",
        '/** The route `name` the server rendered the page for, from its page\'s chunk (`pageRoutes`), which the page preloads. */',
        'export async function routeOf(name) {',
        '  const preloaded = [...document.querySelectorAll(\'link[rel="modulepreload"]\')].map((link) => import(link.href));',
        '  for (const chunk of await Promise.all(preloaded)) if (chunk.pageRoutes?.[name]) return chunk.pageRoutes[name];',
        '  throw new Error(`no chunk the page preloads holds its route ${name}`);',
        '}',
      ].join('\n'),
      resolveDir: here,
      loader: 'js',
    }));
  },
};

/**
 * esbuild puts a module in the chunk of the set of entry points that reach it (each page is one,
 * and each dynamic import), so what the entry shares with only some pages would be split into a
 * chunk per set of pages: a score of small files on every first load. A page is only ever loaded
 * after the entry, so each page's chunk starts from a stand-in that imports the app's root
 * (App.tsx) and `first-shared` (the first pages' shared modules) besides re-exporting the page
 * (and, for a page, exporting its routes): everything the entry shares with any page is then
 * reached by every page, and lands in one chunk. The stand-in is named `page:<source of the page>`
 * in the metafile; so is that of any module imported dynamically (a part of a page, the offline
 * side...), for the same reason.
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
    build.onResolve({ filter: /^first-shared$/ }, () => ({ path: 'first-shared', namespace: 'first-shared' }));
    build.onLoad({ filter: /.*/, namespace: 'first-shared' }, () => ({
      contents: firstShared.map((source) => `import ${JSON.stringify('./' + source)};`).join('\n'),
      resolveDir: here,
      loader: 'js',
    }));
    // The pages are entry points of their own (`page:<source>`): no module of the browser's imports them.
    build.onResolve({ filter: /^page:/ }, (args) => (args.kind === 'entry-point' ? { path: args.path.slice('page:'.length), namespace: 'page' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'page' }, (args) => ({
      contents: [
        `import ${JSON.stringify(appRoot)};`,
        "import 'first-shared';",
        `export * from ${JSON.stringify(path.join(here, args.path))};`,
        ...pageRoutesOf(args.path),
      ].join('\n'),
      resolveDir: here,
      loader: 'js',
    }));
  },
};

/**
 * React, react-dom's client and TanStack Query: a file of their own, `vendor-[hash].js`, built
 * alone so that its name changes only when its bytes do: a new React or Query, or the app using a
 * function of Query it did not use before (the file holds only those it uses), not another change
 * of the app. The app's files import it by its URL: a release that changes one page makes a
 * returning shopper fetch that page's chunk and the entry, never React again (the worker keeps the
 * file across builds). Each package the app imports is a stand-in module that hands out the
 * vendor's exports by name: React's CommonJS exports read off the package itself, Query's those
 * the app imports (a name the vendor lacks fails the build: "No matching export").
 */
/** The names a package's production build exports (what the bundle holds; not the development one's). */
const exportsOf = (file) => Object.keys(require(path.join(here, 'node_modules', file)));
const VENDOR = {
  react: { as: 'React', names: exportsOf('react/cjs/react.production.js') },
  'react/jsx-runtime': { as: 'JsxRuntime', names: exportsOf('react/cjs/react-jsx-runtime.production.js') },
  'react-dom/client': { as: 'ReactDomClient', names: exportsOf('react-dom/cjs/react-dom-client.production.js') },
  '@tanstack/react-query': { as: 'Query', names: await queryNamesUsed() },
};
/** The values the app's sources import from @tanstack/react-query (types aside). */
async function queryNamesUsed() {
  const names = new Set();
  for (const file of await readdir(path.join(here, 'src'), { recursive: true })) {
    if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
    const text = await readFile(path.join(here, 'src', file), 'utf8');
    for (const [, list] of text.matchAll(/import\s+\{([^}]*)\}\s+from\s+'@tanstack\/react-query'/g)) {
      for (const item of list.split(',').map((n) => n.trim()).filter(Boolean)) {
        if (!item.startsWith('type ')) names.add(item.split(/\s+as\s+/)[0]);
      }
    }
  }
  return [...names].sort();
}
const identifier = (name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default';
const vendorBuild = await esbuild.build({
  absWorkingDir: here,
  stdin: {
    contents: Object.entries(VENDOR)
      .map(([pkg, { as, names }]) => (pkg === '@tanstack/react-query'
        ? `import { ${names.join(', ')} } from ${JSON.stringify(pkg)};\nexport const ${as} = { ${names.join(', ')} };`
        : `import * as ${as} from ${JSON.stringify(pkg)};\nexport { ${as} };`))
      .join('\n'),
    resolveDir: here,
    sourcefile: 'vendor.js',
  },
  bundle: true,
  minify: true,
  format: 'esm',
  target: BROWSER_TARGET,
  define,
  outdir: path.join(dist, 'assets'),
  entryNames: 'vendor-[hash]',
  metafile: true,
  legalComments: 'none',
  banner: terserBanner,
  logLevel: 'warning',
});
const vendorUrl = '/assets/' + path.basename(Object.keys(vendorBuild.metafile.outputs)[0]);
const vendorImports = {
  name: 'vendor',
  setup(build) {
    build.onResolve({ filter: /^(react|react-dom|@tanstack\/react-query)(\/.*)?$/ }, (args) => {
      if (!VENDOR[args.path]) return { errors: [{ text: `${args.path} is not in the vendor file (build.mjs, VENDOR)` }] };
      return { path: args.path, namespace: 'vendor' };
    });
    build.onResolve({ filter: /^\/assets\/vendor-/ }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => {
      const { as, names } = VENDOR[args.path];
      const own = names.filter(identifier);
      return {
        contents: `import { ${as} as M } from ${JSON.stringify(vendorUrl)};\nexport const { ${own.join(', ')} } = M;\n`,
        loader: 'js',
      };
    });
  },
};

const entries = {
  client: 'src/client.tsx',
  styles: 'src/styles.css',
  // The server asks the manifest for `accounts.css` (the entry's name), whatever its source.
  accounts: 'src/forms.css',
};
const client = await esbuild.build({
  // Metafile paths relative to this folder, wherever the build is run from.
  absWorkingDir: here,
  entryPoints: [
    ...Object.entries(entries).map(([out, source]) => ({ in: source, out })),
    // Each page's chunk, named by its page's file (`BuyBeer-[hash].js`).
    ...[...routesOfPage.keys()].map((source) => ({ in: 'page:' + source, out: path.basename(source, path.extname(source)) })),
  ],
  bundle: true,
  // Each page a chunk of its own: a first visit loads the entry, the shared chunks and its page's.
  splitting: true,
  minify: true,
  format: 'esm',
  target: BROWSER_TARGET,
  jsx: 'automatic',
  define,
  outdir: path.join(dist, 'assets'),
  entryNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  banner: terserBanner,
  logLevel: 'warning',
  plugins: [browserRoutes, pageChunks, vendorImports],
});
const url = (out) => '/assets/' + path.basename(out);
const manifest = {};
const outputOf = {};
// META=file writes esbuild's metafile there: what each chunk holds, byte by byte.
if (process.env.META) (await import('node:fs')).writeFileSync(process.env.META, JSON.stringify(client.metafile));
for (const [out, meta] of Object.entries(client.metafile.outputs)) {
  // The pages' chunks are entry points too (of their dynamic imports): outputOf finds them.
  if (meta.entryPoint) outputOf[meta.entryPoint] = out;
  // Named by the entry's name and the output's kind: `client.js`, `styles.css`, `accounts.css`.
  const entry = Object.keys(entries).find((name) => entries[name] === meta.entryPoint);
  if (!entry) continue;
  manifest[entry + path.extname(out)] = url(out);
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
  plugins: [reactDomServer],
  nodePaths: [path.join(here, 'node_modules')],
  legalComments: 'none',
  logLevel: 'warning',
});

/** An output of the client build and the chunks it imports, all the way down. */
function withImports(out, found = new Set()) {
  found.add(out);
  for (const i of client.metafile.outputs[out].imports) {
    if (i.kind === 'import-statement' && !i.external && !found.has(i.path)) withImports(i.path, found);
  }
  return found;
}
manifest['vendor.js'] = vendorUrl;
const entry = outputOf[entries.client];
manifest.chunks = {};
for (const route of [...routes, notFoundRoute]) {
  const { source } = pageOfRoute.get(route);
  const out = outputOf['page:' + source];
  if (!out) throw new Error(`route ${route.name}: ${source} is no chunk of the client`);
  // The entry's own imports first (the page needs them too), then the page's chunks.
  const needs = new Set([...withImports(entry), ...withImports(out)]);
  needs.delete(entry);
  // React's file first: the entry imports it, and every page.
  manifest.chunks[route.name] = [vendorUrl, ...[...needs].map(url)];
}
await writeFile(path.join(dist, 'manifest.json'), JSON.stringify(manifest, null, 1));

// The service worker (src/features/offline/worker.ts) at the site's root, /sw.js, with this
// build's version and what it fetches when installed: the entry, the stylesheets and the chunks
// of the pages a shopper opens first and of the offline page, what every page fetches once it
// has hydrated (the offline side, src/features/offline, which registers the worker; the parts of
// pages in chunks of their own, which a page opened offline shows too), and the machinery and store
// of the writes waiting (src/api/waiting-run.ts, waiting-store.ts: a page opened offline must find
// them to send what a page before left).
// Beside it the web app manifest. Both are served from dist/root, asked again each time (never
// kept as the hashed files are).
const afterHydration = ['page:src/features/offline/index.ts', ...lazyParts.map((source) => 'page:' + source)];
const ahead = ['page:src/api/waiting-run.ts', 'page:src/api/waiting-store.ts', ...afterHydration].map((source) => {
  if (!outputOf[source]) throw new Error(`${source} is no chunk of the client`);
  return outputOf[source];
});
const precache = [
  ...new Set([manifest['client.js'], manifest['styles.css'], manifest['accounts.css'], ...FIRST_PAGES.flatMap((name) => {
    if (!manifest.chunks[name]) throw new Error(`the service worker's first pages: no route ${name}`);
    return manifest.chunks[name];
  }), ...ahead.flatMap((out) => [...withImports(out)].map(url))]),
];
for (const url of precache) if (!url) throw new Error('the service worker would fetch a file the build did not make');
const version = createHash('sha256').update(JSON.stringify(manifest)).digest('hex').slice(0, 12);
await mkdir(path.join(dist, 'root'), { recursive: true });
await esbuild.build({
  absWorkingDir: here,
  entryPoints: ['src/features/offline/worker.ts'],
  bundle: true,
  minify: true,
  format: 'iife',
  target: BROWSER_TARGET,
  define: { ...define, __VERSION__: JSON.stringify(version), __PRECACHE__: JSON.stringify(precache) },
  outfile: path.join(dist, 'root', 'sw.js'),
  legalComments: 'none',
  logLevel: 'warning',
});
await writeFile(path.join(dist, 'root', 'manifest.webmanifest'), await readFile(path.join(here, 'public', 'manifest.webmanifest')));

// Compressed once here, served from memory by the store (crates/web/src/assets.rs); the scripts
// through terser first (TERSER above).
for (const out of [...Object.keys(vendorBuild.metafile.outputs), ...Object.keys(client.metafile.outputs)]) {
  const file = path.join(here, out);
  if (out.endsWith('.js')) await writeFile(file, (await minify(await readFile(file, 'utf8'), TERSER)).code);
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
