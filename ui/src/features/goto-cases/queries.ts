// Go-to Cases: the member's cases priced for the gate's barangay (the account page), and
// the Go-to Case form's choices (the cart page). Only members load these; a guest's page skips them.
import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

export const gotoCasesQuery = defineQuery(calls.gotoCases, { barangay: '{barangay}', cart_items: '' });
export const gotoCaseOptionsQuery = defineQuery(calls.gotoCaseOptions);
