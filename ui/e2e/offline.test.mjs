// Working offline with the service worker (src/features/offline): a shopper who browsed and added
// to the cart loses the connection, opens a page seen before (the copy, saying so), an address
// never seen (the offline page with the cart as last seen), and comes back; the pages kept are
// thrown away when the session changes hands; the store is installable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { addCookies, chromiumOptions, hydrated, MAKATI_SHOPPER, newContext, noViolations, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

/** Waits until the service worker controls the page (it claims the pages open when it starts). */
const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 15000 });

/** The names of the Cache Storage caches of the page's origin. */
const cacheNames = (page) => page.evaluate(() => caches.keys());

test('offline: a page seen before opens as it was, an unseen one shows the offline page with the cart; back online all is fresh', async () => {
  const context = await newContext(MAKATI_SHOPPER, { bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  await controlled(page);
  // The worker's first install fetched the offline page and the first pages' files.
  const names = await cacheNames(page);
  assert.ok(names.some((n) => n.startsWith('tala-shell-')), `caches: ${names}`);
  // Pages opened with the worker in control are kept.
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`);
  await hydrated(page);
  await page.getByLabel(/Case of 24/).check();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.locator('details.cart-drawer').getByText('You successfully added this product to the cart.').waitFor();
  const last = JSON.parse(await page.evaluate(() => localStorage.getItem('tala:last-cart')));
  assert.equal(last.items[0].name, 'Tala Pale Pilsen 320 ml');
  assert.equal(last.items[0].quantity, 24);

  await context.setOffline(true);
  // The live page says the connection is gone.
  await page.locator('.offline-bar', { hasText: 'You are offline.' }).first().waitFor();
  // A page seen before: the copy, with when it was seen, and it still runs (its files are kept).
  await page.goto(`${store.base}/buy-beer`);
  const bar = page.locator('[data-stale-copy]');
  assert.match(await bar.innerText(), /^You are offline\. This page is as you saw it a moment ago; prices and stock may have changed\. Try again$/);
  assert.ok((await page.locator('main').innerText()).includes('Tala Pale Pilsen'), 'the list as it was');
  await hydrated(page);
  // An address never opened: the offline page, with the cart as last seen and the pages kept.
  await page.goto(`${store.base}/faqs`);
  await page.getByRole('heading', { level: 1, name: 'You are offline' }).waitFor();
  const main = page.locator('main');
  await main.getByText('Tala Pale Pilsen 320 ml: 24 bottles, P1,188.00').waitFor();
  await main.getByRole('link', { name: 'Buy Beer' }).waitFor();
  await hydrated(page);
  // Made for nobody when the worker installed, it opens no gate or policy question over itself.
  assert.equal(await page.getByRole('dialog').count(), 0);
  // Its Try again asks for the address the shopper wanted.
  assert.equal(await main.getByRole('link', { name: 'Try again' }).evaluate((a) => a.href), `${store.base}/faqs`);
  await noViolations(page, true, 'the offline page');
  // Account, checkout and cart pages are never shown from a copy: the offline page instead.
  await page.goto(`${store.base}/cart`);
  await page.getByRole('heading', { level: 1, name: 'You are offline' }).waitFor();

  await context.setOffline(false);
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  assert.equal(await page.locator('[data-stale-copy]').count(), 0, 'online: the page is fresh');
  assert.equal(await page.locator('.offline-bar').first().innerText(), '');
  assert.deepEqual(problems, []);
  await context.close();
});

/** When the worker's copy of the page at `path` was asked for (0: none kept). */
const keptAt = (page, path) =>
  page.evaluate(async (url) => Number((await (await caches.open('tala-pages')).match(url))?.headers.get('x-kept-at') ?? 0), `${store.base}${path}`);

test('a shop page opened again is shown at once from its copy and fetched behind it; the new page is offered when it changed', async () => {
  const context = await newContext(MAKATI_SHOPPER, { bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  await controlled(page);
  // Opened with the worker in control: asked for, and kept with the shopper's place.
  let res = await page.goto(`${store.base}/promos`);
  await hydrated(page);
  assert.equal(res.headers()['x-kept-at'], undefined, 'the first time from the store');
  await page.waitForFunction(async (url) => (await caches.open('tala-pages')).match(url).then(Boolean), `${store.base}/promos`);
  const first = await keptAt(page, '/promos');

  // Again: the copy at once, and behind it a fresh copy, the same page: nothing to offer.
  res = await page.goto(`${store.base}/promos`);
  assert.ok(res.fromServiceWorker(), 'answered by the worker');
  assert.equal(Number(res.headers()['x-kept-at']), first, 'the copy');
  await hydrated(page);
  await page.waitForFunction(async ([path, before]) => Number((await (await caches.open('tala-pages')).match(path))?.headers.get('x-kept-at') ?? 0) > before, [`${store.base}/promos`, first]);
  await page.waitForTimeout(300);
  assert.equal(await page.locator('[data-changed-copy]').count(), 0, 'the same page: no bar');
  assert.equal(await page.locator('[data-stale-copy]').count(), 0);
  // A reload asks the store: the shopper wants the page as it is now.
  res = await page.reload();
  assert.equal(res.headers()['x-kept-at'], undefined, 'a reload: from the store');
  await hydrated(page);

  // Another place (the gate cookies): asked for first, never another place's copy.
  await addCookies(context, ['locationGateBarangayId=1380300003']);
  res = await page.goto(`${store.base}/promos`);
  assert.equal(res.headers()['x-kept-at'], undefined, 'another place: from the store');
  await hydrated(page);
  await addCookies(context, MAKATI_SHOPPER);
  await page.goto(`${store.base}/promos`);
  await hydrated(page);

  // The cart changed where the worker did not see it (another device of this guest, here the API
  // from outside the page): the copy at once, then the bar offering the new page.
  const before = await keptAt(page, '/promos');
  if (!(await context.cookies(store.base)).some((c) => c.name === 'session')) {
    assert.equal((await context.request.post(`${store.base}/api/v1/guest-token`, { headers: { origin: store.base } })).status(), 200);
  }
  const added = await context.request.post(`${store.base}/api/v1/cart`, {
    data: { product_id: 1, quantity: 24, barangay: 1380300002, street_id: 1 },
    headers: { origin: store.base },
  });
  assert.equal(added.status(), 200, await added.text());
  res = await page.goto(`${store.base}/promos`);
  assert.equal(Number(res.headers()['x-kept-at']), before, 'the copy at once');
  await hydrated(page);
  const bar = page.locator('[data-changed-copy]');
  await bar.getByRole('link', { name: 'Show the new page' }).waitFor();
  assert.equal(await bar.innerText(), 'This page has changed since you last saw it. Show the new page');
  assert.equal(await bar.getAttribute('role'), 'status');
  await noViolations(page, true, 'the bar offering the new page');
  // The new page, which the worker now holds: the cart's count in the header.
  await bar.getByRole('link', { name: 'Show the new page' }).click();
  await hydrated(page);
  await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
  assert.equal(await page.locator('[data-changed-copy]').count(), 0);

  // A write through the page (here a cart change): the copies kept before it are asked for first.
  await page.evaluate(() => fetch('/api/v1/cart', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }));
  res = await page.goto(`${store.base}/promos`);
  assert.equal(res.headers()['x-kept-at'], undefined, 'after a write: from the store');
  await hydrated(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test('what was kept for a browser is thrown away when the session changes hands', async () => {
  const context = await newContext(MAKATI_SHOPPER);
  const page = await context.newPage();
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  await controlled(page);
  await page.goto(`${store.base}/promos`);
  await hydrated(page);
  await page.evaluate(() => localStorage.setItem('tala:last-cart', JSON.stringify({ savedAt: Date.now(), items: [{ slug: 'x', name: 'X', quantity: 1, unit: 'bottle', total: 100 }], subtotal: 100 })));
  assert.ok((await cacheNames(page)).includes('tala-pages'));
  // Signing out (here without a session: the worker acts on the request, whatever its answer).
  await page.evaluate(() => fetch('/api/v1/logout', { method: 'POST' }));
  await page.waitForFunction(async () => !(await caches.keys()).includes('tala-pages') && localStorage.getItem('tala:last-cart') === null);
  await context.close();
});

test('a shopper with a cart: the pages opened after the first add open offline as themselves, until the session is another', async () => {
  const context = await newContext(MAKATI_SHOPPER);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  await controlled(page);
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`);
  await hydrated(page);
  await page.getByLabel(/Case of 24/).check();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.locator('details.cart-drawer').getByText('You successfully added this product to the cart.').waitFor();
  // Three more product pages, opened with a cart: the shopper's own, kept for them.
  const slugs = ['tala-light-330ml', 'bangkal-ipa-330ml', 'amihan-wheat-330ml'];
  for (const slug of slugs) {
    await page.goto(`${store.base}/single-product/${slug}`);
    await hydrated(page);
    assert.equal(await page.locator('.cart-count').innerText(), '1', slug);
  }
  const kept = () => page.evaluate(async () => (await (await caches.open('tala-pages')).keys()).map((r) => new URL(r.url).pathname));
  await page.waitForFunction(async (n) => (await (await caches.open('tala-pages')).keys()).filter((r) => r.url.includes('/single-product/')).length >= n, 3);

  await context.setOffline(true);
  const names = { 'tala-light-330ml': /^Tala Light/, 'bangkal-ipa-330ml': /^Bangkal IPA/, 'amihan-wheat-330ml': /^Amihan Wheat/ };
  for (const slug of slugs) {
    await page.goto(`${store.base}/single-product/${slug}`);
    // The product itself, as the shopper saw it (shown at once: kept after their last change),
    // with its Add to Cart and the cart's count; the page says the connection is gone.
    assert.match(await page.getByRole('heading', { level: 1 }).innerText(), names[slug], slug);
    await page.getByRole('button', { name: 'Add to Cart' }).waitFor();
    await hydrated(page);
    assert.equal(await page.locator('.cart-count').innerText(), '1', slug);
    await page.locator('.offline-bar', { hasText: 'You are offline.' }).first().waitFor();
  }
  // An address never opened: the offline page counts the cart it shows in the header too.
  await page.goto(`${store.base}/faqs`);
  await page.getByRole('heading', { level: 1, name: 'You are offline' }).waitFor();
  await page.locator('main').getByText('Tala Pale Pilsen 320 ml: 24 bottles, P1,188.00').waitFor();
  await hydrated(page);
  await page.waitForFunction(() => document.querySelector('.cart-count')?.textContent === '1');
  await context.setOffline(false);

  // The session ends without a sign-out through the worker (its cookie gone): the next page comes
  // filled for nobody's session, and what was kept for the shopper is thrown away.
  assert.ok((await kept()).includes('/single-product/tala-light-330ml'));
  await context.clearCookies({ name: 'session' });
  await page.goto(`${store.base}/single-product/tala-light-330ml`);
  await hydrated(page);
  await page.waitForFunction(async () => !(await (await caches.open('tala-pages')).keys()).some((r) => r.url.includes('bangkal-ipa')));
  assert.deepEqual(problems, []);
  await context.close();
});

test('the store is installable: its manifest, icons and worker pass Chromium\'s checks, and it opens on the shop', async () => {
  // Chromium never offers to install from an incognito profile (every new context is one).
  const profile = mkdtempSync(path.join(tmpdir(), 'store-profile-'));
  const context = await chromium.launchPersistentContext(profile, chromiumOptions);
  try {
    const page = await context.newPage();
    await page.goto(`${store.base}/buy-beer`);
    await hydrated(page);
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, [], JSON.stringify(manifest.errors));
    assert.equal(new URL(manifest.url).pathname, '/manifest.webmanifest');
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], JSON.stringify(installabilityErrors));
    const parsed = JSON.parse(manifest.data);
    assert.equal(parsed.start_url, '/buy-beer');
    for (const icon of parsed.icons) {
      const res = await page.request.get(`${store.base}${icon.src}`);
      assert.equal(res.status(), 200, icon.src);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
