// The back office's first steps in Debian's Chromium, with JavaScript on and off: a member of staff
// added from the command line chooses a password by the mailed link, signs in, sets up the second
// factor with the key the page shows (a TOTP code computed here as an authenticator app would),
// reaches the back office and signs out; axe finds nothing on the staff pages (with JavaScript on,
// where it can run).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guestOrder, hydrated, newContext, noViolations, staffSignedIn, store, totp, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

for (const js of [true, false]) {
  test(`a member of staff signs in with two factors and signs out, JavaScript ${js ? 'on' : 'off'}`, async () => {
    const email = `dora-${js ? 'js' : 'nojs'}@tala.example`;
    store.command(['staff', 'add', email, '--role', 'manager', '--name', 'Dora Reyes']);
    const link = await store.mailedLink(email, '/staff/password\\?token=');
    const context = await newContext([], { javaScriptEnabled: js, bypassCSP: true });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    const ready = async () => {
      if (js) await hydrated(page);
    };
    try {
      await page.goto(link);
      await ready();
      await noViolations(page, js, 'choose a password');
      await page.getByLabel('New password').fill('dora-dispatches-kegs-9');
      await page.getByRole('button', { name: 'Set Password' }).click();
      await page.waitForURL(/\/staff\/login\?done=password/);
      await page.getByText('Your password is set.').waitFor();
      await ready();
      await noViolations(page, js, 'sign in');
      // A wrong password first: one message, nothing said of which part was wrong.
      await page.getByLabel('Email address').fill(email);
      await page.getByLabel('Password').fill('not-doras-password-1');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('These credentials do not match our records.').waitFor();
      await page.getByLabel('Email address').fill(email);
      await page.getByLabel('Password').fill('dora-dispatches-kegs-9');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(/\/staff\/second-factor$/);
      await ready();
      await page.getByRole('img', { name: /QR code/ }).waitFor();
      await noViolations(page, js, 'second factor');
      const key = (await page.locator('li code').first().textContent()).trim();
      assert.match(key, /^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
      assert.equal(await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count(), 10);
      await page.getByLabel('Code from your app').fill('000000');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('That code is not right.').first().waitFor();
      await page.getByLabel('Code from your app').fill(totp(key));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(/\/staff\?done=signed-in/);
      await page.getByText('You are signed in.').waitFor();
      await page.getByText('Signed in as').waitFor();
      await ready();
      await noViolations(page, js, 'back office');
      // The back office's own frame: who is signed in and as what, the manager's links, and
      // nothing of the shop's (location, cart, search, newsletter, footer).
      const banner = page.getByRole('banner');
      assert.match(await banner.textContent(), /Back Office.*Dora Reyes, Manager.*Sign Out/s);
      const links = await page.getByRole('navigation', { name: 'Back office' }).getByRole('link').allTextContents();
      assert.deepEqual(links, ['Dashboard', 'Orders', 'Runs', 'Day Report', 'Catalog', 'Staff', 'Audit Log', 'Guest Data', 'Maintenance']);
      for (const shop of ['.site-header', '.site-footer', 'form[role="search"]', 'a.cart-link', '.newsletter', '.topbar']) {
        assert.equal(await page.locator(shop).count(), 0, `no ${shop} in the back office`);
      }
      await page.getByRole('link', { name: 'Audit Log' }).click();
      await page.getByRole('cell', { name: 'staff.second_factor' }).first().waitFor();
      await ready();
      await noViolations(page, js, 'audit log');
      await page.getByRole('button', { name: 'Sign Out' }).click();
      await page.waitForURL(/\/staff\/login\?done=signed-out/);
      await page.goto(`${store.base}/staff`);
      await page.waitForURL(/\/staff\/login$/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test('a dispatcher sees a new order appear on the board and the tab count it, JavaScript on', async () => {
  const first = await guestOrder('ana-board@example.com');
  const { context, page } = await staffSignedIn('disa@tala.example', 'dispatcher', 'Disa Ramos', 'disa-dispatches-kegs-9', true);
  try {
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL(/\/staff\/orders$/);
    await hydrated(page);
    await page.getByRole('link', { name: first }).waitFor();
    assert.match(await page.title(), /^\(\d+\) Orders/);
    await noViolations(page, true, 'orders board');
    // On a desk an order is one line; on a phone a card, and the page is no wider than the phone.
    const row = page.getByRole('row', { name: new RegExp(first) });
    const line = await row.boundingBox();
    assert.ok(line.height < 60, `an order's row is one line on a desk (${line.height} px high)`);
    await page.setViewportSize({ width: 360, height: 740 });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'the board fits a 360 px phone');
    await noViolations(page, true, 'orders board on a phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    // A new order shows up on its own (the board looks again every 15 seconds).
    const second = await guestOrder('ben-board@example.com');
    await page.getByRole('link', { name: second }).waitFor({ timeout: 25_000 });
    // Tick both and confirm them together.
    await page.getByLabel(`Select ${first}`).check();
    await page.getByLabel(`Select ${second}`).check();
    await page.getByLabel('To', { exact: true }).selectOption('confirmed');
    await page.getByRole('button', { name: 'Move Selected' }).click();
    await page.waitForURL(/done=moved/);
    await page.getByText('The orders were moved.').waitFor();
  } finally {
    await context.close();
  }
});

test('a rider’s back office offers only their runs, and fits a 360 px phone', async () => {
  const { context, page } = await staffSignedIn('rita@tala.example', 'rider', 'Rita Santos', 'rita-rides-the-route-9', true);
  try {
    await page.setViewportSize({ width: 360, height: 740 });
    const nav = page.getByRole('navigation', { name: 'Back office' });
    assert.deepEqual(await nav.getByRole('link').allTextContents(), ['Home', 'My Runs']);
    assert.match(await page.getByRole('banner').textContent(), /Rita Santos, Rider/);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'the page fits a 360 px phone');
    // The page starts near the top of the screen: the frame is two rows (mark, name and Sign Out;
    // the links), whatever the width of the phone's font.
    const main = await page.locator('main').boundingBox();
    assert.ok(main.y <= 110, `the page starts ${main.y} px down`);
    await noViolations(page, true, 'a rider’s back office on a phone');
  } finally {
    await context.close();
  }
});
