// The catalog page in Debian's Chromium, with JavaScript on and off: a manager uploads a photo of
// a keg (fixtures/bottle-400x300.jpg, drawn by crates/media's tests), a shopper's product page and
// list show it at the size they need (WebP, from /media/), a renamed text file is refused beside
// its product, and the photo is taken away again; axe finds nothing on the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { MAKATI_SHOPPER, hydrated, newContext, noViolations, staffSignedIn, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const PHOTO = fileURLToPath(new URL('./fixtures/bottle-400x300.jpg', import.meta.url));
const KEG = 'Tala Pale Pilsen Keg 30 L';

for (const js of [true, false]) {
  test(`a manager gives a keg a photo and a shopper sees it, JavaScript ${js ? 'on' : 'off'}`, async () => {
    const { context, page, ready } = await staffSignedIn(`cata-${js ? 'js' : 'nojs'}@tala.example`, 'manager', 'Cata Lim', 'cata-keeps-the-catalog-7', js);
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => d.accept());
    try {
      await page.getByRole('link', { name: 'Catalog' }).click();
      await page.waitForURL(/\/staff\/catalog$/);
      await ready();
      await noViolations(page, js, 'catalog');
      const row = page.getByRole('row', { name: new RegExp(KEG) });
      // A renamed text file first: refused beside the keg, nothing kept.
      await row.getByLabel(`Photo of ${KEG}`).setInputFiles({ name: 'keg.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('SKU,price\nTBC-KEG-021,725000\n') });
      await row.getByRole('button', { name: 'Upload Photo' }).click();
      await page.getByRole('row', { name: new RegExp(KEG) }).getByText('This file is not a photo: upload a JPEG, PNG or WebP image.').waitFor();
      await ready();
      await page.getByRole('row', { name: new RegExp(KEG) }).getByLabel(`Photo of ${KEG}`).setInputFiles(PHOTO);
      await page.getByRole('row', { name: new RegExp(KEG) }).getByRole('button', { name: 'Upload Photo' }).click();
      await page.waitForURL(/\/staff\/catalog\?done=photo#product-TBC-KEG-021$/);
      await page.getByText('The photo is saved').waitFor();
      await page.getByRole('row', { name: new RegExp(KEG) }).getByText('Photo, 400 x 300 px').waitFor();
      await ready();
      await noViolations(page, js, 'catalog with a photo');

      // A shopper in Makati on a 360 px phone: the card's photo is the 320 px WebP.
      const shopper = await newContext(MAKATI_SHOPPER, { javaScriptEnabled: js, viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });
      try {
        const phone = await shopper.newPage();
        const media = [];
        phone.on('response', (r) => {
          if (r.url().includes('/media/')) media.push({ url: r.url(), type: r.headers()['content-type'], bytes: Number(r.headers()['content-length']) });
        });
        await phone.goto(`${store.base}/buy-beer?filterByType=keg`);
        if (js) await hydrated(phone);
        const card = phone.locator('picture img').first();
        await card.scrollIntoViewIfNeeded();
        await phone.waitForFunction(() => {
          const img = document.querySelector('picture img');
          return img && img.complete && img.naturalWidth > 0;
        });
        assert.match(await card.evaluate((img) => img.currentSrc), /\/media\/[0-9a-f]{32}-320\.webp$/);
        const fetched = media.find((m) => m.url.endsWith('-320.webp'));
        assert.ok(fetched && fetched.type === 'image/webp' && fetched.bytes < 40 * 1024, JSON.stringify(media));
        await phone.goto(`${store.base}/single-product/tala-pale-pilsen-keg-30l`);
        await phone.locator('.product-media picture img').waitFor();
        assert.equal(await phone.locator('meta[property="og:image"]').getAttribute('content'), `${store.base}/media/${fetched.url.match(/[0-9a-f]{32}/)[0]}-400.jpg`);
      } finally {
        await shopper.close();
      }

      // Taken away: the drawing again.
      await page.getByRole('row', { name: new RegExp(KEG) }).getByRole('button', { name: 'Remove Photo' }).click();
      await page.waitForURL(/\/staff\/catalog\?done=removed#product-TBC-KEG-021$/);
      await page.getByText('The photo is taken away').waitFor();
      await page.getByRole('row', { name: new RegExp(KEG) }).getByText('Drawing').waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}
