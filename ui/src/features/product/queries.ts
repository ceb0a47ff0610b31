import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

/** One product; barangay 0 until the shopper has chosen a location. */
export const productQuery = defineQuery(calls.product, { barangayId: '{barangay|0}' });
