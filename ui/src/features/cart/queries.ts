// The session's cart, priced for the gate's barangay and fulfillment (issue 15). Only the cart and
// checkout pages load it on the server; other pages get the header's count and the drawer's cart
// from the page's visitor part (`usePage().visitor`).
import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

export const cartQuery = defineQuery(calls.cart, { barangayId: '{barangay}', fulfillment: '{gateFulfillment}', testdate: '{testdate}' });
