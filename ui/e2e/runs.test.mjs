// A day of the depot in Debian's Chromium, with JavaScript on and off: a dispatcher confirms two
// delivery orders, plans a run for a rider, orders its stops, opens the pick list and the run
// sheet, and sends it out; the rider, on their own session, delivers one stop and fails the other;
// the dispatcher closes the run on the cash handed in and reads the day report (with its CSV).
// The rider's phone (360 px) shows one stop at a time, whose cash and empties they type, and lands
// on the next stop after each. axe finds nothing on the runs' pages (with JavaScript on, where it
// can run).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guestOrder, noViolations, screenshot, staffSignedIn, store, useStoreAndBrowser } from './browser.mjs';

useStoreAndBrowser();

/** The rider's phone. */
const PHONE = { width: 360, height: 740 };

/**
 * The rider's run as it is out, at 360 px: one stop in full (`title`), with a call and a map
 * link, and one form; the `coming` stops folded under it; every tap target (the frame's too) at
 * least 44 px high; nothing wider than the screen; the current stop in view (where ending a stop
 * lands).
 */
async function riderStop(page, title, coming) {
  const stop = page.locator('#current-stop');
  await stop.getByRole('heading', { name: title }).waitFor();
  assert.equal(await page.locator('form.end-stop:visible').count(), 1, 'one stop’s form at a time');
  assert.equal(await stop.locator('form.end-stop').count(), 1, 'the current stop’s form');
  assert.equal(await stop.getByRole('link', { name: 'Call 09171234567' }).getAttribute('href'), 'tel:09171234567');
  const map = await stop.getByRole('link', { name: /^Map of Unit 5B, 12 Jupiter St\./ }).getAttribute('href');
  assert.match(map, /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=Unit%205B%2C%2012%20Jupiter%20St\.%2C%20/);
  const folded = page.getByRole('region', { name: /^Coming next/ }).locator('summary');
  assert.deepEqual((await folded.allTextContents()).map((t) => t.replace(/^.*, /, '')), coming);
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('#current-stop :is(a, button, input, select), .rider-list summary, .staff-header :is(a, button)')]
      .filter((e) => e.getClientRects().length > 0)
      .map((e) => ({ name: e.textContent.trim() || e.id, height: e.getBoundingClientRect().height }))
      .filter((b) => b.height < 44),
  );
  assert.deepEqual(small, [], 'every tap target is 44 px high or more');
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= PHONE.width, `nothing spills sideways (${wide} px)`);
  if (page.url().includes('#current-stop')) {
    const top = await stop.evaluate((e) => e.getBoundingClientRect().top);
    assert.ok(top >= -1 && top < PHONE.height / 2, `the page lands on the current stop (${top} px from the top)`);
  }
}

for (const js of [true, false]) {
  const on = js ? 'js' : 'nojs';
  test(`a dispatcher plans and closes a run a rider delivers, JavaScript ${js ? 'on' : 'off'}`, async () => {
    const first = await guestOrder(`ana-run-${on}@example.com`, 'Ana Santos', '192.0.2.78');
    const second = await guestOrder(`ben-run-${on}@example.com`, 'Ben Cruz', '192.0.2.78');
    const desk = await staffSignedIn(`desk-${on}@tala.example`, 'dispatcher', 'Dina Desk', 'dina-dispatches-kegs-9', js);
    const rider = await staffSignedIn(`rider-${on}@tala.example`, 'rider', `Rico Rider ${on}`, 'rico-rides-the-route-9', js, { viewport: PHONE });
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
      // The dispatcher sees every stop, each with one form whose cash is typed.
      await desk.ready();
      assert.equal(await page.locator('form.end-stop').count(), 2, 'a form for each open stop');
      for (const field of await page.getByLabel('Cash received (pesos)').all()) assert.equal(await field.inputValue(), '');
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
      // Their runs of today and the next 7 days, a table a day.
      await rp.getByRole('table', { name: /^Today, \d{4}-\d{2}-\d{2}$/ }).waitFor();
      assert.equal(await rp.getByRole('button', { name: 'Plan Run' }).count(), 0, 'a rider plans nothing');
      await rp.getByRole('link', { name: /^Run \d+$/ }).click();
      await rider.ready();
      await riderStop(rp, `Stop 1 of 2: ${second}`, [first]);
      await noViolations(rp, js, 'the rider’s run at 360 px');
      if (js) await screenshot(rp, 'rider-stop');
      // Cash and empties are typed, never filled in: a stop refuses no cash, and cash not in pesos.
      const stop = rp.locator('#current-stop');
      const cash = stop.getByLabel('Cash received (pesos)');
      assert.equal(await cash.inputValue(), '', 'the cash received comes empty');
      assert.equal(await stop.getByLabel('Empty cases taken back').inputValue(), '', 'the empties come empty');
      const collect = (await stop.getByText(/^Collect P[\d,.]+ cash$/).textContent()).replace(/^Collect (P[\d,.]+) cash$/, '$1');
      await stop.getByRole('button', { name: `Mark Delivered ${second}` }).click();
      await rp.getByText('Give the cash received, in pesos (0 if none).').waitFor();
      await rider.ready();
      await cash.fill('abc');
      await stop.getByRole('button', { name: `Mark Delivered ${second}` }).click();
      await rp.getByText('Give the cash received in pesos').first().waitFor();
      await rider.ready();
      await cash.fill(collect);
      await stop.getByLabel('Empty cases taken back').fill('0');
      await stop.getByRole('button', { name: `Mark Delivered ${second}` }).click();
      // It lands on the next stop, saying which one ended and how.
      await rp.waitForURL(/done=ended&stop=\d+#current-stop$/);
      await rider.ready();
      await rp.getByText(`Stop 1, ${second}, was marked delivered.`).waitFor();
      await riderStop(rp, `Stop 2 of 2: ${first}`, []);
      const ended = rp.getByRole('region', { name: 'Ended (1)' });
      await ended.getByText(`Delivered: ${collect} received, 0 empty case(s) back.`).waitFor();
      // Failed: the same form, its other button; the cash left empty.
      await stop.getByLabel('Why').selectOption('Nobody at the address');
      await stop.getByLabel('Note (optional)').fill('Guard says they moved');
      await stop.getByRole('button', { name: `Mark Failed ${first}` }).click();
      await rp.waitForURL(/done=ended&stop=\d+#current-stop$/);
      await rider.ready();
      await rp.getByText(`Stop 2, ${first}, was marked failed: it waits for another run.`).waitFor();
      await rp.getByText(/^Every stop has ended\. Hand in P[\d,.]+ cash and 0 empty case\(s\) at the depot\.$/).waitFor();
      await rp.getByRole('region', { name: 'Ended (2)' }).getByText('Failed: Nobody at the address (Guard says they moved)').waitFor();
      await noViolations(rp, js, 'the rider’s ended run at 360 px');

      // The dispatcher closes the run on the cash handed in, and reads the day.
      await page.goto(runUrl);
      await desk.ready();
      // Counted, never filled in: the field comes empty, the sums to count against beside it.
      const handedIn = page.getByLabel('Cash the rider handed in (pesos)');
      assert.equal(await handedIn.inputValue(), '');
      await page.getByText(/^Count it\. The rider reported P[\d,.]+; the run expects P[\d,.]+\.$/).waitFor();
      await handedIn.fill('100');
      // The difference from what the run expects, told as it is typed (with JavaScript) ...
      const live = /^P100\.00 is short by P[\d,.]+ of what the run expects \(P[\d,.]+\): say why in the note to close the run\.$/;
      if (js) await page.getByText(live).waitFor();
      await page.getByRole('button', { name: 'Close Run' }).click();
      // ... and a close without a note refused, saying it on the note's field, the cash kept.
      await page.getByText(/^The cash is short by P[\d,.]+ of what the run expects \(P[\d,.]+\): say why in a note to close the run\.$/).waitFor();
      await desk.ready();
      await page.getByText(live).waitFor();
      assert.equal(await handedIn.inputValue(), '100');
      const why = `Counted twice (${on}): the rest is with the shopper`;
      await page.getByLabel('Why the cash differs (needed when it does)').fill(why);
      await page.getByRole('button', { name: 'Close Run' }).click();
      await page.waitForURL(/done=closed/);
      await page.getByText('The run is closed.').waitFor();
      await page.getByText(/Cash handed in/).waitFor();
      await page.getByRole('row', { name: /^Against what the run expects short by P[\d,.]+$/ }).waitFor();
      await page.getByRole('row', { name: `Why it differs ${why}` }).waitFor();
      await page.getByRole('link', { name: 'Day Report' }).click();
      await page.waitForURL(/\/staff\/day$/);
      await desk.ready();
      // The day by rider: their cash and empties, the difference and the note.
      const byRider = page.getByRole('region', { name: 'By rider' });
      await byRider.getByRole('row', { name: new RegExp(`^Rico Rider ${on} 1 \\(1\\) P[\\d,.]+ P[\\d,.]+ P100\\.00 of P[\\d,.]+ expected by the closed runs short by P[\\d,.]+ 0 / 0$`) }).waitFor();
      await byRider.getByRole('listitem').filter({ hasText: why }).waitFor();
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
