// Download My Data in Debian's Chromium (docs/data-and-privacy.md): a member with an order and a Go-to Case opens
// the page from My Account, is refused a wrong password in words, sees what the store holds about
// them and downloads the same as a JSON file; with JavaScript on (the API's call, the file made in
// the browser) and off (the form answered by the server: the page, or the file as an
// attachment); axe finds nothing on the page, before and with the data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { hydrated, newContext, noViolations, registeredMember, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const MAKATI_BARANGAY = 1380300002;
const OPEN = '2026-11-24T14:00';
const PASSWORD = 'Pale-Pilsen-Friday-88';
const SHOPPER = ['privacyVerification=1', 'cookieAccepted=1', 'ageVerification=1', 'categoryGateId=1', 'categoryName=BOTTLES'];

const headers = () => ({ Origin: store.base, 'Content-Type': 'application/json' });

function watch(page) {
  const problems = [];
  page.on('console', (m) => {
    // A wrong password is a 422 the page says in place.
    if (m.type() === 'error' && !/status of 422/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** A member made through the API and the mailed link, logged in in `context`, with an order and a Go-to Case: their email. */
async function member(context, n) {
  const who = {
    first_name: 'Rosa',
    last_name: `Data${n}`,
    email: `data${n}@example.ph`,
    mobile: `0917123080${n}`,
    birth_date: '1987-04-05',
    password: PASSWORD,
    accept_terms: true,
  };
  await registeredMember(who);
  const post = async (path, data, status = 200) => {
    const res = await context.request.post(`${store.base}${path}`, { headers: headers(), data });
    assert.equal(res.status(), status, await res.text());
    return res.json();
  };
  await post('/api/v1/login', { login: who.email, password: PASSWORD });
  await post('/api/v1/cart', { product_id: 1, quantity: 24, barangay: MAKATI_BARANGAY });
  const cart = await (await context.request.get(`${store.base}/api/v1/cart/${MAKATI_BARANGAY}`)).json();
  const order = {
    contact_name: `Rosa Data${n}`,
    mobile: who.mobile,
    address: `Unit ${n}, 8 Jupiter St.`,
    barangay: MAKATI_BARANGAY,
    fulfillment: 1,
    revision: cart.revision,
    expected_total: cart.cart_order_summary.subtotal,
    testdate: OPEN,
  };
  const placed = await post('/api/v1/orders', order, 201);
  await post('/api/v1/cart', { product_id: 1, quantity: 24, barangay: MAKATI_BARANGAY });
  await post('/api/v1/user/goto-case', { name: `Data Case ${n}`, cart_items: [1], barangay: MAKATI_BARANGAY });
  return { email: who.email, number: placed.order.number };
}

/** What the readable page shows of the member. */
async function seesData(page, who, n) {
  await page.getByRole('heading', { name: /Your data as of/ }).waitFor();
  await page.getByRole('heading', { name: new RegExp(`Order ${who.number}`) }).waitFor();
  for (const text of [who.email, `Unit ${n}, 8 Jupiter St.`, `Data Case ${n}`, 'Logged-in sessions']) {
    assert.ok((await page.getByText(text).count()) > 0, `${text} on the page`);
  }
}

/** The downloaded file: its name and what it holds. */
async function checkFile(download, who) {
  assert.match(download.suggestedFilename(), /^tala-my-data-\d{4}-\d\d-\d\d\.json$/);
  const data = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(data.profile.email, who.email);
  assert.equal(data.orders.length, 1);
  assert.equal(data.orders[0].number, who.number);
  assert.equal(data.goto_cases.length, 1);
  assert.ok(data.sessions.some((s) => s.this_session));
  assert.ok(!JSON.stringify(data).includes('token'), 'no token in the file');
}

for (const js of [true, false]) {
  test(`JavaScript ${js ? 'on' : 'off'}: a member sees and downloads their data behind the password`, async () => {
    const n = js ? 1 : 2;
    const context = await newContext(SHOPPER, { javaScriptEnabled: js, acceptDownloads: true, bypassCSP: true });
    const who = await member(context, n);
    const page = await context.newPage();
    const problems = watch(page);
    const ready = async () => {
      if (js) await hydrated(page);
    };
    await page.goto(`${store.base}/my-account`);
    await ready();
    await page.getByRole('link', { name: 'Download my data', exact: true }).click();
    await page.waitForURL(/\/my-account\/my-data$/);
    await ready();
    await page.getByRole('heading', { name: 'Download My Data', level: 1 }).waitFor();
    await noViolations(page, js, 'the page');

    // A wrong password is said in words; nothing is shown.
    await page.getByLabel('Current password').fill('Not-My-Password-1');
    await page.getByRole('button', { name: 'Show My Data' }).click();
    await page.getByText('The current password is not correct.').waitFor();
    assert.equal(await page.getByText(who.email).count(), 0);
    await ready();

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Show My Data' }).click();
    await seesData(page, who, n);
    await ready();
    await noViolations(page, js, 'the page with the data');

    // The same as a file (the server's attachment without JavaScript, made in the browser with it).
    if (!js || (await page.getByLabel('Current password').inputValue()) === '') await page.getByLabel('Current password').fill(PASSWORD);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as a JSON File' }).click()]);
    await checkFile(download, who);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
