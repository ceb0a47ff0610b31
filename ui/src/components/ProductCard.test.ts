import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cardQuantity } from './ProductCard';

test('SPEC 9: Cans go in by 24 from a recommended card, everything else by 1', () => {
  assert.equal(cardQuantity({ types: { id: 1, name: 'Cans' } }), 24);
  assert.equal(cardQuantity({ types: { id: 2, name: 'Full Goods' } }), 1);
  assert.equal(cardQuantity({ types: { id: 3, name: 'Keg' } }), 1);
});
