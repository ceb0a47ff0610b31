// The whole purchase with the keyboard alone, in Debian's Chromium, with JavaScript on and off:
// a product page, Add to Cart, the cart drawer (a modal dialog with JavaScript: focus moves into
// it, Tab stays inside, Escape and Close put it away and focus goes back to what opened it), the
// cart page (a blocked Proceed To Checkout is reached by Tab and says why; the case is filled with
// the quantity field), checkout, Submit Order and the order's page. Only keys are pressed (Tab,
// Shift+Tab, Enter, Space, Escape, typing); the only address opened by hand is the first page. At
// each step the test asserts where focus is (the focused element's role and name as Chromium's
// accessibility tree gives them to a screen reader) and what is announced (a live region's text
// or the focused element's name and description). Also: the header's My Account and phone menu
// drawers, a blocked Submit Order (refused by the server without JavaScript), and the policy
// modal, which keeps Tab inside as the drawers do. axe stays at zero, the drawers open too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, hydrated, MAKATI_SHOPPER, newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const ADDED = 'You successfully added this product to the cart.';
const UPDATED = 'Your cart has been updated.';
const INCOMPLETE = 'For you to proceed to checkout, you need to complete filling up your cases.';
/** Past the gates, delivered to Jupiter Street, Bel-Air, Makati. */
const SHOPPER = [...MAKATI_SHOPPER, 'locationGateStreetId=1'];

/** A shopper's page (JavaScript `js`) and what it complains of in the console. */
async function shopper(js, options = {}) {
  const context = await newContext(SHOPPER, { javaScriptEnabled: js, bypassCSP: true, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // A first cart call without a session is answered 401 and sent again with a new token.
    if ((m.type() === 'error' || m.type() === 'warning') && !/status of 401/.test(m.text())) problems.push(`${m.type()}: ${m.text()}`);
  });
  // Chromium's accessibility tree, as a screen reader reads it.
  const cdp = await context.newCDPSession(page);
  return { context, page, problems, cdp };
}

/**
 * The focused element as a screen reader gets it: `role`, `name`, `description` and its states
 * (`disabled`, `modal`...) from Chromium's accessibility tree, and `tag`; `{ tag: 'BODY' }` when
 * nothing has focus (a page just loaded).
 */
async function focused({ page, cdp }) {
  const tag = await page.evaluate(() => document.activeElement?.tagName ?? 'BODY');
  if (tag === 'BODY') return { tag };
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' });
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false });
  const node = nodes[0];
  const states = Object.fromEntries((node.properties ?? []).map((p) => [p.name, p.value.value]));
  return { tag, role: node.role?.value, name: node.name?.value ?? '', description: node.description?.value ?? '', ...states };
}

const named = (f, name) => (name instanceof RegExp ? name.test(f.name) : f.name === name);

/**
 * Presses Tab (Shift+Tab when `back`) until the focused element is a `role` named `name`, at most
 * `max` times; answers it.
 */
async function tabTo(s, role, name, { back = false, max = 60 } = {}) {
  const seen = [];
  for (let i = 0; i < max; i++) {
    await s.page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused(s);
    if (f.role === role && named(f, name)) return f;
    seen.push(`${f.role} "${f.name}"`);
  }
  assert.fail(`no ${role} "${name}" within ${max} ${back ? 'Shift+Tab' : 'Tab'} presses: ${seen.join(', ')}`);
}

/** Asserts focus is on a `role` named `name`; answers it. */
async function focusIs(s, role, name, what) {
  const f = await focused(s);
  assert.ok(f.role === role && named(f, name), `${what}: focus is on ${JSON.stringify(f)}, not ${role} "${name}"`);
  return f;
}

/** A page that has just loaded: nothing focused yet, its title and `h1` say where the shopper is. */
async function loaded(s, js, url, h1) {
  await s.page.waitForURL(url).catch(async (e) => assert.fail(`${e.message}\non ${s.page.url()}, which says: ${await announced(s.page)}`));
  await s.page.waitForLoadState();
  if (js) await hydrated(s.page);
  assert.equal((await focused(s)).tag, 'BODY', `${url}: focus starts at the top of the new page`);
  await s.page.getByRole('heading', { level: 1, name: h1 }).waitFor();
  assert.ok((await s.page.title()).length > 0, 'the page has a title (what a screen reader says first)');
}

/** The live regions' (status, alert) texts, shown or not. */
const announced = (page) => page.evaluate(() => [...document.querySelectorAll('[role=status], [role=alert], [aria-live]')].map((e) => e.textContent.trim()).filter(Boolean));

async function noViolations(page, js, where) {
  if (js) assert.deepEqual(await axeViolations(page), [], where);
}

const openDialog = (page, cls) => page.locator(`dialog.${cls}:modal`);

/** Waits for a drawer (`details.${cls}`) to close: its dialog's close event closes the details. */
const drawerClosed = (page, cls) => page.waitForFunction((c) => !document.querySelector(`details.${c}`).open && !document.querySelector(`details.${c} dialog:modal`), cls);

/** With the cart drawer open (JavaScript): Tab and Shift+Tab go round its actions and never leave it. */
async function tabStaysInside(s, cls) {
  const names = new Set();
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await s.page.keyboard.press(key);
    const inside = await s.page.evaluate((c) => !!document.activeElement?.closest(`dialog.${c}`), cls);
    const f = await focused(s);
    assert.ok(inside, `after ${key} focus left the drawer for ${JSON.stringify(f)}`);
    names.add(`${f.role} "${f.name}"`);
  }
  return [...names].sort();
}

/** Product page: Tab to Add to Cart, then Enter; with JavaScript the drawer opens over the page and takes focus. */
async function addToCart(s, js) {
  const { page } = s;
  await page.goto(`${store.base}/single-product/tala-pale-pilsen-320ml`);
  await loaded(s, js, /\/single-product\//, 'Tala Pale Pilsen 320 ml');
  // One bottle (the type's first choice): a case not yet full.
  const add = await tabTo(s, 'button', 'Add to Cart', { max: 25 });
  assert.equal(add.disabled, undefined);
  await page.keyboard.press('Enter');
  if (!js) {
    // Without JavaScript the form posts and the cart page says so.
    await loaded(s, js, /\/cart\?done=added/, 'Shopping Cart');
    assert.ok((await announced(page)).includes(ADDED), `the added message is a live region: ${await announced(page)}`);
    return;
  }
  await openDialog(page, 'cart-panel').waitFor();
  // Focus moved into the drawer, to its heading; the dialog is modal, named and describes what happened.
  await focusIs(s, 'heading', 'Shopping Cart', 'the drawer opened');
  const dialog = await page.evaluate(() => {
    const d = document.activeElement.closest('dialog');
    return { modal: d.getAttribute('aria-modal'), name: document.getElementById(d.getAttribute('aria-labelledby')).textContent, described: document.getElementById(d.getAttribute('aria-describedby')).textContent };
  });
  assert.deepEqual(dialog, { modal: 'true', name: 'Shopping Cart', described: ADDED });
  assert.ok((await announced(page)).includes(ADDED));
  await noViolations(page, js, 'the cart drawer open');
  // Tab stays inside; Escape closes it and focus returns to Add to Cart.
  assert.deepEqual(await tabStaysInside(s, 'cart-panel'), ['button "Close"', 'link "View Shopping Cart"']);
  await page.keyboard.press('Escape');
  await drawerClosed(page, 'cart-drawer');
  await focusIs(s, 'button', 'Add to Cart', 'Escape closed the drawer');
}

/**
 * The header's My Account drawer (back from Add to Cart with JavaScript, on from the top of the
 * cart page without): opened with Enter, put away with Escape (with JavaScript) or Enter.
 */
async function accountDrawer(s, js) {
  const { page } = s;
  const summary = await tabTo(s, 'DisclosureTriangle', 'My Account', { back: js });
  assert.equal(summary.expanded, false);
  await page.keyboard.press('Enter');
  if (!js) {
    // A disclosure in the page: its links come next.
    assert.equal((await focused(s)).expanded, true);
    await tabTo(s, 'link', 'Log In', { max: 1 });
    await tabTo(s, 'DisclosureTriangle', 'My Account', { back: true, max: 1 });
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.header-actions details:not(.cart-drawer)').evaluate((d) => d.open), false);
    return;
  }
  await openDialog(page, 'drawer-panel').waitFor();
  await focusIs(s, 'heading', 'My Account', 'the account drawer opened');
  await noViolations(page, js, 'the account drawer open');
  await page.keyboard.press('Escape');
  await drawerClosed(page, 'drawer-right:not(.cart-drawer)');
  await focusIs(s, 'DisclosureTriangle', 'My Account', 'Escape closed the account drawer');
}

/**
 * The header's cart summary: with JavaScript its Close button puts it away (focus back on the
 * summary), then it opens again and View Shopping Cart leads on; without, the disclosure opens in
 * place and its link leads on.
 */
async function toCartPage(s, js) {
  const { page } = s;
  await tabTo(s, 'DisclosureTriangle', 'Open cart summary', { max: 3 });
  await page.keyboard.press('Space');
  if (js) {
    await openDialog(page, 'cart-panel').waitFor();
    await focusIs(s, 'heading', 'Shopping Cart', 'the cart summary opened');
    await tabTo(s, 'button', 'Close', { back: true, max: 1 });
    await page.keyboard.press('Enter');
    await drawerClosed(page, 'cart-drawer');
    await focusIs(s, 'DisclosureTriangle', 'Open cart summary', 'Close put the drawer away');
    await page.keyboard.press('Enter');
    // As at the first opening: focus moves to the heading once the drawer is open (asserted
    // before it opened, a run saw focus still on the summary).
    await openDialog(page, 'cart-panel').waitFor();
    await focusIs(s, 'heading', 'Shopping Cart', 'the cart summary opened again');
  }
  await tabTo(s, 'link', 'View Shopping Cart', { max: 2 });
  await page.keyboard.press('Enter');
  await loaded(s, js, /\/cart$/, 'Shopping Cart');
  await page.getByText('Need 23 More').waitFor();
}

/**
 * The cart page: Proceed To Checkout is blocked and says why (pressing it changes nothing); the
 * case is filled with the quantity field; then it leads to checkout.
 */
async function fillTheCase(s, js) {
  const { page } = s;
  const blocked = await tabTo(s, 'button', 'Proceed To Checkout');
  assert.equal(blocked.disabled, true, 'it says it is unavailable');
  assert.equal(blocked.description, INCOMPLETE, 'its description is the reason');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-disabled')), 'true');
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  assert.match(page.url(), /\/cart$/, 'a blocked Proceed To Checkout goes nowhere');
  await focusIs(s, 'button', 'Proceed To Checkout', 'focus stays on the blocked action');
  if (js) assert.ok((await announced(page)).includes(INCOMPLETE), 'pressed, it says why again');
  // Back to the item's quantity: 24 bottles fill the case.
  await tabTo(s, 'spinbutton', 'Quantity of Tala Pale Pilsen 320 ml', { back: true });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('24');
  if (js) {
    await page.getByRole('status').filter({ hasText: UPDATED }).waitFor();
    // The message is said a task before the new cart is drawn: focus is asked for after it.
    await page.getByText('24 of 24 bottles').waitFor();
    await focusIs(s, 'spinbutton', 'Quantity of Tala Pale Pilsen 320 ml', 'focus stays in the field while the cart changes');
  } else {
    // Without JavaScript Enter sends the item's form.
    await page.keyboard.press('Enter');
    await loaded(s, js, /\/cart\?done=updated/, 'Shopping Cart');
    assert.ok((await announced(page)).includes(UPDATED), `the update is said: ${await announced(page)}`);
  }
  await page.getByText('24 of 24 bottles').waitFor();
  await noViolations(page, js, 'the cart page, the case full');
  await tabTo(s, 'link', 'Proceed To Checkout');
  await page.keyboard.press('Enter');
  await loaded(s, js, /\/checkout$/, 'Checkout');
}

/** Checkout: the contact and the address typed in, Submit Order; answers the order page's text. */
async function submitOrder(s, js, email) {
  const { page } = s;
  const type = async (label, text) => {
    await tabTo(s, 'textbox', label);
    await page.keyboard.type(text);
  };
  await type('Contact name', 'Ligaya Santos');
  await type('Mobile number', '09171239876');
  await type('Email address', email);
  await type('House or unit number, building and street', 'Unit 5B, 12 Jupiter St.');
  await noViolations(page, js, 'checkout, filled in');
  const submit = await tabTo(s, 'button', 'Submit Order');
  assert.equal(submit.disabled, undefined, 'Submit Order can go');
  await page.keyboard.press('Enter');
  await loaded(s, js, /\/active-order\/\d+/, /^Order TB-\d{6}$/);
  await noViolations(page, js, 'the order page');
  return page.locator('main').innerText();
}

for (const js of [true, false]) {
  const mode = js ? 'JS on' : 'JS off';

  test(`${mode}: the whole purchase with the keyboard alone`, async () => {
    const s = await shopper(js);
    await addToCart(s, js);
    await accountDrawer(s, js);
    await toCartPage(s, js);
    await fillTheCase(s, js);
    const order = await submitOrder(s, js, `keys.${js ? 'on' : 'off'}@example.com`);
    assert.match(order, /Tala Pale Pilsen 320 ml/);
    assert.match(order, /Ligaya Santos/);
    assert.equal(await s.page.locator('.cart-count').innerText(), '0');
    assert.deepEqual(s.problems, []);
    await s.context.close();
  });
}

/**
 * Puts `quantity` of a product in the context's cart through the API (as the cart page would),
 * asking for a guest token first (e2e/checkout.test.mjs).
 */
async function fillCart(context, product_id, quantity) {
  const guest = await context.request.post(`${store.base}/api/v1/guest-token`, { headers: { origin: store.base } });
  assert.equal(guest.status(), 200, await guest.text());
  const res = await context.request.post(`${store.base}/api/v1/cart`, {
    data: { product_id, quantity, barangay: 1380300002, street_id: 1 },
    headers: { origin: store.base },
  });
  assert.equal(res.status(), 200, await res.text());
}

for (const js of [true, false]) {
  const mode = js ? 'JS on' : 'JS off';

  test(`${mode}: a blocked Submit Order is reached by Tab, says why, and places no order`, async () => {
    const s = await shopper(js);
    const { page } = s;
    // Three bottles: a case not yet full. Checkout opened by its address.
    await fillCart(s.context, 1, 3);
    await page.goto(`${store.base}/checkout`);
    await loaded(s, js, /\/checkout$/, 'Checkout');
    const posts = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/checkout') posts.push(r.status());
    });
    await tabTo(s, 'textbox', 'Contact name');
    await page.keyboard.type('Ligaya Santos');
    await tabTo(s, 'textbox', 'Mobile number');
    await page.keyboard.type('09171239876');
    await tabTo(s, 'textbox', 'Email address');
    await page.keyboard.type(`blocked.${js ? 'on' : 'off'}@example.com`);
    await tabTo(s, 'textbox', 'House or unit number, building and street');
    await page.keyboard.type('Unit 5B, 12 Jupiter St.');
    if (js) {
      // Enter in a field sends nothing either.
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      assert.deepEqual(posts, []);
    }
    const submit = await tabTo(s, 'button', 'Submit Order');
    assert.equal(submit.disabled, true, 'it says it is unavailable');
    assert.equal(submit.description, INCOMPLETE, 'its description is the reason');
    await noViolations(page, js, 'checkout, blocked');
    await page.keyboard.press('Enter');
    if (js) {
      await page.waitForTimeout(300);
      assert.deepEqual(posts, [], 'nothing was sent');
      await focusIs(s, 'button', 'Submit Order', 'focus stays on the blocked action');
      assert.ok((await announced(page)).includes(INCOMPLETE), 'pressed, it says why again');
    } else {
      // Without JavaScript the form posts and the server refuses it with the reason.
      await page.getByRole('alert').filter({ hasText: INCOMPLETE }).waitFor();
      assert.deepEqual(posts, [422]);
      assert.equal((await focused(s)).tag, 'BODY');
    }
    assert.match(page.url(), /\/checkout$/);
    assert.equal(await page.locator('.cart-count').innerText(), '1', 'the cart is still there: no order');
    assert.deepEqual(s.problems.filter((p) => !/status of 422/.test(p)), []);
    await s.context.close();
  });

  test(`${mode}: the phone menu by keyboard`, async () => {
    const s = await shopper(js, { viewport: { width: 390, height: 844 } });
    const { page } = s;
    await page.goto(`${store.base}/faqs`);
    await loaded(s, js, /\/faqs$/, 'Frequently Asked Questions');
    await tabTo(s, 'DisclosureTriangle', 'Menu', { max: 5 });
    await page.keyboard.press('Enter');
    if (js) {
      await openDialog(page, 'drawer-panel').waitFor();
      await focusIs(s, 'link', 'Home', 'the menu opened on its first link');
      assert.equal(await page.getByRole('dialog', { name: 'Menu' }).getAttribute('aria-modal'), 'true');
      await noViolations(page, js, 'the phone menu open');
      const names = await tabStaysInside(s, 'drawer-panel');
      assert.ok(names.includes('button "Close"') && names.includes('link "Home"'), names.join(', '));
      await page.keyboard.press('Escape');
      await drawerClosed(page, 'drawer-left');
      await focusIs(s, 'DisclosureTriangle', 'Menu', 'Escape closed the menu');
    } else {
      // A disclosure in the page: its links come next; Enter on the summary closes it.
      assert.equal((await focused(s)).expanded, true);
      await tabTo(s, 'link', 'Home', { max: 1 });
      await tabTo(s, 'DisclosureTriangle', 'Menu', { back: true, max: 1 });
      await page.keyboard.press('Enter');
      assert.equal((await focused(s)).expanded, false);
    }
    assert.deepEqual(s.problems, []);
    await s.context.close();
  });
}

test('JS on: the policy modal keeps Tab inside, as the drawers do', async () => {
  const context = await newContext([], { bypassCSP: true });
  const page = await context.newPage();
  const s = { page, cdp: await context.newCDPSession(page) };
  await page.goto(`${store.base}/faqs`);
  await hydrated(page);
  await focusIs(s, 'dialog', 'PRIVACY / COOKIE POLICY', 'the policy modal takes focus');
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    const f = await focused(s);
    assert.ok(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]')), `after ${key} focus left the modal for ${JSON.stringify(f)}`);
  }
  await tabTo(s, 'button', 'AGREE AND PROCEED', { max: 4 });
  await page.keyboard.press('Enter');
  // The next gate takes focus in turn.
  await page.getByRole('dialog', { name: 'Cheers! What are you ordering?' }).waitFor();
  await focusIs(s, 'dialog', 'Cheers! What are you ordering?', 'the category gate takes focus');
  await context.close();
});
