// Hydration keeps the server's page. Where React's first render in the browser differs from the
// server's HTML (an element or a text), it renders that part afresh and calls the root's
// onRecoverableError, which writes "hydration mismatch" on the console (src/client.tsx); every
// browser test that fails on console errors fails on it, and this one visits the store's kinds of
// page: a new visitor's, a visitor's with a session and a cart, and the back office's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hydrated, MAKATI_SHOPPER, newContext, staffSignedIn, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

/** The console's hydration messages of each path in `paths`, visited in turn in `context`. */
async function mismatches(context, paths, label = '') {
  const found = {};
  for (const path of paths) {
    const page = await context.newPage();
    const messages = [];
    page.on('console', (m) => {
      if (/hydrat/i.test(m.text())) messages.push(m.text());
    });
    const res = await page.goto(`${store.base}${path}`);
    assert.ok(res.status() < 500, `${path}: ${res.status()}`);
    await hydrated(page);
    if (messages.length) found[path + label] = messages;
    await page.close();
  }
  return found;
}

test('hydrating a shop page changes none of the elements the server sent, for a new visitor and one with a cart', async () => {
  const context = await newContext(MAKATI_SHOPPER);
  const found = await mismatches(context, [
    '/',
    '/buy-beer',
    '/buy-beer?sort=name&page=2',
    '/promos',
    '/search?q=tala',
    '/single-product/tala-pale-pilsen-320ml',
    '/cart',
    '/faqs',
    '/delivery-areas',
    '/login',
    '/registration',
    '/no-such-page',
  ]);
  // With a session and a cart: the CSRF fields and the cart's own parts are filled in.
  const page = await context.newPage();
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`);
  await hydrated(page);
  await page.getByLabel(/Case of 24/).check();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.locator('details.cart-drawer').getByText('You successfully added this product to the cart.').waitFor();
  await page.close();
  const paths = ['/single-product/tala-pale-pilsen-500ml', '/cart', '/checkout', '/buy-beer', '/go-to-cases'];
  Object.assign(found, await mismatches(context, paths, ' (with a cart)'));
  assert.deepEqual(found, {});
  await context.close();
});

test('hydrating a page of the back office changes none of the elements the server sent', async () => {
  const { context } = await staffSignedIn('hydration@tala.example', 'manager', 'Hydra Tion', 'hydra-keeps-the-page-9', true);
  const found = await mismatches(context, ['/staff', '/staff/orders', '/staff/catalog', '/staff/runs', '/staff/team']);
  assert.deepEqual(found, {});
  await context.close();
});
