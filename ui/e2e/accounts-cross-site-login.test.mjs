// Login CSRF: a page of another origin (here another loopback port, which browsers count as the
// same site) cannot log the browser into the store with the attacker's account, neither through the
// JSON API (a text/plain form whose body reads as JSON) nor through the store's no-JS login form.
// A control logs in from the store's own page, to show the checks see a logged-in browser.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

const mallory = {
  first_name: 'Mallory',
  last_name: 'Reyes',
  email: 'mallory@example.com',
  mobile: '09171112222',
  birth_date: '1990-01-01',
  password: 'Smoky-Porter-4471',
  accept_terms: true,
};

/** The attacker's site: each test puts its page here, served as HTML at `attacker.base + path`. */
const attacker = { base: '', pages: new Map(), server: null };

// Once, at the first test's start (Node 20 does not await one root `before` before the next, so
// a hook here could run before the store is up):
// the attacker's site and account.
let setUp;
const attackerReady = () => (setUp ??= setUpAttacker());

async function setUpAttacker() {
  attacker.server = createServer((req, res) => {
    const html = attacker.pages.get(req.url);
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html ?? 'not found');
  });
  await new Promise((resolve, reject) => {
    attacker.server.once('error', reject);
    attacker.server.listen(0, '127.0.0.1', resolve);
  });
  attacker.base = `http://127.0.0.1:${attacker.server.address().port}`;
  assert.notEqual(new URL(attacker.base).origin, new URL(store.base).origin);

  await makeMember(mallory);
  // The credentials work.
  const login = await fetch(`${store.base}/api/v1/login`, json({ login: mallory.email, password: mallory.password }));
  assert.equal(login.status, 200, await login.text());
}

/** A JSON POST's options (no browser, no Origin: as any API client). */
const json = (body, headers = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** Makes `who` a member through the API and the mailed link, with `who.password` chosen behind it. */
async function makeMember(who) {
  const pre = await fetch(`${store.base}/api/v1/pre-register`, json(who));
  assert.equal(pre.status, 200, await pre.text());
  const token = new URL(await store.mailedLink(who.email, '/registration\\?token=')).searchParams.get('token');
  assert.ok(token);
  const reg = await fetch(`${store.base}/api/v1/registration`, json({ password: who.password }, { 'registration-token': token }));
  assert.equal(reg.status, 200, await reg.text());
}

after(() => new Promise((resolve) => (attacker.server ? attacker.server.close(resolve) : resolve())));

const escape = (s) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Puts a page with one form (its hidden `fields` and a submit button) on the attacker's site; its address. */
function attackerForm(path, { action, enctype, fields }) {
  const inputs = fields.map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('');
  attacker.pages.set(
    path,
    `<!doctype html><html><head><title>Win a keg</title></head><body>` +
      `<form method="post" enctype="${enctype}" action="${escape(action)}">${inputs}<button type="submit">Claim your prize</button></form>` +
      `</body></html>`,
  );
  return `${attacker.base}${path}`;
}

/** Opens the attacker's page in `page`, submits its form and waits for the store's answer page; that answer's status. */
async function submitFromAttacker(page, pageUrl, action) {
  await page.goto(pageUrl);
  assert.equal(new URL(page.url()).origin, attacker.base);
  const answered = page.waitForResponse((r) => r.url() === action && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Claim your prize' }).click();
  const res = await answered;
  await page.waitForURL((u) => u.origin === new URL(store.base).origin);
  await page.waitForLoadState('load');
  return res.status();
}

/** What the browser shows of a session: the member cookie, where /my-account lands, and GET /api/v1/user's status from a store page. */
async function signedIn(context, page) {
  const memberCookie = (await context.cookies(store.base)).some((c) => c.name === 'member');
  await page.goto(`${store.base}/my-account`);
  const myAccount = new URL(page.url()).pathname;
  const user = await page.evaluate(async () => (await fetch('/api/v1/user')).status);
  return { memberCookie, myAccount, user };
}

const guest = { memberCookie: false, myAccount: '/login', user: 401 };
const member = { memberCookie: true, myAccount: '/my-account', user: 200 };

test("another origin's text/plain form posting JSON to /api/v1/login does not log the browser in", async () => {
  await attackerReady();
  const action = `${store.base}/api/v1/login`;
  // The body Chromium sends is `name=value`: {"login":…,"password":…,"x":"="}
  const name = `{"login":${JSON.stringify(mallory.email)},"password":${JSON.stringify(mallory.password)},"x":"`;
  const pageUrl = attackerForm('/json-login', { action, enctype: 'text/plain', fields: [[name, '"}']] });
  const context = await newContext();
  const page = await context.newPage();
  const status = await submitFromAttacker(page, pageUrl, action);
  const body = await page.locator('body').innerText();
  assert.deepEqual(await signedIn(context, page), guest, `the store answered ${status}: ${body.slice(0, 200)}`);
  // Refused for its origin before its body is read (a text/plain body would be a 415 besides).
  assert.equal(status, 403, `the store answered ${status}: ${body.slice(0, 200)}`);
  assert.match(body, /must come from the store's own pages/);
  await context.close();
});

test("a member's browser stays hers when another origin posts the attacker's login", async () => {
  await attackerReady();
  // Vicky, logged in as herself (her cookies go along: the two loopback ports are the same site).
  const vicky = { ...mallory, first_name: 'Vicky', email: 'vicky@example.com', mobile: '09171113333', password: 'Calamansi-Sour-88' };
  await makeMember(vicky);
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(store.base);
  const login = await page.evaluate(
    async (credentials) =>
      (await fetch('/api/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })).status,
    { login: vicky.email, password: vicky.password },
  );
  assert.equal(login, 200);
  const me = () => page.evaluate(async () => (await (await fetch('/api/v1/user')).json()).data?.email);
  assert.equal(await me(), vicky.email);

  const action = `${store.base}/api/v1/login`;
  const name = `{"login":${JSON.stringify(mallory.email)},"password":${JSON.stringify(mallory.password)},"x":"`;
  const pageUrl = attackerForm('/json-login-member', { action, enctype: 'text/plain', fields: [[name, '"}']] });
  const status = await submitFromAttacker(page, pageUrl, action);
  assert.equal(status, 403);
  await page.goto(store.base);
  assert.equal(await me(), vicky.email, 'still Vicky');
  await context.close();
});

test("another origin's post to the store's no-JS login form is refused and does not log the browser in", async () => {
  await attackerReady();
  // The attacker reads the real form (and a CSRF token of his own session) from the store.
  const html = await (await fetch(`${store.base}/login`)).text();
  const form = html.match(/<form[^>]*action="\/login"[^>]*>[\s\S]*?<\/form>/)?.[0];
  assert.ok(form, 'the login page has a form posting to /login');
  const fields = new Map(
    [...form.matchAll(/<input\b[^>]*>/g)]
      .map(([input]) => [input.match(/\bname="([^"]*)"/)?.[1], input.match(/\bvalue="([^"]*)"/)?.[1] ?? ''])
      .filter(([n]) => n),
  );
  assert.deepEqual([...fields.keys()].sort(), ['_call', 'csrf', 'login', 'password']);
  assert.ok(fields.get('csrf'));
  fields.set('login', mallory.email);
  fields.set('password', mallory.password);

  const action = `${store.base}/login`;
  const pageUrl = attackerForm('/form-login', { action, enctype: 'application/x-www-form-urlencoded', fields: [...fields] });
  const context = await newContext();
  const page = await context.newPage();
  const status = await submitFromAttacker(page, pageUrl, action);
  const body = await page.locator('body').innerText();
  assert.deepEqual(await signedIn(context, page), guest, `the store answered ${status}: ${body.slice(0, 200)}`);
  assert.equal(status, 403, body.slice(0, 200));
  // Refused for its origin (not merely for a CSRF token of another session).
  assert.match(body, /This form must be sent from the store's own pages\./);
  await context.close();
});

test("control: the same JSON login from the store's own page logs the browser in", async () => {
  await attackerReady();
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(store.base);
  assert.deepEqual(await signedIn(context, page), guest);
  const status = await page.evaluate(
    async (credentials) =>
      (
        await fetch('/api/v1/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(credentials),
        })
      ).status,
    { login: mallory.email, password: mallory.password },
  );
  assert.equal(status, 200);
  assert.deepEqual(await signedIn(context, page), member);
  await context.close();
});
