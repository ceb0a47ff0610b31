import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProductView, SearchAnswer } from '../../api/contract.gen';
import { listPrice } from '../catalog';
import { SUGGESTIONS } from './queries';
import {
  countText,
  createCombo,
  DEBOUNCE_MS,
  INITIAL,
  press,
  queryOf,
  reduce,
  suggestionsOf,
  type ComboState,
  type Suggestion,
  type Timers,
} from './suggest';

const product = (slug: string, price = 5800, label = 'Bottle'): ProductView =>
  ({
    slug,
    product_name: `Name of ${slug}`,
    price: 1,
    pack_options: label ? [{ pack: 'unit', label, price }] : [],
  }) as unknown as ProductView;

const answer = (q: string, here: string[], elsewhere: string[] = []): SearchAnswer => ({
  q,
  products: here.map((s) => product(s)),
  elsewhere: elsewhere.map((s) => product(s)),
});

const item = (slug: string): Suggestion => ({ slug, name: slug, detail: '', here: true, href: `/single-product/${slug}` });

/** A clock the test moves by hand. */
function fakeClock(): Timers & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let next = 1;
  const waiting = new Map<number, { at: number; run: () => void }>();
  return {
    set(run, ms) {
      waiting.set(next, { at: now + ms, run });
      return next++;
    },
    clear(id) {
      waiting.delete(id as number);
    },
    advance(ms) {
      now += ms;
      for (const [id, t] of [...waiting].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > now) continue;
        waiting.delete(id);
        t.run();
      }
    },
    pending: () => waiting.size,
  };
}

/** A search call whose answers the test gives, in any order; it ignores the abort signal (a late answer still comes). */
function fakeSearch() {
  const calls: { q: string; signal: AbortSignal; answer(a: SearchAnswer): void; fail(): void }[] = [];
  const ask = (q: string, signal: AbortSignal) =>
    new Promise<SearchAnswer>((resolve, reject) => {
      calls.push({ q, signal, answer: resolve, fail: () => reject(new Error('Request failed')) });
    });
  return { calls, ask };
}

const settle = () => new Promise((r) => setImmediate(r));

test('the query is the text trimmed, its spaces as one, at most the 100 characters the store reads', () => {
  assert.equal(queryOf('  habagat   lat \t'), 'habagat lat');
  assert.equal(queryOf('   '), '');
  assert.equal(queryOf('x'.repeat(150)).length, 100);
});

test('suggestions: the orderable ones first, then the others marked, at most SUGGESTIONS, each once', () => {
  const many = answer('tala', ['a', 'b', 'c', 'd', 'e', 'f'], ['g', 'a', 'h', 'i']);
  const s = suggestionsOf(many);
  assert.equal(SUGGESTIONS, 8);
  assert.deepEqual(
    s.map((x) => x.slug),
    ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
  );
  assert.equal(s[0].href, '/single-product/a');
  assert.equal(s[0].name, 'Name of a');
  assert.ok(s.slice(0, 6).every((x) => x.here));
  assert.deepEqual(
    s.slice(6).map((x) => [x.here, x.detail]),
    [
      [false, 'Not available where you are'],
      [false, 'Not available where you are'],
    ],
  );
  assert.equal(suggestionsOf(answer('x', ['a b/c']))[0].href, '/single-product/a%20b%2Fc');
});

test("an orderable suggestion's price is the one its card lists (the catalog's listPrice)", () => {
  for (const p of [product('a', 5800, 'Bottle'), product('b', 198000, 'Box of 24'), product('c', 780000, '')]) {
    const listed = listPrice(p);
    const [s] = suggestionsOf({ q: 'x', products: [p], elsewhere: [] });
    assert.equal(s.detail, listed.per ? `${listed.amount} / ${listed.per}` : listed.amount);
  }
  assert.equal(suggestionsOf({ q: 'x', products: [product('b', 198000, 'Box of 24')], elsewhere: [] })[0].detail, 'P1,980.00 / box of 24');
});

test('the live region counts them', () => {
  assert.equal(countText(0), 'No suggestions');
  assert.equal(countText(1), '1 suggestion');
  assert.equal(countText(5), '5 suggestions');
});

test('an answer for another text than the one in the box never shows', () => {
  let s = reduce(INITIAL, { type: 'focused' });
  s = reduce(s, { type: 'typed', query: 'habagat' });
  s = reduce(s, { type: 'typed', query: 'tala' });
  assert.equal(reduce(s, { type: 'answered', query: 'habagat', items: [item('old')] }), s);
  assert.equal(reduce(s, { type: 'failed', query: 'habagat' }), s);
  s = reduce(s, { type: 'answered', query: 'tala', items: [item('new')] });
  assert.deepEqual(s.items.map((i) => i.slug), ['new']);
  assert.equal(s.open, true);
  assert.equal(s.status, '1 suggestion');
  // A newer text keeps the list shown (no flashing), unhighlighted, until its answer comes.
  s = { ...s, active: 0 };
  const t = reduce(s, { type: 'typed', query: 'tala p' });
  assert.deepEqual([t.items, t.open, t.active], [s.items, true, -1]);
  // Too short: nothing shown, nothing said.
  const short = reduce(s, { type: 'typed', query: 't' });
  assert.deepEqual([short.items, short.open, short.status], [[], false, '']);
});

test('an answer opens the list only while the box has the focus; blur closes it; an error closes it quietly', () => {
  let s = reduce(INITIAL, { type: 'typed', query: 'tala' });
  s = reduce(s, { type: 'answered', query: 'tala', items: [item('a')] });
  assert.deepEqual([s.open, s.status], [false, '']);
  s = reduce(reduce(s, { type: 'focused' }), { type: 'answered', query: 'tala', items: [item('a'), item('b')] });
  assert.deepEqual([s.open, s.status], [true, '2 suggestions']);
  assert.deepEqual([reduce(s, { type: 'blurred' }).open, reduce(s, { type: 'blurred' }).focused], [false, false]);
  const none = reduce(s, { type: 'answered', query: 'tala', items: [] });
  assert.deepEqual([none.open, none.status], [false, 'No suggestions']);
  const closed = reduce({ ...s, active: 1 }, { type: 'closed' });
  assert.deepEqual([closed.open, closed.active, closed.focused, closed.items.length], [false, -1, true, 2]);
  assert.equal(reduce(closed, { type: 'closed' }), closed);
  const failed = reduce(s, { type: 'failed', query: 'tala' });
  assert.deepEqual([failed.open, failed.items, failed.status], [false, [], '']);
});

/** Three suggestions shown for "tala", the box focused, none highlighted. */
const shown = (): ComboState => ({ ...INITIAL, focused: true, query: 'tala', shownFor: 'tala', items: [item('a'), item('b'), item('c')], open: true });

test('ArrowDown and ArrowUp move the highlight, wrapping around at both ends', () => {
  const downs: number[] = [];
  let s = shown();
  for (let i = 0; i < 4; i++) {
    const o = press(s, 'ArrowDown', 'tala');
    assert.equal(o.prevent, true);
    s = o.state;
    downs.push(s.active);
  }
  assert.deepEqual(downs, [0, 1, 2, 0]);
  const ups: number[] = [];
  s = shown();
  for (let i = 0; i < 4; i++) {
    s = press(s, 'ArrowUp', 'tala').state;
    ups.push(s.active);
  }
  assert.deepEqual(ups, [2, 1, 0, 2]);
});

test('the arrows open a closed list on its first or last option; without suggestions they do nothing', () => {
  const closed = { ...shown(), open: false };
  assert.deepEqual([press(closed, 'ArrowDown', 'tala').state.open, press(closed, 'ArrowDown', 'tala').state.active], [true, 0]);
  assert.equal(press(closed, 'ArrowUp', 'tala').state.active, 2);
  const empty = { ...INITIAL, focused: true, query: 'tala' };
  assert.deepEqual(press(empty, 'ArrowDown', 'tala'), { state: empty, prevent: false, go: null, clear: false });
});

test('Enter on a highlighted option goes to it; without a highlight it sends the form', () => {
  const s = press(press(shown(), 'ArrowDown', 'tala').state, 'ArrowDown', 'tala').state;
  const o = press(s, 'Enter', 'tala');
  assert.equal(o.go?.slug, 'b');
  assert.equal(o.prevent, true);
  assert.equal(o.state.open, false);
  const plain = press(shown(), 'Enter', 'tala');
  assert.deepEqual([plain.go, plain.prevent], [null, false]);
  assert.deepEqual([press({ ...s, open: false }, 'Enter', 'tala').go, press({ ...s, open: false }, 'Enter', 'tala').prevent], [null, false]);
});

test('Escape closes the list, a second Escape clears the text, a third does nothing', () => {
  const first = press(press(shown(), 'ArrowDown', 'tala').state, 'Escape', 'tala');
  assert.deepEqual([first.prevent, first.clear, first.state.open, first.state.active], [true, false, false, -1]);
  const second = press(first.state, 'Escape', 'tala');
  assert.deepEqual([second.prevent, second.clear, second.state.query, second.state.items], [true, true, '', []]);
  const third = press(second.state, 'Escape', '');
  assert.deepEqual([third.prevent, third.clear], [false, false]);
});

test('Home, End, Left and Right stay in the text and take the highlight off; Tab and other keys are left alone', () => {
  const s = press(shown(), 'ArrowDown', 'tala').state;
  for (const key of ['Home', 'End', 'ArrowLeft', 'ArrowRight']) {
    const o = press(s, key, 'tala');
    assert.deepEqual([o.prevent, o.state.active, o.state.open], [false, -1, true], key);
  }
  for (const key of ['Tab', 'a', 'Backspace']) assert.deepEqual(press(s, key, 'tala'), { state: s, prevent: false, go: null, clear: false }, key);
});

test('the box asks once, DEBOUNCE_MS after the last keystroke, from 2 characters', async () => {
  const clock = fakeClock();
  const search = fakeSearch();
  const combo = createCombo(search.ask, clock);
  combo.focused();
  combo.typed('h');
  clock.advance(1000);
  assert.equal(search.calls.length, 0, 'one character asks nothing');
  for (const text of ['ha', 'hab', 'haba', 'habag']) {
    combo.typed(text);
    clock.advance(DEBOUNCE_MS - 1);
  }
  assert.equal(search.calls.length, 0, 'nothing while typing');
  clock.advance(1);
  assert.deepEqual(
    search.calls.map((c) => c.q),
    ['habag'],
  );
  search.calls[0].answer(answer('habag', ['habagat-can']));
  await settle();
  assert.deepEqual(combo.state().items.map((i) => i.slug), ['habagat-can']);
  assert.equal(combo.state().open, true);
  // Spaces that change no query ask nothing again.
  combo.typed('  habag ');
  clock.advance(DEBOUNCE_MS);
  assert.equal(search.calls.length, 1);
});

test('a slow answer for an older text never replaces a newer one (aborted, and dropped if it comes anyway)', async () => {
  const clock = fakeClock();
  const search = fakeSearch();
  const combo = createCombo(search.ask, clock);
  const seen: string[][] = [];
  combo.subscribe(() => seen.push(combo.state().items.map((i) => i.slug)));
  combo.focused();
  combo.typed('habagat');
  clock.advance(DEBOUNCE_MS);
  combo.typed('tala pilsen');
  clock.advance(DEBOUNCE_MS);
  const [older, newer] = search.calls;
  assert.deepEqual([older.q, newer.q], ['habagat', 'tala pilsen']);
  assert.equal(older.signal.aborted, true, 'the older call is aborted');
  assert.equal(newer.signal.aborted, false);
  newer.answer(answer('tala pilsen', ['tala-pilsen']));
  await settle();
  older.answer(answer('habagat', ['habagat-can']));
  await settle();
  assert.deepEqual(combo.state().items.map((i) => i.slug), ['tala-pilsen']);
  assert.ok(!seen.some((items) => items.includes('habagat-can')), 'the older answer never showed');
  // Nor does an older failure close the newer list.
  combo.typed('tala pilsen g');
  clock.advance(DEBOUNCE_MS);
  combo.typed('tala pilsen gr');
  clock.advance(DEBOUNCE_MS);
  search.calls[2].fail();
  await settle();
  assert.equal(combo.state().open, true);
  search.calls[3].answer(answer('tala pilsen gr', ['grande']));
  await settle();
  assert.deepEqual(combo.state().items.map((i) => i.slug), ['grande']);
});

test('a text typed back is answered from what was kept, without asking', async () => {
  const clock = fakeClock();
  const search = fakeSearch();
  const combo = createCombo(search.ask, clock);
  combo.focused();
  combo.typed('tala');
  clock.advance(DEBOUNCE_MS);
  search.calls[0].answer(answer('tala', ['a']));
  await settle();
  combo.typed('talax');
  clock.advance(DEBOUNCE_MS);
  search.calls[1].answer(answer('talax', []));
  await settle();
  assert.equal(combo.state().open, false);
  combo.typed('tala');
  assert.deepEqual(combo.state().items.map((i) => i.slug), ['a']);
  assert.equal(combo.state().open, true);
  clock.advance(DEBOUNCE_MS);
  assert.equal(search.calls.length, 2);
});

test('an error is quiet: the list closes, nothing is said, the next keystroke asks again', async () => {
  const clock = fakeClock();
  const search = fakeSearch();
  const combo = createCombo(search.ask, clock);
  combo.focused();
  combo.typed('tala');
  clock.advance(DEBOUNCE_MS);
  search.calls[0].fail();
  await settle();
  assert.deepEqual([combo.state().open, combo.state().items, combo.state().status], [false, [], '']);
  combo.typed('tala p');
  clock.advance(DEBOUNCE_MS);
  assert.equal(search.calls.length, 2);
});

test('a second Escape clears the text and stops what was waiting; dispose stops it too', async () => {
  const clock = fakeClock();
  const search = fakeSearch();
  const combo = createCombo(search.ask, clock);
  combo.focused();
  combo.typed('tala');
  assert.equal(clock.pending(), 1);
  assert.deepEqual(combo.key('Escape', 'tala').clear, true);
  assert.equal(clock.pending(), 0);
  assert.equal(combo.state().query, '');
  combo.typed('habagat');
  clock.advance(DEBOUNCE_MS);
  combo.dispose();
  assert.equal(search.calls[0].signal.aborted, true);
  search.calls[0].answer(answer('habagat', ['late']));
  await settle();
  assert.deepEqual(combo.state().items, []);
});
