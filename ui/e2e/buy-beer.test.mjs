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

test('without JavaScript the list sorts, filters and pages by its address', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${store.base}/buy-beer`);
  const list = page.locator('#browse-cont');
  await list.getByText('Showing 1–24 of 26 products').waitFor();
  await list.getByRole('link', { name: 'Next page' }).click();
  await page.waitForURL(/\/buy-beer\?page=2/);
  assert.equal(await list.locator('li.card').count(), 2);
  await list.getByText('Showing 25–26 of 26 products').waitFor();
  assert.equal(await list.getByRole('link', { name: 'Previous page' }).getAttribute('rel'), 'prev');
  // The form: a style and a sort, sent as a plain GET; the list starts again at page 1.
  await list.getByText('Sort and filter').click();
  await list.getByLabel('Style').selectOption('IPA');
  await list.getByLabel('Sort by').selectOption('price-desc');
  await list.getByRole('button', { name: 'Show products' }).click();
  await page.waitForURL(/style=IPA/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('sort'), 'price-desc');
  assert.equal(url.searchParams.get('page'), null);
  const names = await list.locator('li.card .card-name').allInnerTexts();
  assert.deepEqual(names.sort(), ['Bangkal IPA 330 ml', 'Bangkal IPA Can 330 ml', 'Bangkal IPA Keg 20 L']);
  assert.equal(await list.getByLabel('Style').inputValue(), 'IPA', 'the form shows what the list is');
  await list.getByRole('link', { name: 'Clear all' }).click();
  await page.waitForURL(/\/buy-beer#browse-cont$/);
  assert.equal(await list.locator('li.card').count(), 24);
  await context.close();
});

test('with JavaScript Load more adds the next page below without leaving', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${store.base}/buy-beer`);
  await page.waitForSelector('html[data-hydrated="true"]');
  const list = page.locator('#browse-cont');
  await list.getByRole('button', { name: 'Load more' }).click();
  await list.getByText('26 products').waitFor();
  assert.equal(await list.locator('li.card').count(), 26);
  assert.ok(page.url().endsWith('/buy-beer'), 'the page stayed');
  // Everything is shown: no more to load, no next page.
  assert.equal(await list.getByRole('button', { name: 'Load more' }).count(), 0);
  assert.equal(await list.getByRole('link', { name: 'Next page' }).count(), 0);
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
