// Shopping on a slow link that drops (Chromium's own network throttling through DevTools: 800 ms
// round trips, 250 kbit/s each way). Writes whose answers are lost are sent again with the same
// key (api/waiting.ts, the cart's changes and Submit Order alike) and made once; a shopper who
// loses the connection mid-journey sees the offline page with the cart, comes back and places
// exactly one order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hydrated, MAKATI_SHOPPER, newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const MAKATI = 1380300002;
/** 2G as docs/shopping.md's "On a slow or dropping link" measures it: 800 ms round trips, 250 kbit/s down and up. */
const SLOW = { offline: false, latency: 800, downloadThroughput: 250_000 / 8, uploadThroughput: 250_000 / 8 };
const SLOW_PAGE = { timeout: 60_000 };

/** Throttles the page's link (DevTools network conditions). */
async function slowLink(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW);
  return cdp;
}

/**
 * Sends the routed request to the store from outside the browser and drops the answer: the store
 * made the change, the browser never hears of it, not even a cookie (Playwright's own
 * `route.fetch` would keep the answer's cookies in the browser).
 */
async function sendAndLose(route, context) {
  const req = route.request();
  const cookie = (await context.cookies(store.base)).map((c) => `${c.name}=${c.value}`).join('; ');
  const headers = { ...req.headers(), cookie };
  const res = await fetch(req.url(), { method: req.method(), headers, body: req.postDataBuffer(), redirect: 'manual' });
  await res.arrayBuffer();
  await route.abort('connectionreset');
}

/** The units of each product in the cart of the page's session, by name. */
async function cartUnits(page) {
  const res = await page.request.get(`${store.base}/api/v1/cart/${MAKATI}`);
  assert.equal(res.status(), 200);
  const cart = await res.json();
  return Object.fromEntries(cart.shopping_cart.flatMap((c) => c.items.map((i) => [i.product_name, i.quantity])));
}

/** How many orders `store orders list` shows for `email`. */
function ordersOf(email) {
  return store
    .command(['orders', 'list'])
    .split('\n')
    .filter((line) => line.includes(email)).length;
}

/** The guest's checkout, filled (the store's clock says it is open). */
async function fillCheckout(page, email) {
  await page.goto(`${store.base}/checkout`, SLOW_PAGE);
  await hydrated(page);
  await page.getByLabel('Contact name').fill('Ana Santos');
  await page.getByLabel('Mobile number').fill('09171234567');
  await page.getByLabel('Email address').fill(email);
  const house = page.getByLabel('House or unit number, building and street');
  if (!(await house.inputValue())) await house.fill('Unit 5B, 12 Jupiter St.');
}

test('on a slow link, an add and Submit Order whose answers were lost are sent again and made once', async () => {
  // page.route sees the page's own requests only when no service worker stands between.
  const context = await newContext(MAKATI_SHOPPER, { serviceWorkers: 'block' });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const cdp = await slowLink(context, page);
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`, SLOW_PAGE);
  await hydrated(page);

  // The store makes the first add, and its answer is lost on the way back.
  let lost = 0;
  await page.route('**/api/v1/cart', async (route) => {
    if (route.request().method() !== 'POST' || lost > 0) return route.fallback();
    lost++;
    await sendAndLose(route, context);
  });
  await page.getByLabel(/Case of 24/).check();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('status').filter({ hasText: /^Waiting to be sent: Add to cart: Tala Pale Pilsen 320 ml\. / }).waitFor();
  await page.locator('details.cart-drawer').getByText('You successfully added this product to the cart.').waitFor(SLOW_PAGE);
  assert.equal(lost, 1);
  assert.deepEqual(await cartUnits(page), { 'Tala Pale Pilsen 320 ml': 24 }, 'added once');
  assert.equal(await page.getByRole('status').filter({ hasText: 'Waiting to be sent' }).count(), 0, 'the bar is gone');

  // Submit Order into a dead link: it waits to be sent; Send now tries again; back online, the
  // first order that reaches the store loses its answer too; the shopper lands on one order.
  const email = 'slow-link@example.com';
  await fillCheckout(page, email);
  // (The page's routes see its requests before the emulated link does: while it is down they fail here.)
  let up = false;
  await page.route('**/checkout*', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    if (!up) return route.abort('internetdisconnected');
    if (lost > 1) return route.fallback();
    lost++;
    await sendAndLose(route, context);
  });
  await cdp.send('Network.emulateNetworkConditions', { ...SLOW, offline: true });
  await page.getByRole('button', { name: 'Submit Order' }).click();
  const waiting = page.getByRole('status').filter({ hasText: /^Waiting to be sent: Submit Order\. / });
  await waiting.waitFor(SLOW_PAGE);
  assert.equal(ordersOf(email), 0);
  // Send now while still offline: tried again, still waiting, nothing placed.
  await page.getByRole('button', { name: 'Send now' }).click();
  await waiting.waitFor(SLOW_PAGE);
  assert.equal(ordersOf(email), 0);
  // The link comes back: the browser says it is online and the form goes at once.
  up = true;
  await cdp.send('Network.emulateNetworkConditions', SLOW);
  await page.waitForURL(/\/active-order\/\d+/, SLOW_PAGE);
  await page.getByRole('heading', { level: 1, name: /^Order TB-\d{6}$/ }).waitFor(SLOW_PAGE);
  assert.equal(lost, 2, 'the placing answer was lost once');
  assert.equal(ordersOf(email), 1, 'one order');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Give up ends the wait: the change was not made and the page says so', async () => {
  const context = await newContext(MAKATI_SHOPPER, { serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`);
  await hydrated(page);
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  // Offline: it waits, kept, to be sent when the link is back; the shopper gives it up.
  const waiting = page.getByRole('status').filter({ hasText: /^Waiting to be sent: Add to cart: Tala Pale Pilsen 320 ml\. / });
  await waiting.waitFor(SLOW_PAGE);
  await page.getByRole('button', { name: 'Give up: Add to cart: Tala Pale Pilsen 320 ml' }).click();
  // The add answers as a lost connection: the Error modal says what to do.
  await page.getByRole('dialog').getByText('We could not reach the store, so we cannot tell whether this product was added. Check your cart before you add it again.').waitFor();
  await context.setOffline(false);
  assert.deepEqual(await cartUnits(page), {}, 'nothing added');
  await context.close();
});

test('on the slow link with the worker: browse, add, lose the connection, see the offline page with the cart, come back and order once', async () => {
  const context = await newContext(MAKATI_SHOPPER);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const cdp = await slowLink(context, page);
  await page.goto(`${store.base}/buy-beer`, SLOW_PAGE);
  await hydrated(page);
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, SLOW_PAGE);
  await page.getByRole('link', { name: 'Tala Pale Pilsen 320 ml' }).first().click();
  await page.waitForURL(/\/single-product\/tala-pale-pilsen-320ml/, SLOW_PAGE);
  await hydrated(page);
  await page.getByLabel(/Case of 24/).check();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.locator('details.cart-drawer').getByText('You successfully added this product to the cart.').waitFor(SLOW_PAGE);

  // The link drops: an address not seen before is the offline page, with the cart as last seen.
  await context.setOffline(true);
  await page.goto(`${store.base}/how-to-order`);
  await page.getByRole('heading', { level: 1, name: 'You are offline' }).waitFor();
  await page.locator('main').getByText('Tala Pale Pilsen 320 ml: 24 bottles, P1,188.00').waitFor();

  // Back on the slow link: checkout, Submit Order once, one order.
  await context.setOffline(false);
  await cdp.send('Network.emulateNetworkConditions', SLOW);
  const email = 'slow-link-worker@example.com';
  await fillCheckout(page, email);
  await page.getByRole('button', { name: 'Submit Order' }).click();
  await page.waitForURL(/\/active-order\/\d+/, SLOW_PAGE);
  await page.getByRole('heading', { level: 1, name: /^Order TB-\d{6}$/ }).waitFor(SLOW_PAGE);
  assert.equal(ordersOf(email), 1, 'one order');
  assert.deepEqual(problems, []);
  await context.close();
});

test('on the slow link, Add to Cart tapped before the page hydrated adds the case: no dead tap', async () => {
  const context = await newContext(MAKATI_SHOPPER, { serviceWorkers: 'block' });
  // React's file is held back until the tap has landed: the page is only the server's HTML.
  let tapped;
  const tap = new Promise((resolve) => {
    tapped = resolve;
  });
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    const cdp = await slowLink(context, page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const held = async (route) => {
      await tap;
      await route.fallback().catch(() => {});
    };
    await page.route('**/assets/vendor-*.js', held);
    // Not to DOMContentLoaded: that waits for the module scripts, which wait for React's file.
    await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`, { ...SLOW_PAGE, waitUntil: 'commit' });
    assert.equal(await page.locator('html[data-hydrated="true"]').count(), 0, 'not hydrated yet');
    await page.getByLabel(/Case of 24/).check();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    // The form went as it goes without JavaScript: the store added the case and shows the cart.
    await page.waitForURL('**/cart?done=added', { ...SLOW_PAGE, waitUntil: 'commit' });
    await page.getByText('You successfully added this product to the cart.').first().waitFor(SLOW_PAGE);
    await page.unroute('**/assets/vendor-*.js', held);
    tapped();
    assert.deepEqual(await cartUnits(page), { 'Tala Pale Pilsen 320 ml': 24 }, 'added once');
    await hydrated(page);
    assert.deepEqual(problems, []);
  } finally {
    tapped();
    await context.close();
  }
});
