// The cart in Debian's Chromium: Add to Cart and the drawer, the
// Error modal, the cart page's case panels, quantities (debounced), removals with their question,
// returned empties, and the type change's reset question, with JavaScript on and off; axe on each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, hydrated, MAKATI_SHOPPER, newContext, registeredMember, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

/** A shopper past the gates: bottles, delivered to Bel-Air, Makati (delivery fee P150). */
const MAKATI = MAKATI_SHOPPER;
/** Cans, in Bayanan, Bacoor (Cavite): the Double IPA can is not sold there. */
const BACOOR = [
  'privacyVerification=1',
  'cookieAccepted=1',
  'categoryGateId=2',
  'categoryName=CANS',
  'locationGateFulfillmentId=1',
  'locationGateCityId=402103000',
  'locationGateBarangayId=402103004',
  'gateCityName=Bacoor%20City',
  'gateBrgyName=Bayanan',
];

/**
 * Console errors and warnings, hydration's among them. A cart call of a visitor without a session
 * is answered 401 and sent again with a guest token: the browser logs that 401.
 */
function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    if (/status of 401/.test(m.text())) return;
    problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** Puts items in the context's cart through the API, as the browser would (its cookies, its origin). */
async function fillCart(context, items, barangay = 1380300002, guest = true) {
  const headers = { Origin: store.base, 'Content-Type': 'application/json' };
  if (guest) {
    const token = await context.request.post(`${store.base}/api/v1/guest-token`, { headers, data: {} });
    assert.equal(token.status(), 200);
  }
  for (const [product_id, quantity] of items) {
    const res = await context.request.post(`${store.base}/api/v1/cart`, { headers, data: { product_id, quantity, barangay } });
    assert.equal(res.status(), 200, await res.text());
  }
}

/** Makes a member through the API and the mailed link, and logs the context in. */
async function member(context, who) {
  await registeredMember(who);
  const login = await context.request.post(`${store.base}/api/v1/login`, {
    headers: { Origin: store.base, 'Content-Type': 'application/json' },
    data: { login: who.email, password: who.password },
  });
  assert.equal(login.status(), 200, await login.text());
}

const cartLink = (page) => page.locator('a.cart-link');

test('JS on: Add to Cart opens the drawer with the message and counts the item; the cart page shows the case', async () => {
  const context = await newContext(MAKATI, { bypassCSP: true });
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`);
  await hydrated(page);
  assert.equal(await cartLink(page).getAttribute('aria-label'), 'Cart, 0 items');
  // What was added (a visitor without a session is answered 401 first, and the call sent again).
  const posts = [];
  page.on('response', (r) => {
    const req = r.request();
    if (req.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/cart' && r.status() === 200) posts.push(req.postDataJSON());
  });
  await page.getByLabel(/Case of 24/).check();
  // Two quick clicks add once (500 ms debounce).
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  const drawer = page.locator('details.cart-drawer');
  await drawer.getByText('You successfully added this product to the cart.').waitFor();
  assert.ok(await drawer.evaluate((d) => d.open), 'the drawer opened');
  await page.waitForFunction(() => document.body.classList.contains('no-scroll'));
  assert.equal(posts.filter((p) => p.product_id === 1).length, 1, 'one add for two quick clicks');
  const { request_key: key, ...add } = posts.find((p) => p.product_id === 1);
  assert.deepEqual(add, { product_id: 1, quantity: 1, pack: 'case', barangay: 1380300002, fulfillment: 1 });
  // Its own key: sent again on a failing link, the case is added once (e2e/slow-link.test.mjs).
  assert.match(key, /^[0-9a-f]{32}$/);
  assert.match(await drawer.innerText(), /Bottles[\s\S]*1 case of 24 bottles[\s\S]*P1,188\.00[\s\S]*Tala Pale Pilsen 320 ml × 24 bottles/);
  assert.equal(await cartLink(page).getAttribute('aria-label'), 'Cart, 1 item');
  assert.equal(await page.locator('.cart-count').innerText(), '1');
  await drawer.getByRole('link', { name: 'View Shopping Cart' }).click();
  await page.waitForURL('**/cart');
  await hydrated(page);
  const panel = page.locator('details.case-panel');
  assert.match(await panel.locator('summary').innerText(), /Bottles\s+1 case of 24 bottles\s+Tala Pale Pilsen 320 ml x 24\s+24 of 24 bottles\s+P1,188\.00/);
  assert.equal(await panel.getByText(/Need \d+ More/).count(), 0, 'a full case needs nothing');
  assert.equal(await cartLink(page).getAttribute('aria-label'), 'Cart, 1 item');
  const summary = page.getByRole('region', { name: 'Order Summary' });
  assert.match(await summary.innerText(), /Bottles \(1 case\)\s+P1,188\.00[\s\S]*Delivery fee\s+P150\.00/);
  assert.ok(await summary.getByRole('link', { name: 'Proceed To Checkout' }).isVisible(), 'a guest goes straight on');
  assert.deepEqual(problems, []);
  await context.close();
});

test('JS on: Need N More, one PUT for two quick quantity edits, empties credit, a removal asks first', async () => {
  const context = await newContext(MAKATI, { bypassCSP: true });
  await fillCart(context, [[1, 3]]);
  const page = await context.newPage();
  const problems = watch(page);
  const puts = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && new URL(r.url()).pathname === '/api/v1/cart') puts.push(r.postDataJSON());
  });
  await page.goto(`${store.base}/cart`);
  await hydrated(page);
  const panel = page.locator('details.case-panel');
  await panel.getByText('Need 21 More').waitFor();
  const blocked = 'For you to proceed to checkout, you need to complete filling up your cases.';
  await page.getByText(blocked).waitFor();
  assert.ok(await page.getByRole('button', { name: 'Proceed To Checkout' }).isDisabled());
  // Two edits within 500 ms: one PUT with the last.
  const qty = page.getByLabel('Quantity of Tala Pale Pilsen 320 ml');
  await qty.fill('5');
  await qty.fill('24');
  await panel.getByText('24 of 24 bottles').waitFor();
  await page.waitForTimeout(700);
  // Each change its own key (a late or repeated one changes nothing: e2e/slow-link.test.mjs).
  assert.deepEqual(
    puts.map(({ request_key: key, ...put }) => (assert.match(key, /^[0-9a-f]{32}$/), put)),
    [{ product_id: 1, quantity: 24, barangay: 1380300002, fulfillment: 1 }],
  );
  assert.equal(await panel.getByText(/Need \d+ More/).count(), 0);
  assert.equal(await page.getByText(blocked).count(), 0);
  await page.getByRole('status').filter({ hasText: 'Your cart has been updated.' }).waitFor();
  // Returned empties: one case back, the deposit credited (a negative line of the summary).
  const summary = page.getByRole('region', { name: 'Order Summary' });
  const before = await summary.innerText();
  assert.match(before, /Bottles and crate deposit \(case of 24\)\s+P240\.00/);
  await page.getByLabel(/Empty cases you return/).fill('1');
  await page.getByRole('button', { name: 'Return Empties' }).click();
  await page.getByText('Credit: -P240.00').waitFor();
  assert.match(await summary.innerText(), /-P240\.00/);
  // Remove Case asks; Cancel keeps the case and gives focus back.
  await page.getByRole('button', { name: 'Remove Case' }).click();
  const ask = page.getByRole('dialog', { name: 'Are you sure you want to delete Bottles?' });
  await ask.waitFor();
  assert.deepEqual(await axeViolations(page), []);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Remove Case');
  await page.getByRole('button', { name: 'Remove Case' }).click();
  await ask.getByRole('button', { name: 'Yes, delete' }).click();
  await page.locator('main').getByText('There are no items in your cart.').waitFor();
  assert.ok(await page.getByRole('link', { name: 'Buy beer?' }).isVisible());
  assert.equal(await cartLink(page).getAttribute('aria-label'), 'Cart, 0 items');
  assert.deepEqual(problems, []);
  await context.close();
});

test('JS on: a refused add opens the Error modal naming the product until it is closed', async () => {
  const context = await newContext(BACOOR, { bypassCSP: true });
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/single-product/bangkal-double-ipa-can-473ml`);
  await hydrated(page);
  const add = page.getByRole('button', { name: 'Add to Cart' });
  await add.click();
  const modal = page.getByRole('dialog', { name: 'Error' });
  await modal.waitFor();
  assert.match(await modal.innerText(), /cannot be added to your cart[\s\S]*Bangkal Double IPA Can 473 ml: Not sold in Bacoor City\./);
  assert.deepEqual(await axeViolations(page), []);
  await page.waitForTimeout(600);
  assert.ok(await modal.isVisible(), 'it stays until closed');
  await modal.getByRole('button', { name: 'Close' }).click();
  assert.equal(await page.getByRole('dialog').count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Add to Cart', 'focus returns');
  assert.equal(await cartLink(page).getAttribute('aria-label'), 'Cart, 0 items');
  // Problems other than the refusal's own 422 in the console.
  assert.deepEqual(problems.filter((p) => !/status of 422/.test(p)), []);
  await context.close();
});

test('JS on: choosing kegs over a cart of bottles asks to reset it; no keeps bottles, yes empties the cart', async () => {
  const context = await newContext(MAKATI, { bypassCSP: true });
  await fillCart(context, [[1, 24], [2, 24]]);
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/cart`);
  await hydrated(page);
  const deletes = [];
  page.on('request', (r) => {
    if (r.method() === 'DELETE' && new URL(r.url()).pathname === '/api/v1/cart') deletes.push(r.postDataJSON());
  });
  const question =
    'Your current cart will be reset. Orders for Bottles/ Cans and Draft Beer should be in a separate transaction. Continue to reset your cart?';
  await page.getByRole('link', { name: 'Change product type' }).click();
  await page.getByRole('dialog', { name: 'Cheers! What are you ordering?' }).waitFor();
  // Cans go with bottles: straight on to the location gate.
  // Kegs do not: the question.
  await page.getByRole('button', { name: /DRAFT BEER IN KEG/ }).click();
  const ask = page.getByRole('dialog', { name: question });
  await ask.waitFor();
  assert.deepEqual(await axeViolations(page), []);
  await ask.getByRole('link', { name: 'No' }).click();
  assert.equal(await page.getByRole('dialog').count(), 0);
  let cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  assert.equal(cookies.categoryGateId, '1', 'the original category stays');
  assert.equal(cookies.originalCategoryID, '1');
  assert.equal(deletes.length, 0);
  assert.equal(await page.locator('details.case-panel').count(), 1);
  await page.getByRole('link', { name: 'Change product type' }).click();
  await page.getByRole('button', { name: /DRAFT BEER IN KEG/ }).click();
  await ask.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('dialog', { name: 'Where should we bring your beer?' }).waitFor();
  assert.equal(deletes.length, 1);
  assert.deepEqual([...deletes[0].product_id].sort(), [1, 2]);
  cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  assert.equal(cookies.categoryGateId, '3');
  // The label follows the cart's query, drawn a task after the dialog.
  await page.locator('a.cart-link[aria-label="Cart, 0 items"]').waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

test('JS on: what the new place does not sell is listed by name and blocks checkout; the type change asks from any page', async () => {
  const context = await newContext(BACOOR, { bypassCSP: true });
  await fillCart(context, [[17, 24], [12, 24]]);
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/cart`);
  await hydrated(page);
  const list = page.getByRole('region', { name: 'Not available at your location' });
  await list.getByText('Bangkal Double IPA Can 473 ml').waitFor();
  assert.match(await list.innerText(), /Bangkal Double IPA Can 473 ml: Not sold in Bacoor City\./);
  assert.ok(await page.getByRole('button', { name: 'Proceed To Checkout' }).isDisabled());
  assert.deepEqual(await axeViolations(page), []);
  await list.getByRole('button', { name: 'Remove Bangkal Double IPA Can 473 ml' }).click();
  await page.getByRole('dialog', { name: 'Are you sure you want to delete Bangkal Double IPA Can 473 ml?' }).getByRole('button', { name: 'Yes, delete' }).click();
  await list.waitFor({ state: 'detached' });
  assert.ok(await page.getByRole('link', { name: 'Proceed To Checkout' }).isVisible(), 'the rest can go to checkout');
  // On another page the gate asks too (the cart is loaded when the page does not hold it).
  await page.goto(`${store.base}/buy-beer?gate=category`);
  await hydrated(page);
  await page.getByRole('button', { name: /DRAFT BEER IN KEG/ }).click();
  const ask = page.getByRole('dialog', { name: /^Your current cart will be reset\./ });
  await ask.waitFor();
  await ask.getByRole('link', { name: 'No' }).click();
  assert.equal(await page.getByRole('dialog').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('JS on: a member is verified before checkout and goes on to /checkout', async () => {
  const context = await newContext(MAKATI, { bypassCSP: true });
  await member(context, {
    first_name: 'Lito',
    last_name: 'Santos',
    email: 'lito@example.ph',
    mobile: '09171230002',
    birth_date: '1988-07-09',
    password: 'Copper-Stout-5521',
    accept_terms: true,
  });
  await fillCart(context, [[1, 24]], 1380300002, false);
  const page = await context.newPage();
  const problems = watch(page);
  const verified = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === '/api/v1/user/checkout/verify') verified.push(r.status());
  });
  await page.goto(`${store.base}/cart`);
  await hydrated(page);
  await page.getByRole('heading', { name: 'Recommended For You' }).waitFor();
  await page.getByRole('button', { name: 'Proceed To Checkout' }).click();
  await page.waitForURL('**/checkout');
  assert.deepEqual(verified, [200]);
  // A recommended card adds 1 (24 for Cans): the drawer opens with the message.
  await page.goto(`${store.base}/cart`);
  await hydrated(page);
  const card = page.getByRole('region', { name: 'Recommended For You' }).locator('li.card').first();
  const name = await card.locator('.card-name').innerText();
  await card.getByRole('button', { name: `Add to Cart: ${name}` }).click();
  await page.locator('details.cart-drawer').getByText('You successfully added this product to the cart.').waitFor();
  assert.match(await page.locator('details.cart-drawer').innerText(), new RegExp(`${name} × 1 bottle`));
  assert.equal(await cartLink(page).getAttribute('aria-label'), 'Cart, 2 items');
  assert.deepEqual(problems, []);
  await context.close();
});

test('JS off: a member adds, changes a quantity, returns empties and removes with the question in the page', async () => {
  const context = await newContext(MAKATI, { javaScriptEnabled: false });
  await member(context, {
    first_name: 'Dina',
    last_name: 'Cruz',
    email: 'dina@example.ph',
    mobile: '09171230001',
    birth_date: '1990-02-03',
    password: 'Amber-Lager-7711',
    accept_terms: true,
  });
  const page = await context.newPage();
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`);
  await page.getByLabel('Quantity', { exact: true }).fill('3');
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.waitForURL('**/cart?done=added');
  await page.getByText('You successfully added this product to the cart.').first().waitFor();
  assert.equal(await cartLink(page).getAttribute('aria-label'), 'Cart, 1 item');
  const panel = page.locator('details.case-panel');
  await panel.getByText('Need 21 More').waitFor();
  assert.ok(await page.getByRole('button', { name: 'Proceed To Checkout' }).isDisabled());
  // Recommended For You (members): a card adds 1 (24 for Cans).
  await page.getByRole('heading', { name: 'Recommended For You' }).waitFor();
  // Change the quantity: the item's own form.
  await page.getByLabel('Quantity of Tala Pale Pilsen 320 ml').fill('24');
  await panel.getByRole('button', { name: 'Update' }).click();
  await page.waitForURL('**/cart?done=updated');
  await page.getByText('Your cart has been updated.').waitFor();
  assert.equal(await page.locator('details.case-panel').getByText(/Need \d+ More/).count(), 0);
  // Return one empty case.
  await page.getByLabel(/Empty cases you return/).fill('1');
  await page.getByRole('button', { name: 'Return Empties' }).click();
  await page.waitForURL('**/cart?done=empties');
  await page.getByText('Credit: -P240.00').waitFor();
  // Proceed To Checkout verifies the member's cart, then goes to /checkout.
  assert.ok(await page.getByRole('button', { name: 'Proceed To Checkout' }).isEnabled());
  // Remove Case: the question shows in the page, the second button confirms.
  await page.locator('details.case-panel .case-actions summary', { hasText: 'Remove Case' }).click();
  await page.getByText('Are you sure you want to delete Bottles?').waitFor();
  await page.locator('details.case-panel .case-actions').getByRole('button', { name: 'Yes, delete' }).click();
  await page.waitForURL('**/cart?done=removed');
  await page.locator('main').getByText('There are no items in your cart.').waitFor();
  assert.equal(await cartLink(page).getAttribute('aria-label'), 'Cart, 0 items');
  await context.close();
});

test('JS off: the category form asks to reset a cart of the other family on the cart page; no keeps it, yes empties it', async () => {
  const context = await newContext(MAKATI, { javaScriptEnabled: false });
  await fillCart(context, [[1, 24]]);
  const page = await context.newPage();
  await page.goto(`${store.base}/buy-beer?gate=category`);
  await page.getByRole('button', { name: /DRAFT BEER IN KEG/ }).click();
  await page.waitForURL(/\/cart\?gate=category&reset=3/);
  // The address's fragment names the element where reading and Tab go on.
  const fragment = new URL(page.url()).hash;
  assert.equal(fragment, '#reset-title');
  assert.equal(await page.locator(fragment).count(), 1, `the page holds ${fragment}`);
  const question =
    'Your current cart will be reset. Orders for Bottles/ Cans and Draft Beer should be in a separate transaction. Continue to reset your cart?';
  const ask = page.getByRole('dialog', { name: question });
  await ask.waitFor();
  await ask.getByRole('link', { name: 'No' }).click();
  await page.waitForURL(/\/cart$/);
  assert.equal(await page.getByRole('dialog').count(), 0);
  assert.equal(await page.locator('details.case-panel').count(), 1, 'the cart is kept');
  let cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  assert.equal(cookies.categoryGateId, '1');
  assert.equal(cookies.originalCategoryID, '1');
  // Again from the cart page's own Product Type link, and yes.
  await page.getByRole('link', { name: 'Change product type' }).click();
  await page.getByRole('button', { name: /DRAFT BEER IN KEG/ }).click();
  await page.waitForURL(/reset=3/);
  await page.getByRole('dialog', { name: question }).getByRole('button', { name: 'Yes' }).click();
  await page.waitForURL(/\/cart\?gate=location/);
  await page.getByRole('dialog', { name: 'Where should we bring your beer?' }).waitFor();
  cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  assert.equal(cookies.categoryGateId, '3');
  const cart = await context.request.get(`${store.base}/api/v1/cart/1380300002`);
  assert.equal((await cart.json()).item_count, 0, 'the cart was emptied');
  await context.close();
});

test('axe and hydration: the cart page empty and full, the product page with the drawer open', async () => {
  const context = await newContext(MAKATI, { bypassCSP: true });
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/cart`);
  await hydrated(page);
  await page.locator('main').getByText('There are no items in your cart.').waitFor();
  assert.deepEqual(await axeViolations(page), [], 'empty cart');
  await fillCart(context, [[1, 30], [4, 2]]);
  await page.goto(`${store.base}/cart`);
  await hydrated(page);
  await page.locator('details.case-panel').first().waitFor();
  assert.deepEqual(await axeViolations(page), [], 'cart with cases');
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`);
  await hydrated(page);
  await page.getByLabel(/Open cart summary/).click();
  await page.locator('details.cart-drawer').getByRole('link', { name: 'View Shopping Cart' }).waitFor();
  assert.deepEqual(await axeViolations(page), [], 'drawer open');
  assert.deepEqual(problems, []);
  await context.close();
});
