import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPhp } from './money';
import cases from '../../../crates/domain/src/money_cases.json';

test('formatPhp agrees with the Rust formatter on the shared table', () => {
  assert.ok(cases.length >= 10);
  for (const c of cases) assert.equal(formatPhp(c.centavos), c.text, `for ${c.centavos} centavos`);
});
