// A day of the depot in Debian's Chromium, with JavaScript on and off: a dispatcher confirms two
// delivery orders, plans a run for a rider, orders its stops, opens the pick list and the run
// sheet, and sends it out; the rider, on their own session, delivers one stop and fails the other;
// the dispatcher closes the run on the cash handed in and reads the day report (with its CSV).
// axe finds nothing on the runs' pages (with JavaScript on, where it can run).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guestOrder, noViolations, screenshot, staffSignedIn, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

for (const js of [true, false]) {
  const on = js ? 'js' : 'nojs';
  test(`a dispatcher plans and closes a run a rider delivers, JavaScript ${js ? 'on' : 'off'}`, async () => {
    const first = await guestOrder(`ana-run-${on}@example.com`, 'Ana Santos', '192.0.2.78');
    const second = await guestOrder(`ben-run-${on}@example.com`, 'Ben Cruz', '192.0.2.78');
    const desk = await staffSignedIn(`desk-${on}@tala.example`, 'dispatcher', 'Dina Desk', 'dina-dispatches-kegs-9', js);
    const rider = await staffSignedIn(`rider-${on}@tala.example`, 'rider', `Rico Rider ${on}`, 'rico-rides-the-route-9', js);
    const problems = [];
    for (const p of [desk.page, rider.page]) p.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    try {
      const page = desk.page;
      // Confirm both orders on the board.
      await page.goto(`${store.base}/staff/orders?status=placed`);
      await desk.ready();
      if (js) await screenshot(page, 'board');
      await page.getByLabel(`Select ${first}`).check();
      await page.getByLabel(`Select ${second}`).check();
      await page.getByLabel('To', { exact: true }).selectOption('confirmed');
      await page.getByRole('button', { name: 'Move Selected' }).click();
      await page.waitForURL(/done=moved/);
      // Plan the run.
      await page.getByRole('link', { name: 'Runs', exact: true }).click();
      await page.waitForURL(/\/staff\/runs$/);
      await desk.ready();
      await noViolations(page, js, 'runs');
      await page.getByRole('button', { name: 'Plan Run' }).click();
      await page.getByText('Choose the rider.').waitFor();
      await page.getByLabel('Rider').selectOption({ label: `Rico Rider ${on}` });
      await page.getByLabel(first, { exact: true }).check();
      await page.getByLabel(second, { exact: true }).check();
      await page.getByRole('button', { name: 'Plan Run' }).click();
      await page.waitForURL(/\/staff\/runs\/\d+\?done=created/);
      const runUrl = page.url().replace(/\?.*$/, '');
      await page.getByText('The run is planned').waitFor();
      await desk.ready();
      await noViolations(page, js, 'a planned run');
      // Stops are numbered in the order placed (one barangay); the second moves up.
      const headings = () => page.locator('.run-stop h3').allTextContents();
      assert.deepEqual(await headings(), [`1. ${first}`, `2. ${second}`]);
      await page.getByRole('button', { name: `Move Up ${second}` }).click();
      await page.waitForURL(/done=arranged/);
      await desk.ready();
      assert.deepEqual(await headings(), [`1. ${second}`, `2. ${first}`]);
      // The pick list totals the run: two cases of 24.
      await page.getByRole('link', { name: 'Pick list' }).click();
      await page.waitForURL(/pick-list$/);
      await desk.ready();
      const row = page.getByRole('row', { name: /Tala/ }).first();
      assert.match(await row.textContent(), /2\s*0$/);
      await noViolations(page, js, 'pick list');
      await page.goto(`${runUrl}/sheet?paper=receipt`);
      await desk.ready();
      await page.locator('.paper-receipt').waitFor();
      await page.getByText(`1. ${second}`).waitFor();
      await noViolations(page, js, 'run sheet');
      if (js && process.env.SCREENSHOTS) {
        await page.goto(`${runUrl}/sheet`);
        await desk.ready();
        await screenshot(page, 'run-sheet');
      }
      await page.goto(runUrl);
      await desk.ready();
      await page.getByRole('button', { name: 'Send Out' }).click();
      await page.waitForURL(/done=sent/);
      await page.getByText('The run is out').waitFor();
      if (js && process.env.SCREENSHOTS) {
        await page.goto(`${store.base}/staff`);
        await desk.ready();
        await page.getByRole('heading', { name: 'Runs out' }).waitFor();
        await screenshot(page, 'dashboard');
      }

      // The rider sees the run on their own session, delivers one stop and fails the other.
      const rp = rider.page;
      await rp.getByRole('link', { name: 'My Runs' }).click();
      await rp.waitForURL(/\/staff\/runs$/);
      await rider.ready();
      assert.equal(await rp.getByRole('button', { name: 'Plan Run' }).count(), 0, 'a rider plans nothing');
      await rp.getByRole('link', { name: /^Run \d+$/ }).click();
      await rider.ready();
      await noViolations(rp, js, 'the rider’s run');
      const delivered = rp.getByRole('group', { name: `Delivered ${second}` });
      await delivered.getByLabel('Cash received (pesos)').fill('abc');
      await delivered.getByRole('button', { name: 'Mark Delivered' }).click();
      await rp.getByText('Give the cash received in pesos').first().waitFor();
      await rider.ready();
      const again = rp.getByRole('group', { name: `Delivered ${second}` });
      const total = await rp.locator(`#stop-${second.replace(/\D/g, '').replace(/^0+/, '')} strong`).textContent();
      await again.getByLabel('Cash received (pesos)').fill(total.replace(/^Collect (P[\d,.]+) cash$/, '$1'));
      await again.getByRole('button', { name: 'Mark Delivered' }).click();
      await rp.waitForURL(/done=ended/);
      await rider.ready();
      const failed = rp.getByRole('group', { name: `Failed ${first}` });
      await failed.getByLabel('Why').selectOption('Nobody at the address');
      await failed.getByLabel('Note (optional)').fill('Guard says they moved');
      await failed.getByRole('button', { name: 'Mark Failed' }).click();
      await rp.waitForURL(/done=ended/);
      await rp.getByText('Failed: Nobody at the address (Guard says they moved)').waitFor();

      // The dispatcher closes the run on the cash handed in, and reads the day.
      await page.goto(runUrl);
      await desk.ready();
      await page.getByLabel('Cash the rider handed in (pesos)').fill('100');
      await page.getByRole('button', { name: 'Close Run' }).click();
      await page.waitForURL(/done=closed/);
      await page.getByText('The run is closed.').waitFor();
      await page.getByText(/Cash handed in/).waitFor();
      await page.getByText(/short by/).waitFor();
      await page.getByRole('link', { name: 'Day Report' }).click();
      await page.waitForURL(/\/staff\/day$/);
      await desk.ready();
      await page.getByRole('region', { name: 'Failed deliveries' }).getByRole('link', { name: first }).waitFor();
      const csv = await page.getByRole('link', { name: 'Download as CSV' }).getAttribute('href');
      assert.match(decodeURIComponent(csv), new RegExp(`Failed,${first},,Nobody at the address`));
      await noViolations(page, js, 'day report');
      // The failed order waits for another run.
      await page.goto(`${store.base}/staff/runs`);
      await page.getByLabel(first, { exact: true }).waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await desk.context.close();
      await rider.context.close();
    }
  });
}
