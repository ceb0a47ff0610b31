// Members in Debian's Chromium: register through the emailed link, log in, edit the
// profile, add an address and use it in the location gate, change the password, log out, reset a
// forgotten password and delete the account, with JavaScript on; and the forms that must work
// without it (registration, login, logout, delete) with JavaScript off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browser, hydrated, newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

/** A context past the policy modal and the category gate (bottles), as a returning shopper. */
async function shopper(javaScriptEnabled) {
  const context = await newContext(['cookieAccepted=1', 'privacyVerification=1', 'ageVerification=1', 'categoryGateId=1'], { javaScriptEnabled });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return { context, page, problems };
}

async function ready(page, js) {
  if (js) await hydrated(page);
}

async function register(page, js, who) {
  await page.goto(`${store.base}/registration`);
  await ready(page, js);
  // A careless first try: every bad field is named, and what was typed stays.
  await page.getByLabel('First name').fill(who.first);
  await page.getByLabel('Email address').fill('not-an-email');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByText('The email must be a valid email address.').waitFor();
  assert.equal(await page.getByLabel('First name').inputValue(), who.first);
  await page.getByLabel('Last name').fill('Cruz');
  await page.getByLabel('Email address').fill(who.email);
  await page.getByLabel('Mobile number').fill(who.mobile);
  await page.getByLabel('Birth date').fill('1990-02-03');
  // No password here: whoever holds the emailed link chooses it.
  assert.equal(await page.getByLabel('Password').count(), 0);
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL(/done=sent/);
  await page.getByText('Check your email').waitFor();
  const link = await store.mailedLink(who.email, '/registration\\?token=');
  await page.goto(link);
  await ready(page, js);
  // The link's holder sees the details the account is made with before choosing the password.
  await page.getByText(`the link was asked for: ${who.first} Cruz, mobile ${who.mobile}`).waitFor();
  // A short password is refused and the link keeps working; then the chosen one.
  await page.getByLabel('Choose a password').fill('beer2026');
  await page.getByRole('button', { name: 'Create My Account' }).click();
  await page.getByText('The password must be at least 10 characters.').waitFor();
  await page.getByLabel('Choose a password').fill(who.password);
  await page.getByRole('button', { name: 'Create My Account' }).click();
  await page.waitForURL(/\/setup-address/);
  await page.getByText('Your account is ready.').waitFor();
}

async function logIn(page, js, login, password) {
  await page.goto(`${store.base}/login`);
  await ready(page, js);
  await page.getByLabel('Email or mobile number').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/\/buy-beer/);
}

async function logOut(page) {
  await page.locator('.header-actions details.drawer').first().locator('summary').click();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.waitForURL(/\/login\?done=logout/);
  await page.getByText('You have been logged out.').waitFor();
}

async function deleteAccount(page, js, password) {
  await page.goto(`${store.base}/my-account/delete-account`);
  await ready(page, js);
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await page.getByText('Tick the box to confirm').waitFor();
  await page.getByLabel(/I understand/).check();
  // A session alone deletes nothing: the current password is asked for.
  await page.getByLabel('Current password').fill('wrong-password1');
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await page.getByText('The current password is not correct.').waitFor();
  if (!js) await page.getByLabel(/I understand/).check();
  await page.getByLabel('Current password').fill(password);
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await page.waitForURL(/accountSuccessDelete=yes/);
  await page.getByRole('dialog', { name: 'ACCOUNT DELETED' }).waitFor();
}

test('with JavaScript a shopper registers, manages the account and deletes it', async () => {
  const { context, page, problems } = await shopper(true);
  const who = { first: 'Ana', email: 'ana.js@example.com', mobile: '09171230001', password: 'beer2026js' };
  await register(page, true, who);
  await ready(page, true);

  // The first address: Marikina City, Barangka.
  await page.getByLabel('City').selectOption('1380700000');
  await page.getByLabel('Barangay').selectOption('1380700001');
  await page.getByLabel('House or unit number, building and street').fill('12 J.P. Rizal Street');
  await page.getByRole('button', { name: 'Save Address' }).click();
  await page.waitForURL(/\/buy-beer/);
  await ready(page, true);
  assert.equal(await page.locator('.header-actions summary').first().innerText(), 'Ana');

  // The first address became the shop's location; saved addresses fill the location gate.
  await page.getByText('Barangka, Marikina City').first().waitFor();
  await page.getByRole('link', { name: 'Change location' }).click();
  await page.getByRole('dialog').getByText('Your saved addresses').waitFor();
  await page.getByRole('button', { name: /USE THIS ADDRESS/ }).click();
  await page.waitForURL(/\/buy-beer/);
  await page.getByText('Barangka, Marikina City').first().waitFor();

  // Members see RECOMMENDED FOR YOU on home.
  await page.goto(`${store.base}/`);
  await page.getByRole('heading', { name: 'RECOMMENDED FOR YOU' }).waitFor();

  // The profile.
  await page.goto(`${store.base}/my-account`);
  await ready(page, true);
  await page.getByLabel('First name').fill('Anabel');
  await page.getByLabel('Mobile number').fill('0917');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await page.getByText('The mobile number must start with 09').waitFor();
  await page.getByLabel('Mobile number').fill(who.mobile);
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await page.getByText('Your profile has been saved.').waitFor();
  assert.equal(await page.locator('.header-actions summary').first().innerText(), 'Anabel');
  // A new mobile number (a login name) needs the current password.
  await page.getByLabel('Mobile number').fill('09171230011');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await page.getByText('The current password is not correct.').waitFor();
  await page.getByLabel('Current password', { exact: true }).fill(who.password);
  // The saved page comes anew at the same address, with the same "saved" message as before:
  // wait for that navigation itself, or the next goto races it.
  const reloaded = page.waitForResponse(
    (r) => r.request().isNavigationRequest() && r.request().method() === 'GET' && new URL(r.url()).pathname === '/my-account',
  );
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await reloaded;
  await page.waitForLoadState('load');
  await ready(page, true);
  await page.getByText('Your profile has been saved.').waitFor();
  assert.equal(await page.getByLabel('Mobile number').inputValue(), '09171230011');
  who.mobile = '09171230011';

  // The password, changed.
  await page.goto(`${store.base}/change-password`);
  await ready(page, true);
  await page.getByLabel('Current password').fill('wrong-password1');
  await page.getByLabel('New password').fill('beer2027js');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await page.getByText('The current password is not correct.').waitFor();
  await page.getByLabel('Current password').fill(who.password);
  await page.getByLabel('New password').fill(who.password);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await page.getByText('The new password must differ from the current one.').waitFor();
  await page.getByLabel('Current password').fill(who.password);
  await page.getByLabel('New password').fill('beer2027js');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await page.getByText('Your password has been changed.').waitFor();

  await logOut(page);
  // Member pages are closed again.
  await page.goto(`${store.base}/my-account`);
  assert.match(page.url(), /\/login$/);

  // A forgotten password, reset through the emailed link.
  await page.goto(`${store.base}/reset-password`);
  await ready(page, true);
  await page.getByLabel('Email address').fill(who.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await page.getByText('If an account uses that address').waitFor();
  await page.goto(await store.mailedLink(who.email, '/reset-password\\?suid='));
  await ready(page, true);
  await page.getByLabel('New password').fill('beer2028js');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await page.waitForURL(/done=reset/);

  // The old password no longer works; the new one does, with the mobile number.
  await page.goto(`${store.base}/login`);
  await ready(page, true);
  await page.getByLabel('Email or mobile number').fill(who.email);
  await page.getByLabel('Password').fill('beer2027js');
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByText('These credentials do not match our records.').waitFor();
  await logIn(page, true, who.mobile, 'beer2028js');

  await deleteAccount(page, true, 'beer2028js');
  await page.getByRole('link', { name: 'CONTINUE AS GUEST' }).click();
  await page.getByRole('dialog', { name: 'ACCOUNT DELETED' }).waitFor({ state: 'detached' });
  await page.goto(`${store.base}/login`);
  await ready(page, true);
  await page.getByLabel('Email or mobile number').fill(who.email);
  await page.getByLabel('Password').fill('beer2028js');
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByText('These credentials do not match our records.').waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

test('without JavaScript a shopper registers, logs in and out, and deletes the account', async () => {
  const { context, page } = await shopper(false);
  const who = { first: 'Ben', email: 'ben.nojs@example.com', mobile: '09171230002', password: 'beer2026nojs' };
  await register(page, false, who);
  // The first address, one list at a time.
  await page.getByLabel('City').selectOption('1380700000');
  await page.getByRole('button', { name: 'Show the next list' }).click();
  await page.getByLabel('Barangay').selectOption('1380700001');
  await page.getByRole('button', { name: 'Show the next list' }).click();
  await page.getByLabel('House or unit number, building and street').fill('3 Shoe Avenue');
  await page.getByRole('button', { name: 'Save Address' }).click();
  await page.waitForURL(/\/buy-beer/);
  assert.equal(await page.locator('.header-actions summary').first().innerText(), 'Ben');

  await logOut(page);
  await page.goto(`${store.base}/login`);
  await page.getByLabel('Email or mobile number').fill(who.email);
  await page.getByLabel('Password').fill('wrong-password1');
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByText('These credentials do not match our records.').waitFor();
  assert.equal(await page.getByLabel('Email or mobile number').inputValue(), who.email);
  await logIn(page, false, who.email, who.password);

  // A member is sent away from /login and /registration.
  await page.goto(`${store.base}/login`);
  assert.equal(new URL(page.url()).pathname, '/');
  await page.goto(`${store.base}/my-account/addresses`);
  await page.getByText('3 Shoe Avenue, Barangka, Marikina City').waitFor();

  await deleteAccount(page, false, who.password);
  await page.getByRole('link', { name: 'CONTINUE AS GUEST' }).click();
  await page.waitForURL((u) => u.pathname === '/' && !u.search);
  await page.goto(`${store.base}/my-account`);
  assert.match(page.url(), /\/login$/);
  await context.close();
});

for (const js of [true, false]) {
  test(`the newsletter counts an address once its emailed link is confirmed, JS ${js ? 'on' : 'off'}`, async () => {
    const { context, page, problems } = await shopper(js);
    const email = `news-${js}@example.ph`;
    await page.goto(`${store.base}/faqs`);
    await ready(page, js);
    await page.getByPlaceholder('Email Address').fill(email);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('Open the link we sent to your email').waitFor();
    await page.goto(await store.mailedLink(email, '/newsletter/confirm\\?token='));
    await ready(page, js);
    await page.getByRole('button', { name: 'Confirm My Subscription' }).click();
    await page.getByText('Your email has been added to our mailing list and will receive our latest news.').waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });
}

/** A member made through the JSON API (as another client would): their cookies. */
async function apiMember(email, mobile) {
  const form = {
    first_name: 'Cora',
    last_name: 'Lim',
    email,
    mobile,
    birth_date: '1985-06-15',
    password: 'beer2026axe',
    accept_terms: true,
  };
  const pre = await fetch(`${store.base}/api/v1/pre-register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(form),
  });
  assert.equal(pre.status, 200);
  const token = new URL(await store.mailedLink(email, '/registration\\?token=')).searchParams.get('token');
  const res = await fetch(`${store.base}/api/v1/registration`, {
    method: 'POST',
    headers: { 'registration-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ password: form.password }),
  });
  assert.equal(res.status, 200);
  const session = res.headers.get('access-token');
  const address = await fetch(`${store.base}/api/v1/user/addresses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
    body: JSON.stringify({ address: '7 Kalayaan Avenue', barangay_id: 1380700001 }),
  });
  assert.equal(address.status, 201, await address.text());
  return [
    { name: 'session', value: session, url: store.base },
    { name: 'member', value: '1', url: store.base },
  ];
}

test('axe finds no violations on the account pages, and they hydrate cleanly', async () => {
  const consent = ['privacyVerification=1', 'cookieAccepted=1'];
  const guestPages = ['/login', '/registration', '/registration?done=sent', '/reset-password', '/reset-password?suid=x', '/splash', '/newsletter/confirm?token=x'];
  const memberPages = [
    '/my-account',
    '/my-account/orders',
    '/my-account/go-to-cases',
    '/my-account/addresses',
    '/my-account/delete-account',
    '/change-password',
    '/setup-address',
    // The location gate with the saved address.
    '/buy-beer',
    '/?accountSuccessDelete=yes',
  ];
  const member = await apiMember('cora@example.com', '09171230003');
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${page.url()} ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()} pageerror: ${e.message}`));
  for (const [pages, cookies] of [
    [guestPages, []],
    [memberPages, member],
  ]) {
    for (const path of pages) {
      await context.clearCookies();
      await context.addCookies([
        ...consent.map((c) => ({ name: c.split('=')[0], value: '1', url: store.base })),
        { name: 'categoryGateId', value: '1', url: store.base },
        ...cookies,
      ]);
      const res = await page.goto(`${store.base}${path}`);
      assert.equal(res.status(), 200, path);
      await ready(page, true);
      if (path === '/buy-beer') await page.getByRole('button', { name: /USE THIS ADDRESS/ }).waitFor();
      const result = await axeViolations(page);
      assert.deepEqual(result, [], path);
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});
