// Search's public face: what App.tsx may use (ESLint refuses any other file of this folder from
// outside it; its queries are queries.ts). The header's search box; its suggestions load with it.
export { SearchBox } from './SearchBox';
