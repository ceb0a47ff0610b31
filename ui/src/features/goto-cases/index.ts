// The Go-to Cases' public face: what other features may use (ESLint refuses any other file of this
// folder from outside it; its queries are queries.ts). The cart page's Save New Go-to Case.
export { SaveGoToCase } from './GoToCaseForm';
