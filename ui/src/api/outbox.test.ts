import assert from 'node:assert/strict';
import { test } from 'node:test';
import { current, deliver, subscribe } from './outbox';

const answer = (status: number) => ({ status });
const lost = () => Promise.reject(new TypeError('Failed to fetch'));

test('a write with no answer is sent again until the store answers; the state says Sending', async () => {
  const seen: string[] = [];
  const off = subscribe(() => seen.push(current()?.state ?? 'none'));
  const tries = [lost, () => Promise.resolve(answer(503)), () => Promise.resolve(answer(200))];
  let n = 0;
  const res = await deliver(() => tries[n++](), { waits: [0, 0, 0] });
  off();
  assert.deepEqual(res, { status: 200 });
  assert.equal(n, 3);
  assert.deepEqual(seen, ['sending', 'sending', 'none']);
  assert.equal(current(), null);
});

test('an answer that is not 502-504 ends it at once, a refusal included', async () => {
  for (const status of [201, 401, 409, 422, 500]) {
    let n = 0;
    const res = await deliver(() => (n++, Promise.resolve(answer(status))), { waits: [0] });
    assert.deepEqual(res, { status });
    assert.equal(n, 1);
  }
});

test('after the waits it says Not sent; Retry sends the same again, Give up answers null', async () => {
  let n = 0;
  const first = deliver(() => (n++ < 6 ? lost() : Promise.resolve(answer(200))), { waits: [0, 0] });
  await until(() => current()?.state === 'failed');
  assert.equal(n, 3);
  // Each change is a new snapshot, the same one until the next change (useSyncExternalStore).
  const failed = current();
  assert.equal(current(), failed);
  current()!.retry();
  await until(() => current()?.state === 'sending');
  assert.notEqual(current(), failed);
  // The fourth try fails again: not sent once more, after the same waits.
  await until(() => current()?.state === 'failed' && n >= 6);
  const gone = deliver(lost, { waits: [] });
  current()!.retry();
  assert.deepEqual(await first, { status: 200 });
  await until(() => current()?.state === 'failed');
  current()!.giveUp();
  assert.equal(await gone, null);
  assert.equal(current(), null);
});

test('a stalled try is cut off and sent again', async () => {
  let n = 0;
  const res = await deliver(
    (signal) =>
      n++ === 0
        ? new Promise<{ status: number }>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))))
        : Promise.resolve(answer(200)),
    { waits: [0], timeoutMs: 10 },
  );
  assert.deepEqual(res, { status: 200 });
  assert.equal(n, 2);
});

/** Lets timers and promises run until `ok` holds; fails after 1,000 turns of the event loop. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 0));
  assert.ok(ok(), 'never happened');
}

test('writes go in the order they were made: a later one waits for an earlier one to be answered', async () => {
  const order: string[] = [];
  let lostOnce = true;
  const first = deliver(
    () => {
      order.push('first');
      if (lostOnce) {
        lostOnce = false;
        return lost();
      }
      return Promise.resolve(answer(200));
    },
    { waits: [0] },
  );
  const second = deliver(() => (order.push('second'), Promise.resolve(answer(200))), { waits: [0] });
  await Promise.all([first, second]);
  assert.deepEqual(order, ['first', 'first', 'second']);
});

test('a first try that takes long is shown; Give up cuts it at once', async () => {
  let cut = false;
  const stalled = deliver(
    (signal) =>
      new Promise<{ status: number }>((_, reject) =>
        signal.addEventListener('abort', () => {
          cut = true;
          reject(new Error('aborted'));
        }),
      ),
    { waits: [0], showAfterMs: 0 },
  );
  await until(() => current()?.state === 'sending');
  current()!.giveUp();
  assert.equal(await stalled, null);
  assert.ok(cut, 'the try under way was aborted');
  assert.equal(current(), null);
});
