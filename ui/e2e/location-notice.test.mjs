// The location notice flag, in Debian's Chromium: the product page's
// notice that some products are only sold in certain areas shows until the shopper puts it away;
// then the cookie `locationNotice` (2629746 s) keeps it away on every product page, with
// JavaScript on and off. Shoppers without the cookie still see it (pages are shared and cached).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, hydrated, newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const MAKATI = ['privacyVerification=1', 'cookieAccepted=1', 'categoryGateId=1', 'locationGateBarangayId=1380300002'];
const NOTICE = 'Some products are only available in certain areas.';
const PUT_AWAY = "Don't show this again";
const MAX_AGE = 2_629_746;

function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** The flag's cookie in the context, checked: value 1, for its max age (2629746 s), readable by JS. */
async function assertFlag(context, before) {
  const flag = (await context.cookies(store.base)).find((c) => c.name === 'locationNotice');
  assert.ok(flag, 'the flag is written');
  assert.equal(flag.value, '1');
  assert.equal(flag.path, '/');
  assert.equal(flag.sameSite, 'Lax');
  assert.equal(flag.httpOnly, false);
  const lives = flag.expires - before / 1000;
  assert.ok(Math.abs(lives - MAX_AGE) < 60, `lives ${lives} s, not ${MAX_AGE}`);
}

for (const js of [true, false]) {
  test(`JS ${js ? 'on' : 'off'}: the notice shows until put away, then stays away`, async () => {
    const context = await newContext(MAKATI, { javaScriptEnabled: js, bypassCSP: true });
    const page = await context.newPage();
    const problems = watch(page);
    const open = async (path) => {
      await page.goto(`${store.base}${path}`);
      if (js) await hydrated(page);
    };
    await open('/single-product/tala-light-330ml');
    await page.getByText(NOTICE).waitFor();
    assert.equal(await page.getByRole('link', { name: 'delivery areas', exact: true }).getAttribute('href'), '/delivery-areas');
    if (js) assert.deepEqual(await axeViolations(page), [], 'the notice');
    const before = Date.now();
    await page.getByRole('button', { name: PUT_AWAY }).click();
    if (js) {
      // Put away in place; focus goes to the product's name, not lost on the page.
      await page.getByText(NOTICE).waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'product-title');
    } else {
      // The form's answer brings the shopper back to the same product.
      await page.waitForURL(`${store.base}/single-product/tala-light-330ml`);
    }
    assert.equal(await page.getByText(NOTICE).count(), 0);
    await assertFlag(context, before);
    for (const path of ['/single-product/tala-light-330ml', '/single-product/tala-pale-pilsen-320ml']) {
      await open(path);
      assert.equal(await page.getByText(NOTICE).count(), 0, `${path}: stays away`);
      await page.getByRole('button', { name: 'Add to Cart' }).waitFor();
    }
    // Another shopper, without the flag, still sees it on the same (shared) page.
    const other = await newContext(MAKATI, { javaScriptEnabled: js });
    const theirs = await other.newPage();
    await theirs.goto(`${store.base}/single-product/tala-light-330ml`);
    await theirs.getByText(NOTICE).waitFor();
    await other.close();
    assert.deepEqual(problems, [], 'no console errors or hydration warnings');
    await context.close();
  });
}
