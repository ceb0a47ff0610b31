// The store's logo as an SVG file, for the favicon (gen-images.mjs) and the app icons
// (gen-icons.mjs). The header draws the same `src/components/logo.json` in the page (Layout.tsx).
import { readFileSync } from 'node:fs';

const LOGO = JSON.parse(readFileSync(new URL('../src/components/logo.json', import.meta.url), 'utf8'));

/**
 * The logo's SVG: `size` px wide and high (none: as large as the page makes it); `maskable`: a full
 * square, the star scaled into the safe zone that every launcher's mask shows.
 */
export function logoSvg({ size, maskable = false } = {}) {
  const box = size ? ` width="${size}" height="${size}"` : '';
  const inside = maskable ? ' transform="translate(3.2 3.2) scale(0.8)"' : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${LOGO.viewBox}"${box}>` +
    `<rect width="32" height="32" rx="${maskable ? 0 : LOGO.corner}" fill="${LOGO.ground}"/>` +
    `<path d="${LOGO.star}" fill="${LOGO.starColour}"${inside}/></svg>`
  );
}
