// The "slow link" figures of `make bench`: Debian's Chromium, its own network throttling through
// DevTools (800 ms round trips, 250 kbit/s each way) and a 4x slower CPU, visits a page of the
// store as a new shopper (empty profile), again (its service worker and HTTP cache warm), and again
// with a case in the cart (the worker keeps a shopper's own pages):
// first contentful paint, interactive (the page hydrated: its `hydrated` performance mark), and the bytes
// that crossed the link, counted by a TCP relay between Chromium and the store (so the worker's
// own fetches count too). Each page is visited by SLOW_LINK_ROUNDS new shoppers (5 unless said),
// and each figure is their median. Prints one JSON line per page: the medians and every round.
// Usage: node slow-link.mjs STORE-ADDRESS PATH...
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';

const ui = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'ui');
const { chromium } = createRequire(path.join(ui, 'package.json'))('playwright-core');
const { chromiumOptions, MAKATI_SHOPPER, addCookies } = await import(path.join(ui, 'e2e', 'browser.mjs'));

const [, , storeAddress, ...paths] = process.argv;
const SLOW = { offline: false, latency: 800, downloadThroughput: 250_000 / 8, uploadThroughput: 250_000 / 8 };

/** A relay on a loopback port to the store, counting the bytes it carries. */
async function relay() {
  const [host, port] = storeAddress.split(':');
  const counted = { bytes: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), host);
    client.on('data', (d) => (counted.bytes += d.length));
    upstream.on('data', (d) => (counted.bytes += d.length));
    client.pipe(upstream).pipe(client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${server.address().port}`, counted, close: () => server.close() };
}

/** One visit of `url` in `context`, throttled: its figures in milliseconds and bytes. */
async function visit(context, url, counted) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const before = counted.bytes;
  await page.goto(url, { timeout: 120_000, waitUntil: 'commit' });
  const interactive = await hydratedAt(cdp);
  // What the page fetches after it runs (the worker's install, a query) counts too.
  await page.waitForLoadState('networkidle', { timeout: 120_000 }).catch(() => {});
  const figures = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    worker: navigator.serviceWorker?.controller != null,
  }));
  await page.close();
  return { ...figures, interactive, bytes: counted.bytes - before };
}

/**
 * When the page hydrated, in its own clock (from the navigation's start): the `hydrated` mark the
 * app sets as it sets `html[data-hydrated]`, asked through DevTools every 50 ms. Not Playwright's
 * `waitForFunction`: it first evaluates Playwright's own script in the page, about 60 ms of the
 * page's thread at a quarter of the CPU, in the middle of the load, which no shopper's browser runs.
 */
async function hydratedAt(cdp) {
  const expression = "performance.getEntriesByName('hydrated')[0]?.startTime ?? null";
  let timer;
  const late = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error('the page did not hydrate within 2 minutes')), 120_000);
  });
  try {
    for (;;) {
      // Between the commit and the new document's first script the page has no context to ask; a
      // closed or crashed page is an error at once, a renderer that does not answer one at the limit.
      const at = await Promise.race([cdp.send('Runtime.evaluate', { expression, returnByValue: true }), late])
        .then((r) => r.result.value)
        .catch((e) => {
          if (/closed|crashed|did not hydrate/i.test(String(e))) throw e;
          return null;
        });
      if (typeof at === 'number') return at;
      await Promise.race([new Promise((r) => setTimeout(r, 50)), late]);
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Throttles the context's service workers as its pages are: DevTools sets a page's network
 * conditions on the page alone, and the worker's own fetches (its network-first pages) would
 * otherwise cross an unthrottled link. Through the browser's DevTools session, attached to each.
 */
async function throttleWorkers(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  let id = 0;
  for (const t of targetInfos.filter((t) => t.type === 'service_worker')) {
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false });
    for (const [method, params] of [
      ['Network.enable', {}],
      ['Network.emulateNetworkConditions', SLOW],
    ])
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++id, method, params }) });
  }
  return targetInfos.filter((t) => t.type === 'service_worker').length;
}

/**
 * The median of each figure over `visits` (the link's emulation varies by a few hundred ms a run),
 * of the visits that have it (a visit without a first paint has `fcp` null): null when none has.
 * A yes-or-no figure (`worker`) is yes when every visit says yes.
 */
function median(visits) {
  const out = {};
  for (const key of Object.keys(visits[0])) {
    const given = visits.map((v) => v[key]).filter((v) => v !== null && v !== undefined);
    if (given.every((v) => typeof v === 'boolean')) out[key] = given.length === visits.length && given.every(Boolean);
    else {
      const numbers = given.filter((v) => typeof v === 'number').sort((a, b) => a - b);
      out[key] = numbers.length ? numbers[Math.floor(numbers.length / 2)] : null;
    }
  }
  return out;
}

/** One new shopper's first visit of `p` and, once its worker took over, its repeat visit. */
async function shopper(browser, p) {
  // A new shopper per round: an empty cache, no worker; the repeat visit in the same context once
  // the worker took over.
  const context = await browser.newContext();
  try {
    await addCookies(context, MAKATI_SHOPPER, link.base);
    const first = await visit(context, link.base + p, link.counted);
    const page = await context.newPage();
    await page.goto(link.base + p);
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 60_000 });
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.close();
    const workers = await throttleWorkers(browser);
    const repeat = await visit(context, link.base + p, link.counted);
    const cart = await withCart(context, p);
    return { first, repeat: { ...repeat, throttledWorkers: workers }, cart };
  } finally {
    await context.close();
  }
}

/**
 * The same shopper with a case in the cart (added through the API with the context's cookies: a
 * page's own add would name the relay's address as its origin, which the store refuses), once
 * the worker kept their page with it (opened unthrottled), visits it again.
 */
async function withCart(context, p) {
  const api = context.request;
  const token = await api.post(link.base + '/api/v1/guest-token', { data: {} });
  const add = { product_id: 1, quantity: 24, barangay: 1380300002, fulfillment: 1 };
  const added = await api.post(link.base + '/api/v1/cart', { data: add });
  if (!token.ok() || !added.ok()) throw new Error(`the add answered ${added.status()}: ${await added.text()}`);
  const at = Date.now();
  const page = await context.newPage();
  await page.goto(link.base + p);
  await page.waitForSelector('html[data-hydrated]', { timeout: 60_000 });
  // The worker keeps the page as the shopper's once its fetch behind the copy shown ends.
  await page.waitForFunction(
    async ([url, after]) => Number((await (await caches.open('tala-pages')).match(url))?.headers.get('x-kept-at') ?? 0) > after,
    [link.base + p, at],
    { timeout: 60_000, polling: 200 },
  );
  await page.close();
  return visit(context, link.base + p, link.counted);
}

/**
 * `options` with the features of the desktop browser's own UI turned off: each new window loads
 * the address bar's popup (a web page of its own, in a renderer of its own) and its preloaded
 * companions, about 600 ms of a core in the middle of the visit on a 2-core machine, which no
 * phone's browser does. Chromium reads only the last `--disable-features`, so Playwright's own list
 * (read off the command line it builds) is merged into ours, and its switch left out.
 */
async function withoutBrowserUi(options) {
  const server = await chromium.launchServer(options);
  const theirs = server.process().spawnargs.find((a) => a.startsWith('--disable-features='));
  await server.close();
  const features = [theirs?.slice('--disable-features='.length), 'PreloadTopChromeWebUI', 'WebUIOmniboxPopup'];
  return {
    ...options,
    ignoreDefaultArgs: theirs ? [theirs] : [],
    args: [...options.args, `--disable-features=${features.filter(Boolean).join(',')}`],
  };
}

const ROUNDS = Number(process.env.SLOW_LINK_ROUNDS ?? 5);
const link = await relay();
const browser = await chromium.launch(await withoutBrowserUi(chromiumOptions));
try {
  for (const p of paths) {
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await shopper(browser, p));
    const first = median(rounds.map((r) => r.first));
    const repeat = median(rounds.map((r) => r.repeat));
    const cart = median(rounds.map((r) => r.cart));
    console.log(JSON.stringify({ path: p, rounds: ROUNDS, first, repeat, cart, each: rounds }));
  }
} finally {
  await browser.close();
  link.close();
}
process.exit(0);
