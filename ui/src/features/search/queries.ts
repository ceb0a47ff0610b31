import { defineQuery } from '../../api/query';
import { calls, SEARCH_PER_PAGE } from '../../api/contract.gen';

/** What the shopper's words find at their place (/search), a page's worth (`SEARCH_PER_PAGE`). */
export const searchQuery = defineQuery(calls.search, { limit: String(SEARCH_PER_PAGE) });

/** How many suggestions the search box shows as the shopper types (of both lists together). */
export const SUGGESTIONS = 8;

/** The search box's suggestions: the same call, a list's worth of each (`{q}` is the box's text). */
export const suggestQuery = defineQuery(calls.search, { limit: String(SUGGESTIONS) });
