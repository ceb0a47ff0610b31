// The member's own data. Only pages for members (guarded on the server) load these.
import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

export const userQuery = defineQuery(calls.user);
export const addressesQuery = defineQuery(calls.addresses);
/** The details an emailed registration link finishes the account with (the link's page). */
export const pendingRegistrationQuery = defineQuery(calls.checkRegistrationToken);
