import assert from 'node:assert/strict';
import { test } from 'node:test';
import { safeDecode, searchParam } from './page';

test('malformed escapes in the url never throw', () => {
  for (const url of ['/?%', '/?%zz=1', '/about-us?%C0', '/buy-beer?filterByType=%ff', '/?a=%E0%A4%A']) {
    assert.doesNotThrow(() => searchParam(url, 'filterByType'), url);
  }
  assert.equal(searchParam('/buy-beer?filterByType=%ff', 'filterByType'), '%ff');
  assert.equal(searchParam('/buy-beer?filterByType=can&x=%', 'filterByType'), 'can');
  assert.equal(searchParam('/?newsletter=a+b%20c', 'newsletter'), 'a b c');
  assert.equal(safeDecode('%'), '%');
});
