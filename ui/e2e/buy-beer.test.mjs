// /buy-beer in Debian's Chromium, with JavaScript off and on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addCookies, browser, newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

test('without JavaScript the product list shows names and prices', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const res = await page.goto(`${store.base}/buy-beer`);
  assert.equal(res.status(), 200);
  const list = page.locator('#browse-cont');
  await list.getByText('Tala Pale Pilsen 320 ml').waitFor();
  // The first page of the 26.
  assert.equal(await list.locator('li.card').count(), 24);
  assert.ok((await list.innerText()).includes('P52.00'));
  assert.ok((await list.innerText()).includes('P1,392.00'));
  const href = await list.getByRole('link', { name: 'Tala Pale Pilsen 320 ml' }).getAttribute('href');
  assert.equal(href, '/single-product/tala-pale-pilsen-320ml');
  // Crawlers get the list behind the gate; a shopper past the gates uses the filter links, which
  // work as plain links.
  await addCookies(context, ['privacyVerification=1', 'categoryGateId=1', 'locationGateBarangayId=1380300002']);
  await page.reload();
  await page.getByRole('link', { name: 'Kegs' }).click();
  await page.waitForURL(/filterByType=keg/);
  assert.equal(await page.locator('#browse-cont li.card').count(), 6);
  await context.close();
});

test('a barangay cookie narrows the list', async () => {
  const context = await newContext(['locationGateBarangayId=402103004'], { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${store.base}/buy-beer`);
  assert.equal(await page.locator('#browse-cont li.card').count(), 19);
  await context.close();
});

test('with JavaScript the page hydrates without console errors or hydration warnings', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const apiCalls = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url());
  });
  const res = await page.goto(`${store.base}/buy-beer`);
  assert.equal(res.status(), 200);
  await page.waitForSelector('html[data-hydrated="true"]');
  await page.waitForLoadState('networkidle');
  assert.equal(await page.locator('#browse-cont li.card').count(), 24);
  assert.deepEqual(problems, []);
  assert.deepEqual(apiCalls, [], 'no refetch of what the page already holds');
  await context.close();
});

test('an unknown path shows the not-found page with status 404', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const res = await page.goto(`${store.base}/nope`);
  assert.equal(res.status(), 404);
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  await context.close();
});
