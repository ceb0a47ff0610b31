// Search from the header's box in Debian's Chromium, with JavaScript on and off: a shopper past
// the gates in Bel-Air, Makati types as shoppers do (a typo, Filipino words, a size) and finds
// the seed's products; what cannot be ordered there comes apart; nonsense says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hydrated, MAKATI_SHOPPER, newContext, noViolations, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

/** Types `words` in the header's search box and sends them with Enter: the results page. */
async function searchFor(page, words, js) {
  const box = page.getByRole('searchbox', { name: 'Search beers' });
  await box.fill(words);
  await Promise.all([page.waitForURL(/\/search\?q=/), box.press('Enter')]);
  if (js) await hydrated(page);
  return page.locator('main');
}

for (const js of [true, false]) {
  test(`search from the header finds beers as shoppers type them, JavaScript ${js ? 'on' : 'off'}`, async () => {
    const context = await newContext(MAKATI_SHOPPER, { javaScriptEnabled: js, bypassCSP: true });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(`${store.base}/buy-beer`);
    if (js) await hydrated(page);

    let main = await searchFor(page, 'tala pilsn grande', js);
    await main.getByRole('heading', { level: 1, name: 'Search results for “tala pilsn grande”' }).waitFor();
    assert.equal(await main.getByRole('status').innerText(), '1 beer you can order');
    await main.getByRole('link', { name: 'Tala Pale Pilsen Grande 500 ml' }).waitFor();
    // The box holds what was asked; the page is kept out of search engines.
    assert.equal(await page.getByRole('searchbox', { name: 'Search beers' }).inputValue(), 'tala pilsn grande');
    assert.equal(await page.locator('meta[name="robots"]').getAttribute('content'), 'noindex');
    await noViolations(page, js, 'the search results');

    main = await searchFor(page, 'habagat lata', js);
    await main.getByRole('link', { name: 'Habagat Strong Lager Can 500 ml' }).waitFor();
    assert.equal(await main.locator('li.card').count(), 1);

    // Kegs of 30 litres: the two sold in Makati, then the one that cannot be ordered now, apart.
    main = await searchFor(page, 'serbesa keg 30l', js);
    assert.equal(await main.getByRole('status').innerText(), '2 beers you can order');
    const apart = main.getByRole('region', { name: 'Not available where you are (1 beer)' });
    await apart.getByRole('link', { name: 'Tala Light Keg 30 L' }).waitFor();

    main = await searchFor(page, 'xyzzy', js);
    await main.getByText('No beers match your search. Check the spelling, or try fewer or other words.').waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('an empty search box is not sent, and /search without words says what to type', async () => {
  const context = await newContext(MAKATI_SHOPPER);
  const page = await context.newPage();
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  await page.getByRole('searchbox', { name: 'Search beers' }).press('Enter');
  assert.match(page.url(), /\/buy-beer$/);
  await page.goto(`${store.base}/search`);
  await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
  await page.getByText(/Type a beer's name, brewery, style, packaging or size/).waitFor();
  await context.close();
});
