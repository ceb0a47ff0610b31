// The catalog's forms in Debian's Chromium, with JavaScript on and off: a manager changes a keg's
// price, takes it out of stock and sells it in two more cities, and a shopper's product page shows
// it; then ticks a product and a city in the catalog, sees the change on a page of its own and
// saves it; a tab opened before a save cannot overwrite it. axe finds nothing on the pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAKATI_SHOPPER, hydrated, newContext, noViolations, staffSignedIn, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const CASES = [
  { js: true, keg: 'Tala Pale Pilsen Keg 20 L', id: 22, slug: 'tala-pale-pilsen-keg-20l', city: 'Caloocan City', code: 1380100000 },
  { js: false, keg: 'Habagat Strong Lager Keg 30 L', id: 23, slug: 'habagat-strong-lager-keg-30l', city: 'Las Piñas City', code: 1380200000 },
];
const IPA = 'Bangkal Double IPA Can 473 ml';

for (const c of CASES) {
  test(`a manager changes a keg and the cities of a product, JavaScript ${c.js ? 'on' : 'off'}`, async () => {
    const { context, page, ready } = await staffSignedIn(`forms-${c.js ? 'js' : 'nojs'}@tala.example`, 'manager', 'Fe Cruz', 'fe-keeps-the-prices-42', c.js);
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    try {
      await page.getByRole('link', { name: 'Catalog' }).click();
      await page.waitForURL(/\/staff\/catalog$/);
      await ready();
      await page.getByRole('link', { name: c.keg }).click();
      await page.waitForURL(new RegExp(`/staff/catalog/products/${c.id}$`));
      await ready();
      await noViolations(page, c.js, 'a product');
      // A price too high first: refused by the price, nothing saved, what was typed kept.
      await page.getByLabel('Price per unit (pesos)').fill('2,000,000');
      await page.getByRole('button', { name: 'Save Product' }).click();
      await page.getByText('The price must be at most P1,000,000.00').waitFor();
      await ready();
      assert.equal(await page.getByLabel('Price per unit (pesos)').inputValue(), '2,000,000');
      // The same product opened in another tab before the save below.
      const stale = await context.newPage();
      await stale.goto(`${store.base}/staff/catalog/products/${c.id}`);
      if (c.js) await hydrated(stale);
      await page.getByLabel('Price per unit (pesos)').fill('5,350');
      await page.getByLabel('Out of stock').check();
      await page.getByLabel('Bacoor City').check();
      await page.getByLabel('Malolos City').check();
      await page.getByRole('button', { name: 'Save Product' }).click();
      await page.waitForURL(/done=saved$/);
      await page.getByText('Saved: the shop shows it within a second.').waitFor();
      await ready();
      assert.equal(await page.getByLabel('Price per unit (pesos)').inputValue(), 'P5,350.00');
      assert.ok(await page.getByLabel('Bacoor City').isChecked());
      // The tab opened before that save cannot overwrite it: it is told, and nothing is saved.
      await stale.getByLabel('Price per unit (pesos)').fill('4,000');
      await stale.getByRole('button', { name: 'Save Product' }).click();
      await stale.getByRole('alert').getByText('Someone else changed this since you opened the page').waitFor();
      assert.equal(await stale.getByLabel('Price per unit (pesos)').inputValue(), '4,000');
      await stale.goto(`${store.base}/staff/catalog/products/${c.id}`);
      assert.equal(await stale.getByLabel('Price per unit (pesos)').inputValue(), 'P5,350.00');
      await stale.close();

      // A shopper's page shows it within a second.
      const shopper = await newContext(MAKATI_SHOPPER, { javaScriptEnabled: c.js });
      try {
        const shop = await shopper.newPage();
        await shop.goto(`${store.base}/single-product/${c.slug}`);
        if (c.js) await hydrated(shop);
        await shop.getByRole('button', { name: 'Out Of Stock' }).waitFor();
        assert.match(await shop.locator('main').innerText(), /5,350\.00/);
      } finally {
        await shopper.close();
      }

      // A product and a city ticked in the catalog: the change shown, then saved.
      await page.getByRole('link', { name: 'Back to the catalog' }).click();
      await page.waitForURL(/\/staff\/catalog#product-/);
      await ready();
      await page.getByLabel(`Choose ${IPA}`).check();
      await page.locator('#cities').getByLabel(c.city).check();
      await page.getByRole('button', { name: 'Show the Changes' }).click();
      await page.waitForURL(new RegExp(`/staff/catalog/cities\\?products=17&cities=${c.code}&how=add$`));
      await ready();
      await page.getByRole('table', { name: 'What will change when you save' }).getByText('bangkal-double-ipa-can-473ml').waitFor();
      await noViolations(page, c.js, 'the changes of cities');
      await page.getByRole('button', { name: 'Save These Changes' }).click();
      await page.waitForURL(/\/staff\/catalog\?done=cities$/);
      await page.getByText('Saved: the shop shows the products in their cities within a second.').waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

for (const js of [true, false]) {
  test(`a manager exports, checks and imports the catalog file, JavaScript ${js ? 'on' : 'off'}`, async () => {
    const { context, page, ready } = await staffSignedIn(`file-${js ? 'js' : 'nojs'}@tala.example`, 'manager', 'Gil Tan', 'gil-imports-the-file-42', js);
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    try {
      await page.goto(`${store.base}/staff/catalog`);
      await ready();
      await page.getByRole('link', { name: 'Export or import the catalog file' }).click();
      await page.waitForURL(/\/staff\/catalog\/import$/);
      await ready();
      await noViolations(page, js, 'the catalog file');
      const exported = await page.request.get(`${store.base}/staff/catalog/export`);
      assert.equal(exported.status(), 200);
      assert.match(exported.headers()['content-disposition'], /^attachment; filename="catalog-\d{4}-\d{2}-\d{2}\.json"$/);
      const file = await exported.json();
      const slug = js ? 'tala-dark-lager-330ml' : 'habagat-strong-lager-330ml';
      const product = file.products.find((p) => p.slug === slug);
      // A bad file first: every problem listed, nothing changed.
      product.price = -1;
      await page.getByLabel('Catalog file (JSON)').setInputFiles({ name: 'catalog.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
      await page.getByRole('button', { name: 'Check the File' }).click();
      await page.getByText(`(slug ${slug}): price must be a whole number of centavos`).waitFor();
      await ready();
      product.price = 9900;
      await page.getByLabel('Catalog file (JSON)').setInputFiles({ name: 'catalog.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
      await page.getByRole('button', { name: 'Check the File' }).click();
      await page.waitForURL(/\/staff\/catalog\/import\/[A-Za-z0-9_-]{43}$/);
      await ready();
      const table = page.getByRole('table', { name: 'What will change when you apply the file' });
      await table.getByText(slug).waitFor();
      await table.getByText('P99.00').waitFor();
      await noViolations(page, js, 'a catalog file checked');
      await page.getByRole('button', { name: 'Apply These Changes' }).click();
      await page.waitForURL(/\/staff\/catalog\?done=imported$/);
      await page.getByText('Imported: the shop shows the catalog file within a second.').waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

const BANNERS = [
  { js: true, id: 3, title: 'Amihan Wheat: brewed for cool evenings', starts: '2031-01-05', ends: '2031-01-09' },
  { js: false, id: 2, title: 'Draft beer in kegs, delivered across Metro Manila', starts: '2031-02-05', ends: '2031-02-09' },
];

for (const b of BANNERS) {
  test(`a manager schedules a banner and the home page shows it on its days, JavaScript ${b.js ? 'on' : 'off'}`, async () => {
    const { context, page, ready } = await staffSignedIn(`banner-${b.js ? 'js' : 'nojs'}@tala.example`, 'manager', 'Ina Go', 'ina-schedules-banners-42', b.js);
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    try {
      await page.goto(`${store.base}/staff/catalog`);
      await ready();
      await page.getByRole('link', { name: 'Banners and their days' }).click();
      await page.waitForURL(/\/staff\/catalog\/banners$/);
      await ready();
      await noViolations(page, b.js, 'the banners');
      const form = page.locator(`#banner-${b.id}`);
      // The last day before the first: refused by the last day.
      await form.getByLabel('First day shown').fill(b.ends);
      await form.getByLabel('Last day shown').fill(b.starts);
      await form.getByRole('button', { name: /Save Banner/ }).click();
      await page.locator(`#banner-${b.id}`).getByText(`The last day ${b.starts} is before the first day ${b.ends}`).waitFor();
      await ready();
      await page.locator(`#banner-${b.id}`).getByLabel('First day shown').fill(b.starts);
      await page.locator(`#banner-${b.id}`).getByLabel('Last day shown').fill(b.ends);
      await page.locator(`#banner-${b.id}`).getByRole('button', { name: /Save Banner/ }).click();
      await page.waitForURL(new RegExp(`/staff/catalog/banners\\?done=saved#banner-${b.id}$`));
      await page.getByText('Saved: the home page shows it within a second, on its days.').waitFor();
      await page.locator(`#banner-${b.id}`).getByText(`${b.starts} to ${b.ends} · Not shown today`).waitFor();

      const shopper = await newContext(MAKATI_SHOPPER, { javaScriptEnabled: b.js });
      try {
        const home = await shopper.newPage();
        const banner = home.locator(`.banners img[alt="${b.title}"]`);
        // Within a second on every app server: a page kept before the change may be served
        // until the store's watch sees the data version move.
        const gone = Date.now() + 3000;
        for (;;) {
          await home.goto(`${store.base}/`);
          if (b.js) await hydrated(home);
          if ((await banner.count()) === 0 || Date.now() > gone) break;
          await home.waitForTimeout(250);
        }
        assert.equal(await banner.count(), 0, 'not shown before its first day');
        await home.goto(`${store.base}/?testdate=${b.starts}`);
        if (b.js) await hydrated(home);
        assert.equal(await banner.count(), 1, 'shown on its first day');
      } finally {
        await shopper.close();
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

const CHARGES = [
  { js: true, deposit: 6, name: 'Keg deposit (20 L)', fee: [1380300000, 2], city: 'Makati City', amount: '45' },
  { js: false, deposit: 7, name: 'Keg deposit (20 L)', fee: [1380600000, 2], city: 'Manila City', amount: '55' },
];

for (const c of CHARGES) {
  test(`a manager sets a deposit and a city's pickup fee, JavaScript ${c.js ? 'on' : 'off'}`, async () => {
    const { context, page, ready } = await staffSignedIn(`charges-${c.js ? 'js' : 'nojs'}@tala.example`, 'manager', 'Lou Sy', 'lou-sets-the-fees-42', c.js);
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    try {
      await page.goto(`${store.base}/staff/catalog`);
      await ready();
      await page.getByRole('link', { name: 'Deposits and delivery fees' }).click();
      await page.waitForURL(/\/staff\/catalog\/charges$/);
      await ready();
      await noViolations(page, c.js, 'the deposits and fees');
      const deposit = page.locator(`#deposit-${c.deposit}`);
      // No amount: refused by the amount of this deposit, what was typed kept.
      await deposit.getByLabel('Amount a case (pesos)').fill('lots');
      await deposit.getByRole('button', { name: /Save Deposit/ }).click();
      await page.locator(`#deposit-${c.deposit}`).getByText('Give the deposit in pesos').waitFor();
      await ready();
      assert.equal(await page.locator(`#deposit-${c.deposit}`).getByLabel('Amount a case (pesos)').inputValue(), 'lots');
      await page.locator(`#deposit-${c.deposit}`).getByLabel('Amount a case (pesos)').fill('2,600');
      await page.locator(`#deposit-${c.deposit}`).getByRole('button', { name: /Save Deposit/ }).click();
      await page.waitForURL(new RegExp(`/staff/catalog/charges\\?done=saved#deposit-${c.deposit}$`));
      await page.getByText('Saved: every cart and checkout charges it within a second.').waitFor();
      await ready();
      assert.equal(await page.locator(`#deposit-${c.deposit}`).getByLabel('Amount a case (pesos)').inputValue(), 'P2,600.00');

      // Pickup in the city had no fee (free): one is set.
      const fees = page.locator(`#fees-${c.fee[0]}`);
      await fees.getByText(`No fee set: pickup in ${c.city} is free.`).waitFor();
      await fees.getByLabel('Pickup (pesos)').fill(c.amount);
      await fees.getByRole('button', { name: new RegExp(`Save Fee.*Pickup fee in ${c.city}`) }).click();
      await page.waitForURL(new RegExp(`/staff/catalog/charges\\?done=saved#fees-${c.fee[0]}$`));
      // The answer's address differs from the page's only in its #part: the hash is set first and
      // the page reloaded after, so the page that says the fee is set is waited for.
      await page.locator(`#fees-${c.fee[0]}`).getByText('No fee set').waitFor({ state: 'detached' });
      await ready();
      assert.equal(await page.locator(`#fees-${c.fee[0]}`).getByLabel('Pickup (pesos)').inputValue(), `P${c.amount}.00`);
      const charges = await (await context.request.get(`${store.base}/api/v1/staff/catalog/charges`)).json();
      const fee = charges.fees.find((f) => f.city_id === c.fee[0] && f.fulfillment_id === c.fee[1]);
      assert.equal(fee.amount, Number(c.amount) * 100);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

for (const js of [true, false]) {
  test(`a manager moves a promo to other days, JavaScript ${js ? 'on' : 'off'}`, async () => {
    const { context, page, ready } = await staffSignedIn(`promo-${js ? 'js' : 'nojs'}@tala.example`, 'manager', 'Mae Lim', 'mae-moves-the-promos-42', js);
    const id = js ? 3 : 4;
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    try {
      await page.goto(`${store.base}/staff/catalog`);
      await ready();
      await page.getByRole('link', { name: 'Promos and their days' }).click();
      await page.waitForURL(/\/staff\/catalog\/promos$/);
      await ready();
      await noViolations(page, js, 'the promos');
      const form = () => page.locator(`#promo-${id}`);
      await form().getByLabel('First day shown').fill('2032-05-31');
      await form().getByLabel('Last day shown').fill('2032-05-01');
      await form().getByRole('button', { name: /Save Promo/ }).click();
      await form().getByText('The last day 2032-05-01 is before the first day 2032-05-31').waitFor();
      await ready();
      await form().getByLabel('First day shown').fill('2032-05-01');
      await form().getByLabel('Last day shown').fill('2032-05-31');
      await form().getByLabel('What its product’s page says').fill('Two lines.\nFor May.');
      await form().getByRole('button', { name: /Save Promo/ }).click();
      await page.waitForURL(new RegExp(`/staff/catalog/promos\\?done=saved#promo-${id}$`));
      await page.getByText('Saved: its product’s page shows it within a second, on its days.').waitFor();
      await form().getByText('2032-05-01 to 2032-05-31 · Not shown today').waitFor();
      assert.equal(await form().getByLabel('What its product’s page says').inputValue(), 'Two lines.\nFor May.');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

for (const js of [true, false]) {
  test(`a manager closes the store for maintenance and opens it again, JavaScript ${js ? 'on' : 'off'}`, async () => {
    const { context, page, ready } = await staffSignedIn(`switch-${js ? 'js' : 'nojs'}@tala.example`, 'manager', 'Noel Uy', 'noel-closes-the-store-42', js);
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    // Closing asks first (with JavaScript): the manager agrees.
    page.on('dialog', (d) => d.accept());
    const shopper = await newContext(MAKATI_SHOPPER, { javaScriptEnabled: js });
    const shopStatus = async () => (await shopper.request.get(`${store.base}/buy-beer`)).status();
    const until = async (status) => {
      const gone = Date.now() + 5000;
      while ((await shopStatus()) !== status && Date.now() < gone) await page.waitForTimeout(200);
      assert.equal(await shopStatus(), status);
    };
    try {
      await page.getByRole('link', { name: 'Maintenance' }).click();
      await page.waitForURL(/\/staff\/maintenance$/);
      await ready();
      await noViolations(page, js, 'the maintenance switch');
      await page.getByRole('heading', { name: 'The store is open' }).waitFor();
      await page.getByRole('button', { name: 'Close the Store for Maintenance' }).click();
      await page.waitForURL(/\/staff\/maintenance\?done=true$/);
      await page.getByText('Closed: shoppers see the maintenance page within a second.').waitFor();
      await until(503);
      const shop = await shopper.newPage();
      await shop.goto(`${store.base}/buy-beer`);
      await shop.getByText('Brewing Something For You').first().waitFor();
      // The back office stays open.
      await ready();
      await page.getByRole('heading', { name: 'The store is closed for maintenance' }).waitFor();
      await page.getByRole('button', { name: 'Open the Store Again' }).click();
      await page.waitForURL(/\/staff\/maintenance\?done=false$/);
      await page.getByText('Open: shoppers see the store again within a second.').waitFor();
      await until(200);
      assert.deepEqual(problems, []);
    } finally {
      // Never leave the store closed for the next test.
      await context.request.post(`${store.base}/api/v1/staff/maintenance`, { data: { on: false } }).catch(() => {});
      await shopper.close();
      await context.close();
    }
  });
}

for (const js of [true, false]) {
  test(`a manager adds a holiday and removes it, JavaScript ${js ? 'on' : 'off'}`, async () => {
    const { context, page, ready } = await staffSignedIn(`days-${js ? 'js' : 'nojs'}@tala.example`, 'manager', 'Ria Dy', 'ria-keeps-the-days-42', js);
    const name = js ? 'Depot inventory (JS)' : 'Depot inventory';
    // Removing asks first (with JavaScript): the manager agrees.
    page.on('dialog', (d) => d.accept());
    const day = js ? '2031-12-26' : '2031-12-27';
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    try {
      await page.goto(`${store.base}/staff/catalog`);
      await ready();
      await page.getByRole('link', { name: 'Holidays and notices' }).click();
      await page.waitForURL(/\/staff\/catalog\/calendar$/);
      await ready();
      await noViolations(page, js, 'the holidays and notices');
      const add = () => page.locator('#holiday-new');
      await add().getByLabel('Name').fill(name);
      await add().getByLabel('First day').fill(day);
      await add().getByLabel('Last day').fill('2031-12-01');
      await add().getByRole('button', { name: 'Add Holiday' }).click();
      await add().getByText(`The last day 2031-12-01 is before the first day ${day}.`).waitFor();
      await ready();
      assert.equal(await add().getByLabel('Name').inputValue(), name);
      await add().getByLabel('Last day').fill(day);
      await add().getByRole('button', { name: 'Add Holiday' }).click();
      await page.waitForURL(/\/staff\/catalog\/calendar\?done=holiday#holidays$/);
      await page.getByText('Saved: the store counts it as a holiday within a second.').waitFor();
      await ready();
      const holiday = await (await context.request.get(`${store.base}/api/v1/philippine-holiday?testdate=${day}`)).json();
      assert.equal(holiday.holiday, true);
      await page.getByRole('button', { name: `Remove ${name} (${day})` }).click();
      await page.waitForURL(/\/staff\/catalog\/calendar\?done=holiday-removed#holidays$/);
      await page.getByText('Removed: the store no longer counts it as a holiday within a second.').waitFor();
      assert.equal(await page.getByRole('button', { name: `Remove ${name} (${day})` }).count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}
