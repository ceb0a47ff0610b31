import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueryClient } from '@tanstack/react-query';
import { dismissTold, giveUp, toldNow, sendWrite, startWaiting, WRITE_KEY, type Answer, type Write } from './waiting';
import { retryDelay } from './waiting-run';
import { tooOld } from './waiting-names';
import { send } from './send';
import { requestKey } from './request-key';
import type { Call } from './contract.gen';

/** The store as this test answers it: each request's answer in turn (a function that throws is a lost link). */
const seen: { url: string; body: unknown; type?: string }[] = [];
let answers: Array<() => Response> = [];
globalThis.fetch = (async (url: string, init: RequestInit) => {
  seen.push({ url, body: init.body, type: (init.headers as Record<string, string> | undefined)?.['Content-Type'] });
  const next = answers.shift();
  if (!next) throw new TypeError('Failed to fetch');
  return next();
}) as typeof fetch;
const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const lost = () => {
  throw new TypeError('Failed to fetch');
};

const answered: { write: Write; answer: Answer }[] = [];
const client = new QueryClient();
startWaiting(client, { cart: (_c, write, answer) => answered.push({ write, answer }) }, '', () => 0);

const write = (id: string, label = 'Add to cart: Tala Light'): Write => ({ id, url: '/api/v1/cart', method: 'POST', body: { request_key: id }, label, kind: 'cart', madeAt: Date.now() });

/** A write as a page before left it: brought back paused, sent by the next `resumePausedMutations`. */
const leftWaiting = (variables: Write) =>
  client.getMutationCache().build(client, { mutationKey: WRITE_KEY }, {
    context: undefined,
    data: undefined,
    error: null,
    failureCount: 0,
    failureReason: null,
    isPaused: true,
    status: 'pending',
    variables,
    submittedAt: Date.now(),
  });

test('the waits between tries grow to 8 seconds and stay there', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 9].map(retryDelay), [1000, 2000, 4000, 8000, 8000, 8000]);
});

test('a write with no answer is sent again, with the same body, until the store answers', async () => {
  seen.length = 0;
  answers = [lost, json(503, { error: 'busy' }), json(200, { ok: 1 })];
  const answer = await sendWrite(write('a1'));
  assert.equal(answer?.status, 200);
  assert.deepEqual(answer?.body, { ok: 1 });
  assert.equal(seen.length, 3);
  assert.ok(seen.every((s) => s.body === '{"request_key":"a1"}'));
  // The page's own write: answered to the page, not to the feature's handler.
  assert.deepEqual(answered, []);
});

test("a form's write (Submit Order) is sent as the form's fields, the same each time", async () => {
  seen.length = 0;
  answers = [lost, json(200, { location: '/active-order/7?key=k' })];
  const fields = 'csrf=t&contact_name=Ana+Santos&notes=Gate+%232';
  const answer = await sendWrite({ ...write('f1', 'Submit Order'), url: '/checkout', body: fields, form: true, kind: 'order' });
  assert.equal(answer?.status, 200);
  assert.deepEqual(answer?.body, { location: '/active-order/7?key=k' });
  assert.equal(seen.length, 2);
  for (const s of seen) assert.deepEqual(s, { url: '/checkout', body: fields, type: 'application/x-www-form-urlencoded' });
});

test('a refusal ends it at once', async () => {
  seen.length = 0;
  answers = [json(422, { message: 'Sold out.' })];
  const answer = await sendWrite(write('r1'));
  assert.equal(answer?.status, 422);
  assert.equal(seen.length, 1);
});

test('writes go one after another in the order they were made; one given up lets the next go', async () => {
  seen.length = 0;
  answers = [];
  const first = sendWrite(write('o1'));
  const second = sendWrite(write('o2'));
  await until(() => seen.length >= 3);
  // Only the first was tried: the second waits behind it.
  assert.ok(seen.every((s) => s.body === '{"request_key":"o1"}'), JSON.stringify(seen));
  answers = [json(200, { n: 2 })];
  giveUp('o1');
  assert.equal(await first, null);
  assert.deepEqual((await second)?.body, { n: 2 });
  assert.equal(seen.at(-1)?.body, '{"request_key":"o2"}');
});

test('a write a page before left waiting is sent by this page, its answer handed to its feature', async () => {
  seen.length = 0;
  answered.length = 0;
  answers = [json(200, { item_count: 2 })];
  // As waiting-store.ts brings it back: a paused mutation with its variables.
  const kept = client.getMutationCache().build(client, { mutationKey: WRITE_KEY }, {
    context: undefined,
    data: undefined,
    error: null,
    failureCount: 1,
    failureReason: null,
    isPaused: true,
    status: 'pending',
    variables: write('k1'),
    submittedAt: Date.now(),
  });
  await client.resumePausedMutations();
  assert.equal(kept.state.status, 'success');
  assert.equal(answered.length, 1);
  assert.equal(answered[0].write.id, 'k1');
  assert.deepEqual(answered[0].answer.body, { item_count: 2 });
});

test('a write a page before left that the store refuses when it arrives is shown in the store\'s words', async () => {
  answered.length = 0;
  answers = [json(422, { message: 'Tala Light 330 ml is sold out.' })];
  leftWaiting(write('late', 'Add to cart: Tala Light 330 ml'));
  await client.resumePausedMutations();
  assert.deepEqual(answered, [], 'not the cart');
  assert.deepEqual(toldNow(), [{ id: 'late', label: 'Add to cart: Tala Light 330 ml', done: false, message: 'Tala Light 330 ml is sold out.' }]);
  dismissTold('late');
  assert.deepEqual(toldNow(), []);
});

test('a write a page before left that is done: its feature takes the answer, or it is told done; a removal found gone is done', async () => {
  const late = (id: string, kind: string, extra: Partial<Write> = {}) => leftWaiting({ ...write(id, `Change ${id}`), kind, ...extra });
  answered.length = 0;
  answers = [json(200, { message: 'Saved.' }), json(404, { message: 'Go-to Case 7 not found.' }), json(404, { message: 'Go-to Case 8 not found.' })];
  late('g1', 'goto-cases');
  late('g2', 'goto-cases', { goneIsDone: true });
  late('g3', 'goto-cases');
  await client.resumePausedMutations();
  assert.deepEqual(answered, [], 'not the cart');
  assert.deepEqual(toldNow(), [
    { id: 'g1', label: 'Change g1', done: true, message: '' },
    { id: 'g2', label: 'Change g2', done: true, message: '' },
    { id: 'g3', label: 'Change g3', done: false, message: 'Go-to Case 8 not found.' },
  ]);
  for (const id of ['g1', 'g2', 'g3']) dismissTold(id);
});

test('send with retry sends the same body, keyed by its request key, until answered', async () => {
  seen.length = 0;
  answers = [lost, json(200, { ok: 1 })];
  const call = { method: 'POST', key: '/api/v1/cart', read: false } as Call<{ ok: number }>;
  const key = requestKey();
  assert.match(key, /^[0-9a-f]{32}$/);
  assert.notEqual(key, requestKey());
  const sent = await send(call, { body: { product_id: 1, request_key: key }, retry: { label: 'Add', kind: 'cart' } });
  assert.deepEqual(sent, { ok: true, status: 200, data: { ok: 1 } });
  assert.equal(seen.length, 2);
  assert.equal(seen[0].body, seen[1].body);
});

/** Lets timers and promises run until `ok` holds; fails after 1,000 turns of the event loop. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 0));
  assert.ok(ok(), 'the condition never held');
}

test('a write that waited too long is not sent: a day, a Submit Order half an hour; a clock far back too', () => {
  const now = Date.now();
  const at = (ago: number, kind = 'cart') => ({ ...write('x'), kind, madeAt: now - ago });
  assert.equal(tooOld(at(23 * 3600_000), now), false);
  assert.equal(tooOld(at(25 * 3600_000), now), true);
  assert.equal(tooOld(at(29 * 60_000, 'order'), now), false);
  assert.equal(tooOld(at(31 * 60_000, 'order'), now), true);
  assert.equal(tooOld(at(-25 * 3600_000), now), true);
});
