// Checkout and orders in Debian's Chromium: a guest fills a cart,
// checks out and lands on the order's page, with JavaScript on and off; a second submit of the
// same checkout places no second order; a member buys a keg and finds it in My Orders; the
// blackout disables Submit Order and says why; an unknown order is a 404 that says so. axe on
// every page, and no console errors or hydration warnings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, hydrated, newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const MAKATI = 1380300002;
/** A Tuesday afternoon in Manila: within the hours, outside the blackout. */
const OPEN = '2026-11-24T14:00';
/** Inside the seeded checkout blackout (2025-05-10 20:00 to 2025-05-13 08:00). */
const BLACKOUT = '2025-05-11T10:00';
const GATES = [
  'cookieAccepted=1',
  'privacyVerification=1',
  'ageVerification=1',
  'categoryGateId=1',
  'locationGateFulfillmentId=1',
  'locationGateCityId=1380300000',
  'locationGateBarangayId=1380300002',
  'locationGateStreetId=1',
];

/** A shopper past the gates (Bel-Air, Makati, Jupiter Street), with what the page complains of. */
async function shopper(js, cookies = []) {
  const context = await newContext([...GATES, ...cookies], { javaScriptEnabled: js, bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // A refused form (422, 409) and an unknown order's page (404) are the answers the test asks for.
    if ((m.type() === 'error' || m.type() === 'warning') && !/status of 4\d\d/.test(m.text())) problems.push(`${page.url()} ${m.type()}: ${m.text()}`);
  });
  return { context, page, problems };
}

/**
 * Puts `quantity` of a product in the context's cart through the API (as the cart page would),
 * asking for a guest token first when the context has no session.
 */
async function fillCart(context, product_id, quantity) {
  if (!(await context.cookies(store.base)).some((c) => c.name === 'session')) {
    const guest = await context.request.post(`${store.base}/api/v1/guest-token`, { headers: { origin: store.base } });
    assert.equal(guest.status(), 200, await guest.text());
  }
  const res = await context.request.post(`${store.base}/api/v1/cart`, {
    data: { product_id, quantity, barangay: MAKATI, street_id: 1 },
    headers: { origin: store.base },
  });
  assert.equal(res.status(), 200, await res.text());
  return res.json();
}

async function open(page, js, path) {
  const res = await page.goto(`${store.base}${path}`);
  if (js) await hydrated(page);
  return res;
}

const summary = (page) => page.locator('.order-summary');

async function fillContact(page, { name, mobile, email, house }) {
  if (name !== undefined) await page.getByLabel('Contact name').fill(name);
  if (mobile !== undefined) await page.getByLabel('Mobile number').fill(mobile);
  if (email !== undefined) await page.getByLabel('Email address').fill(email);
  if (house !== undefined) await page.getByLabel('House or unit number, building and street').fill(house);
}

/** The order page's totals, as the shopper reads them. */
async function assertGuestOrder(page) {
  await page.getByRole('heading', { level: 1, name: /^Order TB-\d{6}$/ }).waitFor();
  await page.getByText(/Thank you! Your order TB-\d{6} is placed\./).waitFor();
  const totals = await page.locator('.order-totals').innerText();
  for (const amount of ['P1,188.00', 'P240.00', 'P150.00', 'P1,578.00']) assert.ok(totals.includes(amount), `${amount} in ${totals}`);
  const details = await page.locator('.order-details').innerText();
  assert.match(details, /Cash on delivery/);
  assert.match(details, /Jupiter Street, Bel-Air, Makati City/);
  assert.match(await page.locator('.order-history').innerText(), /Placed/);
}

test('with JavaScript a guest checks out once, however often the order is submitted', async () => {
  const { context, page, problems } = await shopper(true);
  await open(page, true, '/');
  await fillCart(context, 1, 24);
  await open(page, true, `/checkout?testdate=${OPEN}`);
  assert.match(await summary(page).innerText(), /P1,578\.00/);
  assert.match(await page.locator('.checkout-place').innerText(), /^Jupiter Street, Bel-Air, Makati City/);
  // Pickup is priced in place (no delivery fee) and paid at pickup; then back to delivery.
  await page.getByLabel('Pickup').check();
  await summary(page).getByText('P1,428.00').waitFor();
  await page.getByText('Pay at pickup').waitFor();
  await page.getByLabel('Delivery', { exact: true }).check();
  await summary(page).getByText('P1,578.00').waitFor();
  await page.getByText('Cash on delivery').waitFor();
  assert.deepEqual(await axeViolations(page), [], 'checkout');

  // A careless first try: the fields are named, nothing is placed.
  await fillContact(page, { name: 'Ana Santos', mobile: '0917', email: 'ana.guest@example.com', house: 'Unit 5B, 12 Jupiter St.' });
  await page.getByRole('button', { name: 'Submit Order' }).click();
  await page.getByText('The mobile number must start with 09').waitFor();
  assert.equal(await page.getByLabel('Mobile number').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.getByLabel('Contact name').inputValue(), 'Ana Santos');

  await page.getByLabel('Mobile number').fill('09171234567');
  // What a second submit of the same page would send (back and submit again, another tab).
  const fields = await page.evaluate(() => [...new FormData(document.getElementById('checkout-form'))]);
  const sent = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/checkout') sent.push(r.url());
  });
  await page.getByRole('button', { name: 'Submit Order' }).dblclick();
  await page.waitForURL(/\/active-order\/\d+\?key=/);
  await hydrated(page);
  assert.equal(sent.length, 1, 'a double click sends once');
  const link = new URL(page.url());
  await assertGuestOrder(page);
  assert.deepEqual(await axeViolations(page), [], 'order page');

  // The same checkout again (the back button, another tab): not a second order. Placing the order
  // ended this browser's cart (a new cart token), so the form is told the cart is empty;
  // a retry whose first answer was lost still holds the old token and gets the order (money_path.rs).
  const again = await page.evaluate(
    async ([action, pairs]) => {
      const res = await fetch(action, { method: 'POST', headers: { Accept: 'application/json' }, body: new URLSearchParams(pairs) });
      return res.json();
    },
    [`${store.base}/checkout?testdate=${OPEN}`, fields],
  );
  assert.equal(again.location, undefined, JSON.stringify(again));
  assert.equal(again.message, 'There are no items in your cart.');
  // The cart is empty now.
  await open(page, true, `/checkout?testdate=${OPEN}`);
  await page.locator('#main').getByText('There are no items in your cart.').waitFor();
  assert.equal(await page.locator('#main').getByRole('link', { name: 'Buy beer?' }).getAttribute('href'), '/buy-beer');
  // The order's link is the guest's way back; without its key it is an unknown order.
  const res = await open(page, true, link.pathname);
  assert.equal(res.status(), 404);
  await page.getByRole('heading', { name: 'Order not found' }).waitFor();
  assert.deepEqual(await axeViolations(page), [], 'unknown order');
  assert.deepEqual(problems, []);
  await context.close();
});

test('without JavaScript a guest checks out through the form post', async () => {
  const { context, page } = await shopper(false);
  await open(page, false, '/');
  await fillCart(context, 1, 24);
  await open(page, false, `/checkout?testdate=${OPEN}`);
  assert.match(await summary(page).innerText(), /P1,578\.00/);
  assert.match(await page.locator('.checkout-place').innerText(), /^Jupiter Street, Bel-Air, Makati City/);
  // The fields come back with their messages, what was typed kept.
  await fillContact(page, { name: 'Ben Reyes', mobile: '09181234567', email: 'not-an-email', house: 'Unit 7, 3 Jupiter St.' });
  await page.getByRole('button', { name: 'Submit Order' }).click();
  await page.getByText('Please correct the fields marked below.').waitFor();
  assert.equal(await page.getByLabel('Email address').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.getByLabel('Contact name').inputValue(), 'Ben Reyes');
  // Pickup without JavaScript: the radios ask for the page priced for it.
  await page.getByLabel('Pickup').check();
  await page.getByRole('button', { name: 'Update my total' }).click();
  await summary(page).getByText('P1,428.00').waitFor();
  await page.getByText('Pay at pickup').waitFor();
  await page.getByLabel('Delivery', { exact: true }).check();
  await page.getByRole('button', { name: 'Update my total' }).click();
  await summary(page).getByText('P1,578.00').waitFor();
  await fillContact(page, { name: 'Ben Reyes', mobile: '09181234567', email: 'ben.guest@example.com', house: 'Unit 7, 3 Jupiter St.' });
  await page.getByRole('button', { name: 'Submit Order' }).click();
  await page.waitForURL(/\/active-order\/\d+\?key=/);
  await assertGuestOrder(page);
  await context.close();
});

test('a shopper who has not chosen a place is asked for one first', async () => {
  const { context, page, problems } = await shopper(true);
  await context.clearCookies();
  await context.addCookies(['cookieAccepted', 'privacyVerification', 'ageVerification'].map((name) => ({ name, value: '1', url: store.base })));
  await open(page, true, '/checkout');
  await page.locator('#main').getByText('Choose where we deliver, and check out from there.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Submit Order' }).count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the blackout disables Submit Order and says why, with JavaScript on and off', async () => {
  for (const js of [true, false]) {
    const { context, page, problems } = await shopper(js);
    await open(page, js, '/');
    await fillCart(context, 1, 24);
    await open(page, js, `/checkout?testdate=${BLACKOUT}`);
    const submit = page.getByRole('button', { name: 'Submit Order' });
    assert.equal(await submit.isDisabled(), true);
    await summary(page).getByText(/not taking orders until May 13, 2025 08:00/).waitFor();
    if (js) {
      assert.deepEqual(await axeViolations(page), [], 'checkout in the blackout');
      assert.deepEqual(problems, []);
    }
    await context.close();
  }
});

test('a cart changed after checkout opened is not ordered until the shopper sees it, with JavaScript on and off', async () => {
  for (const js of [true, false]) {
    const { context, page, problems } = await shopper(js);
    await open(page, js, '/');
    await fillCart(context, 1, 24);
    await open(page, js, `/checkout?testdate=${OPEN}`);
    await fillContact(page, { name: 'Carla Diaz', mobile: '09191234567', email: `carla.${js}@example.com`, house: '9 Jupiter St.' });
    // Another tab adds a second case.
    await fillCart(context, 1, 24);
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.getByText('Your cart changed since you opened checkout.').waitFor();
    await page.getByRole('link', { name: 'Reload checkout' }).waitFor();
    // The summary shows the cart as it is now; what was typed stays; a second submit orders it.
    await summary(page).getByText('P3,006.00').waitFor();
    assert.equal(await page.getByLabel('Contact name').inputValue(), 'Carla Diaz');
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.waitForURL(/\/active-order\/\d+\?key=/);
    assert.ok((await page.locator('.order-total').innerText()).includes('P3,006.00'));
    assert.deepEqual(problems, []);
    await context.close();
  }
});

/** A member made through the JSON API with a saved address on Jupiter Street: their cookies. */
async function apiMember(email, mobile) {
  const form = { first_name: 'Cora', last_name: 'Lim', email, mobile, birth_date: '1985-06-15', accept_terms: true };
  const pre = await fetch(`${store.base}/api/v1/pre-register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(form),
  });
  assert.equal(pre.status, 200);
  const token = new URL(await store.mailedLink(email, '/registration\\?token=')).searchParams.get('token');
  const res = await fetch(`${store.base}/api/v1/registration`, {
    method: 'POST',
    headers: { 'registration-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ password: 'beer2026keg' }),
  });
  assert.equal(res.status, 200);
  const session = res.headers.get('access-token');
  const address = await fetch(`${store.base}/api/v1/user/addresses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
    body: JSON.stringify({ address: 'Unit 12, 7 Jupiter St.', barangay_id: MAKATI, street_id: 1 }),
  });
  assert.equal(address.status, 201, await address.text());
  const other = await fetch(`${store.base}/api/v1/user/addresses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
    body: JSON.stringify({ address: '3 Shoe Avenue', barangay_id: 1380700001 }),
  });
  assert.equal(other.status, 201, await other.text());
  return [`session=${session}`, 'member=1'];
}

test('a member buys a keg and finds it in My Orders', async () => {
  const { context, page, problems } = await shopper(true, [...(await apiMember('cora.keg@example.com', '09171230021')), 'categoryGateId=3']);
  await open(page, true, '/my-account/orders');
  await page.getByText('You have not placed any orders yet.').waitFor();
  assert.deepEqual(await axeViolations(page), [], 'no orders yet');
  await fillCart(context, 21, 1);
  await open(page, true, `/checkout?testdate=${OPEN}`);
  // The member's details and the saved address of this place are filled in.
  assert.equal(await page.getByLabel('Contact name').inputValue(), 'Cora Lim');
  assert.equal(await page.getByLabel('Mobile number').inputValue(), '09171230021');
  assert.equal(await page.getByLabel('House or unit number, building and street').inputValue(), 'Unit 12, 7 Jupiter St.');
  assert.equal(await page.getByLabel('Email address').count(), 0);
  await page.getByText('cora.keg@example.com').waitFor();
  assert.equal(await page.getByRole('link', { name: 'Log in' }).count(), 0);
  // Another saved address prices the cart for its barangay and fills the house line.
  await page.getByLabel('3 Shoe Avenue, Barangka, Marikina City, Metro Manila').check();
  assert.equal(await page.getByLabel('House or unit number, building and street').inputValue(), '3 Shoe Avenue');
  await page.getByText('Barangka, Marikina City, Metro Manila Change location').waitFor();
  await page.getByLabel('Unit 12, 7 Jupiter St., Jupiter Street, Bel-Air, Makati City, Metro Manila').check();
  assert.equal(await page.getByLabel('House or unit number, building and street').inputValue(), 'Unit 12, 7 Jupiter St.');
  const total = (await summary(page).innerText()).match(/Subtotal\s*(P[\d,]+\.\d\d)/)?.[1];
  assert.ok(total, await summary(page).innerText());
  assert.deepEqual(await axeViolations(page), [], 'member checkout');
  await page.getByRole('button', { name: 'Submit Order' }).click();
  await page.waitForURL(/\/active-order\/\d+$/);
  await hydrated(page);
  const number = (await page.getByRole('heading', { level: 1 }).innerText()).replace('Order ', '');
  assert.match(await page.locator('.order-items').innerText(), /Tala Pale Pilsen Keg 30 L/);
  assert.ok((await page.locator('.order-total').innerText()).includes(total));
  assert.match(await page.locator('.order-details').innerText(), /Unit 12, 7 Jupiter St\., Jupiter Street, Bel-Air, Makati City/);

  await open(page, true, '/my-account/orders');
  const card = page.locator('.order-card').filter({ hasText: number });
  await card.waitFor();
  assert.ok((await card.innerText()).includes(total));
  assert.match(await card.innerText(), /Placed/);
  assert.deepEqual(await axeViolations(page), [], 'my orders');
  await card.getByRole('link', { name: `Order ${number}` }).click();
  await page.waitForURL(/\/active-order\/\d+$/);
  await page.getByRole('heading', { level: 1, name: `Order ${number}` }).waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});
