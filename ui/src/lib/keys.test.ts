import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillTemplate, isComplete } from './keys';
import cases from './keys.cases.json';

test('fillTemplate and isComplete agree with the Rust twin on the shared table', () => {
  for (const c of cases) {
    const vars = c.vars as Record<string, string>;
    assert.equal(fillTemplate(c.template, vars), c.key, c.template);
    assert.equal(isComplete(c.template, vars), c.complete, `complete: ${c.template}`);
  }
});
