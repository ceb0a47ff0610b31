// The browser tests' one setup: a test file calls `useStoreAndBrowser()` once; before its first
// test the store starts (startStore) and Debian's Chromium is launched, after its last both close.
// `store` and `browser` are live bindings: read them inside tests.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before } from 'node:test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { startStore } from './server.mjs';

export const chromiumOptions = {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** The store of this test file (`store.base`, `store.mailedLink`). */
export let store;
/** Chromium, launched with `chromiumOptions`. */
export let browser;

/** `options`: the store's (`startStore`), e.g. `{ generatedProducts: 200 }`. */
export function useStoreAndBrowser(options = {}) {
  before(async () => {
    store = await startStore(options);
    browser = await chromium.launch(chromiumOptions);
  });
  after(async () => {
    await browser?.close();
    await store?.stop();
  });
}

/** The cookies of a shopper past the gates: bottles, delivered to Bel-Air, Makati (delivery fee P150). */
export const MAKATI_SHOPPER = [
  'privacyVerification=1',
  'cookieAccepted=1',
  'categoryGateId=1',
  'categoryName=BOTTLES',
  'locationGateFulfillmentId=1',
  'locationGateCityId=1380300000',
  'locationGateBarangayId=1380300002',
  'gateCityName=Makati%20City',
  'gateBrgyName=Bel-Air',
];

/** RFC 6238's code (SHA-1, 6 digits, 30 s) of a base32 key, as an authenticator app shows it. */
export function totp(base32, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of base32.replace(/[\s=]/g, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** Sets cookies (`'name=value'`) for the store's address (or `base`). */
export async function addCookies(context, cookies, base = store.base) {
  await context.addCookies(
    cookies.map((c) => {
      const at = c.indexOf('=');
      return { name: c.slice(0, at), value: c.slice(at + 1), url: base };
    }),
  );
}

/** A new browser context (`options` as playwright's) holding `cookies` (`'name=value'`). */
export async function newContext(cookies = [], options = {}) {
  const context = await browser.newContext(options);
  if (cookies.length) await addCookies(context, cookies);
  return context;
}

/** Waits until the page is interactive (App marks the document once hydrated). */
export const hydrated = (page) => page.waitForSelector('html[data-hydrated="true"]');

/** axe-core, to add to a page with `page.addScriptTag({ content: axeSource })`. */
export const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page as it is, one line each (`rule: elements`). */
export async function axeViolations(page) {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const r = await globalThis.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Asserts axe finds nothing on the page (with JavaScript on: axe runs in the page); `where` names it. */
export async function noViolations(page, js, where) {
  if (!js) return;
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${where}: ${JSON.stringify(violations, null, 1)}`);
}

/**
 * With SCREENSHOTS=folder (`make screenshots`), the whole page's picture saved there as
 * NAME.png: the pictures of the back office in docs/back-office.md. Without it, nothing.
 */
export async function screenshot(page, name) {
  const folder = process.env.SCREENSHOTS;
  if (!folder) return false;
  await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
  return true;
}

/**
 * A member of staff added from the command line (`role`), who chooses `password` by the mailed
 * link and signs in with both factors in a new context (JavaScript `js`, and `contextOptions` such
 * as a phone's viewport): the signed-in page.
 */
export async function staffSignedIn(email, role, name, password, js, contextOptions = {}) {
  store.command(['staff', 'add', email, '--role', role, '--name', name]);
  const link = await store.mailedLink(email, '/staff/password\\?token=');
  const context = await newContext([], { javaScriptEnabled: js, bypassCSP: true, ...contextOptions });
  const page = await context.newPage();
  const ready = async () => {
    if (js) await hydrated(page);
  };
  await page.goto(link);
  await ready();
  await page.getByLabel('New password').fill(password);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await page.waitForURL(/done=password/);
  await ready();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/second-factor/);
  await ready();
  const key = (await page.locator('li code').first().textContent()).trim();
  await page.getByLabel('Code from your app').fill(totp(key));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/staff\?done=signed-in/);
  await ready();
  return { context, page, ready };
}

/** A guest's order of a case of bottles for delivery in Bel-Air, Makati, placed through the API (from client `ip`): its number. */
export async function guestOrder(email, name = 'Ana Santos', ip = '192.0.2.77') {
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': ip };
  const token = (await fetch(`${store.base}/api/v1/guest-token`, { method: 'POST', headers })).headers.get('access-token');
  const auth = { ...headers, authorization: `Bearer ${token}` };
  const add = { product_id: 1, quantity: 24, barangay: 1380300002, street_id: 1 };
  const cart = await (await fetch(`${store.base}/api/v1/cart`, { method: 'POST', headers: auth, body: JSON.stringify(add) })).json();
  const form = {
    contact_name: name,
    mobile: '09171234567',
    email,
    address: 'Unit 5B, 12 Jupiter St.',
    barangay: 1380300002,
    street_id: 1,
    fulfillment: 1,
    revision: cart.revision,
    expected_total: cart.cart_order_summary.subtotal,
  };
  const res = await fetch(`${store.base}/api/v1/orders`, { method: 'POST', headers: auth, body: JSON.stringify(form) });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).order.number;
}

/** A member registered through the API and the link mailed to them (`who`: the registration's fields, its password among them). */
export async function registeredMember(who) {
  const json = (body, extra = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify(body) });
  const pre = await fetch(`${store.base}/api/v1/pre-register`, json(who));
  assert.equal(pre.status, 200, await pre.text());
  const token = new URL(await store.mailedLink(who.email, '/registration\\?token=')).searchParams.get('token');
  const reg = await fetch(`${store.base}/api/v1/registration`, json({ password: who.password }, { 'registration-token': token }));
  assert.equal(reg.status, 200, await reg.text());
}
