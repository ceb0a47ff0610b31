import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

// The list calls' price range is read from the address's `min` and `max` (whole pesos); a page
// holds the call's default number of products.
const LIST_BIND = { min_pesos: '{min}', max_pesos: '{max}', per_page: '' };

/** The product list of the shopper's barangay and category (/buy-beer, home's best sellers). */
export const productsQuery = defineQuery(calls.products, LIST_BIND);
export const whatsNewQuery = defineQuery(calls.whatsNew, LIST_BIND);
export const promosQuery = defineQuery(calls.promos);
