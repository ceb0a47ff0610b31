import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AT_ONCE_MS, changesSession, fetchedAhead, keepable, overLimit, placeOf, CLOCK_SLACK_MS, readSessionEnds, sessionEndsAt, sessionMove, sessionOver, shownAtOnce, writeSessionEnds, staleNotice, wayOf, withStaleBar } from './rules';

const ORIGIN = 'https://tala.example';
const way = (path: string, method = 'GET', mode = 'navigate', origin = ORIGIN) => wayOf(new URL(path, origin), ORIGIN, method, mode);

test('shop pages are kept, account, checkout, order and staff pages never', () => {
  for (const p of ['/', '/buy-beer', '/buy-beer?packaging=2', '/single-product/tala-light-330ml', '/promos', '/faqs']) {
    assert.equal(way(p), 'page', p);
  }
  for (const p of ['/cart', '/checkout', '/active-order/12?key=x', '/my-account', '/my-account/orders', '/login', '/logout', '/registration', '/staff', '/staff/orders/3', '/setup-address', '/offline']) {
    assert.equal(way(p), 'private-page', p);
  }
  // A page's name that merely begins like a private one is a shop page.
  assert.equal(way('/cartography'), 'page');
});

test("a search's results and suggestions are asked each time, never kept (one per query)", () => {
  assert.equal(way('/search?q=habagat+lata'), 'private-page');
  assert.equal(way('/api/v1/search?q=habagat&limit=8', 'GET', 'cors'), 'network');
  assert.equal(way('/searching-for-beer'), 'page');
  assert.equal(way('/api/v1/searches', 'GET', 'cors'), 'read');
});

test('files by their kind; writes, other sites and the worker itself untouched', () => {
  assert.equal(way('/assets/client-ABC.js', 'GET', 'no-cors'), 'kept-forever');
  assert.equal(way('/media/0a1b-480.webp', 'GET', 'no-cors'), 'kept-forever');
  assert.equal(way('/img/favicon.svg', 'GET', 'no-cors'), 'kept-refreshed');
  assert.equal(way('/api/v1/products?barangay=1', 'GET', 'cors'), 'read');
  assert.equal(way('/api/v1/staff/orders', 'GET', 'cors'), 'network');
  assert.equal(way('/api/v1/cart', 'POST', 'cors'), 'network');
  assert.equal(way('/buy-beer', 'POST'), 'network');
  assert.equal(way('/assets/client-ABC.js', 'HEAD', 'no-cors'), 'network');
  assert.equal(way('/sw.js', 'GET', 'same-origin'), 'network');
  assert.equal(way('https://elsewhere.example/buy-beer'), 'network');
  // A script or a fetch of a page's address (not a navigation) is not a page.
  assert.equal(way('/buy-beer', 'GET', 'cors'), 'network');
});

test('signing in or out, registering, resetting and deleting the account change the session', () => {
  const yes: [string, string][] = [
    ['POST', '/login'], ['POST', '/logout'], ['POST', '/api/v1/login'], ['POST', '/api/v1/logout'],
    ['POST', '/registration'], ['POST', '/api/v1/registration'], ['POST', '/api/v1/pre-register'],
    ['POST', '/api/v1/reset/password'], ['POST', '/reset-password'], ['DELETE', '/api/v1/user'],
    ['POST', '/my-account/delete-account'], ['POST', '/staff/login'], ['POST', '/api/v1/staff/logout'],
  ];
  for (const [m, p] of yes) assert.ok(changesSession(new URL(p, ORIGIN), m), `${m} ${p}`);
  const no: [string, string][] = [
    ['GET', '/login'], ['GET', '/logout'], ['POST', '/api/v1/cart'], ['DELETE', '/api/v1/cart'],
    ['PUT', '/api/v1/user'], ['POST', '/api/v1/user/change-password'], ['POST', '/cart'], ['POST', '/blogin'],
  ];
  for (const [m, p] of no) assert.ok(!changesSession(new URL(p, ORIGIN), m), `${m} ${p}`);
});

test('what no header forbids is kept; a private or partial answer never', () => {
  assert.ok(keepable(200, 'private, no-cache', 'Cookie'));
  assert.ok(keepable(200, null, null));
  assert.ok(keepable(200, 'public, max-age=60', null));
  assert.ok(!keepable(200, 'private, no-store', 'Cookie, Authorization'));
  assert.ok(!keepable(200, 'NO-STORE', null));
  assert.ok(!keepable(200, null, 'Cookie, Authorization'));
  assert.ok(!keepable(206, null, null));
  assert.ok(!keepable(404, null, null));
  assert.ok(!keepable(503, null, null));
});

test('the oldest entries go until the rest fit', () => {
  const entries = [{ key: 'a', bytes: 400 }, { key: 'b', bytes: 300 }, { key: 'c', bytes: 300 }];
  assert.deepEqual(overLimit(entries, 1000), []);
  assert.deepEqual(overLimit(entries, 999), ['a']);
  assert.deepEqual(overLimit(entries, 300), ['a', 'b']);
  assert.deepEqual(overLimit(entries, 0), ['a', 'b', 'c']);
  assert.deepEqual(overLimit([], 0), []);
});

test('a kept page says it is a copy and how old, outside the hydrated root', () => {
  const now = Date.UTC(2026, 10, 26, 12, 0);
  assert.match(staleNotice(now - 10_000, now, true), /^You are offline\. This page is as you saw it a moment ago/);
  assert.match(staleNotice(now - 5 * 60_000, now, false), /^Your connection is slow\. .* 5 min ago/);
  assert.match(staleNotice(now - 3 * 3600_000, now, true), /3 h ago/);
  assert.match(staleNotice(now - 2 * 86400_000, now, true), /2 days ago/);
  const html = '<!doctype html><html><head></head><body><div id="root">x</div></body></html>';
  const out = withStaleBar(html, 'You are offline. <b>', '/buy-beer?a=1&b="2"');
  assert.ok(out.includes('<body><div class="offline-bar" data-stale-copy>You are offline. &lt;b&gt; <a href="/buy-beer?a=1&amp;b=&quot;2&quot;">Try again</a></div><div id="root">x</div>'));
  assert.ok(withStaleBar('no body', 'n', '/').startsWith('<div class="offline-bar"'));
});

test('a shopper saving data gets no file ahead of the page that needs it', () => {
  const files = ['/assets/client-A.js', '/assets/BuyBeer-B.js'];
  assert.deepEqual(fetchedAhead(false, files, new Set()), files);
  assert.deepEqual(fetchedAhead(true, files, new Set()), []);
});

test('a new build fetches ahead only the files it does not keep from the last one (React\'s file stays)', () => {
  const files = ['/assets/client-B.js', '/assets/vendor-R.js', '/assets/Product-B.js'];
  const kept = new Set(['/assets/client-A.js', '/assets/vendor-R.js', '/assets/Product-A.js']);
  assert.deepEqual(fetchedAhead(false, files, kept), ['/assets/client-B.js', '/assets/Product-B.js']);
});

test('the place a page was made for is the gate cookies by name, unknown without the Cookie Store API', () => {
  const names = ['locationGateBarangayId', 'ageVerification'];
  const a = placeOf([{ name: 'ageVerification', value: '1' }, { name: 'locationGateBarangayId', value: '7' }, { name: 'other', value: 'x' }], names, false);
  assert.equal(a, 'ageVerification=1; locationGateBarangayId=7');
  // Cookies that are not the gate's do not make another place; a missing one does.
  assert.equal(placeOf([{ name: 'locationGateBarangayId', value: '7' }, { name: 'ageVerification', value: '1' }], names, false), a);
  assert.notEqual(placeOf([{ name: 'locationGateBarangayId', value: '7' }], names, false), a);
  assert.equal(placeOf(null, names, false), null);
  // A page made while the browser saved data (smaller photos) is another page.
  const saving = placeOf([{ name: 'ageVerification', value: '1' }, { name: 'locationGateBarangayId', value: '7' }], names, true);
  assert.notEqual(saving, a);
  assert.equal(saving, `${a}; Save-Data=on`);
  assert.equal(placeOf(null, names, true), null);
});

test('a kept page is shown at once only for the same place, after the last write, within a day', () => {
  const now = 10 * AT_ONCE_MS;
  const kept = { askedAt: now - 60_000, place: 'b=7' };
  assert.equal(shownAtOnce(kept, 'b=7', 0, now), true);
  assert.equal(shownAtOnce(kept, 'b=8', 0, now), false, 'another place');
  assert.equal(shownAtOnce(kept, null, 0, now), false, 'the place unknown');
  assert.equal(shownAtOnce({ ...kept, place: null }, null, 0, now), false, 'kept without a place');
  assert.equal(shownAtOnce(kept, 'b=7', now - 30_000, now), false, 'a cart change since');
  assert.equal(shownAtOnce(kept, 'b=7', now - 60_000, now), false, 'a write at the same moment');
  assert.equal(shownAtOnce({ ...kept, askedAt: now - AT_ONCE_MS }, 'b=7', 0, now), false, 'a day old');
  assert.equal(shownAtOnce({ ...kept, askedAt: now - AT_ONCE_MS + 1 }, 'b=7', 0, now), true);
  assert.equal(shownAtOnce({ ...kept, askedAt: now + 1 }, 'b=7', 0, now), false, 'from a clock set back');
});

test('the pages kept for one session are thrown away when a page comes for another', () => {
  assert.equal(sessionMove(null, null), 'unknown');
  assert.equal(sessionMove('abc', null), 'unknown');
  assert.equal(sessionMove(null, ''), 'began');
  assert.equal(sessionMove(null, 'abc'), 'began');
  // A guest's first add: the pages kept before hold nobody's parts.
  assert.equal(sessionMove('', 'abc'), 'began');
  assert.equal(sessionMove('abc', 'abc'), 'same');
  assert.equal(sessionMove('', ''), 'same');
  // Another person's session, or the session ended (a member's became a guest's, or none).
  assert.equal(sessionMove('abc', 'def'), 'changed');
  assert.equal(sessionMove('abc', ''), 'changed');
});

test("a member's kept pages are shown only until their session ends", () => {
  const at = 1_000_000;
  assert.equal(sessionEndsAt('3600', at), at + 3_600_000);
  assert.equal(sessionEndsAt(' 0 ', at), at);
  // A guest's page says nothing: their pages stay until another session's page comes.
  assert.equal(sessionEndsAt(null, at), null);
  // A header the worker cannot read is not taken as a time (the pages then follow the tag alone).
  for (const bad of ['', '-5', '1e9', '12.5', 'soon', '99999999999']) assert.equal(sessionEndsAt(bad, at), null, bad);
  const noted = { endsAt: at + 1, notedAt: at - 10_000 };
  assert.equal(sessionOver(null, at), false);
  assert.equal(sessionOver(noted, at), false);
  assert.equal(sessionOver(noted, at + 1), true);
  assert.equal(sessionOver(noted, at + 5_000_000), true);
  // The clock set back to before the note (to bring the member's pages back): ended too; a small
  // correction is not.
  assert.equal(sessionOver(noted, noted.notedAt - CLOCK_SLACK_MS + 1), false);
  assert.equal(sessionOver(noted, noted.notedAt - CLOCK_SLACK_MS - 1), true);
  // Kept as text and read back; a note that cannot be read is none (the worker counts it ended).
  assert.deepEqual(readSessionEnds(writeSessionEnds(noted)), noted);
  assert.equal(readSessionEnds('soon'), null);
});
