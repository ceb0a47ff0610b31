// The accounts' parts in chunks of their own (page.tsx, `lazyPart`).
import { lazyPart, searchParam } from '../../page';

/**
 * Home's notice after deleting an account (AccountDeleted.tsx): only home's address with
 * `accountSuccessDelete=yes` shows it, so it is kept out of the first load; there the server's
 * HTML holds it, and the browser loads it before it hydrates.
 */
export const AccountDeleted = lazyPart(
  () => import('./AccountDeleted').then((m) => m.AccountDeleted),
  (input) => searchParam(input.url, 'accountSuccessDelete') === 'yes',
);
