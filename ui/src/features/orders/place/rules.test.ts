import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressView, Member } from '../../../api/contract.gen';
import { contactOf, fulfillmentNote, numberOf, onlineChoice, paymentOf, savedAddressFor } from './rules';
import { QueryClient } from '@tanstack/react-query';
import { dismissTold, toldNow, type Write } from '../../../api/waiting';
import { SIGNED_OUT } from '../../../components/form';
import { orderAnswered, PAY_LATE, PLACED_LATE, readAnswer, SUBMIT_LABEL } from './submit';

const address = (id: number, barangay: number, street: number | null, line: string): AddressView => ({
  id,
  address: line,
  barangay_id: barangay,
  barangay_name: 'B',
  street_id: street,
  street_name: street === null ? null : 'S',
  city_id: 1,
  city_name: 'C',
  province_id: 51,
  province_name: 'P',
});

test('payment follows the fulfillment', () => {
  assert.equal(paymentOf(1), 'Cash on delivery');
  assert.equal(paymentOf(2), 'Pay at pickup');
});

test('paying online names the methods the store takes', () => {
  assert.equal(onlineChoice(['GCash', 'Maya', 'QR Ph']), 'Pay online now: GCash, Maya or QR Ph');
  assert.equal(onlineChoice(['GCash']), 'Pay online now: GCash');
  assert.equal(onlineChoice([]), 'Pay online now');
});

test('a fulfillment the city does not offer is said, by name of the city', () => {
  assert.equal(fulfillmentNote(1, 1, 'Makati'), null);
  assert.equal(fulfillmentNote(2, 1, 'Bacoor'), 'Pickup is not offered in Bacoor; we deliver your order.');
  assert.equal(fulfillmentNote(2, 1, null), 'Pickup is not offered here; we deliver your order.');
});

test("a member's contact starts from the account", () => {
  assert.deepEqual(contactOf(null), { contact_name: '', mobile: '' });
  const m = { firstname: 'Ana', lastname: 'Cruz', mobile: '09171234567' } as Member;
  assert.deepEqual(contactOf(m), { contact_name: 'Ana Cruz', mobile: '09171234567' });
});

test('the house line starts from the saved address of the priced barangay and street', () => {
  const list = [address(1, 10, null, 'One'), address(2, 20, 5, 'Two'), address(3, 20, 6, 'Three')];
  assert.equal(savedAddressFor(list, null, null), null);
  assert.equal(savedAddressFor(list, 10, null)?.id, 1);
  assert.equal(savedAddressFor(list, 20, 6)?.id, 3);
  // A street chosen that no saved address has: none (another house on another street).
  assert.equal(savedAddressFor(list, 20, 7), null);
  assert.equal(savedAddressFor(list, 30, null), null);
});

test('numbers from variables', () => {
  assert.equal(numberOf('1380300002'), 1380300002);
  assert.equal(numberOf(''), null);
  assert.equal(numberOf(undefined), null);
  assert.equal(numberOf('1e3'), null);
});

test("the form's answer: where to go, or its messages with the status", () => {
  assert.deepEqual(readAnswer(200, '{"location":"/active-order/1?key=k"}'), { status: 200, location: '/active-order/1?key=k' });
  assert.deepEqual(readAnswer(409, '{"values":{},"errors":{},"message":"Your cart changed"}'), {
    status: 409,
    message: 'Your cart changed',
    errors: {},
  });
  assert.deepEqual(readAnswer(422, '{"errors":{"mobile":["bad"]},"message":""}').status, 422);
  assert.equal((readAnswer(403, 'This request must come from the store\'s own pages.') as { message: string }).message, "This request must come from the store's own pages.");
});

test('a Submit Order that arrived after its page had gone: the order placed is told once, with its page', () => {
  const write: Write = { id: 'o1', url: '/checkout', method: 'POST', body: 'a=1', form: true, label: SUBMIT_LABEL, kind: 'order', madeAt: 0 };
  const placed = { status: 200, token: null, body: null, text: '{"location":"/active-order/12?key=k"}' };
  const client = new QueryClient();
  orderAnswered(client, write, placed);
  orderAnswered(client, write, placed);
  assert.deepEqual(toldNow(), [{ id: 'o1', label: 'Submit Order', done: true, message: PLACED_LATE, href: '/active-order/12?key=k' }]);
  dismissTold('o1');
  // The session had ended: the store sends the shopper to sign in, and nothing was placed.
  orderAnswered(client, { ...write, id: 'o3' }, { ...placed, text: '{"location":"/login"}' });
  assert.deepEqual(toldNow(), [{ id: 'o3', label: 'Submit Order', done: false, message: SIGNED_OUT, href: '/login' }]);
  dismissTold('o3');
  // An order paid online: its answer sends the shopper to PayMongo's page, told as waiting.
  orderAnswered(client, { ...write, id: 'o4' }, { ...placed, text: '{"location":"https://checkout.paymongo.com/cs_1"}' });
  assert.deepEqual(toldNow(), [{ id: 'o4', label: 'Submit Order', done: true, message: PAY_LATE, href: 'https://checkout.paymongo.com/cs_1' }]);
  dismissTold('o4');
  // A refusal is the writes' machinery's to tell (in the store's words): nothing here.
  orderAnswered(client, { ...write, id: 'o2' }, { status: 409, token: null, body: null, text: '{"message":"Your cart changed"}' });
  assert.deepEqual(toldNow(), []);
});
