// Addresses a careless link or an attacker makes: the shopper always gets a helpful page, never a
// blank one, with JavaScript on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

async function visit(path) {
  const context = await newContext(['privacyVerification=1', 'categoryGateId=1', 'locationGateBarangayId=1380300002']);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const res = await page.goto(`${store.base}${path}`);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  const h1 = await page.locator('h1').first().innerText();
  const text = await page.locator('#root').innerText();
  await context.close();
  return { status: res.status(), url: res.url(), h1, text, errors };
}

for (const [path, heading] of [
  ['/?%', 'BEST SELLERS'],
  ['/?%zz=1', 'BEST SELLERS'],
  ['/about-us?%C0', 'About'],
  ['/buy-beer?filterByType=%ff', 'Buy Beer'],
]) {
  test(`${path} renders its page and hydrates without errors`, async () => {
    const r = await visit(path);
    assert.equal(r.status, 200);
    assert.ok(r.text.includes(heading), `${path}: ${r.text.slice(0, 200)}`);
    assert.deepEqual(r.errors, []);
  });
}

test('a broken product link lands on the product list', async () => {
  const r = await visit('/single-product/%E0%A4%A');
  assert.ok(r.url.endsWith('/buy-beer'), r.url);
  assert.equal(r.h1, 'Buy Beer');
  const unknown = await visit('/single-product/no-such-beer');
  assert.equal(unknown.h1, 'Buy Beer');
});

test('an unknown address shows the not-found page with a way on', async () => {
  const r = await visit('/no/such/page?%');
  assert.equal(r.status, 404);
  assert.equal(r.h1, 'Page not found');
  assert.ok(r.text.includes('Browse our beers'));
  // The browser reports the page's own 404 status; nothing else may fail.
  assert.deepEqual(
    r.errors.filter((e) => !e.includes('status of 404')),
    [],
  );
});
