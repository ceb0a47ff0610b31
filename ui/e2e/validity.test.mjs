// HTML validity: the Nu HTML Checker (`vnu-jar`, pinned in package.json)
// over the HTML the server answers for every route of ui/dist/routes.json, as a guest and as a
// member, with the gates open (policy, category, each step of the location gate), with forms that
// come back with errors (posted without JavaScript), with a cart, at checkout and on an order's
// page. Every page is saved to a folder and checked in one run of the checker (`--format json`):
// any error fails, naming its page; warnings are printed and pass. The checker runs on Java 11 or
// later (`java` on PATH); without it this test fails, it never skips.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'playwright-core';
import { totp } from './browser.mjs';
import { startStore } from './server.mjs';

const require = createRequire(import.meta.url);
const VNU_JAR = String(require('vnu-jar'));
const ROUTES = JSON.parse(readFileSync(new URL('../dist/routes.json', import.meta.url), 'utf8'));

/** A Tuesday afternoon in Manila: within the hours, outside the blackout (orders can be placed). */
const OPEN = '2026-11-24T14:00';
const MAKATI = 1380300002;
/** Past the gates: bottles, delivered to Bel-Air, Makati, Jupiter Street. */
const PAST_GATES = {
  cookieAccepted: '1',
  privacyVerification: '1',
  ageVerification: '1',
  categoryGateId: '1',
  categoryName: 'BOTTLES',
  locationGateFulfillmentId: '1',
  locationGateCityId: '1380300000',
  locationGateBarangayId: String(MAKATI),
  locationGateStreetId: '1',
  gateCityName: 'Makati%20City',
  gateBrgyName: 'Bel-Air',
};
/** Examples of the routes whose path has a parameter (a new one must be given one here). */
const PRODUCTS = ['tala-pale-pilsen-320ml', 'tala-pale-pilsen-can-330ml', 'tala-pale-pilsen-keg-30l', 'ube-porter-can-330ml'];

let store;
before(async () => {
  store = await startStore();
});
after(async () => {
  await store?.stop();
});

/** Java 11 or later, or a failure that says what to install. */
function requireJava() {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const version = Number(/version "(\d+)/.exec(`${r.stderr}${r.stdout}`)?.[1] ?? 0);
  if (r.error || r.status !== 0 || version < 11) {
    throw new Error(
      `The Nu HTML Checker needs Java 11 or later as \`java\` on PATH (Debian: apt-get install default-jre-headless); found: ${r.error?.message ?? (r.stderr || 'nothing').trim()}`,
    );
  }
}

/** A visitor: a cookie jar of its own, sending the store's Origin like a browser on its pages. */
async function visitor(cookies = {}) {
  const url = new URL(store.base);
  return request.newContext({
    baseURL: store.base,
    extraHTTPHeaders: { origin: store.base },
    storageState: {
      cookies: Object.entries(cookies).map(([name, value]) => ({
        name,
        value,
        domain: url.hostname,
        path: '/',
        expires: -1,
        httpOnly: false,
        secure: false,
        sameSite: 'Lax',
      })),
      origins: [],
    },
  });
}

/** The pages to check: what was asked for, its status and its HTML. */
const pages = [];

/** What a page says (its main, or the start of the body), for a failure's message. */
const root = (html) => (/<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? html).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 600);

/** Keeps a page the server answered, checking it is the HTML page expected. */
async function keep(label, res, status) {
  const body = await res.text();
  assert.equal(res.status(), status, `${label}: ${res.url()} answered ${res.status()}: ${root(body)}`);
  assert.match(res.headers()['content-type'] ?? '', /^text\/html/, `${label}: HTML`);
  pages.push({ label, url: res.url(), html: body });
  return body;
}

/** GETs a page and keeps it. */
async function page(ctx, label, url, status = 200) {
  return keep(label, await ctx.get(url, { maxRedirects: 0 }), status);
}

const decode = (s) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const attrs = (tag) => Object.fromEntries([...tag.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].slice(1).map(([, k, v]) => [k, decode(v ?? '')]));

/**
 * The form of a page that runs `call` (its hidden `_call`), as a browser without JavaScript would
 * send it: its address and its fields (hidden ones, typed values, checked boxes, chosen options).
 */
function formOf(html, call) {
  for (const [, open, inner] of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    if (!inner.includes(`name="_call" value="${call}"`)) continue;
    const fields = {};
    for (const [tag] of inner.matchAll(/<input\b[^>]*>/g)) {
      const a = attrs(tag);
      if (!a.name || a.form) continue;
      if ((a.type === 'radio' || a.type === 'checkbox') && !('checked' in a)) continue;
      fields[a.name] = a.value ?? (a.type === 'checkbox' ? 'on' : '');
    }
    for (const [, open2, options] of inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
      const a = attrs(`<select ${open2}>`);
      const chosen = [...options.matchAll(/<option\b([^>]*)>/g)].map(([, o]) => attrs(`<option ${o}>`));
      if (a.name) fields[a.name] = (chosen.find((o) => 'selected' in o) ?? chosen[0])?.value ?? '';
    }
    for (const [, open3, text] of inner.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
      const a = attrs(`<textarea ${open3}>`);
      if (a.name) fields[a.name] = decode(text);
    }
    return { action: attrs(`<form ${open}>`).action, fields };
  }
  throw new Error(`no form runs ${call}`);
}

/**
 * Posts the form that runs `call` on the page at `url` without JavaScript, with `fields` changed,
 * and keeps the answer: the page again with the form's errors (`status`), or where a 303 sends
 * the browser.
 */
async function post(ctx, label, url, call, fields, status) {
  const form = formOf(await (await ctx.get(url)).text(), call);
  const res = await ctx.post(form.action ?? url, { form: { ...form.fields, ...fields }, maxRedirects: 0 });
  if (status === 303) {
    assert.equal(res.status(), 303, `${label}: ${root(await res.text())}`);
    const to = res.headers().location;
    await page(ctx, `${label}, then ${to}`, to);
    return to;
  }
  await keep(label, res, status);
  return null;
}

/** Puts products in the visitor's cart through the API (a guest asks for a token first). */
async function fillCart(ctx, items, guest) {
  if (guest) assert.equal((await ctx.post('/api/v1/guest-token', { data: {} })).status(), 200);
  for (const [product_id, quantity] of items) {
    const res = await ctx.post('/api/v1/cart', { data: { product_id, quantity, barangay: MAKATI, street_id: 1 } });
    assert.equal(res.status(), 200, await res.text());
  }
}

/** A member made through the API and the mailed link, logged in, with a saved address. */
async function member(who) {
  const ctx = await visitor(PAST_GATES);
  const pre = await ctx.post('/api/v1/pre-register', { data: { ...who, birth_date: '1988-08-08', accept_terms: true } });
  assert.equal(pre.status(), 200, await pre.text());
  const token = new URL(await store.mailedLink(who.email, '/registration\\?token=')).searchParams.get('token');
  const reg = await ctx.post('/api/v1/registration', { headers: { 'registration-token': token }, data: { password: who.password } });
  assert.equal(reg.status(), 200, await reg.text());
  const login = await ctx.post('/api/v1/login', { data: { login: who.email, password: who.password } });
  assert.equal(login.status(), 200, await login.text());
  const address = await ctx.post('/api/v1/user/addresses', { data: { address: 'Unit 5, 9 Jupiter St.', barangay_id: MAKATI, street_id: 1 } });
  assert.equal(address.status(), 201, await address.text());
  return ctx;
}

/**
 * A manager signed in through the API as the back office's pages do it: the mailed link's
 * password, then the second factor set up with a code of its key.
 */
async function staffMember(email, role = 'manager', name = 'Vera Cruz') {
  store.command(['staff', 'add', email, '--role', role, '--name', name]);
  const token = new URL(await store.mailedLink(email, '/staff/password\\?token=')).searchParams.get('token');
  const ctx = await visitor();
  const chosen = await ctx.post('/api/v1/staff/password', { data: { token, password: 'valid-staff-html-26' } });
  assert.equal(chosen.status(), 200, await chosen.text());
  const signed = await ctx.post('/api/v1/staff/login', { data: { email, password: 'valid-staff-html-26' } });
  assert.equal(signed.status(), 200, await signed.text());
  const enrollment = await (await ctx.get('/api/v1/staff/second-factor')).json();
  const secret = enrollment.enrollment.secret.replace(/ /g, '');
  const whole = await ctx.post('/api/v1/staff/second-factor', { data: { code: totp(secret) } });
  assert.equal(whole.status(), 200, await whole.text());
  return ctx;
}

/** The routes a visitor can see (not sent on elsewhere), with an example address for each. */
function routePaths(role, examples) {
  const out = [];
  for (const r of ROUTES.routes) {
    if (r.redirect || (r.guard === 'member' && role === 'guest') || (r.guard === 'guest' && role === 'member')) continue;
    // The back office's pages are the staff's (a visitor is sent to sign in): checked as staff.
    if (Boolean(r.signIn || r.path.startsWith('/staff/')) !== (role === 'staff')) continue;
    if (r.path.includes('{')) {
      assert.ok(examples[r.name]?.length, `the route ${r.name} (${r.path}) needs an example address in validity.test.mjs`);
      for (const p of examples[r.name]) out.push([r.name, p]);
    } else {
      out.push([r.name, r.path]);
    }
  }
  return out;
}

/** Runs the checker once over every kept page: its messages, by page. */
function check(list) {
  const dir = mkdtempSync(path.join(tmpdir(), 'vnu-'));
  try {
    const files = list.map((p, i) => {
      const file = path.join(dir, `${String(i).padStart(3, '0')}.html`);
      writeFileSync(file, p.html);
      return file;
    });
    const r = spawnSync('java', ['-jar', VNU_JAR, '--format', 'json', '--stdout', '--exit-zero-always', ...files], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    assert.equal(r.status, 0, `the checker ran: ${r.error?.message ?? r.stderr}`);
    const { messages } = JSON.parse(r.stdout);
    return messages.map((m) => {
      const at = m.url ? Number(/(\d+)\.html$/.exec(m.url)?.[1]) : NaN;
      return { ...m, page: list[at] };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every route, as a guest and a member, with gates, form errors, a cart, checkout and orders, is valid HTML', { timeout: 300_000 }, async () => {
  requireJava();
  // A guest past the gates, with a cart of bottles; an order placed without JavaScript.
  const guest = await visitor(PAST_GATES);
  await page(guest, 'guest, empty cart', '/cart');
  await fillCart(guest, [[1, 24], [2, 24]], true);
  await page(guest, 'guest, cart with items', '/cart');
  await post(guest, 'guest, checkout with errors', `/checkout?testdate=${OPEN}`, 'placeOrder', { contact_name: '', mobile: '123', email: 'nope', address: '' }, 422);
  const placed = await post(
    guest,
    'guest, order placed',
    `/checkout?testdate=${OPEN}`,
    'placeOrder',
    { contact_name: 'Lia Santos', mobile: '09171234567', email: 'lia.validity@example.com', address: 'Unit 3, 9 Jupiter St.' },
    303,
  );
  assert.match(placed, /^\/active-order\/\d+\?key=/, 'a guest lands on the order');
  const guestOrder = placed;
  await fillCart(guest, [[1, 24]], false);
  await page(guest, 'guest, checkout with items', `/checkout?testdate=${OPEN}`);

  // Every route a guest sees (the cart and checkout above with items, here as they come).
  for (const [name, p] of routePaths('guest', { product: PRODUCTS.map((s) => `/single-product/${s}`), 'active-order': [guestOrder] })) {
    await page(guest, `guest, ${name}`, p);
  }
  await page(guest, 'guest, not found', '/no-such-page', 404);
  // Other states of the shop's pages.
  for (const p of [
    '/?testdate=2025-05-06',
    '/?testdate=2025-05-12',
    '/?accountSuccessDelete=yes',
    '/?gate=category',
    '/buy-beer?filterByType=keg',
    '/faqs?newsletter=invalid',
    '/faqs?newsletter=sent',
    '/cart?done=added',
    '/login?done=logout',
    '/registration?done=sent',
    '/registration?token=no-such-token',
    '/reset-password?done=sent',
    '/reset-password?suid=no-such-link',
    '/newsletter/confirm?token=no-such-token',
    '/cart?gate=category&reset=3',
  ]) {
    await page(guest, `guest, ${p}`, p);
  }
  const noticeSeen = await visitor({ ...PAST_GATES, locationNotice: '1' });
  await page(noticeSeen, 'the location notice put away', `/single-product/${PRODUCTS[0]}`);
  const bacoor = await visitor({ ...PAST_GATES, categoryGateId: '2', locationGateCityId: '402103000', locationGateBarangayId: '402103004', locationGateStreetId: '' });
  await page(bacoor, 'a product not sold at the place', '/single-product/bangkal-double-ipa-can-473ml');

  // The gates open: the policy, the category, each step of the location gate (no JavaScript).
  const newcomer = await visitor();
  await page(newcomer, 'gate: policy', '/');
  await page(newcomer, 'gate: policy on the splash', '/splash');
  const agreed = await visitor({ cookieAccepted: '1', privacyVerification: '1', ageVerification: '1' });
  await page(agreed, 'gate: category', '/buy-beer');
  const categorised = await visitor({ cookieAccepted: '1', privacyVerification: '1', categoryGateId: '1' });
  await page(categorised, 'gate: location, provinces', '/buy-beer');
  await page(categorised, 'gate: location, cities', '/buy-beer?gate=location&fulfillment=1&province=53');
  await page(categorised, 'gate: location, barangays', '/buy-beer?gate=location&fulfillment=1&province=53&city=402103000');
  await page(categorised, 'gate: location, streets', '/buy-beer?gate=location&fulfillment=1&province=51&city=1380300000&barangay=1380300002');
  const kegs = await visitor({ cookieAccepted: '1', privacyVerification: '1', categoryGateId: '3' });
  await page(kegs, 'gate: location for kegs', '/buy-beer');

  // Guests' forms with errors, posted without JavaScript.
  const forms = await visitor(PAST_GATES);
  await post(forms, 'login, wrong password', '/login', 'login', { login: 'nobody@example.com', password: 'not-the-password-1' }, 422);
  await post(forms, 'registration, empty', '/registration', 'preRegister', {}, 422);
  await post(forms, 'reset link, bad email', '/reset-password', 'resetLink', { email: 'not-an-email' }, 422);
  const news = await forms.post('/newsletter', { form: { email: 'nope', return_to: '/faqs' }, maxRedirects: 0 });
  assert.equal(news.status(), 303);
  await page(forms, 'newsletter, bad email', news.headers().location.replace(/#.*/, ''));
  await post(guest, 'cart, a quantity past the limit', '/cart', 'updateCart', { quantity: '5000' }, 422);
  // The pages of emailed links, and their forms with errors.
  const mailed = async (to, prefix) => {
    const link = new URL(await store.mailedLink(to, prefix));
    return link.pathname + link.search;
  };
  const ines = { first_name: 'Ines', last_name: 'Reyes', email: 'ines.validity@example.com', mobile: '09171230098', birth_date: '1990-01-02', accept_terms: true };
  assert.equal((await forms.post('/api/v1/pre-register', { data: ines })).status(), 200);
  const registration = await mailed(ines.email, '/registration\\?token=');
  await page(forms, 'registration link', registration);
  await post(forms, 'registration link, weak password', registration, 'registration', { password: 'password' }, 422);
  assert.equal((await forms.post('/newsletter', { form: { email: 'ines.news@example.com', return_to: '/faqs' }, maxRedirects: 0 })).status(), 303);
  await page(forms, 'newsletter confirmation link', await mailed('ines.news@example.com', '/newsletter/confirm\\?token='));

  // A member: every route they see, with a cart, at checkout, an order, and their forms' errors.
  const cora = await member({ first_name: 'Cora', last_name: 'Lim', email: 'cora.validity@example.com', mobile: '09171230099', password: 'valid-html-2026' });
  await fillCart(cora, [[3, 24]], false);
  await page(cora, 'member, checkout with items', `/checkout?testdate=${OPEN}`);
  await post(cora, 'member, checkout with errors', `/checkout?testdate=${OPEN}`, 'placeOrder', { contact_name: '', mobile: '12' }, 422);
  const coraOrder = await post(cora, 'member, order placed', `/checkout?testdate=${OPEN}`, 'placeOrder', { contact_name: 'Cora Lim', mobile: '09171230099' }, 303);
  const link = /^\/active-order\/\d+/.exec(coraOrder)?.[0];
  assert.ok(link, `the member lands on their order (${coraOrder})`);
  await fillCart(cora, [[1, 30]], false);
  // A Go-to Case (the cart offers it in its form; its page lists it), the form's errors,
  // and Order Again landing on the cart.
  const saved = await cora.post('/api/v1/user/goto-case', { data: { name: 'Usual <b>&', cart_items: [1] } });
  assert.equal(saved.status(), 200, await saved.text());
  await post(cora, 'member, Go-to Case form with errors', '/cart', 'createGotoCase', { cart_items: '1' }, 422);
  await post(cora, 'member, Order Again', link, 'orderAgain', {}, 303);
  for (const [name, p] of routePaths('member', { product: PRODUCTS.map((s) => `/single-product/${s}`), 'active-order': [link] })) {
    await page(cora, `member, ${name}`, p);
  }
  await page(cora, 'member, location gate with saved addresses', '/buy-beer?gate=location');
  await post(cora, 'member, profile with errors', '/my-account', 'updateUser', { first_name: '', mobile: 'abc', birth_date: '2020-01-01' }, 422);
  await post(cora, 'member, password with errors', '/change-password', 'changePassword', { current_password: 'wrong-one-here', password: 'short' }, 422);
  await post(cora, 'member, address with errors', '/my-account/addresses', 'createAddress', { address: '' }, 422);
  await post(cora, 'member, delete without the box', '/my-account/delete-account', 'deleteUser', { current_password: 'valid-html-2026' }, 422);
  await post(cora, 'member, first address with errors', '/setup-address', 'createAddress', { address: '' }, 422);
  // The back office: every page a manager sees, and its forms with errors.
  const vera = await staffMember('vera.validity@example.com');
  const orderId = /^\/active-order\/(\d+)/.exec(guestOrder)?.[1];
  // A run of the guest's order (confirmed) for a rider: its page, pick list and run sheet.
  const val = await staffMember('val.rider@example.com', 'rider', 'Val Rider');
  const plan = await (await vera.get('/api/v1/staff/runs')).json();
  const confirmed = await vera.post('/api/v1/staff/orders/status', { data: { order_ids: [Number(orderId)], status: 'confirmed' } });
  assert.equal(confirmed.status(), 200, await confirmed.text());
  await post(vera, 'staff, a run without a rider', '/staff/runs', 'staffRunCreate', { day: plan.today }, 422);
  const made = await vera.post('/api/v1/staff/runs', { data: { rider_id: plan.riders.find((r) => r.name === 'Val Rider').id, day: plan.today, order_ids: [Number(orderId)] } });
  assert.equal(made.status(), 200, await made.text());
  const runId = (await made.json()).run_id;
  const runPages = { 'staff-run': [`/staff/runs/${runId}`], 'staff-pick-list': [`/staff/runs/${runId}/pick-list`], 'staff-run-sheet': [`/staff/runs/${runId}/sheet?paper=receipt`] };
  // A catalog file uploaded as the import page's form sends it, for its page of changes.
  const csrf = /name="csrf" value="([^"]+)"/.exec(await (await vera.get('/staff/catalog/import')).text())[1];
  const file = await (await vera.get('/staff/catalog/export')).json();
  file.products[0].price += 100;
  const uploaded = await vera.post('/staff/catalog/import', {
    multipart: { csrf, file: { name: 'catalog.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) } },
    maxRedirects: 0,
  });
  assert.equal(uploaded.status(), 303, await uploaded.text());
  const catalogPages = { 'staff-product': ['/staff/catalog/products/21'], 'staff-catalog-draft': [uploaded.headers().location] };
  for (const [name, p] of routePaths('staff', { 'staff-order': [`/staff/orders/${orderId}`], ...runPages, ...catalogPages })) {
    await page(vera, `staff, ${name}`, p);
  }
  const sent = await vera.post(`/api/v1/staff/runs/${runId}/send`);
  assert.equal(sent.status(), 200, await sent.text());
  await page(vera, 'staff, a run out (its stops to end)', `/staff/runs/${runId}`);
  await post(vera, 'staff, a stop with cash that is no amount', `/staff/runs/${runId}`, 'staffRunStop', { runId: String(runId), orderId, form: `end-${orderId}`, outcome: 'delivered', cash_received: 'lots' }, 422);
  // Its rider's screen: one stop at a time, and its form refused without the cash.
  await page(val, 'staff, a rider’s run out (one stop at a time)', `/staff/runs/${runId}`);
  await post(val, 'staff, a rider’s stop without the cash', `/staff/runs/${runId}`, 'staffRunStop', { runId: String(runId), orderId, form: `end-${orderId}`, outcome: 'delivered', cash_received: '' }, 422);
  await page(vera, 'staff, the board filtered', '/staff/orders?status=placed&how=1&q=Lia');
  await post(vera, 'staff, a move without a reason', `/staff/orders/${orderId}`, 'staffOrderStatus', { status: 'cancelled' }, 422);
  await post(vera, 'staff, a member without an email', '/staff/team', 'staffAdd', { email: '' }, 422);
  await post(vera, 'staff, a product priced too high', '/staff/catalog/products/21', 'staffProductSave', { price: '2,000,000' }, 422);
  await post(vera, 'staff, a banner ending before it starts', '/staff/catalog/banners', 'staffBannerSave', { starts_on: '2031-12-24', ends_on: '2031-12-01' }, 422);
  await post(vera, 'staff, a promo ending before it starts', '/staff/catalog/promos', 'staffPromoSave', { form: 'promo-1', promoId: '1', starts_on: '2031-12-24', ends_on: '2031-12-01' }, 422);
  await post(vera, 'staff, a holiday without a name', '/staff/catalog/calendar', 'staffHolidaySave', { form: 'holiday-new', name: '', starts_on: '2031-12-24', ends_on: '2031-12-24' }, 422);
  await post(vera, 'staff, a deposit that is no amount', '/staff/catalog/charges', 'staffDepositSave', { form: 'deposit-1', depositId: '1', amount: 'lots' }, 422);
  await post(vera, 'staff, products sold in no city named', '/staff/catalog', 'staffCitiesSave', { products: '17' }, 422);
  await post(forms, 'staff, sign-in with a wrong password', '/staff/login', 'staffLogin', { email: 'vera.validity@example.com', password: 'not-her-password-1' }, 422);

  // A forgotten password's link (asked for by a guest), and its form with errors.
  assert.equal((await forms.post('/api/v1/reset/password/get-link', { data: { email: 'cora.validity@example.com' } })).status(), 200);
  const reset = await mailed('cora.validity@example.com', '/reset-password\\?suid=');
  await page(forms, 'reset link', reset);
  await post(forms, 'reset link, short password', reset, 'resetPassword', { password: 'short' }, 422);

  const messages = check(pages);
  const errors = messages.filter((m) => m.type !== 'info');
  const warnings = messages.filter((m) => m.type === 'info' && m.subType === 'warning');
  const line = (m) => `${m.page?.label ?? '?'} (${m.page?.url ?? m.url}) line ${m.lastLine}: ${m.message}\n    ${(m.extract ?? '').replace(/\n/g, ' ')}`;
  if (warnings.length) console.log(`${warnings.length} warnings (not failures):\n${warnings.map(line).join('\n')}`);
  console.log(`${pages.length} pages checked, ${errors.length} errors, ${warnings.length} warnings`);
  assert.deepEqual(errors.map(line), [], 'the Nu HTML Checker finds no errors');
});
