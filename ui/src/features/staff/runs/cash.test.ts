import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeHint, parsePesos, riderDifference, shortOrOver, toCollect } from './cash';

test('cash is read as the server reads it', () => {
  assert.equal(parsePesos('1,250.00'), 125_000);
  assert.equal(parsePesos(' P 75 '), 7_500);
  assert.equal(parsePesos('₱1,578.5'), 157_850);
  assert.equal(parsePesos('p0'), 0);
  for (const bad of ['', 'abc', '-5', '1e3', '12,34', '1.234', '9999999999', '1,2345.00', '.50']) assert.equal(parsePesos(bad), null, bad);
});

test('the close form tells the difference from what the run expects', () => {
  assert.equal(shortOrOver(0), null);
  assert.equal(shortOrOver(-2_000), 'short by P20.00');
  assert.equal(shortOrOver(500), 'over by P5.00');
  assert.equal(closeHint('', 150_000), null);
  assert.equal(closeHint('1,500', 150_000), 'P1,500.00 is what the run expects.');
  assert.equal(closeHint('1,480', 150_000), 'P1,480.00 is short by P20.00 of what the run expects (P1,500.00): say why in the note to close the run.');
  assert.equal(closeHint('x', 150_000), 'Give the cash in pesos, like 1,250.00.');
});

test('a rider’s difference says short or over, and runs that differ though they even out', () => {
  assert.equal(riderDifference({ cash_difference: null, closed_off: 0 }), 'No run closed');
  assert.equal(riderDifference({ cash_difference: 0, closed_off: 0 }), 'As expected');
  assert.equal(riderDifference({ cash_difference: 0, closed_off: 2 }), 'Evens out: 2 runs differ');
  assert.match(riderDifference({ cash_difference: -10_000, closed_off: 1 }), /^short by P100\.00$/);
  assert.match(riderDifference({ cash_difference: 5_000, closed_off: 2 }), /^over by P50\.00 \(2 runs differ\)$/);
});

test('a stop paid online collects nothing, any other its cash', () => {
  assert.equal(toCollect({ total: 0, paid_online: 157_800 }), 'Paid online: collect nothing');
  assert.equal(toCollect({ total: 157_800, paid_online: 0 }), 'Collect P1,578.00 cash');
});
