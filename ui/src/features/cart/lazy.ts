// The cart's parts in chunks of their own (page.tsx, `lazyPart`).
import { lazyPart } from '../../page';

/**
 * The cart's Error modal (CartErrorDialog.tsx): shown only after a change the store refused, never
 * in a page's first render, so kept out of the first load (fetched ahead once the page is idle).
 */
export const CartErrorDialog = lazyPart(() => import('./CartErrorDialog').then((m) => m.CartErrorDialog));
