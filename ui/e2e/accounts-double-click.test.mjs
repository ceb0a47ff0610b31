// Accounts: a double click on Create Account sends the registration once (its own store: the
// registration rate limit of one client must not depend on what other tests sent before).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newContext, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

test('a double click on Create Account sends the registration once', async () => {
  const context = await newContext(['privacyVerification=1']);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const sent = [];
  page.on('request', (r) => {
    // With JavaScript the form posts its fields to its own page, as it does without.
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/registration') sent.push(r.url());
  });
  await page.goto(`${store.base}/registration`);
  await page.waitForSelector('html[data-hydrated="true"]');
  await page.getByLabel('First name').fill('Dina');
  await page.getByLabel('Last name').fill('Go');
  await page.getByLabel('Email address').fill('dina@example.com');
  await page.getByLabel('Mobile number').fill('09171230009');
  await page.getByLabel('Birth date').fill('1992-09-09');
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Create Account' }).dblclick();
  await page.waitForURL(/done=sent/);
  assert.equal(sent.length, 1);
  assert.deepEqual(problems, []);
  await context.close();
});
