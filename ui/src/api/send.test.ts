import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NETWORK_FAILED, send } from './send';
import type { Call } from './contract.gen';

const call = { method: 'POST', key: '/api/v1/user/addresses/{addressId}', read: false } as Call<{ ok: number }>;

/** Answers the given responses in turn and records the requests. */
function fakeFetch(answers: Array<() => Response>) {
  const seen: { url: string; init: RequestInit }[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  }) as typeof fetch;
  return seen;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

test('a 401 that brings a new token is sent once more', async () => {
  const seen = fakeFetch([json(401, { error: 'Unauthenticated.' }, { 'access-token': 'new' }), json(200, { ok: 1 })]);
  const r = await send(call, { path: { addressId: '7' }, body: { address: 'x' } });
  assert.deepEqual(r, { ok: true, status: 200, data: { ok: 1 } });
  assert.equal(seen.length, 2);
  assert.equal(seen[0].url, '/api/v1/user/addresses/7');
  assert.equal(seen[0].init.body, '{"address":"x"}');
});

test('another 401 means the member is gone: onSignedOut runs', async () => {
  fakeFetch([json(401, { error: 'Unauthenticated.' }, { 'access-token': 'new' }), json(401, { error: 'Unauthenticated.' })]);
  let signedOut = 0;
  const r = await send(call, { onSignedOut: () => signedOut++ });
  assert.equal(r.ok, false);
  assert.equal(signedOut, 1);
});

test('a 422 comes back by field; a failed network says so', async () => {
  fakeFetch([json(422, { message: 'Choose the barangay.', errors: { barangay_id: ['Choose the barangay.'] } })]);
  const r = await send(call);
  assert.deepEqual(r, { ok: false, status: 422, message: 'Choose the barangay.', errors: { barangay_id: ['Choose the barangay.'] } });
  fakeFetch([]);
  const down = await send(call);
  assert.deepEqual(down, { ok: false, status: 0, message: NETWORK_FAILED, errors: {} });
});
