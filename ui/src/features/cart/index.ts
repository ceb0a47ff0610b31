// The cart's public face: what other features, components/Layout.tsx and parts.tsx may use of the
// cart (ESLint refuses any other file of this folder from outside it; its queries are queries.ts).
// The cart as the page knows it and the calls that change it (state.ts), its pure rules and words
// (rules.ts), the drawer's body and the Error modal (a chunk of its own: lazy.ts).
export { cartAnswered, sendCart, useAddToCart, useCartView, useSetCart, useShowLastSeen } from './state';
export { cartLinkLabel, count, isKeg, needsReset, productIds, RESET_QUESTION } from './rules';
export { CART_DRAWER_MESSAGE, CART_DRAWER_TITLE, CartDrawerBody } from './CartDrawer';
export { CartErrorDialog } from './lazy';
