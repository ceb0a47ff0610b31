import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryClient } from '@tanstack/react-query';
import { dismissTold, toldNow, type Write } from '../api/waiting';
import { formAnswered, readFormAnswer, SIGNED_OUT, toSignIn } from './form';

test("a form's answer: where to go, or its messages (plain text from a refusal before the form was read)", () => {
  assert.deepEqual(readFormAnswer('{"location":"/my-account/go-to-cases?done=saved&case=3#case-3"}'), { location: '/my-account/go-to-cases?done=saved&case=3#case-3' });
  assert.deepEqual(readFormAnswer('{"message":"Enter a name.","errors":{"name":["Enter a name."]}}'), { message: 'Enter a name.', errors: { name: ['Enter a name.'] } });
  assert.deepEqual(readFormAnswer("This request must come from the store's own pages."), { message: "This request must come from the store's own pages.", errors: {} });
  assert.deepEqual(readFormAnswer(''), { message: 'Something went wrong on our side. Please try again.', errors: {} });
});

test("a page form's change that arrived after its page had gone is told done, with where it leads", () => {
  const client = new QueryClient();
  const write: Write = { id: 'f1', url: '/my-account/go-to-cases', method: 'POST', body: 'a=1', form: true, label: 'Rename the Go-to Case Friday', kind: 'form', madeAt: 0 };
  formAnswered(client, write, { status: 200, token: null, body: null, text: '{"location":"/my-account/go-to-cases?done=saved&case=3#case-3"}' });
  // A removal found gone (a repeat of one whose answer was lost): done, back to the page.
  formAnswered(client, { ...write, id: 'f2', goneIsDone: true }, { status: 404, token: null, body: null, text: '{"message":"Go-to Case 3 not found."}' });
  // The session had ended: sent to sign in, nothing made.
  formAnswered(client, { ...write, id: 'f3' }, { status: 200, token: null, body: null, text: '{"location":"/login"}' });
  assert.deepEqual(toldNow(), [
    { id: 'f1', label: 'Rename the Go-to Case Friday', done: true, message: '', href: '/my-account/go-to-cases?done=saved&case=3#case-3' },
    { id: 'f2', label: 'Rename the Go-to Case Friday', done: true, message: '', href: '/my-account/go-to-cases' },
    { id: 'f3', label: 'Rename the Go-to Case Friday', done: false, message: SIGNED_OUT, href: '/login' },
  ]);
  for (const id of ['f1', 'f2', 'f3']) dismissTold(id);
  assert.equal(toSignIn('/login?next=%2Fcheckout'), true);
  assert.equal(toSignIn('/staff/login'), true);
  assert.equal(toSignIn('/login-help'), false);
  assert.equal(toSignIn('/active-order/3?key=login'), false);
});
