// Draws the store's app icons (the web app manifest's and the home screen's) from the favicon's
// star: PNGs at 192 and 512 px, and a maskable 512 px one whose star keeps to the inner 80 % (the
// part every launcher's mask shows). Rendered by Debian's chromium; the PNGs are committed.
// Run: node scripts/gen-icons.mjs   (from ui/)
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { logoSvg } from './logo.mjs';

const out = (name) => fileURLToPath(new URL(`../public/img/icons/${name}`, import.meta.url));

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
for (const [name, size, maskable] of [['icon-192.png', 192, false], ['icon-512.png', 512, false], ['maskable-512.png', 512, true]]) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${logoSvg({ size, maskable })}</body></html>`);
  await page.locator('svg').screenshot({ path: out(name), omitBackground: true });
  console.log('wrote', name);
}
await browser.close();
