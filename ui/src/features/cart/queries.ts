// The session's cart, priced for the gate's barangay and fulfillment. Only the cart and
// checkout pages load it on the server; other pages get the header's count and the drawer's cart
// from the page's visitor part (`usePage().visitor`). The cart as the page knows it, and the
// calls that change it, are state.ts (public through index.ts): the header, the drawer, the
// gates, the product pages and the cart page share them.
import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

export const cartQuery = defineQuery(calls.cart, { barangayId: '{barangay}', fulfillment: '{gateFulfillment}', testdate: '{testdate}', left: '{left}' });
