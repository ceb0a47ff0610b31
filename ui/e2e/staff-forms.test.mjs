// Every form of every back office page pressed in Debian's Chromium with JavaScript on (the server's
// own walk without JavaScript is crates/server/tests/staff_forms.rs): a manager walks the back
// office by its links, and on each page fills what the page left empty and required, ticks the
// first box of a list, chooses the first real option, and presses the form's first button. Each
// form must land where it says (an address with no `{name}` left in it, whose page answers 200
// and, when it carries `done=`, shows the form's message) or say why on the page; never a 404, a
// 500, the sign-in page, an error in the page or a form that does nothing. File forms (a photo,
// the catalog file) and Sign Out are left to their own tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guestOrder, staffSignedIn, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

/** A page's kind: its path with each number as `{id}` (one page of each kind is walked). */
const kind = (path) => path.replace(/\/\d+(?=\/|$)/g, '/{id}');

/** The back office's own pages linked from the page (no sign-in, no download, no query or fragment). */
const linksOf = (page) =>
  page.evaluate(() => [...document.querySelectorAll('a[href^="/staff"]:not([download])')].map((a) => a.getAttribute('href').split(/[?#]/)[0]).filter((h) => !h.startsWith('/staff/login')));

/** What the forms of the page are: whether each is pressed here, and what it is. */
const formsOf = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main form')].map((f) => {
      const call = f.querySelector('input[name="_call"]')?.value ?? '';
      const button = f.querySelector('button[type="submit"], button:not([type])');
      return { call: call || f.getAttribute('action') || 'a form', pressed: Boolean(button) && f.enctype !== 'multipart/form-data' && call !== 'staffLogout' };
    }),
  );

/** Fills what form `k` of the page left empty and required, ticks the first box of each list with none ticked, and chooses a real option where a placeholder is chosen. */
const fill = (page, k) =>
  page.evaluate((k) => {
    const form = document.querySelectorAll('main form')[k];
    const fields = [...form.elements, ...(form.id ? document.querySelectorAll(`[form="${form.id}"]`) : [])];
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const ticked = new Set(fields.filter((e) => (e.type === 'checkbox' || e.type === 'radio') && e.checked).map((e) => e.name));
    for (const e of fields) {
      if (e instanceof HTMLSelectElement && !e.value) {
        const real = [...e.options].find((o) => o.value);
        if (real) e.value = real.value;
      } else if ((e.type === 'checkbox' || e.type === 'radio') && !ticked.has(e.name) && !e.disabled) {
        e.checked = true;
        ticked.add(e.name);
      } else if ((e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement) && e.required && !e.value) {
        const name = e.name;
        e.value =
          e.type === 'date' ? today
          : e.type === 'email' ? 'form-test@example.com'
          : e.type === 'tel' ? '09171234567'
          : e.type === 'number' || /cash|price|fee/.test(name) ? '1'
          : /empties/.test(name) ? '0'
          : 'Pressed by the form test';
      }
    }
  }, k);

test('every form of every back office page lands where it says, JavaScript on', async (t) => {
  for (const email of ['walk-ana@example.com', 'walk-cora@example.com', 'walk-dan@example.com']) await guestOrder(email);
  // A rider to plan runs for; their own session is not used.
  const rider = await staffSignedIn('walk-rider@tala.example', 'rider', 'Rina Walker', 'rina-walks-the-forms-7', true);
  await rider.context.close();
  const { context, page, ready } = await staffSignedIn('walk-boss@tala.example', 'manager', 'Walter Boss', 'walter-walks-the-forms-7', true);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
  page.on('dialog', (d) => d.accept());
  // The status of each page the tab lands on.
  let landing = null;
  page.on('response', (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) landing = r.status();
  });
  const failures = [];
  let pressed = 0;
  let landed = 0;
  try {
    // The whole back office from its home, then the board and the runs again: the first walk
    // confirms orders, so the runs page then plans a run, whose page (new) is walked too.
    const seen = new Set();
    for (const start of ['/staff', '/staff/orders', '/staff/runs']) {
      const queue = [[start, start]];
      seen.delete(kind(start));
      while (queue.length > 0) {
        const [path, from] = queue.shift();
        if (seen.has(kind(path))) continue;
        seen.add(kind(path));
        await page.goto(store.base + path);
        const status = landing;
        if (status === 404) {
          // Taken away by an earlier form (a run left empty): no fault if the page that linked
          // to it links to it no more; the audit log's history may name what is gone.
          await page.goto(store.base + from);
          if (from.startsWith('/staff/audit') || !(await linksOf(page)).includes(path)) {
            seen.delete(kind(path));
            continue;
          }
        }
        assert.equal(status, 200, `${path} (linked from ${from}) answered ${status}`);
        await ready();
        queue.push(...(await linksOf(page)).map((l) => [l, path]));
        const forms = await formsOf(page);
        for (let k = 0; k < forms.length; k++) {
          if (!forms[k].pressed) continue;
          await page.goto(store.base + path);
          await ready();
          const now = await formsOf(page);
          if (!now[k]?.pressed || now[k].call !== forms[k].call) continue;
          const what = `${now[k].call} on ${path}`;
          await fill(page, k);
          const form = page.locator('main form').nth(k);
          const before = page.url();
          pressed += 1;
          await form.locator('button[type="submit"], button:not([type])').first().click();
          // It leaves the page, or says why on it.
          const said = form.locator('[role="alert"]:not(:empty)').first();
          const outcome = await Promise.race([
            page.waitForURL((u) => u.href !== before, { timeout: 15_000 }).then(() => 'left'),
            said.waitFor({ timeout: 15_000 }).then(() => 'said'),
          ]).catch(() => 'nothing');
          if (outcome === 'nothing') {
            failures.push(`${what}: nothing happened`);
            continue;
          }
          if (outcome === 'said') {
            // Saying why is the form's own refusal, never a failure of the store's or an expired form.
            const text = await said.textContent();
            if (/expired|went wrong|try again later/i.test(text)) failures.push(`${what}: ${text}`);
            continue;
          }
          await page.waitForLoadState('load');
          const url = page.url();
          if (/[{}]|%7B/i.test(url) || url.includes('/staff/login')) {
            failures.push(`${what}: went to ${url}`);
            continue;
          }
          if (landing !== 200) {
            failures.push(`${what}: ${url} answered ${landing}`);
            continue;
          }
          await ready();
          if (url.includes('done=') && !(await page.locator('.form-message[role="status"]').filter({ hasText: /\S/ }).count())) {
            failures.push(`${what}: ${url} shows no message of what was done`);
            continue;
          }
          landed += 1;
          queue.push(...(await linksOf(page)).map((l) => [l, new URL(url).pathname]));
        }
      }
    }
    t.diagnostic(`${seen.size} kinds of page, ${pressed} forms pressed, ${landed} landed`);
    assert.deepEqual(failures, [], 'every form lands');
    assert.deepEqual(problems, [], 'no error in a page');
    assert.ok(seen.has('/staff/runs/{id}'), `a run was walked: ${[...seen].join(', ')}`);
    assert.ok(pressed >= 40 && landed >= 20, `${pressed} forms pressed, ${landed} landed`);
  } finally {
    await context.close();
  }
});
