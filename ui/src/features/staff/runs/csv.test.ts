import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField, csvRows, dayCsv } from './csv';
import type { DayReport } from '../../../api/contract.gen';

test('a CSV field is quoted when it must be, and never read as a formula', () => {
  assert.equal(csvField('Bel-Air, Makati'), '"Bel-Air, Makati"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvField('+639171234567'), "'+639171234567");
  assert.equal(csvField('-P50.00'), "'-P50.00");
  assert.equal(csvField(-5), '-5', 'a number is a number');
  assert.equal(csvRows([['a', 1], ['b', 2]]), 'a,1\r\nb,2\r\n');
});

test('the day report names each run, cancellation, failure, difference and online payment', () => {
  const totals = { stops: 2, delivered: 1, failed: 1, pending: 0, cash_expected: 125000, cash_reported: 120000, empties_expected: 2, empties_returned: 1 };
  const run = { id: 7, day: '2026-11-25', rider_id: 3, rider: 'Ben, the rider', state: 'closed' as const, state_label: 'Closed', stops: 2, delivered: 1, failed: 1 };
  const report: DayReport = {
    day: '2026-11-25',
    orders: 3,
    revenue: 175000,
    runs: [{ run, totals, cash_handed_in: 120000, cash_difference: 0, expected_difference: -5000, close_note: 'Shopper pays P50 tomorrow' }],
    riders: [
      {
        rider_id: 3,
        rider: 'Ben, the rider',
        runs: 1,
        closed: 1,
        cash_expected: 125000,
        cash_reported: 120000,
        cash_expected_closed: 125000,
        cash_handed_in: 120000,
        cash_difference: -5000,
        closed_off: 1,
        empties_expected: 2,
        empties_returned: 1,
        notes: [{ run_id: 7, href: '/staff/runs/7', about: 'Run 7', note: 'Shopper pays P50 tomorrow' }],
      },
    ],
    totals,
    cash_handed_in: 120000,
    containers_out: [{ name: 'Crate (24 bottles)', cases: 2 }],
    cancelled: [{ order_id: 9, number: 'TB-000009', reason: 'Out of stock' }],
    failed: [{ order_id: 8, number: 'TB-000008', reason: 'Nobody at the address' }],
    flagged: [{ order_id: 6, number: 'TB-000006', reason: 'Cash short by P50.00' }],
    online: [{ method: 'GCash', payments: 2, amount: 315600 }],
    online_received: 315600,
    to_refund: [{ order_id: 5, number: 'TB-000005', reason: 'pay_1 (gcash): Paid while the order was cancelled: not taken as its payment; refund it.' }],
    refunds: [{ order_id: 4, number: 'TB-000004', reason: 'pay_0 P20.00: Refunded (Paid twice; asked by Mia).' }],
    refunded: 2000,
  };
  const lines = dayCsv(report).trimEnd().split('\r\n');
  assert.equal(lines[0], 'Section,Name,Value,Detail');
  assert.ok(lines.includes('Orders,Revenue,"P1,750.00",'), lines.join('\n'));
  assert.ok(lines.includes('Containers out,Crate (24 bottles),2,'));
  assert.ok(lines.includes('Run,"Run 7 (Ben, the rider)",Closed,"1 delivered, 1 failed; cash P1,250.00 expected, P1,200.00 reported, P1,200.00 handed in (Shopper pays P50 tomorrow)"'), lines.join('\n'));
  assert.ok(lines.includes('Rider,"Ben, the rider",short by P50.00,"1 run(s), 1 closed; cash P1,250.00 expected, P1,200.00 reported, P1,200.00 handed in of P1,250.00 expected by the closed runs; empties 2 expected, 1 back"'), lines.join('\n'));
  assert.ok(lines.includes('Note,"Run 7 (Ben, the rider)",,Shopper pays P50 tomorrow'), lines.join('\n'));
  assert.ok(lines.includes('Cancelled,TB-000009,,Out of stock'));
  assert.ok(lines.includes('Failed,TB-000008,,Nobody at the address'));
  assert.ok(lines.includes('Difference,TB-000006,,Cash short by P50.00'));
  assert.ok(lines.includes('Online,Received,"P3,156.00",'), lines.join('\n'));
  assert.ok(lines.includes('Online,GCash,"P3,156.00",2 payment(s)'), lines.join('\n'));
  assert.ok(lines.includes('To refund,TB-000005,,pay_1 (gcash): Paid while the order was cancelled: not taken as its payment; refund it.'), lines.join('\n'));
  assert.ok(lines.includes('Online,Refunded,P20.00,'), lines.join('\n'));
  assert.ok(lines.includes('Refund,TB-000004,,pay_0 P20.00: Refunded (Paid twice; asked by Mia).'), lines.join('\n'));
});
