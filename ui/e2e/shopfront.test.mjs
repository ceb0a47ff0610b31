// The shop front in Debian's Chromium, with JavaScript on and off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addCookies, axeViolations, browser, hydrated, newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

test('JS on: the whole entry journey ends on /buy-beer with the right products', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/`);
  await hydrated(page);
  await page.getByRole('dialog', { name: 'PRIVACY / COOKIE POLICY' }).waitFor();
  await page.getByRole('button', { name: 'AGREE AND PROCEED' }).click();
  await page.getByRole('button', { name: /DRAFT BEER IN KEG/ }).click();
  // Continue does nothing until city and barangay (and street) are chosen.
  await page.getByRole('button', { name: 'Continue' }).click({ force: true });
  assert.ok(page.url().endsWith('/'));
  await page.getByLabel('City').selectOption({ label: 'Makati City' });
  await page.getByLabel('Barangay').selectOption({ label: 'Bel-Air' });
  await page.getByLabel('Street').waitFor();
  await page.getByRole('button', { name: 'Continue' }).click({ force: true });
  assert.ok(page.url().endsWith('/'), 'street still missing');
  await page.getByLabel('Street').selectOption({ label: 'Jupiter Street' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/buy-beer');
  await hydrated(page);
  assert.equal(await page.locator('#browse-cont li.card').count(), 6, 'the kegs sold in Makati');
  const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  assert.equal(cookies.cookieAccepted, '1');
  assert.equal(cookies.privacyVerification, '1');
  assert.equal(cookies.categoryGateId, '3');
  assert.equal(cookies.locationGateBarangayId, '1380300002');
  assert.equal(cookies.locationGateStreetId, '1');
  assert.equal(await page.getByRole('dialog').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('JS off: the same journey as form posts', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${store.base}/`);
  await page.getByRole('button', { name: 'AGREE AND PROCEED' }).click();
  await page.getByRole('button', { name: /CANS/ }).click();
  await page.waitForURL(/gate=location/);
  // Province step (Cavite), then city, then barangay: each a POST answered with 303.
  await page.getByLabel('Province').selectOption({ label: 'Cavite' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/province=53/);
  await page.getByLabel('City').selectOption({ label: 'Bacoor City' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/city=402103000/);
  await page.getByLabel('Barangay').selectOption({ label: 'Bayanan' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/buy-beer$/);
  const names = await page.locator('#browse-cont li.card .card-name').allInnerTexts();
  assert.equal(names.length, 8, 'cans sold in Bacoor');
  assert.ok(!names.includes('Bangkal Double IPA Can 473 ml'));
  assert.equal(await page.getByRole('dialog').count(), 0);
  await context.close();
});

test('product page option rules', async () => {
  const context = await newContext(['privacyVerification=1', 'categoryGateId=1', 'locationGateBarangayId=1380300002']);
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-can-330ml`);
  await hydrated(page);
  assert.equal(await page.locator('input[name="pack"]').count(), 1);
  assert.match(await page.locator('.product-price').innerText(), /P1,392\.00/);
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`);
  await hydrated(page);
  assert.match(await page.locator('.product-price').innerText(), /P52\.00/);
  await page.getByLabel(/Case of 24/).check();
  assert.match(await page.locator('.product-price').innerText(), /P1,188\.00/);
  // Quantity: typed values are parsed and raised to the minimum on blur.
  const qty = page.getByLabel('Quantity', { exact: true });
  await qty.fill('0');
  await qty.blur();
  assert.equal(await qty.inputValue(), '1');
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  assert.equal(await qty.inputValue(), '2');
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-keg-30l`);
  await hydrated(page);
  assert.equal(await page.locator('input[name="pack"]').count(), 0, 'kegs hide the selector');
  await page.goto(`${store.base}/single-product/ube-porter-can-330ml`);
  await hydrated(page);
  assert.ok(await page.getByRole('button', { name: 'Out Of Stock' }).isDisabled());
  assert.deepEqual(problems, []);
  await context.close();
});

test('the notice window follows testdate, the picker hides on holidays', async () => {
  const context = await newContext(['privacyVerification=1', 'categoryGateId=1', 'locationGateBarangayId=1380300002']);
  const page = await context.newPage();
  await page.goto(`${store.base}/?testdate=2025-05-06`);
  await page.getByRole('heading', { name: 'Notice to our Members' }).waitFor();
  assert.equal(await page.locator('#notice-city').count(), 1);
  await page.goto(`${store.base}/?testdate=2025-05-12`);
  await page.getByRole('heading', { name: 'Notice to our Members' }).waitFor();
  assert.equal(await page.locator('#notice-city').count(), 0);
  await page.goto(`${store.base}/?testdate=2025-06-01`);
  assert.equal(await page.getByRole('heading', { name: 'Notice to our Members' }).count(), 0);
  await context.close();
});

for (const js of [true, false]) {
  test(`newsletter success and error, JS ${js ? 'on' : 'off'}`, async () => {
    const context = await newContext(['privacyVerification=1'], { javaScriptEnabled: js });
    const page = await context.newPage();
    await page.goto(`${store.base}/faqs`);
    if (js) await hydrated(page);
    const email = page.getByPlaceholder('Email Address');
    await email.fill('not-an-email');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('The email must be a valid email address.').waitFor();
    await page.getByPlaceholder('Email Address').fill(`reader-${js}@example.ph`);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page
      .getByText('Thank you! Open the link we sent to your email to confirm your subscription.')
      .waitFor();
    if (js) {
      // The message clears after 5 seconds.
      await page.waitForFunction(() => document.querySelector('.newsletter [role="status"]').textContent === '', null, {
        timeout: 8000,
      });
    }
    await context.close();
  });
}

test('drawers: each is a modal dialog (account and menu never show together), Escape closes, cart locks scrolling', async () => {
  const context = await newContext(['privacyVerification=1'], { viewport: { width: 400, height: 800 } });
  const page = await context.newPage();
  const closed = () => page.waitForFunction(() => document.querySelectorAll('details.drawer[open]').length === 0);
  await page.goto(`${store.base}/faqs`);
  await hydrated(page);
  await page.locator('summary', { hasText: 'My Account' }).click();
  await page.getByRole('link', { name: 'Create Account' }).waitFor();
  // Shown as a modal on the toggle event, which comes after the click.
  await page.locator('details.drawer[open] dialog:modal').waitFor();
  // The open drawer is modal: the page behind it, the menu's summary with it, takes no focus.
  await page.locator('summary[aria-label="Menu"]').focus();
  assert.ok(await page.evaluate(() => !!document.activeElement?.closest('dialog:modal')), 'focus stays in the account drawer');
  await page.keyboard.press('Escape');
  await closed();
  await page.locator('summary[aria-label="Menu"]').click();
  await page.waitForFunction(() => document.querySelectorAll('details.drawer[open]').length === 1);
  assert.ok(await page.locator('details.drawer-left').evaluate((d) => d.open), 'the menu is the open one');
  await page.getByRole('link', { name: 'Buy Beers' }).waitFor();
  await page.locator('details.drawer-left dialog:modal').waitFor();
  await page.keyboard.press('Escape');
  await closed();
  await page.getByLabel('Open cart summary').click();
  await page.getByRole('link', { name: 'View Shopping Cart' }).waitFor();
  // The toggle event comes after the click: wait for its effect.
  await page.waitForFunction(() => document.body.classList.contains('no-scroll'));
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.body.classList.contains('no-scroll'));
  assert.equal(await page.locator('details.drawer[open]').count(), 0);
  await context.close();
});

test('axe finds no violations on home, /buy-beer, a product, the gates and an information page', async () => {
  const targets = [
    ['/', 'privacyVerification=1; categoryGateId=1; locationGateBarangayId=1380300002'],
    ['/buy-beer', 'privacyVerification=1; categoryGateId=1; locationGateBarangayId=1380300002'],
    ['/single-product/tala-pale-pilsen-320ml', 'privacyVerification=1; categoryGateId=1; locationGateBarangayId=1380300002'],
    ['/buy-beer', ''],
    ['/buy-beer', 'privacyVerification=1'],
    ['/buy-beer', 'privacyVerification=1; categoryGateId=1'],
    ['/faqs', 'privacyVerification=1'],
  ];
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  for (const [path, cookie] of targets) {
    await context.clearCookies();
    await addCookies(context, cookie.split('; ').filter(Boolean));
    await page.goto(`${store.base}${path}`);
    await hydrated(page);
    const result = await axeViolations(page);
    assert.deepEqual(result, [], `${path} with cookies "${cookie}"`);
  }
  await context.close();
});

test('every shop-front route hydrates without console errors or hydration warnings', async () => {
  const context = await newContext(['privacyVerification=1', 'cookieAccepted=1', 'categoryGateId=1', 'locationGateBarangayId=1380300002']);
  const page = await context.newPage();
  const problems = watch(page);
  const routes = [
    ['/', 200],
    ['/?testdate=2025-05-06', 200],
    ['/buy-beer?filterByType=can', 200],
    ['/promos', 200],
    ['/whats-new', 200],
    ['/single-product/amihan-wheat-330ml', 200],
    ['/delivery-areas', 200],
    ['/how-to-order', 200],
    ['/faqs', 200],
    ['/privacy-policy', 200],
    ['/terms-and-conditions', 200],
    ['/about-us', 200],
    ['/contact-us', 200],
    ['/maintenance', 200],
    ['/atomic-design', 200],
    ['/buy-beer?gate=location', 200],
  ];
  for (const [path, status] of routes) {
    const res = await page.goto(`${store.base}${path}`);
    assert.equal(res.status(), status, path);
    await hydrated(page);
    assert.equal(await page.locator('h1').count() >= 1, true, path);
  }
  assert.deepEqual(problems, []);
  await context.close();
});
