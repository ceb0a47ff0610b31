// What the checkout reads besides the cart and the member's details: the streets of the barangay
// the cart is priced for, to name the gate's street in the delivery address; and whether the store
// takes payments online.
import { defineQuery } from '../../../api/query';
import { calls } from '../../../api/contract.gen';

export const placeStreetsQuery = defineQuery(calls.streets, { barangayId: '{barangay}' });
export const paymentMethodsQuery = defineQuery(calls.paymentMethods, {});
