// Regenerates the catalog's images in ui/public/img from crates/db/seed/catalog.json: one per
// product (bottle, can or keg drawn in the brand's colours, with the name on the label), one per
// packaging, the banners (desktop and mobile) and the favicon. The products' are pictures (WebP)
// drawn from their SVG by Debian's chromium, the others SVG.
// Run: node scripts/gen-images.mjs   (from ui/)
/* global Image, document -- inside page.evaluate, run by chromium */
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { logoSvg } from './logo.mjs';

const root = new URL('../', import.meta.url);
const catalog = JSON.parse(readFileSync(new URL('../crates/db/seed/catalog.json', root), 'utf8'));
const out = (p) => fileURLToPath(new URL('public' + p, root));
const write = (p, svg) => {
  mkdirSync(out(p.slice(0, p.lastIndexOf('/'))), { recursive: true });
  writeFileSync(out(p), svg.replace(/\n\s*/g, ''));
};
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

const BRANDS = {
  Tala: { body: '#1f5f3a', label: '#f2b705', ink: '#1d1a16' },
  Habagat: { body: '#7a1c1c', label: '#f3ece0', ink: '#7a1c1c' },
  Amihan: { body: '#2f5d8a', label: '#fdf3d8', ink: '#2f5d8a' },
  Bangkal: { body: '#5e3305', label: '#f7c873', ink: '#5e3305' },
};

function words(name) {
  // Two label lines: brand and style, without the size.
  const bare = name.replace(/\s+\d+(\.\d+)?\s*(ml|L)$/i, '').replace(/ (Can|Keg|Grande)\b/g, '');
  const parts = bare.split(' ');
  return [parts[0], parts.slice(1).join(' ')];
}

/** A product picture: the cream square around `art`, with the label's three lines (heights, font sizes). */
function product(c, art, [l1, l2], size, [y1, y2, y3], [big, small, sizeFont, sizeBold]) {
  const line = (y, fontSize, bold, text) =>
    `<text x="120" y="${y}" font-family="sans-serif" font-size="${fontSize}"${bold ? ' font-weight="700"' : ''} text-anchor="middle" fill="${c.ink}">${esc(text)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 240" width="240" height="240">
    <rect width="240" height="240" fill="#f7efe1"/>
    ${art}
    ${line(y1, big, true, l1)}
    ${line(y2, small, false, l2)}
    ${line(y3, sizeFont, sizeBold, size)}
  </svg>`;
}

/** How each packaging is drawn (by packaging id): its shape, and its label lines' heights and font sizes. */
const SHAPES = {
  // bottle
  1: {
    art: (c) => `<path d="M108 20h24v40c0 12 22 22 22 46v114a8 8 0 0 1-8 8H94a8 8 0 0 1-8-8V106c0-24 22-34 22-46z" fill="${c.body}"/>
    <rect x="104" y="14" width="32" height="12" rx="3" fill="${c.label}"/>
    <rect x="90" y="130" width="60" height="64" rx="4" fill="${c.label}"/>`,
    ys: [152, 168, 184],
    fonts: [13, 8, 8, false],
  },
  // can
  2: {
    art: (c) => `<rect x="76" y="40" width="88" height="170" rx="12" fill="${c.body}"/>
    <rect x="82" y="32" width="76" height="14" rx="6" fill="#b8b8b8"/>
    <rect x="76" y="96" width="88" height="64" fill="${c.label}"/>`,
    ys: [122, 138, 152],
    fonts: [15, 9, 9, false],
  },
  // keg
  3: {
    art: (c) => `<rect x="56" y="44" width="128" height="166" rx="14" fill="#9aa0a6"/>
    <rect x="56" y="70" width="128" height="8" fill="#7d848a"/>
    <rect x="56" y="176" width="128" height="8" fill="#7d848a"/>
    <rect x="108" y="30" width="24" height="16" rx="3" fill="#55595d"/>
    <rect x="72" y="94" width="96" height="70" rx="6" fill="${c.label}" stroke="${c.body}" stroke-width="4"/>`,
    ys: [120, 136, 152],
    fonts: [16, 9, 11, true],
  },
};
const draw = (id, c, label, size) => product(c, SHAPES[id].art(c), label, size, SHAPES[id].ys, SHAPES[id].fonts);

/**
 * The drawings `[path, svg]` as 240 px pictures: drawn on a canvas by chromium, cut to their 16
 * most used colours (the flat colours and the text's smoothest edges), written as lossless WebP
 * by the media crate's libwebp (`crates/media/examples/lossless.rs`; about 700 bytes, against 320
 * of gzipped SVG). Why pictures: a browser makes each SVG picture a document
 * of its own, on the page's thread (20-40 ms each at a quarter of a phone's CPU: 357 ms for
 * /buy-beer's twelve and the logo), where a WebP decodes off it.
 */
async function pictures(drawings) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const dir = mkdtempSync(join(tmpdir(), 'drawings-'));
  try {
    const page = await browser.newPage();
    const pairs = [];
    for (const [path, svg] of drawings) {
      const url = await page.evaluate(async (svg) => {
        const img = new Image();
        img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const g = canvas.getContext('2d');
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, canvas.width, canvas.height);
        const counts = new Map();
        for (let i = 0; i < d.data.length; i += 4) {
          const k = (d.data[i] << 16) | (d.data[i + 1] << 8) | d.data[i + 2];
          counts.set(k, (counts.get(k) ?? 0) + 1);
        }
        const palette = [...counts]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 16)
          .map(([k]) => [k >> 16, (k >> 8) & 255, k & 255]);
        for (let i = 0; i < d.data.length; i += 4) {
          let best = palette[0];
          let far = Infinity;
          for (const c of palette) {
            const f = (c[0] - d.data[i]) ** 2 + (c[1] - d.data[i + 1]) ** 2 + (c[2] - d.data[i + 2]) ** 2;
            if (f < far) [best, far] = [c, f];
          }
          [d.data[i], d.data[i + 1], d.data[i + 2], d.data[i + 3]] = [...best, 255];
        }
        g.putImageData(d, 0, 0);
        return canvas.toDataURL('image/png');
      }, svg);
      const png = join(dir, `${pairs.length / 2}.png`);
      writeFileSync(png, Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
      mkdirSync(out(path.slice(0, path.lastIndexOf('/'))), { recursive: true });
      pairs.push(png, out(path));
    }
    const workspace = fileURLToPath(new URL('../..', import.meta.url));
    execFileSync('cargo', ['run', '-q', '-p', 'media', '--example', 'lossless', '--', ...pairs], { cwd: workspace, stdio: 'inherit' });
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await pictures(
  catalog.products.map((p) => {
    const c = BRANDS[p.brand];
    if (!c) throw new Error(`no colours for brand ${p.brand}`);
    if (!p.product_image.endsWith('.webp')) throw new Error(`${p.product_image}: a product's picture is a .webp`);
    return [p.product_image, draw(p.packaging_id, c, words(p.product_name), p.size).replace(/\n\s*/g, '')];
  }),
);
const tala = BRANDS.Tala;
for (const k of catalog.packagings) {
  write(k.image, draw(k.id, tala, ['Tala', k.name.toLowerCase()], ''));
}

const banner = (w, h, title, art) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d2b4f"/><stop offset="1" stop-color="#5e3305"/></linearGradient></defs>
  <rect width="${w}" height="${h}" fill="url(#g)"/>
  <circle cx="${w * 0.85}" cy="${h * 0.25}" r="${h * 0.08}" fill="#f2b705"/>
  ${art}
  <text x="${w * 0.06}" y="${h * 0.55}" font-family="sans-serif" font-size="${Math.round(h * 0.09)}" font-weight="700" fill="#fffaf0">${esc(title)}</text>
</svg>`;
const titles = catalog.banners.map((b) => b.title.split(':')[0]);
catalog.banners.forEach((b, i) => {
  write(b.desktop_image, banner(1200, 400, titles[i], ''));
  write(b.mobile_image, banner(480, 480, titles[i].length > 18 ? titles[i].slice(0, 18) + '…' : titles[i], ''));
});

write('/img/favicon.svg', logoSvg());
console.log(`wrote ${catalog.products.length} product images, ${catalog.packagings.length} packagings, ${catalog.banners.length} banners`);
