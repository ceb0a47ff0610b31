// Phones, in Debian's Chromium at 360x740 and 390x740: the header keeps one
// line (the account's words give way to an icon with the same accessible name), nothing spills
// sideways, and a product's name, price and Add to Cart are on the first screen without
// scrolling, with JavaScript on and off; axe on the phone's product page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, hydrated, MAKATI_SHOPPER, newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const HEIGHT = 740;
const WIDTHS = [360, 390];
/** Bottles, delivered to Bel-Air, Makati: the place's names fill the top bar. */
const MAKATI = MAKATI_SHOPPER;
/** A bottle with the longest name and both pack options, a can, a keg: the tallest product pages. */
const PRODUCTS = ['tala-pale-pilsen-500ml', 'habagat-strong-lager-can-500ml', 'habagat-strong-lager-keg-30l'];

/**
 * The header row's visible items (menu, store name, account, cart, cart summary) as boxes, and
 * whether each keeps its words on one line, none reaching past the viewport.
 */
async function headerBoxes(page) {
  return page.evaluate(() => {
    const row = document.querySelector('.header-row');
    const items = [...row.querySelectorAll(':scope > details > summary, :scope > .brand, :scope > nav, .header-actions > details > summary, .header-actions > a')];
    return items
      .filter((e) => e.getClientRects().length > 0)
      .map((e) => {
        const r = e.getBoundingClientRect();
        return {
          name: e.getAttribute('aria-label') ?? e.textContent.trim(),
          left: r.left,
          right: r.right,
          top: r.top,
          bottom: r.bottom,
          // Words pushed out of their box (no room left) count as not fitting.
          overflows: e.scrollWidth > e.clientWidth + 1,
        };
      });
  });
}

function assertOneLine(boxes, width, where) {
  const names = boxes.map((b) => b.name);
  assert.ok(boxes.length >= 5, `${where}: header items ${names}`);
  for (const b of boxes) {
    assert.ok(b.bottom - b.top <= 48, `${where}: ${b.name} is one line high (${b.bottom - b.top}px)`);
    assert.ok(b.left >= 0 && b.right <= width, `${where}: ${b.name} within the ${width}px screen (${b.left}-${b.right})`);
    assert.ok(!b.overflows, `${where}: ${b.name} fits its box`);
  }
  // One line: every item shares a stretch of height with every other, and none overlaps the next.
  const top = Math.max(...boxes.map((b) => b.top));
  const bottom = Math.min(...boxes.map((b) => b.bottom));
  assert.ok(top < bottom, `${where}: items on one line ${JSON.stringify(boxes)}`);
  const byLeft = [...boxes].sort((a, b) => a.left - b.left);
  for (let i = 1; i < byLeft.length; i++) {
    assert.ok(byLeft[i].left >= byLeft[i - 1].right - 0.5, `${where}: ${byLeft[i - 1].name} and ${byLeft[i].name} overlap`);
  }
}

/** The page spills nothing sideways. */
async function assertNoSidewaysScroll(page, width, where) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `${where}: page is ${scrollWidth}px wide`);
}

async function phone(width, js, cookies = MAKATI) {
  const context = await newContext(cookies, { viewport: { width, height: HEIGHT }, javaScriptEnabled: js, bypassCSP: true });
  return { context, page: await context.newPage() };
}

async function open(page, js, path) {
  const res = await page.goto(`${store.base}${path}`);
  assert.equal(res.status(), 200, path);
  if (js) await hydrated(page);
}

for (const width of WIDTHS) {
  for (const js of [true, false]) {
    test(`${width}px, JS ${js ? 'on' : 'off'}: the header keeps one line on the shop's pages`, async () => {
      const { context, page } = await phone(width, js);
      for (const path of ['/', '/buy-beer', `/single-product/${PRODUCTS[0]}`, '/cart', '/faqs', '/delivery-areas']) {
        await open(page, js, path);
        assertOneLine(await headerBoxes(page), width, `${path} at ${width}px`);
        await assertNoSidewaysScroll(page, width, path);
      }
      // The icon keeps the words as its name; the menu, the cart and its summary have theirs.
      const account = page.locator('.header-actions details:not(.cart-drawer) > summary');
      assert.equal(await account.getAttribute('aria-label'), 'My Account');
      // (The menu's summary; its panel, a dialog, is named Menu too.)
      assert.equal(await page.locator('summary[aria-label="Menu"]').count(), 1);
      assert.equal(await page.getByLabel('Open cart summary').count(), 1);
      assert.match((await page.locator('a.cart-link').getAttribute('aria-label')) ?? '', /^Cart, \d+ items?$/);
      await context.close();
    });

    test(`${width}px, JS ${js ? 'on' : 'off'}: a product's name, price and Add to Cart are on the first screen`, async () => {
      const { context, page } = await phone(width, js);
      for (const slug of PRODUCTS) {
        await open(page, js, `/single-product/${slug}`);
        assert.equal(await page.evaluate(() => window.scrollY), 0);
        const parts = {
          name: page.getByRole('heading', { level: 1 }),
          price: page.locator('.product-price'),
          'Add to Cart': page.getByRole('button', { name: 'Add to Cart' }),
        };
        for (const [what, locator] of Object.entries(parts)) {
          const box = await locator.boundingBox();
          assert.ok(box, `${slug}: ${what} is shown`);
          assert.ok(
            box.y >= 0 && box.y + box.height <= HEIGHT && box.x >= 0 && box.x + box.width <= width,
            `${slug} at ${width}x${HEIGHT}: ${what} within the first screen (${JSON.stringify(box)})`,
          );
        }
        await assertNoSidewaysScroll(page, width, slug);
      }
      await context.close();
    });
  }
}

test('360px: a member with a cart keeps the header on one line (the first name stays the icon\'s name)', async () => {
  const { context, page } = await phone(360, true);
  const who = { first_name: 'Maximiliana', last_name: 'Dela Cruz', email: 'maxi.phone@example.com', mobile: '09171239001', birth_date: '1990-02-03', accept_terms: true };
  const json = (body, headers = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  assert.equal((await fetch(`${store.base}/api/v1/pre-register`, json(who))).status, 200);
  const token = new URL(await store.mailedLink(who.email, '/registration\\?token=')).searchParams.get('token');
  const reg = await fetch(`${store.base}/api/v1/registration`, json({ password: 'phone-beer-2026' }, { 'registration-token': token }));
  assert.equal(reg.status, 200, await reg.text());
  const headers = { Origin: store.base, 'Content-Type': 'application/json' };
  const login = await context.request.post(`${store.base}/api/v1/login`, { headers, data: { login: who.email, password: 'phone-beer-2026' } });
  assert.equal(login.status(), 200, await login.text());
  for (const product_id of [1, 2, 3]) {
    const res = await context.request.post(`${store.base}/api/v1/cart`, { headers, data: { product_id, quantity: 2, barangay: 1380300002 } });
    assert.equal(res.status(), 200, await res.text());
  }
  for (const path of ['/buy-beer', `/single-product/${PRODUCTS[0]}`, '/my-account']) {
    await open(page, true, path);
    assertOneLine(await headerBoxes(page), 360, `${path}, member`);
  }
  assert.equal(await page.locator('.header-actions details:not(.cart-drawer) > summary').getAttribute('aria-label'), 'My Account, Maximiliana');
  assert.equal(await page.locator('a.cart-link').getAttribute('aria-label'), 'Cart, 3 items');
  await context.close();
});

test('360px: axe finds no violations on the phone\'s product page and product list', async () => {
  const { context, page } = await phone(360, true);
  for (const path of [`/single-product/${PRODUCTS[0]}`, '/buy-beer']) {
    await open(page, true, path);
    assert.deepEqual(await axeViolations(page), [], path);
  }
  await context.close();
});
