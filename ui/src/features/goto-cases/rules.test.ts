import assert from 'node:assert/strict';
import { test } from 'node:test';
import { added, canSubmit, compatible, created, createFailed, failure } from './rules';

test('the Go-to Case form can be sent only with a case chosen or a name', () => {
  assert.equal(canSubmit(null, ''), false, 'nothing chosen, no name');
  assert.equal(canSubmit(null, '   '), false, 'a name of spaces is none');
  assert.equal(canSubmit(null, 'Friday'), true, 'a name alone makes a new case');
  assert.equal(canSubmit('new', ''), false, 'Create A New Case with an empty name');
  assert.equal(canSubmit('new', 'Friday'), true);
  assert.equal(canSubmit(7, ''), true, 'an existing case needs no name');
});

test('only Go-to Cases of the cart case type are offered', () => {
  const o = (id: number, packaging_id: number) => ({ id, case_name: `C${id}`, case_type: 'x', packaging_id, item_count: 1 });
  assert.deepEqual(
    compatible([o(1, 1), o(2, 2), o(3, 1)], 1).map((c) => c.id),
    [1, 3],
  );
});

test("the Go-to Case messages say what happened in the store's words", () => {
  assert.equal(created('Friday', 'Bottles'), 'You successfully created Go-to Case "Friday" from your case "Bottles"');
  assert.equal(added('Friday', 'Bottles'), 'You successfully added from your case "Bottles" to your existing Go-to Case "Friday"');
  assert.equal(createFailed('Friday'), 'Something went wrong creating your Go-to Case "Friday". Please try again.');
  assert.equal(failure(422, 'You already have one.', 'new', 'Friday', []), 'You already have one.');
  assert.equal(failure(500, 'boom', 'new', ' Friday ', []), createFailed('Friday'));
  assert.equal(failure(404, 'Go-to Case 9 not found.', 9, '', []), 'Something went wrong adding to your Go-to Case "". Please try again.');
  assert.equal(failure(0, 'offline', 3, '', [{ id: 3, case_name: 'Usual', case_type: 'Bottles', packaging_id: 1, item_count: 2 }]), 'Something went wrong adding to your Go-to Case "Usual". Please try again.');
});
