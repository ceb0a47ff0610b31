import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axisLabel, axisTop } from './Dashboard';

test('the peso axis tops out at the next 1, 2, 2.5 or 5 times a power of ten, P5 at least', () => {
  // Centavos in, centavos out. An empty month still has five whole-peso steps.
  assert.equal(axisTop(0), 500);
  assert.equal(axisTop(120), 500);
  assert.equal(axisTop(50_001), 100_000);
  assert.equal(axisTop(473_400), 500_000);
  assert.equal(axisTop(500_000), 500_000);
  assert.equal(axisTop(500_001), 1_000_000);
  assert.equal(axisTop(1_200_000), 2_000_000);
  assert.equal(axisTop(2_100_000), 2_500_000);
});

test('axis labels are whole pesos, thousands as k', () => {
  assert.equal(axisLabel(0), 'P0');
  assert.equal(axisLabel(50_000), 'P500');
  assert.equal(axisLabel(100_000), 'P1k');
  assert.equal(axisLabel(150_000), 'P1.5k');
  assert.equal(axisLabel(2_500_000), 'P25k');
});
