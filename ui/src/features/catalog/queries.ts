import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

/** The product list of the shopper's barangay and category (/buy-beer, home's best sellers). */
export const productsQuery = defineQuery(calls.products);
export const whatsNewQuery = defineQuery(calls.whatsNew);
export const promosQuery = defineQuery(calls.promos);
