// Paying online in Debian's Chromium, through the PayMongo simulator (`fixtures paymongo`, its
// hosted page plain HTML): a guest chooses to pay online at checkout, pays on PayMongo's page and
// comes back to the order placed, with JavaScript on and off; a guest who cancels on PayMongo's
// page comes back to an order waiting for its payment, and pays in cash instead; a manager cancels
// an order paid online and refunds its payment through PayMongo from the order's page. axe on the
// store's pages with JavaScript on, and no console errors or hydration warnings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hydrated, newContext, noViolations, staffSignedIn, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser({ paymongo: true });

const MAKATI = 1380300002;
const OPEN = '2026-11-24T14:00';
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

/** A guest past the gates with a case of Tala Pale Pilsen in the cart, on the checkout page. */
async function atCheckout(js, email) {
  const context = await newContext(GATES, { javaScriptEnabled: js, bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && new URL(page.url()).origin === store.base) problems.push(`${page.url()} ${m.type()}: ${m.text()}`);
  });
  const guest = await context.request.post(`${store.base}/api/v1/guest-token`, { headers: { origin: store.base } });
  assert.equal(guest.status(), 200, await guest.text());
  const added = await context.request.post(`${store.base}/api/v1/cart`, {
    data: { product_id: 1, quantity: 24, barangay: MAKATI, street_id: 1 },
    headers: { origin: store.base },
  });
  assert.equal(added.status(), 200, await added.text());
  await page.goto(`${store.base}/checkout?testdate=${OPEN}`);
  if (js) await hydrated(page);
  await page.getByLabel('Contact name').fill('Ana Santos');
  await page.getByLabel('Mobile number').fill('09171234567');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('House or unit number, building and street').fill('Unit 5B, 12 Jupiter St.');
  return { context, page, problems };
}

for (const js of [true, false]) {
  test(`${js ? 'with' : 'without'} JavaScript a guest pays online on PayMongo's page and comes back to the order placed`, async () => {
    const { context, page, problems } = await atCheckout(js, `ana.pays.${js}@example.com`);
    const online = page.getByLabel(/^Pay online now: GCash, Maya, QR Ph or credit or debit card$/);
    await online.check();
    await noViolations(page, js, 'checkout with the online choice');
    await page.getByRole('button', { name: 'Submit Order' }).click();
    // PayMongo's page (the simulator's), for this order's total.
    await page.waitForURL((u) => u.href.startsWith(`${store.payMongo}/pay/`));
    await page.getByRole('heading', { name: /^Pay TB-\d{6}$/ }).waitFor();
    assert.match(await page.locator('main').innerText(), /Total: PHP 1578\.00/);
    await page.getByLabel('gcash').check();
    await page.getByRole('button', { name: 'Pay' }).click();
    // Back on the order's page, which PayMongo's event has placed.
    await page.waitForURL(/\/active-order\/\d+\?key=/);
    if (js) await hydrated(page);
    await page.getByText(/Thank you! Your order TB-\d{6} is placed\./).waitFor();
    assert.match(await page.locator('.order-details').innerText(), /Paid online \(GCash\)/);
    assert.match(await page.locator('.order-history').innerText(), /Awaiting payment[\s\S]*Placed/);
    assert.equal(await page.getByRole('heading', { name: 'Waiting for your payment' }).count(), 0);
    await noViolations(page, js, 'the order paid');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${js ? 'with' : 'without'} JavaScript a guest who cancels on PayMongo's page pays in cash instead`, async () => {
    const { context, page, problems } = await atCheckout(js, `ana.cancels.${js}@example.com`);
    await page.getByLabel(/^Pay online now/).check();
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${store.payMongo}/pay/`));
    const payPage = page.url();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(/\/active-order\/\d+\?key=/);
    if (js) await hydrated(page);
    await page.getByRole('heading', { name: 'Waiting for your payment' }).waitFor();
    assert.match(await page.locator('.order-status').innerText(), /Awaiting payment/);
    await noViolations(page, js, 'the order waiting for its payment');
    // Pay Now goes back to the same PayMongo page (its session is still open).
    await page.getByRole('button', { name: 'Pay P1,578.00 Now' }).click();
    await page.waitForURL(payPage);
    await page.goBack();
    await page.waitForURL(/\/active-order\/\d+\?key=/);
    if (js) {
      await hydrated(page);
      page.once('dialog', (d) => void d.accept());
    }
    await page.getByRole('button', { name: 'Pay Cash on Delivery Instead' }).click();
    await page.getByText(/Thank you! Your order TB-\d{6} is placed\./).waitFor();
    assert.match(await page.locator('.order-details').innerText(), /Cash on delivery/);
    assert.equal(await page.getByRole('heading', { name: 'Waiting for your payment' }).count(), 0);
    // PayMongo's page can no longer take a payment for it.
    await page.goto(payPage);
    await page.getByText('This checkout has expired.').waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${js ? 'with' : 'without'} JavaScript a manager cancels an order paid online and refunds it through PayMongo`, async () => {
    const { context, page, problems } = await atCheckout(js, `ana.refunded.${js}@example.com`);
    await page.getByLabel(/^Pay online now/).check();
    await page.getByRole('button', { name: 'Submit Order' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${store.payMongo}/pay/`));
    await page.getByLabel('paymaya').check();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/active-order\/\d+\?key=/);
    const id = new URL(page.url()).pathname.split('/').pop();
    await context.close();

    const mia = await staffSignedIn(`mia.refunds.${js}@tala.example`, 'manager', 'Mia Reyes', 'a long passphrase for refunds', js);
    const staff = mia.page;
    staff.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await staff.goto(`${store.base}/staff/orders/${id}`);
    await mia.ready();
    assert.match(await staff.locator('#payments-title + ul').innerText(), /P1,578\.00 by Maya/);
    // Its own payment: no Refund until the order is cancelled.
    assert.equal(await staff.locator('select[name=reason]').count(), 0);
    await staff.getByLabel('Why (the shopper is told)').fill('Out of kegs this week');
    await staff.getByRole('button', { name: 'Cancel Order' }).click();
    await staff.waitForURL(/done=moved/);
    await mia.ready();
    await staff.locator('select[name=reason]').selectOption('requested_by_customer');
    await staff.getByLabel(/^Note for PayMongo/).fill('Order cancelled: out of kegs');
    if (js) staff.once('dialog', (d) => void d.accept());
    await staff.getByRole('button', { name: /^Refund P1,578\.00 of pay_/ }).click();
    await staff.getByText('The refund was asked of PayMongo.').waitFor();
    // The simulator's event came before its answer: refunded.
    await staff.getByText(/^Refunded: P1,578\.00, The shopper asked \(Order cancelled: out of kegs\); asked by Mia Reyes/).waitFor();
    assert.equal(await staff.locator('select[name=reason]').count(), 0);
    await noViolations(staff, js, 'the order refunded');
    // The day report says it.
    await staff.goto(`${store.base}/staff/day`);
    await mia.ready();
    await staff.getByRole('heading', { name: 'Refunds' }).waitFor();
    assert.match(await staff.locator('main').innerText(), /Refunded: P1,578\.00|P1,578\.00: Refunded/);
    assert.deepEqual(problems, []);
    await mia.context.close();
  });
}
