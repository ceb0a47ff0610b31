// Parts of a page the server renders on their own and splices into a shared page:
// each must render exactly what it renders in place (no useId, no context), so hydration matches.
import type { ReactElement } from 'react';
import type { CartAnswer } from './api/contract.gen';
import { CartDrawerBody } from './features/cart';

export interface PartInput {
  part: string;
  cart: CartAnswer | null;
}

export const parts: Record<string, (input: PartInput) => ReactElement> = {
  // The drawer's body exactly as the Layout renders it in place (no message: a page view).
  'cart-drawer': ({ cart }) => <CartDrawerBody cart={cart} message={null} />,
};
