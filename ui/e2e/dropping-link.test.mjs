// A shopper with a cart on a dropping link (docs/shopping.md, "On a slow or dropping link"), in
// Debian's Chromium on the emulated 2G link (800 ms round trips, 250 kbit/s, the CPU 4x slower),
// with JavaScript, as a guest and as a member: they add a case online, open three more product
// pages, lose the link; each of those pages opens as itself; they add a product offline, open the
// cart's address (the offline page) and another product and see the add waiting on each; the link
// returns while they are on another page, and the cart holds both products exactly once; Submit
// Order places one order. Then the same with the tab closed before the link returns and a
// new one opened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hydrated, MAKATI_SHOPPER, newContext, registeredMember, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const MAKATI_BARANGAY = 1380300002;
const PASSWORD = 'Pale-Pilsen-Friday-88';
const SLOW = { offline: false, latency: 800, downloadThroughput: 250_000 / 8, uploadThroughput: 250_000 / 8 };
const PRODUCTS = ['tala-light-330ml', 'bangkal-ipa-330ml', 'amihan-wheat-330ml'];

/** The DevTools sessions of the pages on the emulated link, and whether the link is down. */
const link = { sessions: [], offline: false };

/** A new page of `context` on the emulated 2G link, its errors collected in `problems`. */
async function slowPage(context, problems) {
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => (globalThis.logs ??= []).push(`${m.type()}: ${m.text()}`));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { ...SLOW, offline: link.offline });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  link.sessions.push(cdp);
  return page;
}

/**
 * Drops or brings back the link: Playwright's own (the service worker's fetches too) and each
 * page's emulated link (a page's DevTools conditions are its own session's: both say so).
 */
async function setOffline(context, offline) {
  link.offline = offline;
  await context.setOffline(offline);
  for (const cdp of link.sessions) await cdp.send('Network.emulateNetworkConditions', { ...SLOW, offline }).catch(() => {});
}

const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 60_000 });

/** The cart as the store holds it now: each product's slug and quantity. */
async function cartOf(context) {
  const res = await context.request.get(`${store.base}/api/v1/cart/${MAKATI_BARANGAY}`);
  assert.equal(res.status(), 200, await res.text());
  const cart = await res.json();
  return Object.fromEntries(cart.shopping_cart.flatMap((c) => c.items.map((i) => [i.slug, i.quantity])));
}

/** A member made through the API and the mailed link, logged in in `context`. */
async function member(context, n) {
  const who = { first_name: 'Lito', last_name: `Signal${n}`, email: `signal${n}@example.ph`, mobile: `0917123090${n}`, birth_date: '1985-02-03', password: PASSWORD, accept_terms: true };
  await registeredMember(who);
  const login = await context.request.post(`${store.base}/api/v1/login`, { headers: { Origin: store.base }, data: { login: who.email, password: PASSWORD } });
  assert.equal(login.status(), 200, await login.text());
}

/** Presses the Add to Cart of the product page open. */
async function addHere(page) {
  await page.getByRole('button', { name: 'Add to Cart' }).click();
}

/**
 * The journey up to the add made offline: a case added online, three product pages opened, the
 * link lost; each page opens as itself; a case of Tala Light added offline and shown waiting.
 */
async function addOffline(context, page) {
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`, { timeout: 60_000 });
  await hydrated(page);
  await controlled(page);
  await page.getByLabel(/Case of 24/).check();
  await addHere(page);
  await page.locator('details.cart-drawer').getByText('You successfully added this product to the cart.').waitFor({ timeout: 30_000 });
  for (const slug of PRODUCTS) {
    await page.goto(`${store.base}/single-product/${slug}`, { timeout: 60_000 });
    await hydrated(page);
  }
  await page.waitForFunction(
    async (slugs) => {
      const kept = (await (await caches.open('tala-pages')).keys()).map((r) => r.url);
      return slugs.every((s) => kept.some((u) => u.endsWith(`/single-product/${s}`)));
    },
    PRODUCTS,
    { timeout: 30_000 },
  );

  await setOffline(context, true);
  for (const slug of PRODUCTS) {
    await page.goto(`${store.base}/single-product/${slug}`);
    await page.getByRole('button', { name: 'Add to Cart' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 1, name: 'You are offline' }).count(), 0, `${slug} opens as itself`);
    await hydrated(page);
  }
  await page.goto(`${store.base}/single-product/tala-light-330ml`);
  await hydrated(page);
  await page.getByLabel(/Case of 24/).check();
  await addHere(page);
  await waitingShown(page);
}

/** The page shows the add waiting: in the bar, and in the header's count ("1+1"). */
async function waitingShown(page) {
  const bar = page.locator('[popover][data-waiting]');
  await bar.getByText('Add to cart: Tala Light 330 ml').waitFor({ timeout: 30_000 }).catch(async (e) => {
    if (process.env.TELL) console.error(await page.evaluate(() => [...document.querySelectorAll('[popover], .cart-count, [role=status]')].map((e) => e.outerHTML).join('\n')), (globalThis.logs ?? []).join('\n'));
    throw e;
  });
  assert.match(await bar.innerText(), /Waiting to be sent:/);
  await page.waitForFunction(() => document.querySelector('.cart-count')?.textContent?.endsWith('+1'), null, { timeout: 30_000 });
  assert.match(await page.locator('.cart-link').getAttribute('aria-label'), /1 change waiting to be sent/);
}

/**
 * A change made as the link dropped (`label`, as the bar names it): it waits, kept on the device;
 * the shopper goes on to a product page kept before, where it waits still; `before` checks the
 * store meanwhile; the link returns and that page sends it, and says it is done.
 */
async function carriedToAnotherPage(context, page, label, before) {
  const bar = page.locator('[popover][data-waiting]');
  await bar.getByText(label).waitFor({ timeout: 30_000 }).catch(async (e) => {
    if (process.env.TELL) console.error(await page.evaluate(() => [...document.querySelectorAll('[popover], [role=status], button[type=submit], .form-message')].map((e) => e.outerHTML).join('\n')), (globalThis.logs ?? []).join('\n'));
    throw e;
  });
  // Kept on the device (a moment after it is shown: the write to IndexedDB).
  await page.waitForFunction(() => localStorage.getItem('tala:waiting') !== null, null, { timeout: 30_000 });
  await page.goto(`${store.base}/single-product/bangkal-ipa-330ml`);
  await hydrated(page);
  assert.equal(await page.getByRole('heading', { level: 1, name: 'You are offline' }).count(), 0, 'the product page opens as itself');
  await bar.getByText(label).waitFor({ timeout: 30_000 });
  await before();
  await setOffline(context, false);
  await page.locator('[popover]').getByText(`Done: ${label}.`).waitFor({ timeout: 60_000 });
  assert.equal(await bar.count(), 0, 'nothing waits any more');
}

async function journey(who) {
  link.sessions = [];
  link.offline = false;
  const context = await newContext(MAKATI_SHOPPER);
  if (who === 'member') await member(context, 1);
  const problems = [];
  const page = await slowPage(context, problems);
  await addOffline(context, page);
  // The cart's address while offline: the offline page, with the add waiting.
  await page.goto(`${store.base}/cart`);
  await page.getByRole('heading', { level: 1, name: 'You are offline' }).waitFor();
  await hydrated(page);
  await waitingShown(page);
  // Another product page: the add still waiting there; the link returns while the shopper is on
  // it.
  await page.goto(`${store.base}/single-product/bangkal-ipa-330ml`);
  await hydrated(page);
  assert.equal(await page.getByRole('heading', { level: 1, name: 'You are offline' }).count(), 0, 'the product page opens as itself');
  await waitingShown(page);
  await setOffline(context, false);
  await page.waitForFunction(() => document.querySelector('.cart-count')?.textContent === '2', null, { timeout: 60_000 });
  assert.equal(await page.locator('[popover][data-waiting]').count(), 0, 'nothing waits any more');
  assert.deepEqual(await cartOf(context), { 'tala-pale-pilsen-320ml': 24, 'tala-light-330ml': 24 });
  // A later page sends nothing again.
  await page.goto(`${store.base}/single-product/amihan-wheat-330ml`);
  await hydrated(page);
  assert.deepEqual(await cartOf(context), { 'tala-pale-pilsen-320ml': 24, 'tala-light-330ml': 24 });
  // Submit Order places one order, of both.
  const email = who === 'guest' ? 'dropping-link@example.com' : 'signal1@example.ph';
  await page.goto(`${store.base}/checkout`, { timeout: 60_000 });
  await hydrated(page);
  // A member's name and mobile are filled in already, and their email is their account's.
  const fill = async (label, value) => {
    const field = page.getByLabel(label);
    if ((await field.count()) > 0 && !(await field.inputValue())) await field.fill(value);
  };
  await fill('Contact name', 'Ana Santos');
  await fill('Mobile number', '09171234567');
  await fill('Email address', email);
  await fill('House or unit number, building and street', 'Unit 5B, 12 Jupiter St.');
  await page.getByRole('button', { name: 'Submit Order' }).click({ timeout: 20_000 }).catch(async (e) => {
    if (process.env.TELL) console.error(await page.locator('main').innerText());
    throw e;
  });
  await page.waitForURL(/\/active-order\/\d+/, { timeout: 60_000 });
  await page.getByRole('heading', { level: 1, name: /^Order TB-\d{6}$/ }).waitFor({ timeout: 60_000 });
  const orders = store.command(['orders', 'list']).split('\n').filter((line) => line.includes(email));
  assert.equal(orders.length, 1, 'one order');
  assert.deepEqual(problems, []);
  await context.close();
}

test('a guest on a dropping link: the pages opened still open, and the add made offline is sent once from another page', () => journey('guest'));

test('a member on a dropping link: the pages opened still open, and the add made offline is sent once from another page', () => journey('member'));

test('Submit Order made offline outlives its page: the next page sends it once and links to the order', async () => {
  link.sessions = [];
  link.offline = false;
  const context = await newContext(MAKATI_SHOPPER);
  const problems = [];
  const page = await slowPage(context, problems);
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`, { timeout: 60_000 });
  await hydrated(page);
  await controlled(page);
  await page.getByLabel(/Case of 24/).check();
  await addHere(page);
  await page.locator('details.cart-drawer').getByText('You successfully added this product to the cart.').waitFor({ timeout: 30_000 });
  await page.goto(`${store.base}/single-product/bangkal-ipa-330ml`, { timeout: 60_000 });
  await hydrated(page);
  await page.goto(`${store.base}/checkout`, { timeout: 60_000 });
  await hydrated(page);
  const email = 'submitted-offline@example.com';
  await page.getByLabel('Contact name').fill('Ana Santos');
  await page.getByLabel('Mobile number').fill('09171234567');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('House or unit number, building and street').fill('Unit 5B, 12 Jupiter St.');
  // The link drops as the shopper presses Submit Order: it waits, kept on the device, while they
  // go on to a product page; the link returns, that page sends it once and says where it is.
  const orders = () => store.command(['orders', 'list']).split('\n').filter((line) => line.includes(email)).length;
  await setOffline(context, true);
  await page.getByRole('button', { name: 'Submit Order' }).click();
  await carriedToAnotherPage(context, page, 'Submit Order', async () => assert.equal(orders(), 0));
  await page.locator('[popover]').getByText('Done: Submit Order. Your order is placed.').waitFor();
  assert.equal(orders(), 1, 'one order');
  await page.locator('[popover]').getByRole('link', { name: 'See it' }).click();
  await page.waitForURL(/\/active-order\/\d+/, { timeout: 60_000 });
  await page.getByRole('heading', { level: 1, name: /^Order TB-\d{6}$/ }).waitFor({ timeout: 60_000 });
  assert.deepEqual(await cartOf(context), {}, 'the cart is empty');
  assert.deepEqual(problems, []);
  await context.close();
});

test("a member's Go-to Case changed as the link drops: sent once from the next page, and told", async () => {
  link.sessions = [];
  link.offline = false;
  const context = await newContext(MAKATI_SHOPPER);
  await member(context, 3);
  const json = { Origin: store.base, 'Content-Type': 'application/json' };
  const added = await context.request.post(`${store.base}/api/v1/cart`, { headers: json, data: { product_id: 1, quantity: 24, barangay: MAKATI_BARANGAY } });
  assert.equal(added.status(), 200, await added.text());
  const saved = await context.request.post(`${store.base}/api/v1/user/goto-case`, { headers: json, data: { name: 'Friday', cart_items: [1], barangay: MAKATI_BARANGAY } });
  assert.equal(saved.status(), 200, await saved.text());
  const quantity = async () => {
    const res = await context.request.get(`${store.base}/api/v1/user/goto-case?barangay=${MAKATI_BARANGAY}`);
    assert.equal(res.status(), 200, await res.text());
    return (await res.json()).data.find((c) => c.case_name === 'Friday').items[0].quantity;
  };
  assert.equal(await quantity(), 24);
  const problems = [];
  const page = await slowPage(context, problems);
  await page.goto(`${store.base}/single-product/tala-light-330ml`, { timeout: 60_000 });
  await hydrated(page);
  await controlled(page);
  // A product page opened through the worker: kept.
  await page.goto(`${store.base}/single-product/bangkal-ipa-330ml`, { timeout: 60_000 });
  await hydrated(page);
  await page.goto(`${store.base}/my-account/go-to-cases`, { timeout: 60_000 });
  await hydrated(page);
  // The link drops as the member changes a quantity: it waits, kept on the device, while they go
  // on to a product page (their own, kept); the link returns, that page sends it once and says so,
  // with the way back to the case.
  await setOffline(context, true);
  await page.getByLabel('Quantity of Tala Pale Pilsen 320 ml').fill('12');
  await page.getByRole('button', { name: 'Update Tala Pale Pilsen 320 ml' }).click();
  await carriedToAnotherPage(context, page, 'Change the quantity of Tala Pale Pilsen 320 ml in Friday', async () => assert.equal(await quantity(), 24));
  assert.equal(await quantity(), 12);
  await page.locator('[popover]').getByRole('link', { name: 'See it' }).click();
  await page.waitForURL(/\/my-account\/go-to-cases/, { timeout: 60_000 });
  assert.equal(await page.getByLabel('Quantity of Tala Pale Pilsen 320 ml').inputValue(), '12');
  assert.deepEqual(problems, []);
  await context.close();
});

test("after a member logs out, Back shows the next person nothing of theirs", async () => {
  const context = await newContext(MAKATI_SHOPPER);
  await member(context, 4);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${store.base}/single-product/tala-light-330ml`);
  await hydrated(page);
  await controlled(page);
  await page.goto(`${store.base}/single-product/bangkal-ipa-330ml`);
  await hydrated(page);
  assert.match(await page.locator('header').innerText(), /Lito/);
  await page.locator('.header-actions details.drawer').first().locator('summary').click();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.waitForURL(/\/login\?done=logout/);
  await page.getByText('You have been logged out.').waitFor();
  // Back: the member's page again, from the browser's memory or its worker, is the page as it is
  // for whoever is at the phone now.
  await page.goBack();
  await page.waitForURL(/bangkal-ipa-330ml/);
  await hydrated(page);
  await page.waitForFunction(() => document.documentElement.style.visibility !== 'hidden');
  assert.doesNotMatch(await page.locator('body').innerText(), /Lito/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("a member's pages kept on the device are thrown away, never shown, once their session has ended by itself", async () => {
  link.sessions = [];
  link.offline = false;
  const context = await newContext(MAKATI_SHOPPER);
  await member(context, 2);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const product = `${store.base}/single-product/bangkal-ipa-330ml`;
  await page.goto(`${store.base}/single-product/tala-light-330ml`);
  await hydrated(page);
  await controlled(page);
  await page.goto(product);
  await hydrated(page);
  await page.waitForFunction(async (url) => (await (await caches.open('tala-pages')).match(url)) !== undefined, product, { timeout: 30_000 });
  // The store says when the session ends unless used again: an hour from its last use, at most.
  const ends = Number((await context.request.get(product)).headers()['x-session-ends-in']);
  assert.ok(ends > 1800 && ends <= 3600, `the session ends in ${ends} s`);
  // Offline while the session lives: the member's page opens as itself, with their name.
  await context.setOffline(true);
  await page.goto(product);
  await hydrated(page);
  assert.equal(await page.getByRole('heading', { level: 1, name: 'You are offline' }).count(), 0);
  assert.match(await page.locator('header').innerText(), /Lito/);
  // An hour and a minute later on the worker's clock, nobody having used the session: the offline
  // page, with nobody's name, and nothing of the member's kept.
  const [worker] = context.serviceWorkers();
  assert.ok(worker, 'the service worker runs');
  await worker.evaluate(() => {
    const now = Date.now;
    Date.now = () => now() + 61 * 60 * 1000;
  });
  await page.goto(product);
  await page.getByRole('heading', { level: 1, name: 'You are offline' }).waitFor();
  await hydrated(page);
  assert.doesNotMatch(await page.locator('body').innerText(), /Lito/);
  assert.deepEqual(await page.evaluate(async () => (await (await caches.open('tala-pages')).keys()).length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the add made offline outlives its tab: a tab opened before the link returns sends it once', async () => {
  link.sessions = [];
  link.offline = false;
  const context = await newContext(MAKATI_SHOPPER);
  const problems = [];
  const page = await slowPage(context, problems);
  await addOffline(context, page);
  await page.close();
  const again = await slowPage(context, problems);
  await again.goto(`${store.base}/single-product/amihan-wheat-330ml`);
  await hydrated(again);
  await waitingShown(again);
  await setOffline(context, false);
  await again.waitForFunction(() => document.querySelector('.cart-count')?.textContent === '2', null, { timeout: 60_000 });
  assert.deepEqual(await cartOf(context), { 'tala-pale-pilsen-320ml': 24, 'tala-light-330ml': 24 });
  assert.deepEqual(problems, []);
  await context.close();
});
