import { test } from 'node:test';
import assert from 'node:assert/strict';
import { awaitingPayment, confirmation, itemCount, orderPath, pagerLinks } from './orders';

test('the pager links to the neighbouring pages, the first without ?page', () => {
  assert.deepEqual(pagerLinks(1, 1), { previous: null, next: null });
  assert.deepEqual(pagerLinks(1, 3), { previous: null, next: '/my-account/orders?page=2' });
  assert.deepEqual(pagerLinks(2, 3), { previous: '/my-account/orders', next: '/my-account/orders?page=3' });
  assert.deepEqual(pagerLinks(3, 3), { previous: '/my-account/orders?page=2', next: null });
  // Past the end, Previous goes to the last page; with no orders at all, nowhere.
  assert.deepEqual(pagerLinks(9, 3), { previous: '/my-account/orders?page=3', next: null });
  assert.deepEqual(pagerLinks(2, 0), { previous: null, next: null });
});

test('an order says it is placed until the store takes it further', () => {
  assert.equal(confirmation({ status: 'placed', number: 'TB-000007' }), 'Thank you! Your order TB-000007 is placed.');
  assert.equal(confirmation({ status: 'confirmed', number: 'TB-000007' }), null);
  assert.equal(orderPath({ id: 7 }), '/active-order/7');
});

test('items are counted in words', () => {
  const item = { product_id: 1, product_name: 'A', sku: 'A', case_name: 'Bottles', unit_price: 1, price_per_case: 24, quantity: 24, amount: 24 };
  assert.equal(itemCount({ items: [item] }), '1 item');
  assert.equal(itemCount({ items: [item, item] }), '2 items');
});

test('an order awaiting its payment says how long it waits, when the store says it', () => {
  assert.match(awaitingPayment(60), /Pay within 60 minutes of placing it, or it is cancelled\./);
  assert.doesNotMatch(awaitingPayment(undefined), /within \d+ minutes/);
  assert.match(awaitingPayment(undefined), /^We prepare your order once it is paid\./);
});
