// The newsletter's public face: what App.tsx may use (ESLint refuses any other file of this folder
// from outside it). The footer's signup form; the confirmation is a page of its own (pages.ts).
export { Newsletter } from './Newsletter';
