// The names the waiting writes are kept by (waiting.ts and the store it loads, waiting-store.ts).

/** The mutations' key of a write that outlives its page. */
export const WRITE_KEY = ['write'];
/** Set in localStorage while writes are kept in IndexedDB, so that a page loads the store only when it must. */
export const WAITING_FLAG = 'tala:waiting';
