// The accounts' public face: what other features and App.tsx may use (ESLint refuses any other file
// of this folder from outside it; its queries are queries.ts). The account drawer's menu, the
// frame of a member's pages, how a saved address reads, and home's notice after deleting an account.
export { AccountMenu } from './AccountMenu';
export { AccountPage } from './AccountPage';
export { AccountDeleted } from './AccountDeleted';
export { addressLine } from './address';
