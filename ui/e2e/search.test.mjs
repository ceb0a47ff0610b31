// Search from the header's box in Debian's Chromium, with JavaScript on and off: a shopper past
// the gates in Bel-Air, Makati types as shoppers do (a typo, Filipino words, a size) and finds
// the seed's products; what cannot be ordered there comes apart; nonsense says so. With
// JavaScript the box is a combobox that suggests beers as one types (features/search/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hydrated, MAKATI_SHOPPER, newContext, noViolations, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

/** The header's search box: a search field, a combobox once hydrated (JavaScript `js`). */
const searchBox = (page, js = true) => page.getByRole(js ? 'combobox' : 'searchbox', { name: 'Search beers' });

/** Types `words` in the header's search box and sends them with Enter: the results page. */
async function searchFor(page, words, js) {
  const box = searchBox(page, js);
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
    assert.equal(await searchBox(page, js).inputValue(), 'tala pilsn grande');
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
  await searchBox(page).press('Enter');
  assert.match(page.url(), /\/buy-beer$/);
  await page.goto(`${store.base}/search`);
  await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
  await page.getByText(/Type a beer's name, brewery, style, packaging or size/).waitFor();
  await context.close();
});

/** Collects the page's errors and warnings (a hydration mismatch is logged as an error). */
function watch(page) {
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  return problems;
}

const suggestionsOf = (page) => page.getByRole('listbox', { name: 'Search suggestions' });
/** The live region that counts the suggestions. */
const countOf = (page) => page.locator('.search-box [role="status"]');

test('without JavaScript the header has the plain search form: no combobox, no suggestions', async () => {
  const context = await newContext(MAKATI_SHOPPER, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${store.base}/buy-beer`);
  const box = searchBox(page, false);
  await box.focus();
  await box.pressSequentially('habagat lat');
  for (const name of ['role', 'aria-expanded', 'aria-controls', 'aria-autocomplete']) assert.equal(await box.getAttribute(name), null, name);
  assert.equal(await page.locator('#site-search-suggestions, [role="listbox"]').count(), 0);
  await context.close();
});

test('with JavaScript the box suggests beers as one types: a combobox whose keys move through the list, and Enter opens the product', async () => {
  const context = await newContext(MAKATI_SHOPPER, { bypassCSP: true });
  const page = await context.newPage();
  const problems = watch(page);
  const chunks = [];
  page.on('request', (r) => /\/assets\/Suggestions-/.test(r.url()) && chunks.push(r.url()));
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  const box = searchBox(page);
  assert.deepEqual(
    [await box.getAttribute('aria-expanded'), await box.getAttribute('aria-autocomplete'), await box.getAttribute('aria-controls')],
    ['false', 'list', 'site-search-suggestions'],
  );
  // The suggestions' code is no part of the first load: it comes with the first use of the box.
  assert.deepEqual(chunks, []);
  // The answer for the whole text: a slow keystroke may have asked for a part of it first.
  const whole = page.waitForResponse((r) => /\/api\/v1\/search\?/.test(r.url()) && new URL(r.url()).searchParams.get('q') === 'habagat lat');
  await box.pressSequentially('habagat lat', { delay: 20 });
  await whole;
  const list = suggestionsOf(page);
  const can = list.getByRole('option', { name: /^Habagat Strong Lager Can 500 ml P[\d,]+\.\d\d \// });
  await can.waitFor();
  assert.equal(chunks.length, 1);
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  const options = list.getByRole('option');
  const n = await options.count();
  assert.ok(n >= 1 && n <= 8, `${n} suggestions`);
  assert.equal(await countOf(page).textContent(), `${n} ${n === 1 ? 'suggestion' : 'suggestions'}`);
  assert.equal(await box.getAttribute('aria-activedescendant'), null);
  await noViolations(page, true, 'the search box with its suggestions open');

  // Up from the text: the last option; down from the last: the first (the highlight wraps).
  const selected = async () => {
    const id = await box.getAttribute('aria-activedescendant');
    const marked = await list.locator('[role="option"][aria-selected="true"]').evaluateAll((els) => els.map((e) => e.id));
    assert.deepEqual(marked, id ? [id] : [], 'the highlighted option alone is aria-selected');
    return id === null ? -1 : (await options.evaluateAll((els) => els.map((e) => e.id))).indexOf(id);
  };
  await box.press('ArrowUp');
  assert.equal(await selected(), n - 1);
  await box.press('ArrowDown');
  assert.equal(await selected(), 0);
  await noViolations(page, true, 'the search box with an option highlighted');
  // Home stays in the text: the caret goes to its start, the highlight goes away, the list stays.
  await box.press('Home');
  assert.deepEqual([await selected(), await box.evaluate((b) => b.selectionStart), await box.getAttribute('aria-expanded')], [-1, 0, 'true']);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'site-search');

  // Escape closes the list and keeps the text; a second Escape clears the text.
  await box.press('Escape');
  assert.equal(await box.getAttribute('aria-expanded'), 'false');
  await list.waitFor({ state: 'hidden' });
  assert.equal(await box.inputValue(), 'habagat lat');
  await box.press('Escape');
  assert.equal(await box.inputValue(), '');

  // Typed again, the can is highlighted with the down arrow and Enter opens its page.
  await box.pressSequentially('habagat lat', { delay: 20 });
  await can.waitFor();
  const at = (await options.allInnerTexts()).findIndex((t) => t.startsWith('Habagat Strong Lager Can 500 ml'));
  for (let i = 0; i <= at; i++) await box.press('ArrowDown');
  assert.equal(await can.getAttribute('aria-selected'), 'true');
  assert.equal(await box.getAttribute('aria-activedescendant'), await can.getAttribute('id'));
  await Promise.all([page.waitForURL(/\/single-product\/habagat-strong-lager-can-500ml$/), box.press('Enter')]);
  await hydrated(page);
  await page.getByRole('heading', { level: 1, name: /Habagat Strong Lager Can 500 ml/ }).waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

test('a slow answer for an older text never replaces the suggestions of the newer one', async () => {
  // page.route sees the page's own requests only when no service worker stands between.
  const context = await newContext(MAKATI_SHOPPER, { serviceWorkers: 'block' });
  const page = await context.newPage();
  let slowCame;
  const slow = new Promise((resolve) => (slowCame = resolve));
  await page.route('**/api/v1/search?*', async (route) => {
    if (new URL(route.request().url()).searchParams.get('q') !== 'habagat') return route.continue();
    // The first text's answer, held back until well after the second's.
    const response = await route.fetch();
    await new Promise((r) => setTimeout(r, 1500));
    await route.fulfill({ response }).catch(() => {}); // the page may have given up on it
    slowCame();
  });
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  const box = searchBox(page);
  const first = page.waitForRequest((r) => /\/api\/v1\/search\?q=habagat&/.test(r.url()));
  await box.fill('habagat');
  await first;
  await box.fill('tala pilsen');
  const list = suggestionsOf(page);
  await list.getByRole('option', { name: /^Tala Pale Pilsen 320 ml/ }).waitFor();
  await slow;
  // Time for the late answer to land, if it could.
  await page.waitForTimeout(300);
  const names = await list.getByRole('option').allInnerTexts();
  assert.ok(names.length > 0 && names.every((t) => !t.startsWith('Habagat')), names.join(' | '));
  assert.equal(await box.getAttribute('aria-expanded'), 'true');
  assert.equal(await box.inputValue(), 'tala pilsen');
  await context.close();
});

test('on a phone: the ones not orderable here come last, marked; Tab closes the list; a click opens a product; Enter without a highlight searches', async () => {
  const context = await newContext(MAKATI_SHOPPER, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(`${store.base}/buy-beer`);
  await hydrated(page);
  const box = searchBox(page);
  await box.pressSequentially('serbesa keg 30l', { delay: 20 });
  const list = suggestionsOf(page);
  await list.getByRole('option', { name: /^Tala Light Keg 30 L Not available where you are$/ }).waitFor();
  const names = await list.getByRole('option').allInnerTexts();
  const apart = names.map((t) => t.includes('Not available where you are'));
  assert.deepEqual(apart, [...apart].sort(), `the orderable ones first: ${names.join(' | ')}`);
  assert.ok(apart.includes(false));
  // The list fits the phone's width, under the box.
  const [boxAt, listAt] = [await box.boundingBox(), await list.boundingBox()];
  assert.ok(listAt.x >= 0 && listAt.x + listAt.width <= 360 && listAt.y >= boxAt.y + boxAt.height - 1, JSON.stringify(listAt));

  // Tab leaves the box as always (to its button) and the list closes.
  await box.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Search');
  await list.waitFor({ state: 'hidden' });
  assert.equal(await box.getAttribute('aria-expanded'), 'false');

  // Back in the box, the down arrow shows them again; a tap on one opens its page.
  await box.focus();
  await box.press('ArrowDown');
  const keg = list.getByRole('option', { name: /^Tala Pale Pilsen Keg 30 L/ });
  await keg.waitFor();
  await Promise.all([page.waitForURL(/\/single-product\/tala-pale-pilsen-keg-30l$/), keg.tap()]);
  await hydrated(page);

  // With the list open and nothing highlighted, Enter sends the form as without JavaScript.
  await box.pressSequentially('tala pilsen', { delay: 20 });
  await list.getByRole('option').first().waitFor();
  await Promise.all([page.waitForURL(/\/search\?q=tala\+pilsen$/), box.press('Enter')]);
  await page.getByRole('heading', { level: 1, name: 'Search results for “tala pilsen”' }).waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

for (const [what, blocked, url] of [
  ['the suggestions’ code', '**/assets/Suggestions-*', /\/assets\/Suggestions-/],
  ['the search call', '**/api/v1/search?*', /\/api\/v1\/search\?/],
]) {
  test(`when ${what} cannot be fetched, the box stays the plain search form and the page stays`, async () => {
    const context = await newContext(MAKATI_SHOPPER, { serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    let refused = 0;
    let onRefused;
    const wasRefused = new Promise((resolve) => (onRefused = resolve));
    await page.route(blocked, (route) => {
      refused += 1;
      onRefused();
      return route.abort('connectionreset');
    });
    await page.goto(`${store.base}/buy-beer`);
    await hydrated(page);
    const box = searchBox(page);
    // Asked for (within waitForRequest's 30 s) and refused by the route above.
    const asked = page.waitForRequest((r) => url.test(r.url()));
    await box.pressSequentially('habagat lat', { delay: 20 });
    await Promise.all([asked, wasRefused]);
    assert.ok(refused > 0, `${what} was refused`);
    // What the box would do with the failure, given the time to do it.
    await page.waitForTimeout(300);
    // Quiet: no list, nothing said, no error page.
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('.search-box [role="status"]:not(:empty)').count(), 0);
    await page.getByRole('heading', { level: 1, name: 'Buy Beer' }).waitFor();
    await Promise.all([page.waitForURL(/\/search\?q=habagat\+lat$/), box.press('Enter')]);
    await page.getByRole('heading', { level: 1, name: 'Search results for “habagat lat”' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
}
