// The product lists at size in Debian's Chromium: a store with 200 generated products besides the
// seed's, a Makati shopper past the gates (bottles). Without JavaScript the list sorts, filters and
// pages by its address (links and a GET form), and reaching the foot of a page (a list, home, a
// product) moves nothing on the screen; with it, Load more adds the next page in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAKATI_SHOPPER, newContext, noViolations, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser({ generatedProducts: 200 });

/** What is laid out only as it nears the screen (`content-visibility: auto`). */
const LATE = '.carousel:not(.banners), .site-footer';

/**
 * Each part of `page` laid out only as it nears the screen: the height it holds before (its
 * `contain-intrinsic-size` with padding and border) and its height once laid out (each scrolled
 * to and waited for until the browser lays it out).
 */
async function heldAndLaidOut(page) {
  const held = await page.$$eval(LATE, (els) =>
    els.map((e) => {
      const s = getComputedStyle(e);
      const px = (v) => Number.parseFloat(v) || 0;
      const edges = px(s.paddingTop) + px(s.paddingBottom) + px(s.borderTopWidth) + px(s.borderBottomWidth);
      const intrinsic = /(\d+(\.\d+)?)px/.exec(s.containIntrinsicHeight)?.[1];
      return { name: e.className, visibility: s.contentVisibility, intrinsic, held: px(intrinsic) + edges };
    }),
  );
  const parts = await page.locator(LATE).all();
  for (const [i, part] of parts.entries()) {
    await part.scrollIntoViewIfNeeded();
    await page.waitForFunction(([sel, at]) => document.querySelectorAll(sel)[at].checkVisibility({ contentVisibilityAuto: true }), [LATE, i], { polling: 50 });
  }
  const laidOut = await page.$$eval(LATE, (els) => els.map((e) => e.getBoundingClientRect().height));
  return held.map((h, i) => ({ ...h, laidOut: laidOut[i] }));
}

const count = async (list) => Number(/of (\d+) products/.exec(await list.locator('p.count').innerText())?.[1]);

test('without JavaScript the list sorts, filters and pages by its address', async () => {
  const context = await newContext(MAKATI_SHOPPER, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${store.base}/buy-beer`);
  const list = page.locator('#browse-cont');
  await list.getByText(/Showing 1–24 of \d+ products/).waitFor();
  const total = await count(list);
  assert.ok(total > 48, `more than two pages of bottles: ${total}`);
  await list.getByRole('link', { name: 'Next page' }).click();
  await page.waitForURL(/\/buy-beer\?page=2/);
  await list.getByText(`Showing 25–48 of ${total} products`).waitFor();
  assert.equal(await list.locator('li.card').count(), 24);
  assert.equal(await list.getByRole('link', { name: 'Previous page' }).getAttribute('rel'), 'prev');
  assert.equal(await list.getByRole('link', { name: 'Next page' }).getAttribute('rel'), 'next');
  const canonical = await page.locator('link[rel=canonical]').getAttribute('href');
  assert.ok(canonical.endsWith('/buy-beer?page=2'), canonical);
  // The form: a style and a sort, sent as a plain GET; the list starts again at page 1.
  await list.getByText('Sort and filter').click();
  await list.getByLabel('Style').selectOption('Stout');
  await list.getByLabel('Sort by').selectOption('price-desc');
  await list.getByRole('button', { name: 'Show products' }).click();
  await page.waitForURL(/style=Stout/);
  const url = new URL(page.url());
  // The form sends every field; the server sends it on to the list's one address.
  assert.equal(url.search, '?sort=price-desc&style=Stout', 'no empty or default field in the address');
  assert.equal(url.searchParams.get('sort'), 'price-desc');
  assert.equal(url.searchParams.get('page'), null);
  const prices = await list.locator('li.card .card-price').allInnerTexts();
  const pesos = prices.map((p) => Number(p.replace(/[^\d.]/g, '')));
  assert.ok(pesos.length > 0 && pesos.every((p, i) => i === 0 || pesos[i - 1] >= p), prices.join(' '));
  for (const name of await list.locator('li.card .card-name').allInnerTexts()) assert.match(name, /Stout/);
  assert.equal(await list.getByLabel('Style').inputValue(), 'Stout', 'the form shows what the list is');
  await noViolations(page, false, 'a filtered list');
  // Nothing matches: said, with the way back.
  await page.goto(`${url.origin}/buy-beer?style=Stout&min=999999`);
  await list.getByText('No products match these filters.').waitFor();
  await list.getByRole('link', { name: 'show all products' }).click();
  await page.waitForURL(/\/buy-beer#browse-cont$/);
  await list.getByText(`Showing 1–24 of ${total} products`).waitFor();
  // What's New shows the newest few and leads to all of them, newest first.
  await page.goto(`${url.origin}/whats-new`);
  await page.getByRole('link', { name: 'See all our beers, newest first' }).click();
  await page.waitForURL(/\/buy-beer\?sort=newest$/);
  assert.equal(await list.getByLabel('Sort by').inputValue(), 'newest');
  await context.close();
});

test('reaching the foot of a page moves nothing on the screen: what is laid out late only grows', async () => {
  // The footer once held 440 px and was 316 px laid out: with a long list scrolled to its end it
  // shrank, the page's end came up and everything on the screen dropped by 124 px, and a press on
  // Next page landed on the cards' gap above it (no navigation, the test above timed out).
  for (const width of [360, 520, 640, 768, 1280, 1920]) {
    const context = await newContext(MAKATI_SHOPPER, { javaScriptEnabled: false, viewport: { width, height: 720 } });
    const page = await context.newPage();
    for (const path of ['/', '/buy-beer', '/single-product/tala-pale-pilsen-500ml']) {
      await page.goto(`${store.base}${path}`);
      const parts = await heldAndLaidOut(page);
      assert.ok(parts.some((p) => p.name.includes('site-footer')), `${path} has its footer`);
      for (const p of parts) {
        assert.equal(p.visibility, 'auto', `${width} px ${path}: ${p.name} is laid out late`);
        assert.ok(p.intrinsic, `${width} px ${path}: ${p.name} holds a height in px`);
        assert.ok(p.held > 0 && p.held <= p.laidOut, `${width} px ${path}: ${p.name} held ${p.held} px, laid out ${p.laidOut} px`);
      }
    }
    await context.close();
  }
});

test('with JavaScript Load more adds the next page below without leaving', async () => {
  const context = await newContext(MAKATI_SHOPPER, { bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${store.base}/buy-beer?sort=name`);
  await page.waitForSelector('html[data-hydrated="true"]');
  const list = page.locator('#browse-cont');
  const total = await count(list);
  await list.getByRole('button', { name: 'Load more' }).click();
  await list.getByText(`Showing 1–48 of ${total} products`).waitFor();
  assert.equal(await list.locator('li.card').count(), 48);
  assert.ok(page.url().endsWith('/buy-beer?sort=name'), 'the page stayed');
  // Focus moved to the first product added, where a keyboard user reads on.
  assert.equal(
    await page.evaluate(() => [...document.querySelectorAll('#browse-cont li.card a.card-link')].indexOf(document.activeElement)),
    24,
    'focus on the 25th product',
  );
  const names = await list.locator('li.card .card-name').allInnerTexts();
  const key = (n) => n.toLowerCase();
  assert.deepEqual([...names].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)), names, 'still by name across the pages');
  assert.equal(new Set(names).size, 48, 'no product twice');
  // The next page's link follows what is shown.
  assert.ok((await list.getByRole('link', { name: 'Next page' }).getAttribute('href')).includes('page=3'));
  await noViolations(page, true, 'a list with more loaded');
  await context.close();
});
