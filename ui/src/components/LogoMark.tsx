import LOGO from './logo.json';

/**
 * The store's mark drawn in the page (the shop's header and the back office's frame): as a picture
 * (/img/favicon.svg) it cost a request and a document of its own on the page's thread before the
 * first paint.
 */
export function LogoMark() {
  return (
    <svg aria-hidden="true" width="24" height="24" viewBox={LOGO.viewBox}>
      <rect width="32" height="32" rx={LOGO.corner} fill={LOGO.ground} />
      <path d={LOGO.star} fill={LOGO.starColour} />
    </svg>
  );
}
