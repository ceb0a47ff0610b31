// The content feature's public face: nothing yet. Its pages reach the route table through pages.ts and
// other features may read its queries (queries.ts); anything else of this folder another feature
// would use is exported here first (ESLint refuses it otherwise).
export {};
