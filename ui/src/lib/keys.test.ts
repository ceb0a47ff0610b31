import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillTemplate } from './keys';
import cases from './keys.cases.json';

test('fillTemplate agrees with the Rust twin on the shared table', () => {
  for (const c of cases) assert.equal(fillTemplate(c.template, c.vars as Record<string, string>), c.key);
});
