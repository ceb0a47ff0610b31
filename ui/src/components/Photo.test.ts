import { test } from 'node:test';
import assert from 'node:assert/strict';
import { narrowed, SAVE_DATA_WIDTH } from './Photo';

const SET = '/media/a-160.webp 160w, /media/a-320.webp 320w, /media/a-480.webp 480w, /media/a-800.webp 800w, /media/a-1200.webp 1200w';

test('a browser saving data is offered the photos up to 480 px wide', () => {
  assert.equal(SAVE_DATA_WIDTH, 480);
  assert.equal(narrowed(SET, SAVE_DATA_WIDTH), '/media/a-160.webp 160w, /media/a-320.webp 320w, /media/a-480.webp 480w');
  // A photo narrower than the limit keeps all it has.
  assert.equal(narrowed('/media/b-160.webp 160w, /media/b-400.webp 400w', 480), '/media/b-160.webp 160w, /media/b-400.webp 400w');
  // Only wide ones: the narrowest stays, never none.
  assert.equal(narrowed('/media/c-800.webp 800w, /media/c-1200.webp 1200w', 480), '/media/c-800.webp 800w');
  assert.equal(narrowed('', 480), '');
});
