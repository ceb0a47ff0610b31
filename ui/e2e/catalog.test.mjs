// The catalog page in Debian's Chromium, with JavaScript on and off: a manager uploads a photo of
// a keg (fixtures/bottle-400x300.jpg, drawn by crates/media's tests), a shopper's product page and
// list show it at the size they need (WebP, from /media/), a renamed text file is refused beside
// its product, and the photo is taken away again; the same for a home page banner; axe finds
// nothing on the pages.
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

for (const b of [
  { js: true, id: 1, title: 'Tala Pale Pilsen: the taste of a clear night' },
  { js: false, id: 3, title: 'Amihan Wheat: brewed for cool evenings' },
]) {
  test(`a manager gives a banner a photo and the home page shows it, JavaScript ${b.js ? 'on' : 'off'}`, async () => {
    const { context, page, ready } = await staffSignedIn(`bano-${b.js ? 'js' : 'nojs'}@tala.example`, 'manager', 'Bano Cruz', 'bano-hangs-the-banners-3', b.js);
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => d.accept());
    const section = () => page.locator(`#banner-${b.id}`);
    try {
      await page.goto(`${store.base}/staff/catalog/banners`);
      await ready();
      // A renamed text file: refused beside this banner, nothing kept.
      await section().getByLabel(`Photo of ${b.title}`).setInputFiles({ name: 'banner.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo') });
      await section().getByRole('button', { name: /Upload Photo/ }).click();
      await section().getByText('This file is not a photo: upload a JPEG, PNG or WebP image.').waitFor();
      await ready();
      await section().getByLabel(`Photo of ${b.title}`).setInputFiles(PHOTO);
      await section().getByRole('button', { name: /Upload Photo/ }).click();
      await page.waitForURL(new RegExp(`/staff/catalog/banners\\?done=photo#banner-${b.id}$`));
      await page.getByText('The photo is saved: the home page shows it within a second.').waitFor();
      await section().getByText('Photo, 400 x 300 px, on every screen.').waitFor();
      await ready();
      await noViolations(page, b.js, 'banners with a photo');

      // A shopper's home page on a phone shows the photo (WebP, from /media/) within a second.
      const shopper = await newContext(MAKATI_SHOPPER, { javaScriptEnabled: b.js, viewport: { width: 360, height: 740 } });
      try {
        const phone = await shopper.newPage();
        const photo = phone.locator(`.banners picture img[alt="${b.title}"]`);
        const until = Date.now() + 5000;
        for (;;) {
          await phone.goto(`${store.base}/`);
          if ((await photo.count()) > 0 || Date.now() > until) break;
          await phone.waitForTimeout(250);
        }
        assert.equal(await photo.getAttribute('width'), '400');
        assert.equal(await photo.getAttribute('height'), '300');
        assert.match(await phone.locator(`.banners li:has(img[alt="${b.title}"]) source`).getAttribute('srcset'), /\/media\/[0-9a-f]{32}-320\.webp 320w/);
      } finally {
        await shopper.close();
      }

      // Taken away: its images again.
      await section().getByRole('button', { name: /Remove Photo/ }).click();
      await page.waitForURL(new RegExp(`/staff/catalog/banners\\?done=removed#banner-${b.id}$`));
      await page.getByText('The photo is taken away: the home page shows the images again.').waitFor();
      await section().getByText(/No photo: the images above show/).waitFor();

      // A new banner, scheduled, with its photo: refused without a title, then added.
      const add = () => page.locator('#banner-add');
      const title = `Rainy days, JavaScript ${b.js ? 'on' : 'off'}`;
      await add().getByLabel('First day shown').fill('2099-06-01');
      await add().getByLabel('Photo', { exact: true }).setInputFiles(PHOTO);
      await add().getByRole('button', { name: 'Add Banner' }).click();
      await add().getByText(/The title/).first().waitFor();
      assert.equal(await add().getByLabel('First day shown').inputValue(), '2099-06-01', 'what was typed is kept');
      await ready();
      await add().getByLabel('Title').fill(title);
      await add().getByLabel('Photo', { exact: true }).setInputFiles(PHOTO);
      await add().getByRole('button', { name: 'Add Banner' }).click();
      await page.waitForURL(/\/staff\/catalog\/banners\?done=added#banner-\d+$/);
      await page.getByText('Added: the home page shows it within a second, on its days.').waitFor();
      await page.getByRole('heading', { name: title }).waitFor();
      await noViolations(page, b.js, 'banners with a new one');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}
