import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { calls } from './api/contract.gen';
import { featurePages } from './pages.gen';
import { GATE_KEYS, loadPage, maintenanceRoute, notFoundRoute, pageOf, routes } from './routes';

/** The UI's src/ folder (this test runs as dist-test/routes.test.mjs, beside it). */
const src = new URL('../src/', import.meta.url);

/**
 * The call a key template belongs to: same path shape (a `{...}` segment matches anything); of
 * several calls on one path (GET, PUT and DELETE /api/v1/user), the read.
 */
function callOf(template: string) {
  const parts = (t: string) => t.split('?')[0].split('/');
  const want = parts(template);
  const matches = Object.entries(calls).filter(([, c]) => {
    const have = parts(c.key);
    return have.length === want.length && have.every((seg, i) => seg.startsWith('{') || seg === want[i] || want[i].startsWith('{'));
  });
  return matches.find(([, c]) => c.read) ?? matches[0];
}

test("every route's data is a read of the API's contract", () => {
  const templates = [...routes, notFoundRoute].flatMap((r) => r.data).concat(Object.values(GATE_KEYS));
  assert.ok(templates.length >= 15);
  for (const t of templates) {
    const found = callOf(t);
    assert.ok(found, `${t} is no call of the contract`);
    assert.equal(found[1].read, true, `${t} is not a read`);
    // Query parameters keep the call's names.
    const names = (s: string) => (s.split('?')[1] ?? '').split('&').filter(Boolean).map((p) => p.split('=')[0]);
    for (const n of names(t)) assert.ok(names(found[1].key).includes(n), `${t}: ${n} is no parameter of ${found[0]}`);
  }
});

test("the pages' index lists every feature's pages.ts, and the table holds their pages by order", () => {
  const features = readdirSync(new URL('features/', src), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(new URL(`features/${d.name}/pages.ts`, src)))
    .map((d) => d.name);
  assert.ok(features.length >= 8);
  const index = readFileSync(new URL('pages.gen.ts', src), 'utf8');
  const listed = [...index.matchAll(/from '\.\/features\/([^/]+)\/pages'/g)].map((m) => m[1]);
  assert.deepEqual(listed.sort(), features.sort(), 'pages.gen.ts is stale: run node build.mjs');
  const orders = featurePages.map((p) => p.order);
  assert.equal(new Set(orders).size, orders.length, 'two pages share an order');
  const byOrder = [...featurePages].sort((a, b) => a.order - b.order).map((p) => p.route);
  assert.deepEqual(routes, [...byOrder, maintenanceRoute]);
});

test('route names and paths are unique', () => {
  assert.equal(new Set(routes.map((r) => r.name)).size, routes.length);
  assert.equal(new Set(routes.map((r) => r.path)).size, routes.length);
});

test("every route's actions run a write of the API's contract, each named once", () => {
  const withActions = routes.filter((r) => r.actions.length > 0);
  assert.ok(withActions.length >= 8);
  for (const r of withActions) {
    assert.ok(r.forms || r.redirect, `${r.name}: a page with forms carries the session's CSRF token`);
    const names = r.actions.map((a) => a.call);
    assert.equal(new Set(names).size, names.length, `${r.name}: an action is declared twice`);
    for (const a of r.actions) {
      const call = (calls as Record<string, { read: boolean }>)[a.call];
      assert.ok(call, `${r.name}: ${a.call} is no call`);
      assert.equal(call.read, false, `${r.name}: ${a.call} is a read`);
      assert.ok(a.done.startsWith('/') && !a.done.startsWith('//'), `${r.name}: ${a.done}`);
    }
  }
});

test('a route reads only the query parameters it declares, each once', () => {
  for (const r of [...routes, notFoundRoute]) {
    assert.equal(new Set(r.params).size, r.params.length, r.name);
    for (const c of r.canonical) assert.ok(r.params.includes(c), `${r.name}: canonical ${c} is not read`);
  }
});

test("every route loads its page, which renders from then on", async () => {
  for (const r of [...routes, notFoundRoute]) {
    assert.throws(() => pageOf(r), /before it was loaded/, r.name);
    const page = await loadPage(r);
    assert.equal(typeof page, 'function', r.name);
    assert.equal(pageOf(r).type, page, r.name);
    assert.equal(await loadPage(r), page, `${r.name}: loaded once`);
  }
});

test("every form's next address names only what the server can fill: the page's own path, or the call's", () => {
  // The server fills a `{name}` of an action's `done` from the form's field of that name, else from
  // the page's own path (web::form::filled). A form sends its call's path parameters (the call
  // needs them), so those and the page's own are the names that are always there; any other would
  // reach the browser as `{name}` (an order's Mark buttons once landed on /staff/orders/%7BorderId%7D).
  const names = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  let checked = 0;
  for (const r of [...routes, notFoundRoute, maintenanceRoute]) {
    for (const a of r.actions) {
      const call = calls[a.call as keyof typeof calls];
      assert.ok(call, `${r.name}: ${a.call} is no call of the contract`);
      const known = new Set([...names(r.path), ...names(call.key)]);
      for (const to of [a.done, ...Object.values(a.doneBy?.to ?? {}), ...(a.answerTo ?? []).map((t) => t.to)]) {
        for (const n of names(to)) assert.ok(known.has(n), `${r.name}: after ${a.call}, ${to} names {${n}}, which neither ${r.path} nor the call's ${call.key} has`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 40, `${checked} addresses checked`);
});
