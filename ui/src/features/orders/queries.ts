// Orders: one order by its id (with a guest's key from its link), and a member's list. What the
// checkout reads besides is its own (place/queries.ts).
import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

export const orderQuery = defineQuery(calls.order, { orderId: '{id}', key: '{key}' });
export const myOrdersQuery = defineQuery(calls.myOrders, { page: '{page}' });
