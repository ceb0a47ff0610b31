// Go-to Cases and Order Again in Debian's Chromium: a member saves a cart case as a new
// Go-to Case, adds another case to it, edits it, refills an empty cart from it in another barangay
// and deletes it; Order Again from an order, with the reset question for the other family; with
// JavaScript on and off; axe on the pages and the open form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addCookies, axeViolations, hydrated, newContext, registeredMember, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const MAKATI_BARANGAY = 1380300002;
const place = (city, barangay, cityName, brgyName) => [
  'privacyVerification=1',
  'cookieAccepted=1',
  'categoryGateId=1',
  'categoryName=BOTTLES',
  'locationGateFulfillmentId=1',
  `locationGateCityId=${city}`,
  `locationGateBarangayId=${barangay}`,
  `gateCityName=${encodeURIComponent(cityName)}`,
  `gateBrgyName=${encodeURIComponent(brgyName)}`,
];
const MAKATI = place(137603000, MAKATI_BARANGAY, 'Makati City', 'Bel-Air');
const BACOOR = place(402103000, 402103004, 'Bacoor City', 'Bayanan');
const OPEN = '2026-11-24T14:00';

function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    // A cart call without a session is retried with a guest token; the reset question
    // is a 422 the page asks in place.
    if (/status of 40[1]|status of 422/.test(m.text())) return;
    problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

const headers = () => ({ Origin: store.base, 'Content-Type': 'application/json' });

/** Makes a member through the API and the mailed link, and logs the context in. */
async function member(context, n) {
  const who = {
    first_name: 'Rosa',
    last_name: `Go${n}`,
    email: `goto${n}@example.ph`,
    mobile: `0917123090${n}`,
    birth_date: '1987-04-05',
    password: 'Pale-Pilsen-Friday-88',
    accept_terms: true,
  };
  await registeredMember(who);
  const login = await context.request.post(`${store.base}/api/v1/login`, { headers: headers(), data: { login: who.email, password: who.password } });
  assert.equal(login.status(), 200, await login.text());
}

async function fillCart(context, items, barangay = MAKATI_BARANGAY) {
  for (const [product_id, quantity] of items) {
    const res = await context.request.post(`${store.base}/api/v1/cart`, { headers: headers(), data: { product_id, quantity, barangay } });
    assert.equal(res.status(), 200, await res.text());
  }
}

async function emptyCart(context) {
  const cart = await (await context.request.get(`${store.base}/api/v1/cart/${MAKATI_BARANGAY}`)).json();
  const ids = cart.shopping_cart.flatMap((c) => c.items.map((i) => i.id));
  if (ids.length) {
    const res = await context.request.delete(`${store.base}/api/v1/cart`, { headers: headers(), data: { product_id: ids } });
    assert.equal(res.status(), 200, await res.text());
  }
}

/** Places the context's cart (a complete case, Makati) as an order through the API. */
async function placeOrder(context) {
  const cart = await (await context.request.get(`${store.base}/api/v1/cart/${MAKATI_BARANGAY}`)).json();
  const res = await context.request.post(`${store.base}/api/v1/orders`, {
    headers: headers(),
    data: {
      contact_name: 'Rosa Go',
      mobile: '09171230900',
      address: 'Unit 3, 8 Jupiter St.',
      barangay: MAKATI_BARANGAY,
      fulfillment: 1,
      revision: cart.revision,
      expected_total: cart.cart_order_summary.subtotal,
      testdate: OPEN,
    },
  });
  assert.equal(res.status(), 201, await res.text());
  return res.json();
}

const panel = (page, name) => page.locator('details.case-panel').filter({ has: page.locator('.case-name', { hasText: name }) });

test('JS on: save a cart case as a new Go-to Case, add another to it, edit it, refill an empty cart elsewhere, delete', async () => {
  const context = await newContext(MAKATI, { bypassCSP: true });
  await member(context, 1);
  await fillCart(context, [
    [1, 12],
    [3, 12],
    [12, 24],
  ]);
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/cart`);
  await hydrated(page);
  // Bottles: the form opens; submit stays disabled until a case is chosen or a name typed.
  const bottles = panel(page, 'Bottles');
  await bottles.locator('summary', { hasText: 'Save New Go-to Case' }).click();
  const save = bottles.getByRole('button', { name: 'Save Go-to Case' });
  assert.ok(await save.isDisabled(), 'nothing chosen, no name');
  await bottles.getByLabel('Create A New Case').check();
  assert.ok(await save.isDisabled(), 'Create A New Case with an empty name');
  await bottles.getByLabel('Name of the new Go-to Case').fill('Friday');
  assert.ok(await save.isEnabled());
  assert.deepEqual(await axeViolations(page), []);
  await save.click();
  await bottles.getByText('You successfully created Go-to Case "Friday" from your case "Bottles"').waitFor();
  // Cans: Friday holds bottles, so it is not offered; a new case.
  const cans = panel(page, 'Cans');
  await cans.locator('summary', { hasText: 'Save New Go-to Case' }).click();
  assert.equal(await cans.getByLabel(/Add to “Friday”/).count(), 0);
  await cans.getByLabel('Name of the new Go-to Case').fill('Cans night');
  await cans.getByRole('button', { name: 'Save Go-to Case' }).click();
  await cans.getByText('You successfully created Go-to Case "Cans night" from your case "Cans"').waitFor();
  // Bottles again, into Friday: quantities add.
  await bottles.getByLabel(/Add to “Friday”/).check();
  await save.click();
  await bottles.getByText('You successfully added from your case "Bottles" to your existing Go-to Case "Friday"').waitFor();
  // A name in use is refused in the server's words.
  await bottles.getByLabel('Create A New Case').check();
  await bottles.getByLabel('Name of the new Go-to Case').fill('FRIDAY');
  await save.click();
  await bottles.getByText(/already have a Go-to Case named "FRIDAY"/).waitFor();

  // The Go-to Cases page: the cases with their items at today's prices.
  await page.goto(`${store.base}/my-account/go-to-cases`);
  await hydrated(page);
  const friday = page.locator('li.goto-case').filter({ has: page.getByRole('heading', { name: 'Friday' }) });
  await friday.getByRole('rowheader', { name: 'Tala Pale Pilsen 320 ml' }).waitFor();
  assert.equal(await friday.getByLabel('Quantity of Tala Pale Pilsen 320 ml').inputValue(), '24');
  assert.deepEqual(await axeViolations(page), []);
  // Change a quantity.
  await friday.getByLabel('Quantity of Tala Pale Pilsen 320 ml').fill('48');
  await friday.getByRole('button', { name: 'Update Tala Pale Pilsen 320 ml' }).click();
  await page.waitForURL('**/my-account/go-to-cases?done=saved&case=*');
  await page.getByText('Your Go-to Case "Friday" is saved.').waitFor();
  // Rename.
  await hydrated(page);
  await friday.locator('summary', { hasText: 'Rename' }).click();
  await friday.getByLabel('New name').fill('Weekend');
  await friday.getByRole('button', { name: 'Save Name' }).click();
  await page.waitForURL('**/my-account/go-to-cases?done=saved&case=*');
  const weekend = page.locator('li.goto-case').filter({ has: page.getByRole('heading', { name: 'Weekend' }) });
  await page.getByText('Your Go-to Case "Weekend" is saved.').waitFor();
  // Remove an item.
  await hydrated(page);
  await weekend.getByRole('button', { name: 'Remove Tala Light 330 ml' }).click();
  await page.waitForURL('**/my-account/go-to-cases?done=removed&case=*');
  await page.getByText('Removed from your Go-to Case "Weekend".').waitFor();
  assert.equal(await weekend.getByRole('rowheader').count(), 1);

  // An empty cart, another barangay: Add to Cart fills it there.
  await emptyCart(context);
  await addCookies(context, BACOOR);
  await page.goto(`${store.base}/my-account/go-to-cases`);
  await hydrated(page);
  await page.getByText('Prices and availability for Bayanan, Bacoor City.').waitFor();
  await weekend.getByRole('button', { name: 'Add to Cart Weekend' }).click();
  await page.waitForURL('**/cart?done=refilled');
  await page.getByText('We filled your cart. Check it before you go to checkout.').waitFor();
  assert.equal(await page.getByLabel('Quantity of Tala Pale Pilsen 320 ml').inputValue(), '48');

  // Delete, asked first.
  await page.goto(`${store.base}/my-account/go-to-cases`);
  await hydrated(page);
  const night = page.locator('li.goto-case').filter({ has: page.getByRole('heading', { name: 'Cans night' }) });
  await night.locator('summary', { hasText: 'Delete' }).click();
  await night.getByText('Are you sure you want to delete Cans night?').waitFor();
  await night.getByRole('button', { name: 'Yes, delete' }).click();
  await page.waitForURL('**/my-account/go-to-cases?done=deleted');
  await page.getByText('Your Go-to Case has been deleted.').waitFor();
  assert.equal(await page.locator('li.goto-case').count(), 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('JS on: Order Again from My Orders and from the order page, with the reset question for a keg cart', async () => {
  const context = await newContext(MAKATI, { bypassCSP: true });
  await member(context, 2);
  await fillCart(context, [[1, 24]]);
  const placed = await placeOrder(context);
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/my-account/orders`);
  await hydrated(page);
  await page.getByRole('button', { name: `Order Again order ${placed.order.number}` }).click();
  await page.waitForURL('**/cart?done=refilled');
  assert.equal(await page.getByLabel('Quantity of Tala Pale Pilsen 320 ml').inputValue(), '24');
  // A keg in the cart: the order's bottles ask the reset question first.
  await emptyCart(context);
  await fillCart(context, [[21, 1]]);
  await page.goto(`${store.base}${placed.link}`);
  await hydrated(page);
  await page.getByRole('button', { name: `Order Again order ${placed.order.number}` }).click();
  await page.getByText('Your current cart will be reset. Orders for Bottles/ Cans and Draft Beer should be in a separate transaction. Continue to reset your cart?').waitFor();
  assert.deepEqual(await axeViolations(page), []);
  await page.getByRole('button', { name: 'Yes, reset my cart' }).click();
  await page.waitForURL('**/cart?done=refilled');
  assert.equal(await page.getByLabel('Quantity of Tala Pale Pilsen 320 ml').inputValue(), '24');
  assert.equal(await page.getByText('Tala Pale Pilsen Keg 30 L').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('JS off: save, refill with the reset question, and Order Again, all as form posts', async () => {
  const context = await newContext(MAKATI, { javaScriptEnabled: false });
  await member(context, 3);
  await fillCart(context, [[1, 24], [13, 24]]);
  const page = await context.newPage();
  await page.goto(`${store.base}/cart`);
  // An empty name comes back with the field's message, the form open in its panel.
  const bottles = panel(page, 'Bottles');
  await bottles.locator('summary', { hasText: 'Save New Go-to Case' }).click();
  await bottles.getByRole('button', { name: 'Save Go-to Case' }).click();
  await bottles.getByText('Choose one of your Go-to Cases, or enter a name for a new one.').first().waitFor();
  assert.equal(await panel(page, 'Bottles').locator('details.goto-form[open]').count(), 1);
  await bottles.getByLabel('Create A New Case').check();
  await bottles.getByLabel('Name of the new Go-to Case').fill('Usual');
  await bottles.getByRole('button', { name: 'Save Go-to Case' }).click();
  await page.waitForURL('**/my-account/go-to-cases?done=created&case=*');
  await page.getByText('You successfully created Go-to Case "Usual" from your case "Bottles"').waitFor();
  // Another case of the same type joins it.
  await page.goto(`${store.base}/cart`);
  await bottles.locator('summary', { hasText: 'Save New Go-to Case' }).click();
  await bottles.getByLabel(/Add to “Usual”/).check();
  await bottles.getByRole('button', { name: 'Save Go-to Case' }).click();
  await page.waitForURL('**/my-account/go-to-cases?done=added&case=*');
  await page.getByText('You successfully added from your case "Bottles" to your existing Go-to Case "Usual"').waitFor();
  // A refused rename comes back once, in its own form, open, with what was typed.
  const usual = page.locator('li.goto-case').filter({ has: page.getByRole('heading', { name: 'Usual' }) });
  await usual.locator('summary', { hasText: 'Rename' }).click();
  await usual.getByLabel('New name').fill('Fri\u200Bday');
  await usual.getByRole('button', { name: 'Save Name' }).click();
  await page.getByText('Use letters, numbers, spaces and punctuation in the name.').waitFor();
  assert.equal(await page.getByText('Use letters, numbers, spaces and punctuation in the name.').count(), 1);
  assert.equal(await usual.getByLabel('New name').inputValue(), 'Fri\u200Bday');
  assert.equal(await usual.getByLabel('New name').getAttribute('aria-invalid'), 'true');
  // A case deleted in another tab: this page's Delete says so.
  const stale = await context.newPage();
  await stale.goto(`${store.base}/my-account/go-to-cases`);
  const second = await context.request.post(`${store.base}/api/v1/user/goto-case`, { headers: headers(), data: { name: 'Gone soon', cart_items: [13] } });
  assert.equal(second.status(), 200, await second.text());
  const goneId = (await second.json()).goto_case.id;
  await stale.reload();
  const del = await context.request.delete(`${store.base}/api/v1/user/goto-case/${goneId}`, { headers: headers() });
  assert.equal(del.status(), 200);
  const gone = stale.locator('li.goto-case').filter({ has: stale.getByRole('heading', { name: 'Gone soon' }) });
  await gone.locator('summary', { hasText: 'Delete' }).click();
  await gone.getByRole('button', { name: 'Yes, delete' }).click();
  await stale.getByRole('alert').filter({ hasText: `Go-to Case ${goneId} not found.` }).waitFor();
  await stale.close();
  // Place the bottles and cans, then put a keg in the cart: the refill asks first, in the cart page.
  const placed = await placeOrder(context);
  await fillCart(context, [[21, 1]]);
  await page.goto(`${store.base}/my-account/go-to-cases`);
  await page.getByRole('button', { name: 'Add to Cart Usual' }).click();
  await page.getByRole('heading', { name: 'Reset your cart?' }).waitFor();
  await page.getByRole('button', { name: 'Yes, reset my cart' }).click();
  await page.waitForURL('**/cart?done=refilled');
  assert.equal(await page.getByLabel('Quantity of Tala Pale Pilsen 320 ml').inputValue(), '48');
  // Order Again: the order's cans join (the bottles add up). Two tabs of the same page:
  // the form names the cart's revision the page was made with, so the second adds nothing and says so.
  await page.goto(`${store.base}/my-account/orders`);
  const other = await context.newPage();
  await other.goto(`${store.base}/my-account/orders`);
  await page.getByRole('button', { name: `Order Again order ${placed.order.number}` }).click();
  await page.waitForURL('**/cart?done=refilled');
  assert.equal(await page.getByLabel('Quantity of Tala Pale Pilsen 320 ml').inputValue(), '72');
  assert.equal(await page.getByLabel('Quantity of Tala Light Can 330 ml').inputValue(), '24');
  await other.getByRole('button', { name: `Order Again order ${placed.order.number}` }).click();
  await other.waitForURL('**/cart?done=already');
  await other.getByText('That was already added to your cart, so it was not added again.').waitFor();
  assert.equal(await other.getByLabel('Quantity of Tala Pale Pilsen 320 ml').inputValue(), '72');
  assert.equal(await other.getByLabel('Quantity of Tala Light Can 330 ml').inputValue(), '24');
  await context.close();
});
