import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CartAnswer, CartCase, FilterType } from '../../api/contract.gen';
import { cartLinkLabel, casesLabel, count, debounce, needsReset, productIds, usedLabel } from './rules';
import labels from '../../../../crates/api/src/cart/cart_label_cases.json';

const caseOf = (family: FilterType, ids: number[]): CartCase =>
  ({ family, items: ids.map((id) => ({ id })) }) as unknown as CartCase;
const cart = (...cases: CartCase[]) => ({ shopping_cart: cases }) as Pick<CartAnswer, 'shopping_cart'>;

test('the cart link is named as the server names it (cart_label_cases.json, read by both)', () => {
  for (const [items, label] of labels as [number, string][]) assert.equal(cartLinkLabel(items), label);
});

test('counts read as words, plural unless one', () => {
  assert.equal(count(1, 'item'), '1 item');
  assert.equal(count(0, 'item'), '0 items');
  assert.equal(casesLabel({ cases: 2, unit_per_case: 24, unit_noun: 'bottle' }), '2 cases of 24 bottles');
  assert.equal(casesLabel({ cases: 1, unit_per_case: 24, unit_noun: 'can' }), '1 case of 24 cans');
  assert.equal(casesLabel({ cases: 1, unit_per_case: 1, unit_noun: 'keg' }), '1 keg');
  assert.equal(usedLabel({ units: 3, capacity: 24, unit_noun: 'bottle' }), '3 of 24 bottles');
});

test('only the other family asks to reset the cart: kegs and bottles/cans go in separate orders', () => {
  assert.equal(needsReset(null, 'keg'), false, 'no cart');
  assert.equal(needsReset(cart(), 'keg'), false, 'an empty cart goes straight on');
  const bottlesAndCans = cart(caseOf('bottle', [1, 2]), caseOf('can', [12]));
  assert.equal(needsReset(bottlesAndCans, 'can'), false);
  assert.equal(needsReset(bottlesAndCans, 'bottle'), false);
  assert.equal(needsReset(bottlesAndCans, 'keg'), true);
  const kegs = cart(caseOf('keg', [21]));
  assert.equal(needsReset(kegs, 'keg'), false);
  assert.equal(needsReset(kegs, 'bottle'), true);
  assert.equal(needsReset(cart(caseOf('keg', [])), 'bottle'), false, 'a case without items holds nothing');
  assert.deepEqual(productIds(bottlesAndCans), [1, 2, 12]);
  assert.deepEqual(productIds(null), []);
});

test('the debounce runs once with the last value, after the quiet time', () => {
  let now = 0;
  const timers: { at: number; f: () => void; id: number }[] = [];
  let next = 1;
  const clock = {
    set: (f: () => void, ms: number) => {
      const id = next++;
      timers.push({ at: now + ms, f, id });
      return id;
    },
    clear: (id: unknown) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(t), 1);
      t.f();
    }
  };
  const ran: number[] = [];
  const d = debounce<number>((v) => ran.push(v), 500, clock);
  d.call(5);
  advance(300);
  d.call(24);
  advance(499);
  assert.deepEqual(ran, [], 'not before 500 ms of quiet');
  advance(1);
  assert.deepEqual(ran, [24], 'once, with the last value');
  d.call(7);
  d.flush();
  assert.deepEqual(ran, [24, 7]);
  d.call(8);
  d.cancel();
  advance(1000);
  assert.deepEqual(ran, [24, 7]);
});
