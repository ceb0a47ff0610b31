// The public face of features/content: what other features and the app may use of it (ESLint refuses
// any other file of this folder from outside it). Nothing yet: its pages reach the route table
// through pages.ts, and other features read its queries from queries.ts.
export {};
