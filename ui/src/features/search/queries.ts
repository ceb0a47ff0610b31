import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

/** How many beers of each list a page of results shows. */
export const PAGE_SIZE = 24;

/** What the shopper's words find at their place (/search), a page's worth. */
export const searchQuery = defineQuery(calls.search, { limit: String(PAGE_SIZE) });

/** How many suggestions the search box shows as the shopper types (of both lists together). */
export const SUGGESTIONS = 8;

/** The search box's suggestions: the same call, a list's worth of each (`{q}` is the box's text). */
export const suggestQuery = defineQuery(calls.search, { limit: String(SUGGESTIONS) });
