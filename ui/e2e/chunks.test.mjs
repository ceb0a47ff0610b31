// Route-based code splitting in Debian's Chromium: a first visit fetches the entry, React's file
// (the same on every page), the chunk every page shares and its own page's chunks, each once, all listed in the server's HTML (the entry's
// script and `<link rel="modulepreload">`), and no other page's; the page then hydrates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hydrated, MAKATI_SHOPPER, newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

/** Past the gates: bottles, delivered to Bel-Air, Makati. */
const SHOPPER = MAKATI_SHOPPER;

const PAGES = [
  ['/buy-beer', 'BuyBeer'],
  ['/cart', 'CartPage'],
  ['/single-product/tala-pale-pilsen-320ml', 'Product'],
  ['/faqs', 'Faqs'],
  ['/login', 'Login'],
  ['/no-such-page', 'NotFound'],
];
const ALL = PAGES.map(([, name]) => name);
/** The chunks a page fetches once it has hydrated and the browser is idle (none of its first load). */
const AFTER_LOAD = /^\/assets\/(waiting-|offline-|GateSteps-|CartErrorDialog-|AccountDeleted-)/;

test('a first visit fetches the entry, React\'s file, the shared chunk and its own page, each once, all preloaded', async () => {
  const vendors = new Set();
  for (const [path, name] of PAGES) {
    const context = await newContext(SHOPPER);
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 404/.test(m.text())) problems.push(`${m.type()}: ${m.text()}`);
      if (m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    const fetched = [];
    const afterLoad = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (!url.pathname.endsWith('.js')) return;
      // Fetched once the page has hydrated (or loaded) and the browser is idle, not part of the
      // first load: the machinery of writes that outlive the page and their store
      // (src/api/waiting-run.ts, waiting-store.ts), the offline side (src/features/offline), and
      // the parts of pages in chunks of their own (src/page.tsx, `lazyPart`).
      if (AFTER_LOAD.test(url.pathname)) afterLoad.push(url.pathname);
      else fetched.push(url.pathname);
    });
    await page.goto(`${store.base}${path}`);
    await hydrated(page);
    const listed = await page.evaluate(() => [
      ...[...document.querySelectorAll('script[type="module"]')].map((s) => s.getAttribute('src')),
      ...[...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href')),
    ]);
    assert.equal(new Set(fetched).size, fetched.length, `${path}: a script fetched twice: ${fetched}`);
    assert.equal(new Set(afterLoad).size, afterLoad.length, `${path}: a script after the load fetched twice: ${afterLoad}`);
    assert.ok(!listed.some((u) => AFTER_LOAD.test(u)), `${path}: what is fetched after the load is not preloaded: ${listed}`);
    assert.deepEqual([...fetched].sort(), [...listed].sort(), `${path}: fetched what the HTML lists`);
    const pages = ALL.filter((other) => listed.some((u) => u.startsWith(`/assets/${other}-`)));
    assert.deepEqual(pages, [name], `${path}: its own page's chunk only`);
    const vendor = listed.filter((u) => u.startsWith('/assets/vendor-'));
    assert.equal(vendor.length, 1, `${path}: React's file: ${listed}`);
    vendors.add(vendor[0]);
    // React runs in the browser: react-dom's client, not a look-alike.
    assert.ok(await page.evaluate(() => Object.keys(document.getElementById('root')).some((k) => k.startsWith('__reactContainer$'))), `${path}: a React root`);
    assert.deepEqual(problems, [], path);
    await context.close();
  }
  assert.equal(vendors.size, 1, 'one React file for every page');
});
