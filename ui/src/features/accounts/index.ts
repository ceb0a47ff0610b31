// The accounts' public face: what other features and App.tsx may use (ESLint refuses any other file
// of this folder from outside it; its queries are queries.ts). The account drawer's menu, how a
// saved address reads, and home's notice after deleting an account (a chunk of its own: lazy.ts).
// The frame of a member's pages, which the orders' and Go-to Cases' pages and the back office
// share, is components/AccountPage.tsx.
export { AccountMenu } from './AccountMenu';
export { AccountDeleted } from './lazy';
export { addressLine } from './address';
